//! # gdwire
//!
//! Reads and writes Godot's Variant binary serialization: the bytes behind `var_to_bytes` /
//! `var2bytes`, `PacketPeer.put_var`, `StreamPeer.put_var` and `FileAccess.store_var`, for
//! Godot 3.x, Godot 4.0 to the newest 4.x and the Pandemonium fork.
//!
//! The reader is zero-copy: [`from_bytes`] validates a value in one pass and returns a
//! [`VariantRef`] that borrows from your buffer. Strings, packed arrays, arrays and
//! dictionaries are views decoded lazily as you walk them. No heap allocation, no panic and no
//! out-of-bounds read happens on any input.
//!
//! ```
//! use gdwire::{from_bytes, Dialect, VariantRef};
//!
//! // var_to_bytes({"hp": 100}) in Godot 4.
//! let packet = [
//!     0x1b, 0, 0, 0, 1, 0, 0, 0, // Dictionary, 1 entry
//!     4, 0, 0, 0, 2, 0, 0, 0, b'h', b'p', 0, 0, // "hp"
//!     2, 0, 0, 0, 100, 0, 0, 0, // 100
//! ];
//! let value = from_bytes(Dialect::GODOT_4, &packet)?;
//! let dict = value.as_dictionary().expect("a dictionary");
//! // Validated by `from_bytes`: iterating and lookups cannot fail.
//! for (key, value) in dict.iter() {
//!     assert_eq!(key.as_str(), Some("hp")); // borrowed from `packet`
//!     assert_eq!(value, VariantRef::Int(100));
//! }
//! let hp: i64 = dict.get_as("hp")?; // typed lookup; the error says what was found
//! assert_eq!(hp, 100);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Values that must outlive the buffer, or that are built by hand, are [`Variant`]s (feature
//! `alloc`, on by default): `Variant::from_bytes`, `view.to_owned()`, `Variant::from(…)` for
//! Rust values, `variant.to_vec(dialect)`; see [`owned`].
//!
//! There is no version marker on the wire: choose the [`Dialect`] that wrote the bytes.
//! Behaviour follows the engine's C++ source and is checked against real engines (Godot
//! 3.2.3 and 3.6, Godot 4.6, a double-precision 4.6.3 build, three Pandemonium versions);
//! `docs/engine-parity.md` says what was checked against which engine and what is derived
//! from source only.

#![cfg_attr(not(test), no_std)]
#![cfg_attr(docsrs, feature(doc_cfg))]
// Two audited `unsafe` blocks (`StrRef::as_str`, the `Walker`'s stack in `read/pending.rs`;
// docs/hardening.md), allowed where they are.
#![deny(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

#[cfg(feature = "tokio")]
pub mod codec;
mod dialect;
mod error;
mod float_width;
pub mod frame;
pub mod header;
#[cfg(feature = "json")]
#[cfg_attr(docsrs, doc(cfg(feature = "json")))]
pub mod json;
mod length_prefix;
#[cfg(feature = "alloc")]
mod lines;
pub mod math;
#[cfg(any(feature = "glam", feature = "mint"))]
mod math_ext;
pub mod multiplayer;
#[cfg(feature = "alloc")]
mod num_buf;
#[cfg(feature = "alloc")]
pub mod owned;
pub mod read;
#[cfg(feature = "serde")]
pub mod serde;
#[cfg(test)]
mod test_rand;
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub mod text;
mod variant_type;
pub mod write;

pub use dialect::{Dialect, Family, TextRules};
pub use error::{Error, ErrorKind, Expected, PacketField, PacketProblem, Result};
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub use frame::FrameBuffer;
pub use frame::{Framing, Split};
pub use math::Precision;
#[cfg(feature = "alloc")]
pub use owned::Variant;
pub use read::{
    from_bytes, from_bytes_exact, ArrayRef, ContainerType, Cursor, Decoder, DictRef, NodePathRef,
    ObjectRef, PackedRef, StrRef, VariantRef, MAX_DEPTH,
};
pub use variant_type::VariantType;
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub use write::to_vec;
pub use write::{encoded_len, to_slice, ContainerTypeSpec, CountingSink, Sink, SliceSink, Writer};

// Compile the README's example as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
