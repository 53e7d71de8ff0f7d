//! Exact `f32` ⇄ `f64` conversions, NaNs included.
//!
//! Rust leaves the sign and payload of a NaN produced by an `as` cast (or `f64::from`)
//! unspecified, and Miri randomises them. The engine's C++ conversion on x86 and ARM keeps the
//! sign and payload and quiets a signalling NaN (3.2.3 decodes `7f800001` as
//! `7ff8000020000000`), and byte-exact round trips depend on it, so NaNs are converted by
//! bits here. Other values convert exactly (widening) or round to nearest (narrowing), as
//! `as` specifies.

const F64_QUIET_NAN: u64 = 0x7FF8_0000_0000_0000;
const F32_QUIET_NAN: u32 = 0x7FC0_0000;

/// `f32` → `f64`; a NaN keeps its sign and payload and is quieted.
#[inline]
pub(crate) fn widen(x: f32) -> f64 {
    if x.is_nan() {
        let b = x.to_bits();
        let sign = u64::from(b >> 31) << 63;
        let payload = u64::from(b & 0x007F_FFFF) << 29;
        f64::from_bits(sign | F64_QUIET_NAN | payload)
    } else {
        x as f64
    }
}

/// `f64` → `f32`; a NaN keeps its sign and the top of its payload and is quieted.
#[inline]
pub(crate) fn narrow(x: f64) -> f32 {
    if x.is_nan() {
        let b = x.to_bits();
        let sign = ((b >> 63) as u32) << 31;
        let payload = ((b >> 29) & 0x007F_FFFF) as u32;
        f32::from_bits(sign | F32_QUIET_NAN | payload)
    } else {
        x as f32
    }
}

/// Whether the `f32` with these bits is a NaN: the only `f32` that `narrow(widen(x))` does
/// not give back unchanged (it comes back quieted). Lets a writer copy components that are
/// not NaNs as they stand.
#[inline]
pub(crate) const fn f32_bits_are_nan(bits: u32) -> bool {
    bits & 0x7FFF_FFFF > 0x7F80_0000
}

#[cfg(test)]
mod tests {
    use super::{f32_bits_are_nan, narrow, widen};

    /// Every `f32` whose bits are not a NaN by `f32_bits_are_nan` comes back from
    /// `narrow(widen(x))` unchanged; every NaN comes back quieted (stepping through all 2^32
    /// patterns in strides, edges included).
    #[test]
    fn only_nans_change_through_widen_and_narrow() {
        let step = if cfg!(miri) { 0x00FF_FFF1 } else { 0x0000_0FF1 };
        let edges = [
            0x7F80_0000u32,
            0x7F80_0001,
            0x7FBF_FFFF,
            0x7FC0_0000,
            0xFF80_0000,
        ];
        let strided = (0..=u32::MAX / step).map(|i| i * step);
        for bits in strided.chain(edges).chain(edges.map(|b| b ^ 0x8000_0000)) {
            let x = f32::from_bits(bits);
            assert_eq!(f32_bits_are_nan(bits), x.is_nan(), "{bits:08x}");
            let back = narrow(widen(x)).to_bits();
            let want = if x.is_nan() { bits | 0x0040_0000 } else { bits };
            assert_eq!(back, want, "{bits:08x}");
        }
    }

    #[test]
    fn nans_keep_sign_and_payload_and_are_quieted() {
        // The engine's own result (tests/godot3 README: signalling NaN widened).
        assert_eq!(
            widen(f32::from_bits(0x7f80_0001)).to_bits(),
            0x7ff8_0000_2000_0000
        );
        assert_eq!(
            widen(f32::from_bits(0xffc0_0000)).to_bits(),
            0xfff8_0000_0000_0000
        );
        assert_eq!(
            widen(f32::from_bits(0x7fc1_2345)).to_bits(),
            0x7ff8_2468_a000_0000
        );
        for bits in [0x7fc0_0000u32, 0xffc1_2345, 0x7fff_ffff, 0xffc0_0001] {
            assert_eq!(narrow(widen(f32::from_bits(bits))).to_bits(), bits);
        }
        assert_eq!(
            narrow(f64::from_bits(0x7ff0_0000_0000_0001)).to_bits(),
            0x7fc0_0000
        );
    }

    #[test]
    fn other_values_convert_as_usual() {
        for x in [
            0.0f32,
            -0.0,
            1.5,
            f32::MIN_POSITIVE,
            1e-45,
            f32::MAX,
            f32::INFINITY,
        ] {
            assert_eq!(widen(x).to_bits(), (x as f64).to_bits());
            assert_eq!(narrow(widen(x)).to_bits(), x.to_bits());
        }
        assert_eq!(narrow(0.1f64), 0.1f32);
    }
}
