//! The read path: zero-copy, allocation-free, panic-free on any input.

mod array;
mod compare;
mod container_type;
mod cursor;
mod decoder;
mod dict;
mod head;
pub(crate) mod input;
mod items;
mod math_ref;
mod node_path;
mod object;
mod packed;
mod seq;
pub(crate) mod show;
mod skip;
mod text;
mod utf8;
mod value;
mod walk;
mod walked;

pub use array::{ArrayIter, ArrayKind, ArrayRef};
pub use container_type::ContainerType;
pub use cursor::Cursor;
pub use decoder::{from_bytes, from_bytes_exact, Decoder, MAX_DEPTH};
pub use dict::{DictIter, DictRef};
pub use math_ref::MathRef;
pub use node_path::NodePathRef;
pub use object::{FullObjectRef, ObjectRef, PropertyIter, SignalRef};
pub use packed::{Element, PackedReals, PackedRef, PackedStrings};
pub use skip::MAX_PENDING_LEVELS;
pub use text::StrRef;
pub(crate) use text::{is_valid as text_is_valid, visible_text};
pub use value::VariantRef;
pub use walk::{Event, Walker};
pub use walked::Walked;
