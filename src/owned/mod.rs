//! Owned values (feature `alloc`): [`Variant`], a value that owns its data, for values that
//! must outlive the buffer they were read from or that are built by hand.
//!
//! - From bytes: [`Variant::from_bytes`] / [`Decoder::decode_owned`](crate::Decoder::decode_owned)
//!   validate and build in one linear pass; from a view: [`VariantRef::to_owned`] (or
//!   `Variant::from(view)`).
//! - To bytes: [`Variant::to_vec`], [`Variant::to_slice`], or
//!   [`Writer::variant`](crate::Writer::variant) inside a larger value. Output is what the
//!   engine writes, so engine bytes decode to a `Variant` and re-encode byte for byte.
//! - A view of an owned value: encode it, then decode the bytes
//!   (`from_bytes(d, &v.to_vec(d)?)`); that costs one encode, and the views then borrow
//!   from the bytes. There is no zero-cost way: views read wire bytes.
//! - Text: [`Variant::display`] / [`Variant::to_text`] give the engine's text form in a
//!   chosen dialect (`var_to_str`), through [`crate::text`].
//!
//! Nothing is lost: a `Variant` keeps what the views expose, so `to_owned` then `to_vec`
//! writes what `to_vec` of the view writes. Strings keep their bytes ([`GString`]: Godot 3
//! text that is not UTF-8, a BOM, bytes after a NUL); real math types and packed vector
//! arrays keep their [`Precision`]; typed arrays and dictionaries keep their element types;
//! node paths keep their flags word; dictionaries keep duplicate keys and order.
//!
//! Equality and `Debug` are the views' (`a.to_owned() == b.to_owned()` exactly when
//! `a == b`, and `format!("{:?}")` prints the same text, `{:#?}` too). Building, cloning,
//! comparing, printing, encoding and dropping do not recurse per nesting level, so values
//! 1024 levels deep (the engine's limit) are fine on small thread stacks.
//!
//! ```
//! use gdwire::owned::{Dictionary, Variant};
//! use gdwire::math::Vector3;
//! use gdwire::Dialect;
//!
//! // Build a reply by hand.
//! let mut reply = Dictionary::new();
//! reply.insert("pos", Vector3 { x: 1.0, y: 2.0, z: 3.0 });
//! reply.insert("name", "Ann");
//! reply.insert("inv", vec![1i32, 2, 3]); // PackedInt32Array
//! let reply = Variant::from(reply);
//! let bytes = reply.to_vec(Dialect::GODOT_4)?;
//!
//! // Read it back, keep it past the buffer's life.
//! let owned = Variant::from_bytes(Dialect::GODOT_4, &bytes)?;
//! drop(bytes);
//! assert_eq!(owned, reply);
//! assert_eq!(owned.get("name").and_then(Variant::as_str), Some("Ann"));
//! assert_eq!(
//!     owned.display(Dialect::GODOT_4).to_string(),
//!     "{\n\"inv\": PackedInt32Array(1, 2, 3),\n\"name\": \"Ann\",\n\"pos\": Vector3(1, 2, 3)\n}"
//! );
//! # Ok::<(), gdwire::Error>(())
//! ```

mod array;
mod convert;
mod debug;
mod dictionary;
mod display;
mod encode;
mod eq;
mod parts;
mod string;
pub(crate) mod tree;

use alloc::boxed::Box;
use alloc::vec::Vec;

pub use array::Array;
pub use dictionary::Dictionary;
pub use display::Text;
pub use parts::{ElementType, FullObject, NodePath, Object, PackedVectors, Signal};
pub use string::GString;

use crate::math::{
    Aabb, Basis, Color, Plane, Precision, Projection, Quaternion, Rect2, Rect2i, Transform2D,
    Transform3D, Vector2, Vector2i, Vector3, Vector3i, Vector4, Vector4i,
};
use crate::read::ArrayKind;
#[cfg(doc)]
use crate::read::VariantRef;
use crate::variant_type::VariantType;

