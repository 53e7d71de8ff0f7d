//! Typed access to views: `TryFrom<VariantRef>` for Rust values and views, and the errors of a
//! typed lookup ([`DictRef::get_as`](crate::DictRef::get_as)).
//!
//! Conversions are exact: a view converts to the type it holds. The one widening is the
//! int → float policy of [`VariantRef::to_f64`]: GDScript sends `100` for a float field as
//! often as `100.0`, so `f64` (and `f32`) accept an Int whose value the float holds exactly.

use core::fmt;

use crate::math::{
    Aabb, Basis, Color, Plane, Projection, Quaternion, Rect2, Rect2i, Transform2D, Transform3D,
    Vector2, Vector2i, Vector3, Vector3i, Vector4, Vector4i,
};
use crate::read::array::ArrayRef;
use crate::read::dict::DictRef;
use crate::read::node_path::NodePathRef;
use crate::read::packed::{PackedReals, PackedRef, PackedStrings};
use crate::read::str_ref::StrRef;
use crate::read::value::VariantRef;
use crate::variant_type::VariantType;

/// A view held another type than the one asked for (or a value the type cannot hold).
///
/// ```
/// use gdwire::{VariantRef, VariantType};
/// let err = i64::try_from(VariantRef::Bool(true)).unwrap_err();
/// assert_eq!((err.expected, err.found), (VariantType::Int, VariantType::Bool));
/// assert_eq!(err.to_string(), "expected int, found bool");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct WrongType {
    /// The type asked for.
    pub expected: VariantType,
    /// The type the view holds.
    pub found: VariantType,
    /// Why a value of the expected type was refused (`"out of range for i32"`, ...).
    pub detail: Option<&'static str>,
}

impl WrongType {
    fn new(expected: VariantType, found: &VariantRef<'_>) -> WrongType {
        WrongType {
            expected,
            found: found.variant_type(),
            detail: None,
        }
    }

    fn because(mut self, detail: &'static str) -> WrongType {
        self.detail = Some(detail);
        self
    }
}

impl fmt::Display for WrongType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected {}, found {}", self.expected, self.found)?;
        match self.detail {
            Some(detail) => write!(f, " ({detail})"),
            None => Ok(()),
        }
    }
}

impl core::error::Error for WrongType {}

/// Why a typed lookup ([`DictRef::get_as`](crate::DictRef::get_as)) found no value.
///
/// ```
/// use gdwire::read::GetError;
/// use gdwire::{from_bytes, Dialect};
/// // {"hp": 100}
/// let bytes = [27, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'p', 0, 0, 2, 0, 0, 0, 100, 0, 0, 0];
/// let dict = from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
/// assert_eq!(dict.get_as::<i64>("hp"), Ok(100));
/// assert!(matches!(dict.get_as::<i64>("mp"), Err(GetError::Missing { key: "mp" })));
/// assert!(matches!(dict.get_as::<bool>("hp"), Err(GetError::WrongType { .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GetError<'k> {
    /// No entry has this key.
    Missing {
        /// The key looked up.
        key: &'k str,
    },
    /// The entry holds another type.
    WrongType {
        /// The key looked up.
        key: &'k str,
        /// What was expected and found.
        wrong: WrongType,
    },
}

impl fmt::Display for GetError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GetError::Missing { key } => write!(f, "key {key:?}: missing"),
            GetError::WrongType { key, wrong } => write!(f, "key {key:?}: {wrong}"),
        }
    }
}

impl core::error::Error for GetError<'_> {}

impl VariantRef<'_> {
    /// The number as `f64`: a Float as it is, an Int converted (the policy for ints sent
    /// where a float is meant; ints beyond ±2^53 round to the nearest `f64`). `None` for
    /// anything else. [`VariantRef::as_float`] takes Floats only; `f64::try_from` takes an
    /// Int only when the conversion is exact.
    ///
    /// ```
    /// use gdwire::VariantRef;
    /// assert_eq!(VariantRef::Int(100).to_f64(), Some(100.0));
    /// assert_eq!(VariantRef::Int(100).as_float(), None);
    /// assert_eq!(f64::try_from(VariantRef::Int(100)), Ok(100.0));
    /// ```
    pub fn to_f64(&self) -> Option<f64> {
        match *self {
            VariantRef::Float(f) => Some(f),
            VariantRef::Int(i) => Some(i as f64),
            _ => None,
        }
    }
}

