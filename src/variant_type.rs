//! The logical type of a value, shared by every dialect.
//!
//! Wire ids differ between Godot 3, Godot 4 and the Pandemonium generations;
//! [`VariantType`] is the dialect-free name. [`crate::Dialect`] maps between the two.

use core::fmt;

/// Every value type of every supported dialect.
///
/// Names follow Godot 4 where a type exists there (`Float`, `Quaternion`, `Transform3D`,
/// `PackedInt32Array`, …); the Godot 3 / Pandemonium spelling is given by
/// [`crate::Dialect::type_name`]. The discriminant is crate-internal and **not** a wire id.
///
/// ```
/// use gdwire::{from_bytes, Dialect, VariantType};
/// let v = from_bytes(Dialect::GODOT_3, &[21, 0, 0, 0, 0, 0, 0, 0])?; // PoolIntArray()
/// assert_eq!(v.variant_type(), VariantType::PackedInt32Array);
/// assert_eq!(VariantType::PackedInt32Array.name(), "PackedInt32Array");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum VariantType {
    /// `null`.
    Nil,
    /// `bool`.
    Bool,
    /// 64-bit signed integer (32-bit on the wire when it fits).
    Int,
    /// IEEE-754 double (32-bit on the wire when exact). Godot 3 calls it `REAL`.
    Float,
    /// UTF-8 text.
    String,
    /// 2D vector of reals.
    Vector2,
    /// 2D vector of `i32` (Godot 4, Pandemonium).
    Vector2i,
    /// Rectangle of reals: position, size.
    Rect2,
    /// Rectangle of `i32` (Godot 4, Pandemonium).
    Rect2i,
    /// 3D vector of reals.
    Vector3,
    /// 3D vector of `i32` (Godot 4, Pandemonium).
    Vector3i,
    /// 2D affine transform: x, y and origin columns.
    Transform2D,
    /// 4D vector of reals (Godot 4, Pandemonium 3.8+).
    Vector4,
    /// 4D vector of `i32` (Godot 4, Pandemonium 3.8+).
    Vector4i,
    /// Plane: normal and distance.
    Plane,
    /// Quaternion (Godot 3: `Quat`).
    Quaternion,
    /// Axis-aligned bounding box: position, size.
    Aabb,
    /// 3x3 matrix, stored as rows.
    Basis,
    /// 3D affine transform (Godot 3: `Transform`).
    Transform3D,
    /// 4x4 projection matrix, stored as columns (Godot 4, Pandemonium 3.8+).
    Projection,
    /// RGBA colour, always `f32`.
    Color,
    /// Interned string (Godot 4, Pandemonium).
    StringName,
    /// Scene-tree path.
    NodePath,
    /// Resource id.
    Rid,
    /// Engine object: an instance id, or a full class-and-properties dump.
    Object,
    /// Callable (Godot 4; only the header is sent).
    Callable,
    /// Signal: name and object id (Godot 4).
    Signal,
    /// Key/value map in insertion order.
    Dictionary,
    /// Heterogeneous list, optionally typed (Godot 4.3+).
    Array,
    /// Pandemonium 5 `TypedArray`.
    TypedArray,
    /// Pandemonium 5 `PackedTypedArray`.
    PackedTypedArray,
    /// Bytes (Godot 3: `PoolByteArray`).
    PackedByteArray,
    /// `i32` elements (Godot 3: `PoolIntArray`).
    PackedInt32Array,
    /// `i64` elements (Godot 4).
    PackedInt64Array,
    /// `f32` elements (Godot 3: `PoolRealArray`).
    PackedFloat32Array,
    /// `f64` elements (Godot 4).
    PackedFloat64Array,
    /// Strings (Godot 3: `PoolStringArray`).
    PackedStringArray,
    /// 2D vectors (`f32`, or `f64` when flagged in Godot 4).
    PackedVector2Array,
    /// 2D integer vectors (Pandemonium `PoolVector2iArray`).
    PackedVector2iArray,
    /// 3D vectors (`f32`, or `f64` when flagged in Godot 4).
    PackedVector3Array,
    /// 3D integer vectors (Pandemonium `PoolVector3iArray`).
    PackedVector3iArray,
    /// Colours, always `f32`.
    PackedColorArray,
    /// 4D vectors (Godot 4.3+, Pandemonium 3.8+).
    PackedVector4Array,
    /// 4D integer vectors (Pandemonium 3.8+ `PoolVector4iArray`).
    PackedVector4iArray,
}

