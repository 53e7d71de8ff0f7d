//! The read path: zero-copy, allocation-free, panic-free on any input.
//!
//! Map of this module (one owner per mechanism):
//!
//! - Entry points: `decoder.rs` ([`Decoder`], [`from_bytes`]), `cursor.rs` ([`Cursor`], values
//!   back to back), `walker.rs` ([`Walker`], one validating pass as events).
//! - Layout of one value, the only place that knows each type's bytes: `head.rs` (header and
//!   payload of any type, containers left lazy; its quick paths answer the common types
//!   without building a view), `container_type.rs` (typed-container type blocks),
//!   `input.rs` (bounds-checked words), `str_ref/` (string views, the text rules of each
//!   engine line, and `block.rs`: the string block and runs of them) + `utf8/` (strict
//!   UTF-8 16 bytes at a time, or byte by byte where the target has no vector unit),
//!   `canonical.rs` (whether a value's bytes are exactly what the writer writes, asked while
//!   validating by a relay's decoder).
//! - Traversal: `skip.rs` (validating skip, and the generic `traverse` with a visitor that
//!   the writer's re-encoding uses, on a short pending-level stack that continues in a nested
//!   call when full), `pending.rs` (the [`Walker`]'s pending-level stack: all the levels a
//!   value can need, not initialised on creation), `seq.rs` (the run of items
//!   inside one container, behind every container iterator), `walked.rs` (handing a walked
//!   child back to its parent iterator).
//! - Views: `value.rs` ([`VariantRef`]), `items.rs` (what a container view keeps), `array.rs`,
//!   `dict.rs`, `object.rs`, `packed.rs`, `math_ref.rs`, `node_path.rs`, `access.rs` (typed
//!   conversions and lookups), `compare.rs` (`==` without recursion, on `lockstep`: two
//!   walkers side by side, the one pairwise traversal, which the text writer's key equality
//!   uses too) and `show.rs` (`Debug` without recursion).
//!
//! Views from [`from_bytes`] / [`Decoder::decode`] / [`Cursor::read`] were validated as a
//! whole, so their iterators and lookups return plain values; a [`Walker`]'s `Begin` views are
//! validated only as the walk reaches their items (their `try_iter` reports errors).
//!
//! ```
//! use gdwire::read::{Decoder, Event};
//! use gdwire::Dialect;
//!
//! // [1, "hp"] from Godot 3: print every leaf.
//! let bytes = [19, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'p', 0, 0];
//! let mut leaves = Vec::new();
//! for event in Decoder::new(Dialect::GODOT_3).walk(&bytes) {
//!     if let Event::Value(v) = event? {
//!         leaves.push(format!("{v:?}"));
//!     }
//! }
//! assert_eq!(leaves, ["Int(1)", "String(\"hp\")"]);
//! # Ok::<(), gdwire::Error>(())
//! ```

mod access;
mod array;
pub(crate) mod canonical;
pub(crate) mod compare;
mod container_type;
mod cursor;
pub(crate) mod decoder;
mod dict;
pub(crate) mod head;
pub(crate) mod input;
pub(crate) mod items;
mod math_ref;
mod node_path;
mod object;
mod packed;
mod pending;
mod seq;
pub(crate) mod show;
pub(crate) mod skip;
pub(crate) mod str_ref;
mod utf8;
mod value;
mod walked;
mod walker;

pub use access::{GetError, WrongType};
pub use array::{ArrayIter, ArrayKind, ArrayRef, ArrayTryIter};
pub use container_type::ContainerType;
pub use cursor::Cursor;
pub use decoder::{from_bytes, from_bytes_exact, Decoder, MAX_DEPTH};
pub use dict::{DictIter, DictRef, DictTryIter};
pub(crate) use head::quick_leaf;
pub use math_ref::MathRef;
pub use node_path::NodePathRef;
#[cfg(feature = "serde")]
pub(crate) use object::check_script_property;
pub use object::{FullObjectRef, ObjectRef, PropertyIter, PropertyTryIter, SignalRef};
pub use packed::{Element, PackedReals, PackedRef, PackedStrings};
pub use skip::MAX_PENDING_LEVELS;
pub use str_ref::StrRef;
pub(crate) use str_ref::{is_valid as text_is_valid, visible_text};
pub use value::VariantRef;
pub use walked::Walked;
pub use walker::{Event, Walker};