/// Largest magnitude up to which every integer is exact in an `f64` (2^53) / `f32` (2^24).
const F64_EXACT: u64 = 1 << 53;
const F32_EXACT: u64 = 1 << 24;

impl TryFrom<VariantRef<'_>> for bool {
    type Error = WrongType;
    fn try_from(v: VariantRef<'_>) -> Result<bool, WrongType> {
        match v {
            VariantRef::Bool(b) => Ok(b),
            other => Err(WrongType::new(VariantType::Bool, &other)),
        }
    }
}

impl TryFrom<VariantRef<'_>> for i64 {
    type Error = WrongType;
    fn try_from(v: VariantRef<'_>) -> Result<i64, WrongType> {
        match v {
            VariantRef::Int(i) => Ok(i),
            other => Err(WrongType::new(VariantType::Int, &other)),
        }
    }
}

macro_rules! narrow_int {
    ($($t:ty => $why:literal),*) => {$(
        impl TryFrom<VariantRef<'_>> for $t {
            type Error = WrongType;
            fn try_from(v: VariantRef<'_>) -> Result<$t, WrongType> {
                let i = i64::try_from(v)?;
                <$t>::try_from(i).map_err(|_| WrongType::new(VariantType::Int, &v).because($why))
            }
        }
    )*};
}
narrow_int!(i32 => "out of range for i32", u32 => "out of range for u32",
    i16 => "out of range for i16", u16 => "out of range for u16",
    i8 => "out of range for i8", u8 => "out of range for u8",
    u64 => "out of range for u64", usize => "out of range for usize");

impl TryFrom<VariantRef<'_>> for f64 {
    type Error = WrongType;
    /// A Float, or an Int that `f64` holds exactly (|i| ≤ 2^53).
    fn try_from(v: VariantRef<'_>) -> Result<f64, WrongType> {
        match v {
            VariantRef::Float(f) => Ok(f),
            VariantRef::Int(i) if i.unsigned_abs() <= F64_EXACT => Ok(i as f64),
            VariantRef::Int(_) => Err(WrongType::new(VariantType::Float, &v)
                .because("int not exactly representable as f64")),
            other => Err(WrongType::new(VariantType::Float, &other)),
        }
    }
}

impl TryFrom<VariantRef<'_>> for f32 {
    type Error = WrongType;
    /// A Float (rounded to `f32`, as the engine stores single-precision fields), or an Int
    /// that `f32` holds exactly (|i| ≤ 2^24).
    fn try_from(v: VariantRef<'_>) -> Result<f32, WrongType> {
        match v {
            VariantRef::Float(f) => Ok(crate::float_width::narrow(f)),
            VariantRef::Int(i) if i.unsigned_abs() <= F32_EXACT => Ok(i as f32),
            VariantRef::Int(_) => Err(WrongType::new(VariantType::Float, &v)
                .because("int not exactly representable as f32")),
            other => Err(WrongType::new(VariantType::Float, &other)),
        }
    }
}

impl<'a> TryFrom<VariantRef<'a>> for StrRef<'a> {
    type Error = WrongType;
    /// A String or StringName.
    fn try_from(v: VariantRef<'a>) -> Result<StrRef<'a>, WrongType> {
        v.as_string()
            .ok_or_else(|| WrongType::new(VariantType::String, &v))
    }
}

impl<'a> TryFrom<VariantRef<'a>> for &'a str {
    type Error = WrongType;
    /// The text of a String or StringName (Godot 3 text that is not strict UTF-8 is refused).
    fn try_from(v: VariantRef<'a>) -> Result<&'a str, WrongType> {
        StrRef::try_from(v)?
            .as_str()
            .ok_or_else(|| WrongType::new(VariantType::String, &v).because("not strict UTF-8"))
    }
}