impl VariantType {
    /// Number of logical types.
    ///
    /// ```
    /// use gdwire::VariantType;
    /// assert_eq!(VariantType::ALL.len(), VariantType::COUNT);
    /// ```
    pub const COUNT: usize = VariantType::PackedVector4iArray as usize + 1;

    /// Every logical type, in discriminant order.
    ///
    /// ```
    /// use gdwire::VariantType;
    /// assert_eq!(VariantType::ALL[0], VariantType::Nil);
    /// assert!(VariantType::ALL.iter().any(|t| *t == VariantType::Callable));
    /// ```
    pub const ALL: [VariantType; Self::COUNT] = {
        use VariantType::*;
        [
            Nil,
            Bool,
            Int,
            Float,
            String,
            Vector2,
            Vector2i,
            Rect2,
            Rect2i,
            Vector3,
            Vector3i,
            Transform2D,
            Vector4,
            Vector4i,
            Plane,
            Quaternion,
            Aabb,
            Basis,
            Transform3D,
            Projection,
            Color,
            StringName,
            NodePath,
            Rid,
            Object,
            Callable,
            Signal,
            Dictionary,
            Array,
            TypedArray,
            PackedTypedArray,
            PackedByteArray,
            PackedInt32Array,
            PackedInt64Array,
            PackedFloat32Array,
            PackedFloat64Array,
            PackedStringArray,
            PackedVector2Array,
            PackedVector2iArray,
            PackedVector3Array,
            PackedVector3iArray,
            PackedColorArray,
            PackedVector4Array,
            PackedVector4iArray,
        ]
    };

