//! Deserializing from a view ([`VariantRef`]) that was already decoded: the one place where
//! this module touches the views' internals. A container view is walked again from its
//! header (its bytes were validated when it was decoded, so this cannot fail on them); a leaf
//! is visited directly.

use serde::de;

use crate::read::{ObjectRef, VariantRef};
use crate::serde::de::Deserializer;
use crate::serde::error::Result;
use crate::serde::leaf::LeafDe;

/// Deserializes `T` from a decoded view, borrowing from the view's input.
///
/// ```
/// use serde::Deserialize;
/// use gdwire::{from_bytes, Dialect};
///
/// #[derive(Deserialize, Debug, PartialEq)]
/// struct Entry { id: i64 }
///
/// // [{"id": 5}] in Godot 4: look at the array with views, hand its element to serde.
/// let bytes = [0x1c,0,0,0, 1,0,0,0, 0x1b,0,0,0, 1,0,0,0, 4,0,0,0, 2,0,0,0, b'i',b'd',0,0,
///              2,0,0,0, 5,0,0,0];
/// let array = from_bytes(Dialect::GODOT_4, &bytes)?.as_array().unwrap();
/// let first = array.iter().next().unwrap();
/// assert_eq!(gdwire::serde::from_variant_ref::<Entry>(first)?, Entry { id: 5 });
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn from_variant_ref<'de, T: de::Deserialize<'de>>(value: VariantRef<'de>) -> Result<T> {
    let items = match &value {
        VariantRef::Array(a) => a.items(),
        VariantRef::Dictionary(d) => d.items(),
        VariantRef::Object(ObjectRef::Full(o)) => o.items(),
        _ => return T::deserialize(LeafDe::new(value)),
    };
    let mut de = Deserializer::at(items.dec, items.data, items.header);
    T::deserialize(&mut de)
}
