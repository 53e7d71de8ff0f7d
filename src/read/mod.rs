//! The read path: zero-copy, allocation-free, panic-free on any input.
//!
//! [`from_bytes`] / [`Decoder`] validate a value in one pass and return a [`VariantRef`]
//! borrowing from the input; containers are lazy views. [`Cursor`] reads values back to back;
//! [`Walker`] visits every nested value as a flat stream of events.
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
mod compare;
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
mod seq;
mod show;
pub(crate) mod skip;
mod text;
mod utf8;
mod value;
mod walk;
mod walked;

pub use access::{GetError, WrongType};
pub use array::{ArrayIter, ArrayKind, ArrayRef, ArrayTryIter};
pub use container_type::ContainerType;
pub use cursor::Cursor;
pub use decoder::{from_bytes, from_bytes_exact, Decoder, MAX_DEPTH};
pub use dict::{DictIter, DictRef, DictTryIter};
pub use math_ref::MathRef;
pub use node_path::NodePathRef;
pub use object::{FullObjectRef, ObjectRef, PropertyIter, PropertyTryIter, SignalRef};
pub use packed::{Element, PackedReals, PackedRef, PackedStrings};
pub(crate) use seq::quick_leaf;
pub use skip::MAX_PENDING_LEVELS;
pub use text::StrRef;
pub(crate) use text::{is_valid as text_is_valid, visible_text};
pub use value::VariantRef;
pub use walk::{Event, Walker};
pub use walked::Walked;