macro_rules! view {
    ($($variant:ident($t:ty)),* $(,)?) => {$(
        impl<'a> TryFrom<VariantRef<'a>> for $t {
            type Error = WrongType;
            fn try_from(v: VariantRef<'a>) -> Result<$t, WrongType> {
                match v {
                    VariantRef::$variant(x) => Ok(x),
                    other => Err(WrongType::new(VariantType::$variant, &other)),
                }
            }
        }
    )*};
}
view!(
    Array(ArrayRef<'a>),
    Dictionary(DictRef<'a>),
    NodePath(NodePathRef<'a>),
    Vector2i(Vector2i),
    Vector3i(Vector3i),
    Vector4i(Vector4i),
    Rect2i(Rect2i),
    Color(Color),
    PackedByteArray(PackedRef<'a, u8>),
    PackedInt32Array(PackedRef<'a, i32>),
    PackedInt64Array(PackedRef<'a, i64>),
    PackedFloat32Array(PackedRef<'a, f32>),
    PackedFloat64Array(PackedRef<'a, f64>),
    PackedStringArray(PackedStrings<'a>),
    PackedVector2Array(PackedReals<'a, 2>),
    PackedVector3Array(PackedReals<'a, 3>),
    PackedColorArray(PackedRef<'a, [f32; 4]>),
    PackedVector2iArray(PackedRef<'a, [i32; 2]>),
    PackedVector3iArray(PackedRef<'a, [i32; 3]>),
    PackedVector4iArray(PackedRef<'a, [i32; 4]>),
);

macro_rules! math {
    ($($variant:ident),* $(,)?) => {$(
        impl TryFrom<VariantRef<'_>> for $variant {
            type Error = WrongType;
            /// The value, decoded from the view in either precision.
            fn try_from(v: VariantRef<'_>) -> Result<$variant, WrongType> {
                match v {
                    VariantRef::$variant(x) => Ok(x.get()),
                    other => Err(WrongType::new(VariantType::$variant, &other)),
                }
            }
        }
    )*};
}
math!(
    Vector2,
    Rect2,
    Vector3,
    Transform2D,
    Vector4,
    Plane,
    Quaternion,
    Aabb,
    Basis,
    Transform3D,
    Projection,
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{from_bytes, Dialect};

    #[test]
    fn exact_conversions_and_the_int_float_policy() {
        assert_eq!(i32::try_from(VariantRef::Int(-5)), Ok(-5));
        let e = i32::try_from(VariantRef::Int(1 << 40)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "expected int, found int (out of range for i32)"
        );
        assert_eq!(
            f64::try_from(VariantRef::Int(1 << 53)),
            Ok(9007199254740992.0)
        );
        assert!(f64::try_from(VariantRef::Int((1 << 53) + 1)).is_err());
        assert_eq!(f32::try_from(VariantRef::Int(-(1 << 24))), Ok(-16777216.0));
        assert!(f32::try_from(VariantRef::Int((1 << 24) + 1)).is_err());
        assert_eq!(f32::try_from(VariantRef::Float(0.1)), Ok(0.1f32));
        assert!(bool::try_from(VariantRef::Int(1)).is_err());
        assert_eq!(VariantRef::Int(i64::MAX).to_f64(), Some(i64::MAX as f64));
        assert_eq!(VariantRef::Nil.to_f64(), None);
        // Vector3(1, 2, 3) in Godot 4.
        let mut b = vec![9, 0, 0, 0];
        for c in [1f32, 2.0, 3.0] {
            b.extend_from_slice(&c.to_le_bytes());
        }
        let v = from_bytes(Dialect::GODOT_4, &b).unwrap();
        assert_eq!(
            Vector3::try_from(v),
            Ok(Vector3 {
                x: 1.0,
                y: 2.0,
                z: 3.0
            })
        );
        let e = Vector2::try_from(v).unwrap_err();
        assert_eq!(
            (e.expected, e.found),
            (VariantType::Vector2, VariantType::Vector3)
        );
        assert!(<&str>::try_from(v).is_err());
    }
}
