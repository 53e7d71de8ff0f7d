//! Grisu2 (Loitsch, "Printing Floating-Point Numbers Quickly and Accurately with Integers",
//! PLDI 2010), as Godot 4.4+ prints floats (`String::num_scientific`, its `thirdparty/grisu2`):
//! the digits always read back to the same value, but are not always the shortest such
//! digits (`4096.4000000000005` where the shortest is `4096.400000000001`), so the text form
//! has to run the same algorithm to print what the engine prints. Single-precision values use
//! the `f32` neighbours, as the engine's `float` overload does.

/// `f * 2^e`.
#[derive(Clone, Copy)]
struct DiyFp {
    f: u64,
    e: i32,
}

impl DiyFp {
    /// The upper 64 bits of the 128-bit product, rounded half up.
    fn mul(self, y: DiyFp) -> DiyFp {
        let p = u128::from(self.f) * u128::from(y.f);
        let h = ((p >> 64) as u64).wrapping_add(((p >> 63) & 1) as u64);
        DiyFp {
            f: h,
            e: self.e + y.e + 64,
        }
    }

    fn normalize(self) -> DiyFp {
        let shift = self.f.leading_zeros();
        DiyFp {
            f: self.f << shift,
            e: self.e - shift as i32,
        }
    }
}

/// The digits (into `buf`, ASCII) and decimal exponent of the positive, finite, non-zero
/// `v` (`v = digits × 10^exponent`), read as an `f32` when `single`. Returns the digit count.
pub(crate) fn digits(v: f64, single: bool, buf: &mut [u8; 20]) -> (usize, i32) {
    // value = F × 2^E with the hidden bit; boundaries m-/m+ halfway to the neighbours.
    let (precision, bias, bits) = if single {
        (24, 150, u64::from((v as f32).to_bits()))
    } else {
        (53, 1075, v.to_bits())
    };
    let hidden = 1u64 << (precision - 1);
    let biased = (bits >> (precision - 1)) as i32;
    let frac = bits & (hidden - 1);
    let w = if biased == 0 {
        DiyFp {
            f: frac,
            e: 1 - bias,
        }
    } else {
        DiyFp {
            f: frac + hidden,
            e: biased - bias,
        }
    };
    let plus = DiyFp {
        f: (2 * w.f) | 1,
        e: w.e - 1,
    }
    .normalize();
    let minus = if frac == 0 && biased > 1 {
        DiyFp {
            f: 4 * w.f - 1,
            e: w.e - 2,
        }
    } else {
        DiyFp {
            f: 2 * w.f - 1,
            e: w.e - 1,
        }
    };
    let minus = DiyFp {
        f: minus.f << (minus.e - plus.e),
        e: plus.e,
    };
    let w = w.normalize();

    // Scale by a cached power of ten so that the exponent lands in [-60, -32].
    const ALPHA: i32 = -60;
    let f = ALPHA - plus.e - 1;
    let k = (f * 78913) / (1 << 18) + i32::from(f > 0);
    let index = ((300 + k + 7) / 8) as usize;
    let (cf, ce) = CACHED_POWERS[index];
    let c = DiyFp { f: cf, e: ce };
    let w = w.mul(c);
    let w_minus = minus.mul(c);
    let w_plus = plus.mul(c);
    let m_minus = DiyFp {
        f: w_minus.f.wrapping_add(1),
        e: w_minus.e,
    };
    let m_plus = DiyFp {
        f: w_plus.f.wrapping_sub(1),
        e: w_plus.e,
    };
    let mut exponent = -(index as i32 * 8 - 300);
    let len = digit_gen(buf, &mut exponent, m_minus, w, m_plus);
    (len, exponent)
}

/// Digits of `m_plus` until the rest is within `m_plus - m_minus`, then moved towards `w`.
fn digit_gen(
    buf: &mut [u8; 20],
    exponent: &mut i32,
    m_minus: DiyFp,
    w: DiyFp,
    m_plus: DiyFp,
) -> usize {
    let mut delta = m_plus.f.wrapping_sub(m_minus.f);
    let mut dist = m_plus.f.wrapping_sub(w.f);
    let shift = -m_plus.e as u32;
    let one = 1u64 << shift;
    let mut p1 = (m_plus.f >> shift) as u32;
    let mut p2 = m_plus.f & (one - 1);
    let mut len = 0;
    let mut n = if p1 == 0 { 1 } else { p1.ilog10() + 1 };
    let mut pow10 = 10u32.pow(n - 1);
    while n > 0 {
        buf[len] = b'0' + (p1 / pow10) as u8;
        len += 1;
        p1 %= pow10;
        n -= 1;
        let rest = (u64::from(p1) << shift) + p2;
        if rest <= delta {
            *exponent += n as i32;
            round(buf, len, dist, delta, rest, u64::from(pow10) << shift);
            return len;
        }
        pow10 /= 10;
    }
    let mut m = 0;
    while len < buf.len() {
        p2 = p2.wrapping_mul(10);
        buf[len] = b'0' + (p2 >> shift) as u8;
        len += 1;
        p2 &= one - 1;
        m += 1;
        delta = delta.wrapping_mul(10);
        dist = dist.wrapping_mul(10);
        if p2 <= delta {
            break;
        }
    }
    *exponent -= m;
    round(buf, len, dist, delta, p2, one);
    len
}

