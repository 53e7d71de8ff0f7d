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
        R::TextPadding => padding_is_zero(data, p, end),
        R::Count => u32_at(data, p).is_some_and(|n| n <= i32::MAX as u32),
        R::BytesPadding => u32_at(data, p).is_some_and(|n| {
            p + 4 + n as usize + pad4(n as usize) == end && padding_is_zero(data, p, end)
        }),
        R::Strings => string_elements(data, p),
        rule => data
            .get(p..end)
            .is_some_and(|payload| fixed_payload(rule, payload)),
    }
}

/// Whether a fixed-size payload is canonical under the rule whose number is `code`'s two
/// low bits ([`PayloadRule::fixed_code`]; the code of a dialect's table of canonical shapes).
/// The header's own rule (no bits above the type id) is the caller's.
#[inline(always)]
pub(crate) fn fixed(code: u8, payload: &[u8]) -> bool {
    fixed_payload(PayloadRule::of_fixed_code(code), payload)
}

/// [`fixed`] as a call, for the larger math types (`quick_next`).
#[inline(never)]
pub(crate) fn fixed_out_of_line(code: u8, payload: &[u8]) -> bool {
    fixed(code, payload)
}

/// [`is_canonical`] of a String or StringName block whose header word and padded text (`len`
/// text bytes, then 0 to 3 bytes of padding) the caller read already (the skip's quick path).
#[inline(always)]
pub(crate) fn text(header: u32, padded: &[u8], len: usize) -> bool {
    // Any padding sits in the top bytes of the block's last word, above its `len % 4` text
    // bytes. (Spelled out rather than through `zero_above`: so it compiles to 1–3 % fewer
    // instructions in the skip loop.)
    let in_last_word = len % 4;
    header & !0xFF == 0
        && (in_last_word == 0
            || padded
                .last_chunk::<4>()
                .is_some_and(|w| u32::from_le_bytes(*w) >> (8 * in_last_word) == 0))
}

