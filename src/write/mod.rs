//! The write path: a streaming encoder into a [`Sink`], plus one-call helpers that re-encode
//! a decoded [`VariantRef`].
//!
//! Output is byte-exact with the engine's `encode_variant` for the chosen [`Dialect`], so
//! engine-made bytes decode and re-encode to the same bytes (except NodePath pad bytes, which
//! the engine before 4.6.3 leaves uninitialised and this crate writes as zeros).
//!
//! ```
//! use gdwire::write::Endian;
//! use gdwire::{Dialect, Writer};
//!
//! // StreamPeer.put_var({"hp": 100}) for a Godot 4 peer, into a fixed buffer.
//! let mut buf = [0u8; 64];
//! let mut w = Writer::new(&mut buf, Dialect::GODOT_4).with_length_prefix(Endian::Little);
//! w.begin_dictionary(1)?;
//! w.string("hp")?;
//! w.int(100)?;
//! let n = w.finish()?;
//! assert_eq!(buf[..4], [28, 0, 0, 0]); // the length prefix
//! assert_eq!(n, 32);
//! # Ok::<(), gdwire::Error>(())
//! ```

mod array;
mod container_type;
mod copy;
mod dict;
mod math;
mod node_path;
mod object;
mod packed;
mod prefix;
mod primitives;
mod raw;
mod scalar;
mod sink;
mod stack;
mod text;
mod value;
mod writer;

pub use crate::length_prefix::Endian;
pub use container_type::ContainerTypeSpec;
pub use math::Real;
#[cfg(feature = "alloc")]
pub(crate) use node_path::split_node_path;
#[cfg(feature = "alloc")]
pub(crate) use packed::put_i32s;
pub use sink::{CountingSink, IntoSink, Sink, SliceSink};
pub use stack::MAX_OPEN_CONTAINERS;
pub use writer::Writer;

use crate::dialect::Dialect;
use crate::error::Result;
use crate::read::VariantRef;

/// The encoded length of `value` in `dialect`, as [`to_slice`] would write it; no output.
///
/// ```
/// use gdwire::{encoded_len, from_bytes, Dialect};
/// let bytes = [4, 0, 0, 0, 3, 0, 0, 0, b'a', b's', b'd', 0];
/// let v = from_bytes(Dialect::GODOT_4, &bytes)?;
/// assert_eq!(encoded_len(Dialect::GODOT_4, &v)?, 12);
/// # Ok::<(), gdwire::Error>(())
/// ```
pub fn encoded_len(dialect: Dialect, value: &VariantRef<'_>) -> Result<usize> {
    if let Some(bytes) = value::copy_of(dialect, value) {
        return Ok(bytes.len());
    }
    let mut w = Writer::new(CountingSink::new(), dialect).with_full_objects(true);
    w.value(value)?;
    w.finish()
}

/// Re-encodes `value` into `buf` in `dialect` (full objects and typed-container classes kept
/// as in the view) and returns the length written. Never writes past `buf`'s end and never
/// allocates; if `buf` is too small the error is [`crate::ErrorKind::BufferFull`] with the
/// length needed.
///
/// A decoded container whose bytes already are what the writer writes (engine output) is
/// copied as it is; a relay that re-sends what it decodes can have the decode note that as
/// it validates ([`Decoder::with_canonical_check`](crate::Decoder::with_canonical_check)),
/// which saves this function a pass over the bytes.
///
/// ```
/// use gdwire::{from_bytes, to_slice, Dialect, ErrorKind};
/// let bytes = [0x1c, 0, 0, 0, 0, 0, 0, 0]; // []
/// let v = from_bytes(Dialect::GODOT_4, &bytes)?;
/// let mut small = [0u8; 4];
/// let err = to_slice(Dialect::GODOT_4, &v, &mut small).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::BufferFull { needed: 8 });
/// let mut out = [0u8; 8];
/// assert_eq!(to_slice(Dialect::GODOT_3, &v, &mut out)?, 8);
/// assert_eq!(out[0], 19); // Array is id 19 in Godot 3
/// # Ok::<(), gdwire::Error>(())
/// ```
pub fn to_slice(dialect: Dialect, value: &VariantRef<'_>, buf: &mut [u8]) -> Result<usize> {
    // A copy needs no writer (whose setup is a large part of re-encoding a small value).
    if let Some(bytes) = value::copy_of(dialect, value) {
        return match buf.get_mut(..bytes.len()) {
            Some(dst) => {
                dst.copy_from_slice(bytes);
                Ok(bytes.len())
            }
            // What the writer's `SliceSink` reports: nothing stored, the length needed.
            None => Err(crate::error::Error::new(
                crate::error::ErrorKind::BufferFull {
                    needed: bytes.len(),
                },
                0,
            )),
        };
    }
    let mut w = Writer::new(buf, dialect).with_full_objects(true);
    w.value(value)?;
    w.finish()
}

/// Re-encodes `value` into a new `Vec` in `dialect` (full objects and typed-container classes
/// kept as in the view). Feature `alloc`.
///
/// ```
/// use gdwire::{from_bytes, to_vec, Dialect};
/// // Godot 3 bytes of [1] re-encoded for Godot 4 (Array is id 19 there, 28 here).
/// let v = from_bytes(Dialect::GODOT_3, &[19, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0])?;
/// assert_eq!(to_vec(Dialect::GODOT_4, &v)?, [28, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub fn to_vec(dialect: Dialect, value: &VariantRef<'_>) -> Result<alloc::vec::Vec<u8>> {
    if let Some(bytes) = value::copy_of(dialect, value) {
        return Ok(bytes.to_vec());
    }
    let mut out = alloc::vec::Vec::new();
    let mut w = Writer::new(&mut out, dialect).with_full_objects(true);
    w.value(value)?;
    w.finish()?;
    Ok(out)
}