/// An owned value of any type of any dialect: the owned twin of [`VariantRef`].
///
/// Real-valued math types carry the [`Precision`] they are sent with (`Single` unless a
/// Godot 4 double-precision build sent them); the five largest are boxed so that a
/// `Variant` stays 40 bytes. Pandemonium's `TypedArray` and `PackedTypedArray` are
/// [`Array`]s of that [`ArrayKind`], as in the views.
///
/// ```
/// use gdwire::owned::Variant;
/// use gdwire::{from_bytes, Dialect};
///
/// let bytes = [2, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]; // -1
/// let view = from_bytes(Dialect::GODOT_4, &bytes)?;
/// let owned: Variant = view.to_owned();
/// assert_eq!(owned, Variant::Int(-1));
/// assert_eq!(owned.to_vec(Dialect::GODOT_4)?, bytes);
/// assert_eq!(format!("{owned:?}"), format!("{view:?}"));
/// assert!(size_of::<Variant>() <= 40);
/// # Ok::<(), gdwire::Error>(())
/// ```
#[allow(missing_docs)] // each variant is the type of the same name (see `VariantType`)
pub enum Variant {
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    String(GString),
    Vector2(Vector2, Precision),
    Vector2i(Vector2i),
    Rect2(Rect2, Precision),
    Rect2i(Rect2i),
    Vector3(Vector3, Precision),
    Vector3i(Vector3i),
    Transform2D(Box<Transform2D>, Precision),
    Vector4(Vector4, Precision),
    Vector4i(Vector4i),
    Plane(Plane, Precision),
    Quaternion(Quaternion, Precision),
    Aabb(Box<Aabb>, Precision),
    Basis(Box<Basis>, Precision),
    Transform3D(Box<Transform3D>, Precision),
    Projection(Box<Projection>, Precision),
    Color(Color),
    StringName(GString),
    NodePath(NodePath),
    /// The RID's id in Godot 4; `None` where the RID has no payload (Godot 3, Pandemonium).
    Rid(Option<u64>),
    Object(Object),
    /// Only the header is sent; the engine decodes an empty Callable.
    Callable,
    Signal(Signal),
    Dictionary(Dictionary),
    /// Also Pandemonium's TypedArray and PackedTypedArray (see [`Array::kind`]).
    Array(Array),
    PackedByteArray(Vec<u8>),
    PackedInt32Array(Vec<i32>),
    PackedInt64Array(Vec<i64>),
    PackedFloat32Array(Vec<f32>),
    PackedFloat64Array(Vec<f64>),
    PackedStringArray(Vec<GString>),
    PackedVector2Array(PackedVectors<2>),
    PackedVector3Array(PackedVectors<3>),
    PackedColorArray(Vec<[f32; 4]>),
    PackedVector4Array(PackedVectors<4>),
    PackedVector2iArray(Vec<[i32; 2]>),
    PackedVector3iArray(Vec<[i32; 3]>),
    PackedVector4iArray(Vec<[i32; 4]>),
}

impl Default for Variant {
    /// `Nil`.
    fn default() -> Variant {
        Variant::Nil
    }
}