/// The rules on a payload of fixed size (the others say `false`: they are not asked of one).
#[inline(always)]
fn fixed_payload(rule: PayloadRule, payload: &[u8]) -> bool {
    use PayloadRule as R;
    let word = || payload.first_chunk::<4>().map(|w| u32::from_le_bytes(*w));
    match rule {
        R::Any => true,
        R::NotNan => word().is_some_and(|b| !f32::from_bits(b).is_nan()),
        R::NoSignallingNan => no_signalling_nan(payload),
        R::ZeroOrOne => matches!(word(), Some(0 | 1)),
        _ => false,
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
/// zeros (at most 3 of them, in the block's last word).
#[inline(always)]
fn padding_is_zero(data: &[u8], p: usize, end: usize) -> bool {
    let Some(len) = u32_at(data, p) else {
        return false;
    };
    let pad = end.wrapping_sub(p + 4 + len as usize);
    match pad {
        0 => true,
        1..=3 => data
            .get(..end)
            .is_some_and(|block| zero_above(block, 4 - pad)),
        _ => false,
    }
}

/// The bytes of `block`'s last word after its first `keep % 4` are zeros: a string block's
/// padding (and a PackedStringArray element's NUL before it; `block` ends on a whole word) in
/// one test instead of a loop over the bytes. `false` for a block shorter than a word.
#[inline(always)]
pub(crate) fn zero_above(block: &[u8], keep: usize) -> bool {
    block
        .last_chunk::<4>()
        .is_some_and(|w| u32::from_le_bytes(*w) >> (8 * (keep % 4)) == 0)
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
        // The text's last byte is its NUL, and the padding after it zeros.
        if len == 0 || !zero_above(block, len - 1) {
            return false;
        }
        q += 4 + block.len();
    }
    true
}

/// No 32-bit float among `reals` (whole components) is a signalling NaN (exponent all ones,
/// quiet bit clear, payload not zero), which the writer quiets as the engine does when it
/// widens one. Two components at a time without an early exit: they are few (2 to 16) and
/// the test is short. Up to 16 bytes in two overlapping words; longer payloads (the larger
/// math types) in a loop out of line, whose constants would otherwise stay in registers
/// across the skip's loop.
#[inline(always)]
fn no_signalling_nan(reals: &[u8]) -> bool {
    match (reals.first_chunk::<8>(), reals.last_chunk::<8>()) {
        (Some(head), Some(tail)) if reals.len() <= 16 => {
            let lanes = signalling_lanes(u64::from_le_bytes(*head))
                | signalling_lanes(u64::from_le_bytes(*tail));
            lanes & SIGNS == 0
        }
        (Some(_), Some(_)) => no_signalling_nan_in_loop(reals),
        _ => match reals.first_chunk::<4>() {
            Some(w) => signalling_lanes(u32::from_le_bytes(*w).into()) & SIGNS == 0,
            None => true,
        },
    }
}

/// The sign bits of the 32-bit lanes of a word.
const SIGNS: u64 = 0x8000_0000_8000_0000;

/// The sign bit of each of the two 32-bit lanes of `word` set where that lane is a
/// signalling NaN. With the sign bits cleared, adding a constant to a 31-bit lane sets its
/// bit 31 exactly when the lane is at least the constant, and never carries into the other
/// lane.
#[inline(always)]
fn signalling_lanes(word: u64) -> u64 {
    const ABOVE_INF: u64 = 0x0080_0000_0080_0000 - 0x0000_0001_0000_0001; // lane > 0x7F80_0000
    const QUIET: u64 = 0x0040_0000_0040_0000; // lane >= 0x7FC0_0000
    let x = word & !SIGNS;
    x.wrapping_add(ABOVE_INF) & !x.wrapping_add(QUIET)
}

/// [`no_signalling_nan`] of a payload over 16 bytes.
#[inline(never)]
fn no_signalling_nan_in_loop(reals: &[u8]) -> bool {
    let mut any = 0;
    let mut words = reals.chunks_exact(8);
    for w in &mut words {
        any |= signalling_lanes(u64::from_le_bytes(w.try_into().unwrap_or_default()));
    }
    if let Ok(w) = <[u8; 4]>::try_from(words.remainder()) {
        any |= signalling_lanes(u32::from_le_bytes(w).into());
    }
    any & SIGNS == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each element's text ends with its NUL and its padding is zeros, checked byte by byte,
    /// against the one-word test, on random arrays where one byte is sometimes disturbed.
    #[test]
    fn string_elements_checks_each_nul_and_padding() {
        let mut rand = crate::test_rand::xorshift(0x57_1265_u64);
        let mut verdicts = [0; 2];
        for _ in 0..if cfg!(miri) { 200 } else { 20_000 } {
            let count = (rand() % 4) as usize;
            let mut data = (count as u32).to_le_bytes().to_vec();
            let mut want = true;
            for _ in 0..count {
                let len = (rand() % 10) as usize;
                let block_len = len + pad4(len);
                let mut block = vec![0u8; block_len];
                for b in &mut block[..len.saturating_sub(1)] {
                    *b = b'a' + (rand() % 26) as u8;
                }
                if block_len > 0 && rand() % 3 == 0 {
                    let at = (rand() as usize) % block_len;
                    block[at] = 1 + (rand() % 255) as u8;
                }
                let nul_ended = len > 0 && block[len - 1] == 0;
                want &= nul_ended && block[len..].iter().all(|&b| b == 0);
                data.extend_from_slice(&(len as u32).to_le_bytes());
                data.extend_from_slice(&block);
            }
            assert_eq!(string_elements(&data, 0), want, "{data:02x?}");
            verdicts[want as usize] += 1;
        }
        assert!(verdicts[0] > 10 && verdicts[1] > 10, "{verdicts:?}");
    }

    /// The two-lane test gives the one-component definition's verdict for every count of
    /// components, each at every place, among the bit patterns around the NaN boundaries.
    #[test]
    fn no_signalling_nan_finds_every_signalling_nan() {
        let signalling = |b: u32| {
            let f = f32::from_bits(b);
            f.is_nan() && b & 0x0040_0000 == 0
        };
        let edges = [
            0x0000_0000,
            0x3F80_0000,
            0x7F7F_FFFF,
            0x7F80_0000, // infinity
            0x7F80_0001, // the smallest signalling NaN
            0x7FA0_0000,
            0x7FBF_FFFF, // the largest signalling NaN
            0x7FC0_0000, // the quiet NaN
            0x7FFF_FFFF,
        ];
        let patterns = edges.iter().flat_map(|&b| [b, b | 0x8000_0000]);
        for odd in patterns.clone() {
            for count in 1..=16 {
                for at in 0..count {
                    let words: Vec<u32> = (0..count)
                        .map(|i| if i == at { odd } else { 0x4000_0000 })
                        .collect();
                    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                    let want = !words.iter().any(|&w| signalling(w));
                    assert_eq!(no_signalling_nan(&bytes), want, "{words:08x?}");
                }
            }
        }
    }
}
