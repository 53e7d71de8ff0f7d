//! Bounds-checked little-endian primitives over the input. Every read of a position at or
//! past the end fails instead of panicking (the reader caps the end of an unpadded
//! PackedByteArray at the input's end, so errors never point past it).

use crate::error::{Error, ErrorKind, Expected, Result};

#[inline]
pub(crate) fn take(data: &[u8], pos: usize, len: usize) -> Option<&[u8]> {
    data.get(pos..pos.checked_add(len)?)
}

// One range check (`pos <= pos + N <= len`, the sum wrapping only for a `pos` that is out of
// range anyway) instead of two (`pos <= len`, then `len - pos >= N`): the reads of every
// header and length word.
#[inline]
pub(crate) fn u32_at(data: &[u8], pos: usize) -> Option<u32> {
    let bytes: [u8; 4] = data.get(pos..pos.wrapping_add(4))?.try_into().ok()?;
    Some(u32::from_le_bytes(bytes))
}

#[inline]
pub(crate) fn u64_at(data: &[u8], pos: usize) -> Option<u64> {
    let bytes: [u8; 8] = data.get(pos..pos.wrapping_add(8))?.try_into().ok()?;
    Some(u64::from_le_bytes(bytes))
}

#[inline]
pub(crate) fn need_u32(data: &[u8], pos: usize, what: Expected) -> Result<u32> {
    u32_at(data, pos).ok_or(Error::new(ErrorKind::Truncated(what), pos))
}

/// Padding after `len` bytes to the next multiple of four.
#[inline]
pub(crate) const fn pad4(len: usize) -> usize {
    (4 - len % 4) % 4
}
