//! Packed arrays: borrowed views ([`PackedRef`]) as fields, and `#[serde(with = "…")]` for
//! `Vec`s that must be written as a packed array.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, Visitor};
use serde::ser::{self, Serializer};

use crate::math::{Color, Vector2, Vector2i, Vector3, Vector3i, Vector4, Vector4i};
use crate::read::{Element, PackedRef};

mod sealed {
    pub trait Sealed {}
}

/// An element type whose [`PackedRef`] can be a serde field: the element says which packed
/// type (and, for real vectors, which precision) the view must be.
///
/// | element | packed type |
/// |---|---|
/// | `u8` | PackedByteArray |
/// | `i32`, `i64` | PackedInt32Array, PackedInt64Array |
/// | `f32`, `f64` | PackedFloat32Array, PackedFloat64Array |
/// | `[f32; 2]`, `[f32; 3]` | PackedVector2Array, PackedVector3Array (single precision) |
/// | `[f64; 2]`, `[f64; 3]`, `[f64; 4]` | PackedVector2/3/4Array (double precision) |
/// | `[f32; 4]` | PackedColorArray |
/// | `[i32; 2]`, `[i32; 3]`, `[i32; 4]` | PackedVector2i/3i/4iArray |
///
/// ```
/// use gdwire::{Dialect, PackedRef};
///
/// // Godot 4.6's var_to_bytes(PackedVector2Array([Vector2(1, 2)])).
/// let bytes = [0x23,0,0,0, 1,0,0,0, 0,0,0x80,0x3f, 0,0,0,0x40];
/// let points: PackedRef<'_, [f32; 2]> = gdwire::serde::from_bytes(Dialect::GODOT_4, &bytes)?;
/// assert_eq!(points.iter().collect::<Vec<_>>(), [[1.0, 2.0]]);
/// // The element decides the packed type: a PackedInt64Array is not one.
/// assert!(gdwire::serde::from_bytes::<PackedRef<'_, i64>>(Dialect::GODOT_4, &bytes).is_err());
/// # Ok::<(), gdwire::serde::Error>(())
/// ```
pub trait PackedView: Element + sealed::Sealed {
    #[doc(hidden)]
    const VIEW_MARKER: &'static str;
}

macro_rules! view {
    ($($t:ty => $name:literal),*) => {$(
        impl sealed::Sealed for $t {}
        impl PackedView for $t {
            const VIEW_MARKER: &'static str = concat!("$gdwire::view::", $name);
        }
    )*};
}

view!(
    u8 => "PackedByteArray", i32 => "PackedInt32Array", i64 => "PackedInt64Array",
    f32 => "PackedFloat32Array", f64 => "PackedFloat64Array",
    [f32; 2] => "PackedVector2Array", [f32; 3] => "PackedVector3Array",
    [f64; 2] => "PackedVector2Array/f64", [f64; 3] => "PackedVector3Array/f64",
    [f64; 4] => "PackedVector4Array/f64", [f32; 4] => "PackedColorArray",
    [i32; 2] => "PackedVector2iArray", [i32; 3] => "PackedVector3iArray",
    [i32; 4] => "PackedVector4iArray"
);

struct Bytes<'a>(&'a [u8]);

impl ser::Serialize for Bytes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

/// Feature `serde`: written as the same packed type, element bytes copied as they are (no
/// re-encoding); other formats see the little-endian element bytes.
impl<T: PackedView> ser::Serialize for PackedRef<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct(T::VIEW_MARKER, &Bytes(self.as_bytes()))
    }
}

