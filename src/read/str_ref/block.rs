//! String blocks, the wire form of every string: `u32` length, the bytes, zero padding to a
//! multiple of four (docs/wire-format.md §5.3).

use crate::dialect::TextRules;
use crate::error::{Error, ErrorKind, Expected, Result};
use crate::read::input::{need_u32, pad4, take, u32_at};
use crate::read::str_ref::StrRef;

/// Reads a string block (`u32 len`, bytes, zero pad to 4) at `pos`; returns the view and the
/// position after the padding. The padding must be present, as in the engine.
// Always inlined when optimised (as a call, the PackedStringArray loop ran 6 % more
// instructions); only hinted in debug builds, where every forced inlining adds its own stack
// slots to the caller and the deepest values must still fit a small stack.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn string_block(
    data: &[u8],
    pos: usize,
    rules: TextRules,
    validate: bool,
) -> Result<(StrRef<'_>, usize)> {
    let Some((s, end)) = string_block_trusted(data, pos, rules) else {
        return Err(string_block_error(data, pos));
    };
    if !validate {
        return Ok((s, end));
    }
    match s.checked() {
        Some(s) => Ok((s, end)),
        None => Err(Error::new(ErrorKind::InvalidText, pos + 4)),
    }
}

/// Why [`string_block_trusted`] found no block at `pos`.
#[cold]
fn string_block_error(data: &[u8], pos: usize) -> Error {
    match need_u32(data, pos, Expected::StringLength) {
        Ok(len) => Error::new(ErrorKind::StringLength { len: len as i32 }, pos),
        Err(e) => e,
    }
}

/// [`string_block`] for data already validated: no text check, and `None` instead of an
/// error. Building the error value (and converting it away) costs a store-forwarding stall
/// on the iterators' hot path, so they use this.
#[inline(always)]
pub(crate) fn string_block_trusted(
    data: &[u8],
    pos: usize,
    rules: TextRules,
) -> Option<(StrRef<'_>, usize)> {
    let len = usize::try_from(u32_at(data, pos)? as i32).ok()?;
    let padded = take(data, pos + 4, len + pad4(len))?;
    Some((StrRef::new(&padded[..len], rules), pos + 4 + padded.len()))
}

/// [`string_block_trusted`] with the text checked as [`StrRef::checked`] does (`None` when
/// the engine refuses it, or the block runs past the input); short ASCII texts are checked
/// in one word test over the text and its padding.
// Its first two reads repeat `string_block_trusted`'s on purpose: through a shared helper
// the `Walker` ran 2 % more instructions on (g).
#[cfg(feature = "serde")]
#[inline(always)]
pub(crate) fn string_block_checked(
    data: &[u8],
    pos: usize,
    rules: TextRules,
) -> Option<(StrRef<'_>, usize)> {
    let len = usize::try_from(u32_at(data, pos)? as i32).ok()?;
    let padded = take(data, pos + 4, len + pad4(len))?;
    let s = StrRef::checked_block(padded, len, rules)?;
    Some((s, pos + 4 + padded.len()))
}