    /// The Godot 4 spelling (`"PackedVector3Array"`, `"Transform3D"`, …).
    ///
    /// ```
    /// use gdwire::VariantType;
    /// assert_eq!(VariantType::Transform3D.name(), "Transform3D");
    /// ```
    pub const fn name(self) -> &'static str {
        use VariantType::*;
        match self {
            Nil => "Nil",
            Bool => "bool",
            Int => "int",
            Float => "float",
            String => "String",
            Vector2 => "Vector2",
            Vector2i => "Vector2i",
            Rect2 => "Rect2",
            Rect2i => "Rect2i",
            Vector3 => "Vector3",
            Vector3i => "Vector3i",
            Transform2D => "Transform2D",
            Vector4 => "Vector4",
            Vector4i => "Vector4i",
            Plane => "Plane",
            Quaternion => "Quaternion",
            Aabb => "AABB",
            Basis => "Basis",
            Transform3D => "Transform3D",
            Projection => "Projection",
            Color => "Color",
            StringName => "StringName",
            NodePath => "NodePath",
            Rid => "RID",
            Object => "Object",
            Callable => "Callable",
            Signal => "Signal",
            Dictionary => "Dictionary",
            Array => "Array",
            TypedArray => "TypedArray",
            PackedTypedArray => "PackedTypedArray",
            PackedByteArray => "PackedByteArray",
            PackedInt32Array => "PackedInt32Array",
            PackedInt64Array => "PackedInt64Array",
            PackedFloat32Array => "PackedFloat32Array",
            PackedFloat64Array => "PackedFloat64Array",
            PackedStringArray => "PackedStringArray",
            PackedVector2Array => "PackedVector2Array",
            PackedVector2iArray => "PackedVector2iArray",
            PackedVector3Array => "PackedVector3Array",
            PackedVector3iArray => "PackedVector3iArray",
            PackedColorArray => "PackedColorArray",
            PackedVector4Array => "PackedVector4Array",
            PackedVector4iArray => "PackedVector4iArray",
        }
    }

    /// Number of real (`f32`/`f64`) components of a fixed-size math type, `None` otherwise.
    ///
    /// These are the types whose width follows header bit 16 in Godot 4 (Color excluded: it is
    /// always `f32`).
    ///
    /// ```
    /// use gdwire::VariantType;
    /// assert_eq!(VariantType::Transform3D.real_components(), Some(12));
    /// assert_eq!(VariantType::Color.real_components(), None);
    /// ```
    pub const fn real_components(self) -> Option<usize> {
        use crate::math::{self, WireReals};
        // The counts are the math types' own (`WireReals::COUNT`), stated once there.
        Some(match self {
            VariantType::Vector2 => math::Vector2::COUNT,
            VariantType::Rect2 => math::Rect2::COUNT,
            VariantType::Vector3 => math::Vector3::COUNT,
            VariantType::Transform2D => math::Transform2D::COUNT,
            VariantType::Vector4 => math::Vector4::COUNT,
            VariantType::Plane => math::Plane::COUNT,
            VariantType::Quaternion => math::Quaternion::COUNT,
            VariantType::Aabb => math::Aabb::COUNT,
            VariantType::Basis => math::Basis::COUNT,
            VariantType::Transform3D => math::Transform3D::COUNT,
            VariantType::Projection => math::Projection::COUNT,
            _ => return None,
        })
    }

    /// Number of `i32` components of an integer vector type, `None` otherwise.
    ///
    /// ```
    /// use gdwire::VariantType;
    /// assert_eq!(VariantType::Rect2i.int_components(), Some(4));
    /// assert_eq!(VariantType::Vector2.int_components(), None);
    /// ```
    pub const fn int_components(self) -> Option<usize> {
        use VariantType::*;
        Some(match self {
            Vector2i => 2,
            Vector3i => 3,
            Rect2i | Vector4i => 4,
            _ => return None,
        })
    }

    /// What the canonical form of a value of this type (the bytes the writer writes for it:
    /// `read/canonical.rs`) asks of its payload, its header having no bits above the id.
    pub(crate) const fn payload_rule(self) -> PayloadRule {
        use VariantType::*;
        match self {
            Nil | Int | Callable | Vector2i | Vector3i | Vector4i | Rect2i | Color | Rid
            | PackedInt32Array | PackedFloat32Array | PackedInt64Array | PackedFloat64Array
            | PackedVector2Array | PackedVector3Array | PackedVector4Array
            | PackedVector2iArray | PackedVector3iArray | PackedVector4iArray
            | PackedColorArray => PayloadRule::Any,
            String | StringName => PayloadRule::TextPadding,
            Bool => PayloadRule::ZeroOrOne,
            Float => PayloadRule::NotNan,
            ty if ty.real_components().is_some() => PayloadRule::NoSignallingNan,
            Array | Dictionary => PayloadRule::Count,
            PackedByteArray => PayloadRule::BytesPadding,
            PackedStringArray => PayloadRule::Strings,
            _ => PayloadRule::Rebuilt,
        }
    }

    /// Payload bytes of a type whose payload size follows from its header alone (scalars,
    /// math types, integer vectors, Color, RID), given the widths the header and dialect
    /// select: `int` for Int and Float, `real` for one math component, `rid` for a RID's
    /// payload. `None` for the types whose payload says its own size.
    #[inline(always)]
    pub(crate) const fn fixed_payload(self, int: usize, real: usize, rid: usize) -> Option<usize> {
        use VariantType as T;
        Some(match self {
            T::Nil | T::Callable => 0,
            T::Bool => 4,
            T::Int | T::Float => int,
            // Colours are single precision whatever the build and flag.
            T::Color => 16,
            T::Rid => rid,
            _ => match (self.real_components(), self.int_components()) {
                (Some(n), _) => n * real,
                (None, Some(n)) => n * 4,
                (None, None) => return None,
            },
        })
    }

    /// Element bytes of a packed array whose elements have a fixed size (every packed type
    /// but bytes and strings), given the width `real` of one math component; `None` for the
    /// others.
    #[inline(always)]
    pub(crate) const fn packed_element(self, real: usize) -> Option<usize> {
        use VariantType as T;
        let element = match self {
            T::PackedInt32Array | T::PackedFloat32Array => return Some(4),
            T::PackedInt64Array | T::PackedFloat64Array => return Some(8),
            T::PackedVector2Array => T::Vector2,
            T::PackedVector3Array => T::Vector3,
            T::PackedVector4Array => T::Vector4,
            T::PackedVector2iArray => T::Vector2i,
            T::PackedVector3iArray => T::Vector3i,
            T::PackedVector4iArray => T::Vector4i,
            T::PackedColorArray => T::Color,
            _ => return None,
        };
        // The math elements follow header bit 16 like the values do.
        element.fixed_payload(4, real, 0)
    }

    /// True for the packed (pool) array types.
    ///
    /// ```
    /// use gdwire::VariantType;
    /// assert!(VariantType::PackedByteArray.is_packed());
    /// assert!(!VariantType::Array.is_packed());
    /// ```
    pub const fn is_packed(self) -> bool {
        (self as usize) >= (VariantType::PackedByteArray as usize)
    }

    /// True for types whose values contain other full values (and so nest).
    ///
    /// ```
    /// use gdwire::VariantType;
    /// assert!(VariantType::Dictionary.is_container());
    /// assert!(!VariantType::PackedStringArray.is_container());
    /// ```
    pub const fn is_container(self) -> bool {
        matches!(
            self,
            VariantType::Array
                | VariantType::Dictionary
                | VariantType::TypedArray
                | VariantType::PackedTypedArray
                | VariantType::Object
        )
    }
}