/// Lowers the last digit while that brings the number closer to `w` and stays in range.
fn round(buf: &mut [u8; 20], len: usize, dist: u64, delta: u64, mut rest: u64, ten_k: u64) {
    while rest < dist
        && delta.wrapping_sub(rest) >= ten_k
        && (rest.wrapping_add(ten_k) < dist
            || dist.wrapping_sub(rest) > rest.wrapping_add(ten_k).wrapping_sub(dist))
    {
        buf[len - 1] = buf[len - 1].wrapping_sub(1);
        rest = rest.wrapping_add(ten_k);
    }
}

/// `10^k` for k = -300, -292, …, 324 as 64-bit significands rounded to nearest, with their
/// binary exponents.
const CACHED_POWERS: [(u64, i32); 79] = [
    (0xAB70FE17C79AC6CA, -1060), // 10^-300
    (0xFF77B1FCBEBCDC4F, -1034), // 10^-292
    (0xBE5691EF416BD60C, -1007), // 10^-284
    (0x8DD01FAD907FFC3C, -980),  // 10^-276
    (0xD3515C2831559A83, -954),  // 10^-268
    (0x9D71AC8FADA6C9B5, -927),  // 10^-260
    (0xEA9C227723EE8BCB, -901),  // 10^-252
    (0xAECC49914078536D, -874),  // 10^-244
    (0x823C12795DB6CE57, -847),  // 10^-236
    (0xC21094364DFB5637, -821),  // 10^-228
    (0x9096EA6F3848984F, -794),  // 10^-220
    (0xD77485CB25823AC7, -768),  // 10^-212
    (0xA086CFCD97BF97F4, -741),  // 10^-204
    (0xEF340A98172AACE5, -715),  // 10^-196
    (0xB23867FB2A35B28E, -688),  // 10^-188
    (0x84C8D4DFD2C63F3B, -661),  // 10^-180
    (0xC5DD44271AD3CDBA, -635),  // 10^-172
    (0x936B9FCEBB25C996, -608),  // 10^-164
    (0xDBAC6C247D62A584, -582),  // 10^-156
    (0xA3AB66580D5FDAF6, -555),  // 10^-148
    (0xF3E2F893DEC3F126, -529),  // 10^-140
    (0xB5B5ADA8AAFF80B8, -502),  // 10^-132
    (0x87625F056C7C4A8B, -475),  // 10^-124
    (0xC9BCFF6034C13053, -449),  // 10^-116
    (0x964E858C91BA2655, -422),  // 10^-108
    (0xDFF9772470297EBD, -396),  // 10^-100
    (0xA6DFBD9FB8E5B88F, -369),  // 10^-92
    (0xF8A95FCF88747D94, -343),  // 10^-84
    (0xB94470938FA89BCF, -316),  // 10^-76
    (0x8A08F0F8BF0F156B, -289),  // 10^-68
    (0xCDB02555653131B6, -263),  // 10^-60
    (0x993FE2C6D07B7FAC, -236),  // 10^-52
    (0xE45C10C42A2B3B06, -210),  // 10^-44
    (0xAA242499697392D3, -183),  // 10^-36
    (0xFD87B5F28300CA0E, -157),  // 10^-28
    (0xBCE5086492111AEB, -130),  // 10^-20
    (0x8CBCCC096F5088CC, -103),  // 10^-12
    (0xD1B71758E219652C, -77),   // 10^-4
    (0x9C40000000000000, -50),   // 10^4
    (0xE8D4A51000000000, -24),   // 10^12
    (0xAD78EBC5AC620000, 3),     // 10^20
    (0x813F3978F8940984, 30),    // 10^28
    (0xC097CE7BC90715B3, 56),    // 10^36
    (0x8F7E32CE7BEA5C70, 83),    // 10^44
    (0xD5D238A4ABE98068, 109),   // 10^52
    (0x9F4F2726179A2245, 136),   // 10^60
    (0xED63A231D4C4FB27, 162),   // 10^68
    (0xB0DE65388CC8ADA8, 189),   // 10^76
    (0x83C7088E1AAB65DB, 216),   // 10^84
    (0xC45D1DF942711D9A, 242),   // 10^92
    (0x924D692CA61BE758, 269),   // 10^100
    (0xDA01EE641A708DEA, 295),   // 10^108
    (0xA26DA3999AEF774A, 322),   // 10^116
    (0xF209787BB47D6B85, 348),   // 10^124
    (0xB454E4A179DD1877, 375),   // 10^132
    (0x865B86925B9BC5C2, 402),   // 10^140
    (0xC83553C5C8965D3D, 428),   // 10^148
    (0x952AB45CFA97A0B3, 455),   // 10^156
    (0xDE469FBD99A05FE3, 481),   // 10^164
    (0xA59BC234DB398C25, 508),   // 10^172
    (0xF6C69A72A3989F5C, 534),   // 10^180
    (0xB7DCBF5354E9BECE, 561),   // 10^188
    (0x88FCF317F22241E2, 588),   // 10^196
    (0xCC20CE9BD35C78A5, 614),   // 10^204
    (0x98165AF37B2153DF, 641),   // 10^212
    (0xE2A0B5DC971F303A, 667),   // 10^220
    (0xA8D9D1535CE3B396, 694),   // 10^228
    (0xFB9B7CD9A4A7443C, 720),   // 10^236
    (0xBB764C4CA7A44410, 747),   // 10^244
    (0x8BAB8EEFB6409C1A, 774),   // 10^252
    (0xD01FEF10A657842C, 800),   // 10^260
    (0x9B10A4E5E9913129, 827),   // 10^268
    (0xE7109BFBA19C0C9D, 853),   // 10^276
    (0xAC2820D9623BF429, 880),   // 10^284
    (0x80444B5E7AA7CF85, 907),   // 10^292
    (0xBF21E44003ACDD2D, 933),   // 10^300
    (0x8E679C2F5E44FF8F, 960),   // 10^308
    (0xD433179D9C8CB841, 986),   // 10^316
    (0x9E19DB92B4E31BA9, 1013),  // 10^324
];

