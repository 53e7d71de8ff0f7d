//! Number tokens to values, as the engine's `String::to_int` / `String::to_double` read them.

use crate::dialect::Family;

/// `String::to_int` of a token `-?[0-9]+`. Godot 4 clamps to the `i64` range. Godot 3 (and
/// Pandemonium, its descendant) checks only `integer > INT64_MAX / 10` before each digit
/// (then returns `INT64_MAX` or `INT64_MIN`) and otherwise wraps: `9223372036854775808`
/// reads as `-9223372036854775808` (checked against Godot 3.2.3).
pub(super) fn to_int(text: &str, family: Family) -> i64 {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let clamp = if negative { i64::MIN } else { i64::MAX };
    let mut v: i64 = 0;
    for d in digits.bytes() {
        let d = i64::from(d.wrapping_sub(b'0'));
        if family == Family::Godot4 {
            // Exact: accumulate negatively so i64::MIN fits.
            let next = v.checked_mul(10).and_then(|x| {
                if negative {
                    x.checked_sub(d)
                } else {
                    x.checked_add(d)
                }
            });
            match next {
                Some(x) => v = x,
                None => return clamp,
            }
        } else {
            if v > i64::MAX / 10 {
                return clamp;
            }
            v = v.wrapping_mul(10).wrapping_add(d);
        }
    }
    if family != Family::Godot4 && negative {
        v = v.wrapping_neg();
    }
    v
}

/// `String::to_double` of a token `-?[0-9]*(\.[0-9]*)?(e[+-]?[0-9]*)?` (an exponent without
/// digits counts as none), correctly rounded.
pub(super) fn to_double(text: &str) -> f64 {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], &text[i + 1..]),
        None => (text, ""),
    };
    let (negative, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => (true, m),
        None => (false, mantissa),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let exp_digits = exponent.trim_start_matches(['+', '-']);
    let exp: i64 = if exp_digits.is_empty() {
        0
    } else {
        // Saturate: anything this large is 0 or inf anyway.
        let mut e: i64 = 0;
        for d in exp_digits.bytes() {
            e = (e * 10 + i64::from(d - b'0')).min(1_000_000);
        }
        if exponent.starts_with('-') {
            -e
        } else {
            e
        }
    };
    // Rebuild as `<digits>e<exp>` (no '.'), which `str::parse` reads correctly rounded.
    let mut buf = alloc::string::String::with_capacity(int.len() + frac.len() + 24);
    buf.push_str(if int.is_empty() && frac.is_empty() {
        "0"
    } else {
        int
    });
    buf.push_str(frac);
    let exp = exp - frac.len() as i64;
    buf.push('e');
    buf.push_str(&alloc::format!("{exp}"));
    let v: f64 = buf.parse().unwrap_or(0.0);
    if negative {
        -v
    } else {
        v
    }
}

/// `(int32_t)double` as x86-64 converts it (`cvttsd2si`): truncation, `INT32_MIN` when out of
/// range or NaN.
pub(super) fn f64_to_i32(f: f64) -> i32 {
    if f.is_nan() || f >= 2147483648.0 || f < -2147483648.0 {
        i32::MIN
    } else {
        f as i32
    }
}

/// `(int64_t)double` on x86-64: truncation, `INT64_MIN` when out of range or NaN.
pub(super) fn f64_to_i64(f: f64) -> i64 {
    if f.is_nan() || f >= 9223372036854775808.0 || f < -9223372036854775808.0 {
        i64::MIN
    } else {
        f as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ints_as_godot3_reads_them() {
        // Values measured with Godot 3.2.3's str2var.
        let g3 = |t| to_int(t, Family::Godot3);
        assert_eq!(g3("9223372036854775807"), i64::MAX);
        assert_eq!(g3("9223372036854775808"), i64::MIN);
        assert_eq!(g3("-9223372036854775809"), i64::MAX);
        assert_eq!(g3("-9223372036854775808"), i64::MIN);
        assert_eq!(g3("99999999999999999999"), i64::MAX);
        assert_eq!(g3("-12"), -12);
    }

    #[test]
    fn ints_clamp_in_godot4() {
        let g4 = |t| to_int(t, Family::Godot4);
        assert_eq!(g4("-9223372036854775808"), i64::MIN);
        assert_eq!(g4("9223372036854775808"), i64::MAX);
        assert_eq!(g4("-99999999999999999999"), i64::MIN);
    }

    #[test]
    fn doubles() {
        assert_eq!(to_double("1e5"), 100000.0);
        assert_eq!(to_double("1e"), 1.0);
        assert_eq!(to_double("1."), 1.0);
        assert_eq!(to_double("-.5"), -0.5);
        assert_eq!(to_double("0.1"), 0.1);
        assert_eq!(to_double("1e-400"), 0.0);
        assert_eq!(to_double("1e99999999999"), f64::INFINITY);
        assert_eq!(to_double("-0.0").to_bits(), (-0.0f64).to_bits());
        assert_eq!(to_double("4.53676e-10"), 4.53676e-10);
    }
}
