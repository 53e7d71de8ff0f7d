//! Lossless float tokens.
//!
//! Finite values are JSON numbers in the shortest form that reads back to the same bits at the
//! slot's width; non-finite values are the strings `inf`, `-inf`, `nan` (the default quiet NaN
//! of that width) or `nan:0x…` (any other NaN, as raw bits of that width).

use core::fmt::{self, Write};

use crate::num_buf::NumBuf;

/// The quiet NaN Rust and the engine produce by default.
const F64_NAN: u64 = 0x7ff8_0000_0000_0000;
const F32_NAN: u32 = 0x7fc0_0000;

/// Writes a non-finite value's token text (no quotes): `inf`, `-inf`, `nan`, `nan:0x…`.
fn special<W: Write>(
    out: &mut W,
    is_nan: bool,
    negative: bool,
    bits: u64,
    nan: u64,
    hex_digits: usize,
) -> fmt::Result {
    if !is_nan {
        return out.write_str(if negative { "-inf" } else { "inf" });
    }
    if bits == nan {
        return out.write_str("nan");
    }
    write!(out, "nan:0x{bits:0hex_digits$x}")
}

/// An `f64` as a JSON number, or a quoted special token.
pub(crate) fn write_f64<W: Write>(out: &mut W, v: f64) -> fmt::Result {
    if v.is_finite() {
        // `{:?}` is the shortest text that parses back to the same f64 and is valid JSON
        // (`1.0`, `-0.0`, `1e100`, `5e-324`).
        write!(out, "{v:?}")
    } else {
        out.write_char('"')?;
        special(
            out,
            v.is_nan(),
            v.is_sign_negative(),
            v.to_bits(),
            F64_NAN,
            16,
        )?;
        out.write_char('"')
    }
}

/// An `f32` as a JSON number, or a quoted special token. The number is read back through
/// `f64` (JSON parsers produce `f64`) and narrowed; the shortest `f32` text is used when that
/// double rounding gives the same `f32` back, else the exact `f64` text of the widened value.
pub(crate) fn write_f32<W: Write>(out: &mut W, v: f32) -> fmt::Result {
    if !v.is_finite() {
        out.write_char('"')?;
        special(
            out,
            v.is_nan(),
            v.is_sign_negative(),
            v.to_bits() as u64,
            F32_NAN as u64,
            8,
        )?;
        return out.write_char('"');
    }
    let mut buf = NumBuf::new();
    // Cannot fail: the buffer holds any f32 `{:?}` text.
    let short = write!(buf, "{v:?}").is_ok();
    if short {
        if let Ok(back) = buf.as_str().parse::<f64>() {
            if (back as f32).to_bits() == v.to_bits() {
                return out.write_str(buf.as_str());
            }
        }
    }
    write!(out, "{:?}", v as f64)
}

/// The float text of an `f:` scalar (no quotes): `1.5`, `-0.0`, `inf`, `nan`, `nan:0x…`.
pub(crate) fn write_f64_text<W: Write>(out: &mut W, v: f64) -> fmt::Result {
    if v.is_finite() {
        write!(out, "{v:?}")
    } else {
        special(
            out,
            v.is_nan(),
            v.is_sign_negative(),
            v.to_bits(),
            F64_NAN,
            16,
        )
    }
}

/// Parses a special token or decimal text as an `f64` (`None` if it is neither).
pub(crate) fn parse_f64_text(s: &str) -> Option<f64> {
    match s {
        "inf" => Some(f64::INFINITY),
        "-inf" => Some(f64::NEG_INFINITY),
        "nan" => Some(f64::from_bits(F64_NAN)),
        _ => {
            if let Some(hex) = s.strip_prefix("nan:0x") {
                let bits = u64::from_str_radix(hex, 16).ok()?;
                let v = f64::from_bits(bits);
                return v.is_nan().then_some(v);
            }
            // Only plain decimal numbers: Rust also accepts "infinity", "NaN" and such.
            let plain = s
                .bytes()
                .all(|b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E'));
            if !plain || s.is_empty() {
                return None;
            }
            s.parse().ok()
        }
    }
}

/// Parses a special token as an `f32` (`None` if it is not one).
pub(crate) fn parse_f32_special(s: &str) -> Option<f32> {
    match s {
        "inf" => Some(f32::INFINITY),
        "-inf" => Some(f32::NEG_INFINITY),
        "nan" => Some(f32::from_bits(F32_NAN)),
        _ => {
            let bits = u32::from_str_radix(s.strip_prefix("nan:0x")?, 16).ok()?;
            let v = f32::from_bits(bits);
            v.is_nan().then_some(v)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;

    fn f32_text(v: f32) -> String {
        let mut s = String::new();
        write_f32(&mut s, v).unwrap();
        s
    }

    #[test]
    fn f32_short_forms() {
        assert_eq!(f32_text(0.1), "0.1");
        assert_eq!(f32_text(-0.0), "-0.0");
        assert_eq!(f32_text(1.0), "1.0");
        assert_eq!(f32_text(f32::INFINITY), "\"inf\"");
        assert_eq!(f32_text(f32::NAN), "\"nan\"");
        assert_eq!(f32_text(f32::from_bits(0xffc0_0001)), "\"nan:0xffc00001\"");
    }

    #[test]
    fn f32_double_rounding_falls_back_to_f64_text() {
        // The only positive f32 (exhaustive search) whose shortest text, "7.038531e-26",
        // parses to an f64 that narrows to a different f32.
        let v = f32::from_bits(0x15ae_43fd);
        let short: f64 = "7.038531e-26".parse().unwrap();
        assert_ne!((short as f32).to_bits(), v.to_bits());
        let text = f32_text(v);
        let back: f64 = text.parse().unwrap();
        assert_eq!((back as f32).to_bits(), v.to_bits());
    }

    #[test]
    fn f64_tokens_round_trip() {
        for bits in [
            0u64,
            0x8000_0000_0000_0000,
            1,
            0x7fef_ffff_ffff_ffff,
            0x3fb9_9999_9999_999a,
            0x7ff0_0000_0000_0000,
            0xfff0_0000_0000_0000,
            0x7ff8_0000_0000_0000,
            0x7ff8_0000_2000_0000,
            0xfff8_0000_0000_0000,
            0x7ff0_0000_0000_0001,
        ] {
            let mut s = String::new();
            write_f64_text(&mut s, f64::from_bits(bits)).unwrap();
            assert_eq!(parse_f64_text(&s).map(f64::to_bits), Some(bits), "{s}");
        }
        assert_eq!(parse_f64_text("NaN"), None);
        assert_eq!(parse_f64_text("infinity"), None);
        assert_eq!(parse_f64_text("nan:0x0"), None); // zero bits are not a NaN
    }

    #[test]
    fn f32_specials_round_trip() {
        for bits in [
            0x7f80_0000u32,
            0xff80_0000,
            0x7fc0_0000,
            0x7f80_0001,
            0xffc0_1234,
        ] {
            let s = f32_text(f32::from_bits(bits));
            let inner = s.trim_matches('"');
            assert_eq!(
                parse_f32_special(inner).map(f32::to_bits),
                Some(bits),
                "{s}"
            );
        }
    }
}
