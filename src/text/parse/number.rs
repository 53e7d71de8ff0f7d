//! Number tokens to values, as the engine's `String::to_int` / `String::to_double` read them.

use crate::dialect::Family;

/// `String::to_int` of a token `-?[0-9]+`, in every engine line: before each digit it checks
/// only `integer > INT64_MAX / 10` (then returns `INT64_MAX` or `INT64_MIN`), otherwise it
/// wraps: `9223372036854775808` reads as `-9223372036854775808` and `-9223372036854775809`
/// as `9223372036854775807` (checked against Godot 3.2.3 and 4.6).
pub(super) fn to_int(text: &str) -> i64 {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let mut v: i64 = 0;
    for d in digits.bytes() {
        if v > i64::MAX / 10 {
            return if negative { i64::MIN } else { i64::MAX };
        }
        v = v
            .wrapping_mul(10)
            .wrapping_add(i64::from(d.wrapping_sub(b'0')));
    }
    if negative {
        v.wrapping_neg()
    } else {
        v
    }
}

/// `String::to_double` / `String::to_float` of a token
/// `-?[0-9]*(\.[0-9]*)?([eE][+-]?[0-9]*)?`: the engine's `built_in_strtod` (a copy of Tcl's
/// `strtod`), reproduced step by step because it is not correctly rounded. At most 18
/// significant digits are read (the rest are ignored), as `1e9 * frac1 + frac2`; the power
/// of ten is a product of `10^(2^k)` factors (the exponent clamped to 511), then one multiply
/// or divide. So tiny values can read as 0 (`2.2250738585072014e-308` → 0, as Godot 3.2.3
/// reads it) and long mantissas may land a unit off the nearest double.
pub(super) fn to_double(text: &str) -> f64 {
    const POWERS: [f64; 9] = [
        10., 100., 1.0e4, 1.0e8, 1.0e16, 1.0e32, 1.0e64, 1.0e128, 1.0e256,
    ];
    let b = text.as_bytes();
    let mut p = 0;
    let negative = b.first() == Some(&b'-');
    if negative || b.first() == Some(&b'+') {
        p += 1;
    }
    // Mantissa: digits with at most one '.'.
    let mut dec_pt: Option<usize> = None;
    let mut mant_size = 0usize;
    let mant_start = p;
    while let Some(&c) = b.get(p) {
        if !c.is_ascii_digit() {
            if c != b'.' || dec_pt.is_some() {
                break;
            }
            dec_pt = Some(mant_size);
        }
        mant_size += 1;
        p += 1;
    }
    let exp_at = p;
    let dec_pt = match dec_pt {
        None => mant_size,
        Some(d) => {
            mant_size -= 1;
            d
        }
    } as i64;
    let frac_exp;
    if mant_size > 18 {
        frac_exp = dec_pt - 18;
        mant_size = 18;
    } else {
        frac_exp = dec_pt - mant_size as i64;
    }
    if mant_size == 0 {
        return if negative { -0.0 } else { 0.0 };
    }
    let mut digits = b[mant_start..exp_at].iter().filter(|c| c.is_ascii_digit());
    let mut frac1: i64 = 0;
    while mant_size > 9 {
        frac1 = 10 * frac1 + i64::from(digits.next().map_or(0, |c| c - b'0'));
        mant_size -= 1;
    }
    let mut frac2: i64 = 0;
    while mant_size > 0 {
        frac2 = 10 * frac2 + i64::from(digits.next().map_or(0, |c| c - b'0'));
        mant_size -= 1;
    }
    let mut fraction = 1.0e9 * frac1 as f64 + frac2 as f64;
    // Exponent: ignored unless digits follow the 'e' (and its sign).
    let mut exp: i64 = 0;
    let mut exp_negative = false;
    let mut q = exp_at;
    if matches!(b.get(q), Some(b'e' | b'E')) {
        q += 1;
        match b.get(q) {
            Some(b'-') => {
                exp_negative = true;
                q += 1;
            }
            Some(b'+') => q += 1,
            _ => {}
        }
        if b.get(q).is_some_and(u8::is_ascii_digit) {
            while let Some(&c) = b.get(q).filter(|c| c.is_ascii_digit()) {
                // Saturated (the engine's `int` would overflow): clamped to 511 below anyway.
                exp = (exp * 10 + i64::from(c - b'0')).min(1_000_000_000);
                q += 1;
            }
        } else {
            exp_negative = false;
        }
    }
    let mut exp = if exp_negative {
        frac_exp - exp
    } else {
        frac_exp + exp
    };
    let divide = exp < 0;
    exp = exp.abs().min(511);
    let mut dbl_exp = 1.0f64;
    let mut k = 0;
    while exp != 0 {
        if exp & 1 != 0 {
            dbl_exp *= POWERS[k];
        }
        exp >>= 1;
        k += 1;
    }
    if divide {
        fraction /= dbl_exp;
    } else {
        fraction *= dbl_exp;
    }
    if negative {
        -fraction
    } else {
        fraction
    }
}

/// `(int32_t)double`, undefined in C++ when out of range. Godot 3 (native x86-64 builds,
/// `cvttsd2si`): truncation, `INT32_MIN` when out of range or NaN. Godot 4 (as the 4.6
/// WebAssembly engine the fixtures come from converts, `trunc_sat`): truncation, saturating,
/// NaN → 0.
pub(super) fn f64_to_i32(f: f64, family: Family) -> i32 {
    if family == Family::Godot4 {
        f as i32
    } else if !(-2147483648.0..2147483648.0).contains(&f) {
        i32::MIN
    } else {
        f as i32
    }
}

/// `(int64_t)double`: as [`f64_to_i32`], for 64 bits.
pub(super) fn f64_to_i64(f: f64, family: Family) -> i64 {
    if family == Family::Godot4 {
        f as i64
    } else if !(-9223372036854775808.0..9223372036854775808.0).contains(&f) {
        i64::MIN
    } else {
        f as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ints_as_the_engines_read_them() {
        // Values measured with Godot 3.2.3's str2var and Godot 4.6's str_to_var.
        assert_eq!(to_int("9223372036854775807"), i64::MAX);
        assert_eq!(to_int("9223372036854775808"), i64::MIN);
        assert_eq!(to_int("-9223372036854775809"), i64::MAX);
        assert_eq!(to_int("-9223372036854775808"), i64::MIN);
        assert_eq!(to_int("99999999999999999999"), i64::MAX);
        assert_eq!(to_int("-99999999999999999999"), i64::MIN);
        assert_eq!(to_int("-12"), -12);
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
        // Godot 3.2.3 reads these as 0 (the power of ten overflows).
        assert_eq!(to_double("2.2250738585072014e-308"), 0.0);
        assert_eq!(to_double("4.9e-324"), 0.0);
        assert_eq!(to_double("-0.0").to_bits(), (-0.0f64).to_bits());
        assert_eq!(to_double("4.53676e-10"), 4.53676e-10);
    }
}