impl fmt::Display for VariantType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What the canonical form of a value asks of its payload ([`VariantType::payload_rule`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PayloadRule {
    /// Nothing: every payload is written as read.
    Any,
    /// A string block's padding is zeros.
    TextPadding,
    /// A Bool word is 0 or 1.
    ZeroOrOne,
    /// A 32-bit Float is not NaN (the writer writes NaN 64-bit: its widening is not exact).
    NotNan,
    /// No 32-bit component is a signalling NaN (the writer quiets one, as the engine does
    /// when it widens it).
    NoSignallingNan,
    /// An untyped container's count has no bit 31 (the engine's "shared" flag).
    Count,
    /// A PackedByteArray's padding is complete and zeros.
    BytesPadding,
    /// Each PackedStringArray element ends its text with a NUL and pads with zeros.
    Strings,
    /// Never written as read: the writer rebuilds it (objects, node paths, signals, typed
    /// containers, unknown ids).
    Rebuilt,
}

impl PayloadRule {
    /// The rule's number (0 to 3) when it is one of a fixed-size payload, else `None`: a
    /// dialect's table of canonical shapes (`Dialect::canonical_shape_code`) carries it in
    /// the two low bits of the payload size.
    pub(crate) const fn fixed_code(self) -> Option<u8> {
        match self {
            PayloadRule::Any => Some(0),
            PayloadRule::NotNan => Some(1),
            PayloadRule::ZeroOrOne => Some(2),
            PayloadRule::NoSignallingNan => Some(3),
            _ => None,
        }
    }

    /// The fixed-size payload rule numbered by `code`'s two low bits ([`Self::fixed_code`]).
    #[inline(always)]
    pub(crate) const fn of_fixed_code(code: u8) -> PayloadRule {
        match code & 3 {
            0 => PayloadRule::Any,
            1 => PayloadRule::NotNan,
            2 => PayloadRule::ZeroOrOne,
            _ => PayloadRule::NoSignallingNan,
        }
    }
}