#[cfg(test)]
mod tests {
    use super::digits;
    use alloc::string::String;

    fn text(v: f64, single: bool) -> String {
        let mut buf = [0u8; 20];
        let (len, exp) = digits(v, single, &mut buf);
        alloc::format!("{}e{exp}", core::str::from_utf8(&buf[..len]).unwrap())
    }

    #[test]
    fn engine_prints_these() {
        // var_to_str of Godot 4.6 (tests/godot4_interop.rs): not the shortest digits.
        assert_eq!(text(40964.0 * 0.1, false), "40964000000000005e-13");
        assert_eq!(text(0.1, false), "1e-1");
        assert_eq!(text(0.30000000000000004, false), "30000000000000004e-17");
        assert_eq!(text(f64::from(0.1f32), true), "1e-1");
        assert_eq!(text(f64::from(0.1f32), false), "10000000149011612e-17");
        assert_eq!(text(5e-324, false), "5e-324");
        assert_eq!(text(f64::MAX, false), "17976931348623157e292");
    }

    #[test]
    fn digits_read_back_and_are_mostly_shortest() {
        // A fixed-seed xorshift over all exponents: every result parses back exactly; almost
        // every one is as short as Rust's shortest form.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut longer = 0;
        // Fewer under Miri, where each iteration is thousands of times slower.
        let n = if cfg!(miri) { 300 } else { 200_000 };
        for _ in 0..n {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = f64::from_bits(x & 0x7FFF_FFFF_FFFF_FFFF);
            if !v.is_finite() || v == 0.0 {
                continue;
            }
            let t = text(v, false);
            assert_eq!(t.parse::<f64>().unwrap().to_bits(), v.to_bits(), "{t}");
            let shortest = alloc::format!("{v:e}").replace('.', "");
            let shortest_digits = shortest.split('e').next().unwrap().len();
            let ours = t.split('e').next().unwrap().len();
            assert!(ours >= shortest_digits, "{v:e} {t}");
            longer += usize::from(ours > shortest_digits);
            let s = f32::from_bits(x as u32 & 0x7FFF_FFFF);
            if s.is_finite() && s != 0.0 {
                let t = text(f64::from(s), true);
                assert_eq!(t.parse::<f32>().unwrap().to_bits(), s.to_bits(), "{t}");
            }
        }
        assert!(longer < 2_000, "{longer}");
    }
}
