//! Whether a value's own bytes (its header and payload; a container's items are values of
//! their own) are exactly what the writer writes for it in the same dialect: the value's
//! "canonical" form (the widths and zero bits of docs/wire-format.md §3, zero padding).
//! Engine output and this crate's own are canonical; other encoders may send a needlessly
//! wide int, non-zero padding, and so on.
//!
//! Asked value by value by the validating skip of a decode with
//! [`Decoder::with_canonical_check`](crate::Decoder::with_canonical_check), whose views
//! are then re-sent as plain copies. The re-encoder's own check of views decoded without
//! it (`write/copy.rs`) states the same rules in its one-dispatch loop; a unit test there
//! holds the two together.

use crate::dialect::Dialect;
use crate::header::{Header, FLAG_64};
use crate::read::input::{pad4, take, u32_at, u64_at};
use crate::variant_type::{PayloadRule, VariantType};

/// True when the value at `pos`, which the skip found to end at `end` (a container: its
/// items start there), is written exactly so by the writer: its header, payload and padding
/// (a container's items are asked one by one). `false` for what the writer never writes as
/// read (typed containers, objects, node paths, signals: the writer rebuilds those) and for
/// anything out of range.
#[inline(always)]
pub(crate) fn is_canonical(dialect: Dialect, data: &[u8], pos: usize, end: usize) -> bool {
    let Some(word) = u32_at(data, pos) else {
        return false;
    };
    let p = pos + 4;
    if word & !0xFF != 0 {
        return flagged(dialect, data, Header(word), p);
    }
    // Every dialect has one wire id per type (`dialect.rs` asserts it at compile time), so
    // the id read is the one the writer writes.
    use PayloadRule as R;
    match dialect.payload_rule(word as u8) {
        R::Any => true,
        R::TextPadding => padding_is_zero(data, p, end),
        R::Count => u32_at(data, p).is_some_and(|n| n <= i32::MAX as u32),
        R::NotNan => u32_at(data, p).is_some_and(|b| !f32::from_bits(b).is_nan()),
        R::NoSignallingNan => data.get(p..end).is_some_and(no_signalling_nan),
        R::ZeroOrOne => matches!(u32_at(data, p), Some(0 | 1)),
        R::BytesPadding => u32_at(data, p).is_some_and(|n| {
            p + 4 + n as usize + pad4(n as usize) == end && padding_is_zero(data, p, end)
        }),
        R::Strings => string_elements(data, p),
        R::Rebuilt => false,
    }
}

/// A header with bits above the type id: only bit 16 alone, where it selects the 64-bit
/// form of a value that needs it.
#[inline(never)]
fn flagged(dialect: Dialect, data: &[u8], header: Header, p: usize) -> bool {
    if header.0 & !0xFF != FLAG_64 {
        return false;
    }
    use VariantType as T;
    match dialect.type_of(header.type_id()) {
        Some(T::Int) => u64_at(data, p).is_some_and(|v| i32::try_from(v as i64).is_err()),
        Some(T::Float) => u64_at(data, p).is_some_and(|b| {
            let v = f64::from_bits(b);
            #[allow(clippy::float_cmp)] // the writer's exact rule
            let narrow = (v as f32) as f64 == v;
            !narrow
        }),
        // Real components, and packed arrays of them: bit 16 as the precision flag.
        Some(ty)
            if ty.real_components().is_some() || ty.packed_element(4) != ty.packed_element(8) =>
        {
            dialect.math_follows_flag_64()
        }
        _ => false,
    }
}

/// The bytes between a length-prefixed block's content (length word at `p`) and `end` are
/// zeros (at most 3 of them: one masked word).
#[inline(always)]
fn padding_is_zero(data: &[u8], p: usize, end: usize) -> bool {
    let Some(len) = u32_at(data, p) else {
        return false;
    };
    let pad = end.wrapping_sub(p + 4 + len as usize);
    match pad {
        0 => true,
        1..=3 => u32_at(data, end - 4).is_some_and(|w| w >> (8 * (4 - pad)) == 0),
        _ => false,
    }
}

/// Each element of a PackedStringArray (count at `p`) ends its text with a NUL, as the
/// writer adds where missing, and pads with zeros.
fn string_elements(data: &[u8], p: usize) -> bool {
    let Some(n) = u32_at(data, p) else {
        return false;
    };
    let mut q = p + 4;
    for _ in 0..n {
        let Some(len) = u32_at(data, q) else {
            return false;
        };
        let len = len as usize;
        let Some(block) = take(data, q + 4, len + pad4(len)) else {
            return false;
        };
        if block[len..].iter().any(|&b| b != 0) || block[..len].last() != Some(&0) {
            return false;
        }
        q += 4 + block.len();
    }
    true
}

/// No 32-bit float among `reals` is a signalling NaN (exponent all ones, quiet bit clear,
/// payload not zero), which the writer quiets as the engine does when it widens one. Word
/// by word without an early exit: the components are few (2 to 16) and the test is short.
#[inline(always)]
fn no_signalling_nan(reals: &[u8]) -> bool {
    let mut any = false;
    let mut at = 0;
    while let Some(word) = reals.get(at..at + 4) {
        let b = u32::from_le_bytes([word[0], word[1], word[2], word[3]]) & 0x7FFF_FFFF;
        any |= (b > 0x7F80_0000) & (b < 0x7FC0_0000);
        at += 4;
    }
    !any
}