impl Variant {
    /// The logical type.
    ///
    /// ```
    /// use gdwire::owned::Variant;
    /// assert_eq!(Variant::from("a").variant_type(), gdwire::VariantType::String);
    /// ```
    pub fn variant_type(&self) -> VariantType {
        use Variant as V;
        use VariantType as T;
        match self {
            V::Nil => T::Nil,
            V::Bool(_) => T::Bool,
            V::Int(_) => T::Int,
            V::Float(_) => T::Float,
            V::String(_) => T::String,
            V::Vector2(..) => T::Vector2,
            V::Vector2i(_) => T::Vector2i,
            V::Rect2(..) => T::Rect2,
            V::Rect2i(_) => T::Rect2i,
            V::Vector3(..) => T::Vector3,
            V::Vector3i(_) => T::Vector3i,
            V::Transform2D(..) => T::Transform2D,
            V::Vector4(..) => T::Vector4,
            V::Vector4i(_) => T::Vector4i,
            V::Plane(..) => T::Plane,
            V::Quaternion(..) => T::Quaternion,
            V::Aabb(..) => T::Aabb,
            V::Basis(..) => T::Basis,
            V::Transform3D(..) => T::Transform3D,
            V::Projection(..) => T::Projection,
            V::Color(_) => T::Color,
            V::StringName(_) => T::StringName,
            V::NodePath(_) => T::NodePath,
            V::Rid(_) => T::Rid,
            V::Object(_) => T::Object,
            V::Callable => T::Callable,
            V::Signal(_) => T::Signal,
            V::Dictionary(_) => T::Dictionary,
            V::Array(a) => match a.kind() {
                ArrayKind::Array => T::Array,
                ArrayKind::TypedArray => T::TypedArray,
                ArrayKind::PackedTypedArray => T::PackedTypedArray,
            },
            V::PackedByteArray(_) => T::PackedByteArray,
            V::PackedInt32Array(_) => T::PackedInt32Array,
            V::PackedInt64Array(_) => T::PackedInt64Array,
            V::PackedFloat32Array(_) => T::PackedFloat32Array,
            V::PackedFloat64Array(_) => T::PackedFloat64Array,
            V::PackedStringArray(_) => T::PackedStringArray,
            V::PackedVector2Array(_) => T::PackedVector2Array,
            V::PackedVector3Array(_) => T::PackedVector3Array,
            V::PackedColorArray(_) => T::PackedColorArray,
            V::PackedVector4Array(_) => T::PackedVector4Array,
            V::PackedVector2iArray(_) => T::PackedVector2iArray,
            V::PackedVector3iArray(_) => T::PackedVector3iArray,
            V::PackedVector4iArray(_) => T::PackedVector4iArray,
        }
    }

    /// The precision of a real-valued math type or packed vector array; `None` otherwise.
    ///
    /// ```
    /// use gdwire::math::{Precision, Vector2};
    /// let v = gdwire::owned::Variant::Vector2(Vector2 { x: 0.1, y: 0.0 }, Precision::Double);
    /// assert_eq!(v.precision(), Some(Precision::Double));
    /// ```
    pub fn precision(&self) -> Option<Precision> {
        use Variant as V;
        match self {
            V::Vector2(_, p)
            | V::Rect2(_, p)
            | V::Vector3(_, p)
            | V::Transform2D(_, p)
            | V::Vector4(_, p)
            | V::Plane(_, p)
            | V::Quaternion(_, p)
            | V::Aabb(_, p)
            | V::Basis(_, p)
            | V::Transform3D(_, p)
            | V::Projection(_, p) => Some(*p),
            V::PackedVector2Array(a) => Some(a.precision()),
            V::PackedVector3Array(a) => Some(a.precision()),
            V::PackedVector4Array(a) => Some(a.precision()),
            _ => None,
        }
    }

    /// True for Nil.
    ///
    /// ```
    /// assert!(gdwire::owned::Variant::Nil.is_nil());
    /// ```
    pub fn is_nil(&self) -> bool {
        matches!(self, Variant::Nil)
    }

    /// The bool, if this is one.
    ///
    /// ```
    /// assert_eq!(gdwire::owned::Variant::from(true).as_bool(), Some(true));
    /// ```
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Variant::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The integer, if this is an Int.
    ///
    /// ```
    /// assert_eq!(gdwire::owned::Variant::from(7u8).as_int(), Some(7));
    /// ```
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Variant::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The float, if this is a Float.
    ///
    /// ```
    /// assert_eq!(gdwire::owned::Variant::from(0.5).as_float(), Some(0.5));
    /// ```
    pub fn as_float(&self) -> Option<f64> {
        match self {
            Variant::Float(f) => Some(*f),
            _ => None,
        }
    }

    /// The string of a String or StringName.
    ///
    /// ```
    /// assert_eq!(gdwire::owned::Variant::from("a").as_string().unwrap(), "a");
    /// ```
    pub fn as_string(&self) -> Option<&GString> {
        match self {
            Variant::String(s) | Variant::StringName(s) => Some(s),
            _ => None,
        }
    }