/// Feature `serde`: borrows the elements from the input, no copy. Only this crate's
/// deserializer (or any format that hands out borrowed bytes) can provide one.
///
/// ```
/// use serde::Deserialize;
/// use gdwire::{Dialect, PackedRef};
///
/// #[derive(Deserialize)]
/// struct Mesh<'a> {
///     #[serde(borrow)]
///     indices: PackedRef<'a, i32>,
/// }
///
/// // {"indices": PackedInt32Array([0, 1, 2])} in Godot 4.
/// let bytes = [
///     0x1b,0,0,0, 1,0,0,0, 4,0,0,0, 7,0,0,0, b'i',b'n',b'd',b'i',b'c',b'e',b's',0,
///     30,0,0,0, 3,0,0,0, 0,0,0,0, 1,0,0,0, 2,0,0,0,
/// ];
/// let mesh: Mesh = gdwire::serde::from_bytes(Dialect::GODOT_4, &bytes)?;
/// assert_eq!(mesh.indices.iter().collect::<Vec<_>>(), [0, 1, 2]);
/// # Ok::<(), gdwire::serde::Error>(())
/// ```
impl<'de: 'a, 'a, T: PackedView> de::Deserialize<'de> for PackedRef<'a, T> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_newtype_struct(T::VIEW_MARKER, ViewVisitor(PhantomData))
    }
}

struct ViewVisitor<'a, T>(PhantomData<(&'a (), T)>);

impl<'de: 'a, 'a, T: PackedView> Visitor<'de> for ViewVisitor<'a, T> {
    type Value = PackedRef<'a, T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = T::VIEW_MARKER.trim_start_matches("$gdwire::view::");
        write!(f, "a {}", name.replace("/f64", " (double precision)"))
    }

    fn visit_newtype_struct<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_bytes(self)
    }

    fn visit_borrowed_bytes<E: de::Error>(self, b: &'de [u8]) -> Result<Self::Value, E> {
        if b.len() % T::SIZE != 0 {
            return Err(E::invalid_length(b.len(), &self));
        }
        Ok(PackedRef::new(b))
    }
}

/// An element type of [`packed`]: which packed array a `Vec` of it is written as.
///
/// ```
/// use serde::Serialize;
/// use gdwire::math::Vector2;
/// use gdwire::Dialect;
///
/// #[derive(Serialize)]
/// struct Path(#[serde(with = "gdwire::serde::packed")] Vec<Vector2>);
///
/// let bytes = gdwire::serde::to_vec(Dialect::GODOT_4, &Path(vec![Vector2 { x: 1.0, y: 2.0 }]))?;
/// // Godot 4.6's var_to_bytes(PackedVector2Array([Vector2(1, 2)])).
/// assert_eq!(bytes, [0x23,0,0,0, 1,0,0,0, 0,0,0x80,0x3f, 0,0,0,0x40]);
/// # Ok::<(), gdwire::serde::Error>(())
/// ```
pub trait PackedElement: ser::Serialize + sealed_elem::Sealed {
    #[doc(hidden)]
    const PACKED_MARKER: &'static str;
}

mod sealed_elem {
    pub trait Sealed {}
}

macro_rules! elem {
    ($($t:ty => $name:literal),*) => {$(
        impl sealed_elem::Sealed for $t {}
        impl PackedElement for $t {
            const PACKED_MARKER: &'static str = concat!("$gdwire::packed::", $name);
        }
    )*};
}

elem!(
    u8 => "PackedByteArray", i32 => "PackedInt32Array", i64 => "PackedInt64Array",
    f32 => "PackedFloat32Array", f64 => "PackedFloat64Array", String => "PackedStringArray",
    Vector2 => "PackedVector2Array", Vector3 => "PackedVector3Array",
    Vector4 => "PackedVector4Array", Color => "PackedColorArray",
    Vector2i => "PackedVector2iArray", Vector3i => "PackedVector3iArray",
    Vector4i => "PackedVector4iArray"
);
// Godot 3 strings that are not UTF-8 too.
impl sealed_elem::Sealed for crate::owned::GString {}
impl PackedElement for crate::owned::GString {
    const PACKED_MARKER: &'static str = "$gdwire::packed::PackedStringArray";
}
impl sealed_elem::Sealed for &str {}
impl PackedElement for &str {
    const PACKED_MARKER: &'static str = "$gdwire::packed::PackedStringArray";
}

