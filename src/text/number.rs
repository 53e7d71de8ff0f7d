//! Number formatting as the engines do it: C `printf("%lg")` (Godot 3, Pandemonium, Godot 4.0
//! – 4.3) and the shortest round-trip form of Godot 4.4+ `String::num_scientific` (Grisu2).
//!
//! Rust's float formatting with a precision is exact and rounds half to even, like glibc's
//! `printf`, so `%g` is rebuilt from `{:.5e}` / `{:.N}` without any float arithmetic.

use core::fmt::{self, Write};

use crate::num_buf::NumBuf;

/// Splits Rust's `{:e}` output (`-1.2345e-7`) into sign, mantissa digits and exponent.
fn split_exp(s: &str) -> (bool, &str, i32) {
    let (neg, s) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    let (mant, exp) = s.split_once('e').unwrap_or((s, "0"));
    (neg, mant, exp.parse().unwrap_or(0))
}

/// Strips trailing zeros of a fractional part, then a bare `.` (the `%g` rule).
fn strip_fraction(buf: &mut NumBuf) {
    if !buf.contains(b'.') {
        return;
    }
    let digits = buf.as_bytes();
    let mut len = digits.len();
    while len > 0 && digits[len - 1] == b'0' {
        len -= 1;
    }
    if len > 0 && digits[len - 1] == b'.' {
        len -= 1;
    }
    buf.truncate(len);
}

fn write_exponent(out: &mut NumBuf, exp: i32) -> fmt::Result {
    // C prints at least two exponent digits.
    let sign = if exp < 0 { '-' } else { '+' };
    write!(out, "e{sign}{:02}", exp.unsigned_abs())
}

/// `printf("%lg", v)` with glibc's spelling of the specials (`nan`, `-nan`, `inf`, `-inf`).
pub(crate) fn printf_g(v: f64) -> NumBuf {
    const P: i32 = 6;
    let mut out = NumBuf::new();
    if v.is_nan() {
        let _ = out.write_str(if v.is_sign_negative() { "-nan" } else { "nan" });
        return out;
    }
    if v.is_infinite() {
        let _ = out.write_str(if v < 0.0 { "-inf" } else { "inf" });
        return out;
    }
    let mut sci = NumBuf::new();
    let _ = write!(sci, "{:.*e}", (P - 1) as usize, v);
    // The exponent after rounding to P digits decides the style, as in C.
    let (neg, mant, exp) = split_exp(sci.as_str());
    if (-4..P).contains(&exp) {
        let _ = write!(out, "{:.*}", (P - 1 - exp) as usize, v);
        strip_fraction(&mut out);
    } else {
        if neg {
            let _ = out.write_char('-');
        }
        let _ = out.write_str(mant);
        strip_fraction(&mut out);
        let _ = write_exponent(&mut out, exp);
    }
    out
}

/// Godot 4.4+ `String::num_scientific`: the Grisu2 digits (round-trip, almost always the
/// shortest; `grisu2.rs`) of the `f32` (when `single`) or `f64`, laid out like `%g` with decimal notation for decimal exponents -4 … 15
/// (Grisu2 `format_buffer`, Godot's patched `thirdparty/grisu2`, no trailing `.0`).
pub(crate) fn shortest(v: f64, single: bool) -> NumBuf {
    let mut out = NumBuf::new();
    if v.is_nan() {
        let _ = out.write_str("nan");
        return out;
    }
    if v.is_infinite() {
        let _ = out.write_str(if v < 0.0 { "-inf" } else { "inf" });
        return out;
    }
    if v == 0.0 {
        let _ = out.write_str(if v.is_sign_negative() { "-0" } else { "0" });
        return out;
    }
    let neg = v.is_sign_negative();
    let mut buf = [0u8; 20];
    let (len, exponent) = super::grisu2::digits(v.abs(), single, &mut buf);
    let digits = core::str::from_utf8(&buf[..len]).unwrap_or("0");
    let k = len as i32;
    // Decimal point position relative to the first digit.
    let n = k + exponent;
    if neg {
        let _ = out.write_char('-');
    }
    const MAX_EXP: i32 = 15; // numeric_limits<double>::digits10
    const MIN_EXP: i32 = -4;
    if k <= n && n <= MAX_EXP {
        let _ = out.write_str(digits);
        for _ in k..n {
            let _ = out.write_char('0');
        }
    } else if 0 < n && n <= MAX_EXP {
        let (int, frac) = digits.split_at(n as usize);
        let _ = write!(out, "{int}.{frac}");
    } else if MIN_EXP < n && n <= 0 {
        let _ = out.write_str("0.");
        for _ in n..0 {
            let _ = out.write_char('0');
        }
        let _ = out.write_str(digits);
    } else {
        let (first, rest) = digits.split_at(1);
        let _ = out.write_str(first);
        if !rest.is_empty() {
            let _ = write!(out, ".{rest}");
        }
        let _ = write_exponent(&mut out, n - 1);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(v: f64) -> alloc::string::String {
        printf_g(v).as_str().into()
    }

    fn s(v: f64, single: bool) -> alloc::string::String {
        shortest(v, single).as_str().into()
    }

    #[test]
    fn printf_g_matches_c() {
        // Expected strings are what C's printf("%g") prints (glibc; also Python's '%g').
        let cases: &[(f64, &str)] = &[
            (0.1, "0.1"),
            (1.0 / 3.0, "0.333333"),
            (100000.0, "100000"),
            (1000000.0, "1e+06"),
            (999999.5, "1e+06"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (123456.5, "123456"),
            (123457.5, "123458"),
            (1.5e300, "1.5e+300"),
            (-2.5e-300, "-2.5e-300"),
            (-0.0, "-0"),
            (f64::NAN, "nan"),
            (-f64::NAN, "-nan"),
            (f64::NEG_INFINITY, "-inf"),
        ];
        for &(v, want) in cases {
            assert_eq!(g(v), want, "{v:e}");
        }
    }

    #[test]
    fn shortest_layout_follows_grisu2_format_buffer() {
        // Hand-derived from Godot's thirdparty/grisu2 format_buffer (kMinExp -4, kMaxExp 15).
        assert_eq!(s(-5.2e8, false), "-520000000");
        assert_eq!(s(1e14, false), "100000000000000");
        assert_eq!(s(1e15, false), "1e+15");
        assert_eq!(s(1e16, false), "1e+16");
        assert_eq!(s(0.0001, false), "0.0001");
        assert_eq!(s(0.00001, false), "1e-05");
        assert_eq!(s(1.5, false), "1.5");
        assert_eq!(s(0.1, true), "0.1");
        assert_eq!(s(f64::from(0.1f32), false), "0.10000000149011612");
        assert_eq!(s(123456789.0, true), "123456790");
        assert_eq!(s(1.2345678987654322e30, false), "1.2345678987654322e+30");
        assert_eq!(s(5e-324, false), "5e-324");
        assert_eq!(s(1.7976931348623157e308, false), "1.7976931348623157e+308");
    }
}