    /// The text of a String or StringName, if it is strict UTF-8.
    ///
    /// ```
    /// assert_eq!(gdwire::owned::Variant::from("a").as_str(), Some("a"));
    /// ```
    pub fn as_str(&self) -> Option<&str> {
        self.as_string()?.as_str()
    }

    /// The array (also Pandemonium typed arrays).
    ///
    /// ```
    /// let v = gdwire::owned::Variant::from(vec![gdwire::owned::Variant::Int(1)]);
    /// assert_eq!(v.as_array().map(|a| a.len()), Some(1));
    /// ```
    pub fn as_array(&self) -> Option<&Array> {
        match self {
            Variant::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The array, to change.
    ///
    /// ```
    /// let mut v = gdwire::owned::Variant::from(Vec::<gdwire::owned::Variant>::new());
    /// v.as_array_mut().unwrap().push(1.into());
    /// ```
    pub fn as_array_mut(&mut self) -> Option<&mut Array> {
        match self {
            Variant::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The dictionary.
    ///
    /// ```
    /// let v = gdwire::owned::Variant::from(gdwire::owned::Dictionary::new());
    /// assert!(v.as_dictionary().is_some());
    /// ```
    pub fn as_dictionary(&self) -> Option<&Dictionary> {
        match self {
            Variant::Dictionary(d) => Some(d),
            _ => None,
        }
    }

    /// The dictionary, to change.
    ///
    /// ```
    /// let mut v = gdwire::owned::Variant::from(gdwire::owned::Dictionary::new());
    /// v.as_dictionary_mut().unwrap().insert("a", 1);
    /// ```
    pub fn as_dictionary_mut(&mut self) -> Option<&mut Dictionary> {
        match self {
            Variant::Dictionary(d) => Some(d),
            _ => None,
        }
    }

    /// The node path.
    ///
    /// ```
    /// let v = gdwire::owned::Variant::from(gdwire::owned::NodePath::parse("a").unwrap());
    /// assert!(v.as_node_path().is_some());
    /// ```
    pub fn as_node_path(&self) -> Option<&NodePath> {
        match self {
            Variant::NodePath(p) => Some(p),
            _ => None,
        }
    }

    /// The object.
    ///
    /// ```
    /// let v = gdwire::owned::Variant::Object(gdwire::owned::Object::Id(5));
    /// assert!(v.as_object().is_some());
    /// ```
    pub fn as_object(&self) -> Option<&Object> {
        match self {
            Variant::Object(o) => Some(o),
            _ => None,
        }
    }

    /// In a Dictionary, the value of the last entry whose key equals `key` (see
    /// [`Dictionary::get`]); `None` for other types.
    ///
    /// ```
    /// use gdwire::owned::{Dictionary, Variant};
    /// let v = Variant::from([("hp", 100)].into_iter().collect::<Dictionary>());
    /// assert_eq!(v.get("hp"), Some(&Variant::Int(100)));
    /// ```
    pub fn get<K: ?Sized>(&self, key: &K) -> Option<&Variant>
    where
        Variant: PartialEq<K>,
    {
        self.as_dictionary()?.get(key)
    }

    /// True for the values that hold other values (arrays, dictionaries, full objects).
    pub(crate) fn is_container(&self) -> bool {
        matches!(
            self,
            Variant::Array(_) | Variant::Dictionary(_) | Variant::Object(Object::Full(_))
        )
    }
}

impl PartialEq<str> for Variant {
    /// A String or StringName with this text.
    fn eq(&self, other: &str) -> bool {
        matches!(self, Variant::String(s) | Variant::StringName(s) if s == other)
    }
}

impl PartialEq<&str> for Variant {
    /// A String or StringName with this text.
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

impl PartialEq<i64> for Variant {
    /// An Int with this value.
    fn eq(&self, other: &i64) -> bool {
        matches!(self, Variant::Int(i) if i == other)
    }
}