/// `#[serde(with = "gdwire::serde::packed")]` on a `Vec<T>` field: written as the packed
/// array of `T` ([`PackedElement`]: `Vec<i32>` → PackedInt32Array, `Vec<Vector3>` →
/// PackedVector3Array, `Vec<String>` → PackedStringArray, …) instead of an Array; read from
/// the packed array or an Array. Other formats see a plain sequence.
///
/// ```
/// use serde::{Deserialize, Serialize};
/// use gdwire::{Dialect, VariantRef};
///
/// #[derive(Serialize, Deserialize, PartialEq, Debug)]
/// struct Inventory {
///     #[serde(with = "gdwire::serde::packed")]
///     items: Vec<i32>,
/// }
///
/// let inv = Inventory { items: vec![3, 1, 4] };
/// let bytes = gdwire::serde::to_vec(Dialect::GODOT_4, &inv)?;
/// let dict = gdwire::from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
/// assert!(matches!(dict.get_str("items")?, Some(VariantRef::PackedInt32Array(_))));
/// assert_eq!(gdwire::serde::from_bytes::<Inventory>(Dialect::GODOT_4, &bytes)?, inv);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub mod packed {
    use super::*;

    /// Writes `items` as the packed array of `T`.
    ///
    /// ```
    /// use serde::Serialize;
    /// use gdwire::Dialect;
    ///
    /// #[derive(Serialize)]
    /// struct Scores(#[serde(serialize_with = "gdwire::serde::packed::serialize")] Vec<i64>);
    ///
    /// let bytes = gdwire::serde::to_vec(Dialect::GODOT_4, &Scores(vec![0, -1]))?;
    /// // Godot 4.6's var_to_bytes(PackedInt64Array([0, -1])).
    /// assert_eq!(bytes, [
    ///     0x1f,0,0,0, 2,0,0,0, 0,0,0,0,0,0,0,0, 0xff,0xff,0xff,0xff,0xff,0xff,0xff,0xff,
    /// ]);
    /// # Ok::<(), gdwire::serde::Error>(())
    /// ```
    pub fn serialize<T: PackedElement, S: Serializer>(
        items: &[T],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct(T::PACKED_MARKER, items)
    }

    /// Reads a packed array (or an Array) of `T`.
    ///
    /// ```
    /// use serde::Deserialize;
    /// use gdwire::Dialect;
    ///
    /// #[derive(Deserialize)]
    /// struct Scores(#[serde(deserialize_with = "gdwire::serde::packed::deserialize")] Vec<i64>);
    ///
    /// // Godot 4.6's var_to_bytes(PackedInt64Array([0, -1])).
    /// let packed = [
    ///     0x1f,0,0,0, 2,0,0,0, 0,0,0,0,0,0,0,0, 0xff,0xff,0xff,0xff,0xff,0xff,0xff,0xff,
    /// ];
    /// let scores: Scores = gdwire::serde::from_bytes(Dialect::GODOT_4, &packed)?;
    /// assert_eq!(scores.0, [0, -1]);
    /// // An Array reads too, if its elements fit: var_to_bytes([]) and var_to_bytes([1, "a"]).
    /// let empty = [0x1c,0,0,0, 0,0,0,0];
    /// assert!(gdwire::serde::from_bytes::<Scores>(Dialect::GODOT_4, &empty)?.0.is_empty());
    /// let array = [0x1c,0,0,0, 2,0,0,0, 2,0,0,0, 1,0,0,0, 4,0,0,0, 1,0,0,0, b'a',0,0,0];
    /// assert!(gdwire::serde::from_bytes::<Scores>(Dialect::GODOT_4, &array).is_err()); // "a"
    /// # Ok::<(), gdwire::serde::Error>(())
    /// ```
    pub fn deserialize<'de, T: de::Deserialize<'de>, D: de::Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<T>, D::Error> {
        de::Deserialize::deserialize(d)
    }
}
