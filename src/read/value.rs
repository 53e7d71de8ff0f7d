//! `VariantRef`: one decoded value, borrowing from the input.

use crate::math::{
    Aabb, Basis, Color, Plane, Precision, Projection, Quaternion, Rect2, Rect2i, Transform2D,
    Transform3D, Vector2, Vector2i, Vector3, Vector3i, Vector4, Vector4i,
};
use crate::read::array::ArrayRef;
use crate::read::dict::DictRef;
use crate::read::items::Items;
use crate::read::math_ref::MathRef;
use crate::read::node_path::NodePathRef;
use crate::read::object::{ObjectRef, SignalRef};
use crate::read::packed::{PackedReals, PackedRef, PackedStrings};
use crate::read::str_ref::StrRef;
use crate::variant_type::VariantType;

/// A view of one value. Scalars are small copies; real-valued math types, strings, node
/// paths, packed arrays, arrays, dictionaries and objects borrow from the input and decode
/// lazily, which keeps the view small (see `size_of` below) and cheap to hand out per element.
///
/// Real-valued math types ([`MathRef`]) keep the [`Precision`] they were sent with (Godot 4
/// double-precision builds set the 64-bit flag), so re-encoding is byte-exact.
///
/// ```
/// use gdwire::{from_bytes, Dialect, VariantRef, VariantType};
/// let v = from_bytes(Dialect::GODOT_4, &[2, 0, 0, 0, 0xff, 0xff, 0xff, 0xff])?;
/// assert_eq!(v, VariantRef::Int(-1));
/// assert_eq!(v.variant_type(), VariantType::Int);
/// assert!(size_of::<VariantRef>() <= 64);
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[allow(missing_docs)] // each variant is the type of the same name (see `VariantType`)
pub enum VariantRef<'a> {
    Nil,
    Bool(bool),
    /// Sign-extended from 32 bits when sent narrow.
    Int(i64),
    /// Widened from `f32` when sent narrow.
    Float(f64),
    String(StrRef<'a>),
    Vector2(MathRef<'a, Vector2>),
    Vector2i(Vector2i),
    Rect2(MathRef<'a, Rect2>),
    Rect2i(Rect2i),
    Vector3(MathRef<'a, Vector3>),
    Vector3i(Vector3i),
    Transform2D(MathRef<'a, Transform2D>),
    Vector4(MathRef<'a, Vector4>),
    Vector4i(Vector4i),
    Plane(MathRef<'a, Plane>),
    Quaternion(MathRef<'a, Quaternion>),
    Aabb(MathRef<'a, Aabb>),
    Basis(MathRef<'a, Basis>),
    Transform3D(MathRef<'a, Transform3D>),
    Projection(MathRef<'a, Projection>),
    Color(Color),
    StringName(StrRef<'a>),
    NodePath(NodePathRef<'a>),
    /// The RID's id in Godot 4; `None` in dialects whose RID has no payload (Godot 3,
    /// Pandemonium).
    Rid(Option<u64>),
    Object(ObjectRef<'a>),
    /// Only the header is sent; the engine decodes an empty Callable.
    Callable,
    Signal(SignalRef<'a>),
    Dictionary(DictRef<'a>),
    /// Also Pandemonium's TypedArray and PackedTypedArray (see [`ArrayRef::kind`]).
    Array(ArrayRef<'a>),
    PackedByteArray(PackedRef<'a, u8>),
    PackedInt32Array(PackedRef<'a, i32>),
    PackedInt64Array(PackedRef<'a, i64>),
    PackedFloat32Array(PackedRef<'a, f32>),
    PackedFloat64Array(PackedRef<'a, f64>),
    PackedStringArray(PackedStrings<'a>),
    PackedVector2Array(PackedReals<'a, 2>),
    PackedVector3Array(PackedReals<'a, 3>),
    PackedColorArray(PackedRef<'a, [f32; 4]>),
    PackedVector4Array(PackedReals<'a, 4>),
    PackedVector2iArray(PackedRef<'a, [i32; 2]>),
    PackedVector3iArray(PackedRef<'a, [i32; 3]>),
    PackedVector4iArray(PackedRef<'a, [i32; 4]>),
}

impl<'a> VariantRef<'a> {
    /// The logical type.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantType};
    /// // Wire id 14 is a Color in Godot 3 and a Plane in Godot 4.
    /// let bytes = [14, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x3f];
    /// assert_eq!(from_bytes(Dialect::GODOT_3, &bytes)?.variant_type(), VariantType::Color);
    /// assert_eq!(from_bytes(Dialect::GODOT_4, &bytes)?.variant_type(), VariantType::Plane);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn variant_type(&self) -> VariantType {
        use VariantRef as V;
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
            V::Array(a) => a.variant_type(),
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
    /// use gdwire::{from_bytes, Dialect, Precision};
    /// let v = from_bytes(Dialect::GODOT_4, &[5, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40])?;
    /// assert_eq!(v.precision(), Some(Precision::Single));
    /// assert_eq!(from_bytes(Dialect::GODOT_4, &[0, 0, 0, 0])?.precision(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn precision(&self) -> Option<Precision> {
        use VariantRef as V;
        match self {
            V::Vector2(m) => Some(m.precision()),
            V::Rect2(m) => Some(m.precision()),
            V::Vector3(m) => Some(m.precision()),
            V::Transform2D(m) => Some(m.precision()),
            V::Vector4(m) => Some(m.precision()),
            V::Plane(m) => Some(m.precision()),
            V::Quaternion(m) => Some(m.precision()),
            V::Aabb(m) => Some(m.precision()),
            V::Basis(m) => Some(m.precision()),
            V::Transform3D(m) => Some(m.precision()),
            V::Projection(m) => Some(m.precision()),
            V::PackedVector2Array(a) => Some(a.precision()),
            V::PackedVector3Array(a) => Some(a.precision()),
            V::PackedVector4Array(a) => Some(a.precision()),
            _ => None,
        }
    }

    /// True for Nil.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// assert!(from_bytes(Dialect::GODOT_4, &[0, 0, 0, 0])?.is_nil());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_nil(&self) -> bool {
        matches!(self, VariantRef::Nil)
    }

    /// The bool, if this is one.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// assert_eq!(from_bytes(Dialect::GODOT_4, &[1, 0, 0, 0, 1, 0, 0, 0])?.as_bool(), Some(true));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            VariantRef::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The integer, if this is an Int.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// assert_eq!(from_bytes(Dialect::GODOT_4, &[2, 0, 0, 0, 0xff, 0xff, 0xff, 0xff])?.as_int(), Some(-1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn as_int(&self) -> Option<i64> {
        match self {
            VariantRef::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The float, if this is a Float.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// assert_eq!(from_bytes(Dialect::GODOT_4, &[3, 0, 0, 0, 0, 0, 0xc0, 0x3f])?.as_float(), Some(1.5));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn as_float(&self) -> Option<f64> {
        match self {
            VariantRef::Float(f) => Some(*f),
            _ => None,
        }
    }

    /// The string view of a String or StringName.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// let v = from_bytes(Dialect::GODOT_4, &[4, 0, 0, 0, 2, 0, 0, 0, b'h', b'i', 0, 0])?;
    /// assert_eq!(v.as_string().map(|s| s.bytes()), Some(&b"hi"[..]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn as_string(&self) -> Option<StrRef<'a>> {
        match self {
            VariantRef::String(s) | VariantRef::StringName(s) => Some(*s),
            _ => None,
        }
    }

    /// The text of a String or StringName, if it is strict UTF-8.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// let v = from_bytes(Dialect::GODOT_4, &[4, 0, 0, 0, 2, 0, 0, 0, b'h', b'i', 0, 0])?;
    /// assert_eq!(v.as_str(), Some("hi"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn as_str(&self) -> Option<&'a str> {
        self.as_string()?.as_str()
    }

    /// The array view (also Pandemonium typed arrays).
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// let v = from_bytes(Dialect::GODOT_4, &[28, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0])?; // [null]
    /// assert_eq!(v.as_array().map(|a| a.len()), Some(1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn as_array(&self) -> Option<ArrayRef<'a>> {
        match self {
            VariantRef::Array(a) => Some(*a),
            _ => None,
        }
    }

    /// The dictionary view.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// let v = from_bytes(Dialect::GODOT_4, &[27, 0, 0, 0, 0, 0, 0, 0])?; // {}
    /// assert_eq!(v.as_dictionary().map(|d| d.len()), Some(0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn as_dictionary(&self) -> Option<DictRef<'a>> {
        match self {
            VariantRef::Dictionary(d) => Some(*d),
            _ => None,
        }
    }

    /// The node path view.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// // NodePath("a"): new format, 1 name, 0 subnames, relative.
    /// let bytes = [22, 0, 0, 0, 1, 0, 0, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, b'a', 0, 0, 0];
    /// let path = from_bytes(Dialect::GODOT_4, &bytes)?.as_node_path().unwrap();
    /// assert_eq!(path.name_count(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn as_node_path(&self) -> Option<NodePathRef<'a>> {
        match self {
            VariantRef::NodePath(p) => Some(*p),
            _ => None,
        }
    }

    /// The object view.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, ObjectRef};
    /// // An object sent as its instance id (bit 16 set).
    /// let v = from_bytes(Dialect::GODOT_4, &[24, 0, 1, 0, 7, 0, 0, 0, 0, 0, 0, 0])?;
    /// assert_eq!(v.as_object(), Some(ObjectRef::Id(7)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn as_object(&self) -> Option<ObjectRef<'a>> {
        match self {
            VariantRef::Object(o) => Some(*o),
            _ => None,
        }
    }

    /// A container's items (Array, Dictionary, full Object); `None` for anything else.
    #[inline]
    pub(crate) fn items(&self) -> Option<&Items<'a>> {
        match self {
            VariantRef::Array(a) => Some(a.items()),
            VariantRef::Dictionary(d) => Some(d.items()),
            VariantRef::Object(ObjectRef::Full(o)) => Some(o.items()),
            _ => None,
        }
    }

    /// Notes that this container view's bytes, from its header to the end of its data, are
    /// canonical, as the decode that made it found (`Items::canonical`).
    #[inline(always)]
    pub(crate) fn note_canonical(&mut self) {
        match self {
            VariantRef::Array(a) => a.items_mut().canonical = true,
            VariantRef::Dictionary(d) => d.items_mut().canonical = true,
            _ => {}
        }
    }

    /// Marks a container view's items as not validated (a child of a Walker's `Begin` view).
    #[cold]
    pub(crate) fn mark_unchecked(&mut self) {
        match self {
            VariantRef::Array(a) => a.items_mut().checked = false,
            VariantRef::Dictionary(d) => d.items_mut().checked = false,
            VariantRef::Object(ObjectRef::Full(o)) => o.items_mut().checked = false,
            _ => {}
        }
    }
}
