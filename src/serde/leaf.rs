//! Visiting one value that holds no nested Array / Dictionary / Object: scalars, strings, math
//! types and packed arrays (whose elements are visited as leaves in turn), plus the private
//! name markers that let `gdwire::math` types and packed views find their exact Godot type.

use serde::de::{
    self, value::BorrowedBytesDeserializer, value::BorrowedStrDeserializer, DeserializeSeed,
    EnumAccess, Error as _, SeqAccess, Unexpected, VariantAccess, Visitor,
};

use crate::float_width::widen;
use crate::math::{Color, Precision, Vector2i, Vector3i, Vector4i};
use crate::read::{MathRef, ObjectRef, PackedReals, VariantRef};
use crate::serde::de::unexpected;
use crate::serde::error::{Error, Result};
use crate::serde::godot::{not_utf8, path_text, TextDe};
use crate::variant_type::VariantType;

use VariantType as T;

/// What the visitor asked for, where it changes how a leaf is visited.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hint {
    Any,
    /// An Int is accepted when the float holds it exactly (the documented int → float policy).
    F32,
    F64,
    /// A PackedByteArray as a sequence of integers (`Vec<u8>`) instead of bytes.
    Seq,
}

/// Largest magnitude cast back from float to `i64` without saturating: 2^63.
const TWO_63: f64 = 9_223_372_036_854_775_808.0;

/// Visits `v`, which must not be an Array, Dictionary or full Object (those come as walker
/// `Begin` events).
#[inline]
pub(crate) fn visit_leaf<'de, V: Visitor<'de>>(
    v: VariantRef<'de>,
    hint: Hint,
    visitor: V,
) -> Result<V::Value> {
    use VariantRef as R;
    match v {
        R::Int(i) => match hint {
            Hint::F64 => {
                let f = i as f64;
                if f < TWO_63 && f as i64 == i {
                    visitor.visit_f64(f)
                } else {
                    Err(inexact(i, &visitor))
                }
            }
            Hint::F32 => {
                let f = i as f32;
                if (f as f64) < TWO_63 && f as i64 == i {
                    visitor.visit_f32(f)
                } else {
                    Err(inexact(i, &visitor))
                }
            }
            _ => visitor.visit_i64(i),
        },
        R::String(s) | R::StringName(s) => match s.as_str() {
            Some(text) => visitor.visit_borrowed_str(text),
            // Godot 3 accepts surrogates and 5- and 6-byte forms, which are not Rust text:
            // bytes, which a `String` refuses (saying why) and a `GString` keeps.
            None => visitor.visit_borrowed_bytes(s.bytes()).map_err(not_utf8),
        },
        R::Float(f) => visitor.visit_f64(f),
        R::Bool(b) => visitor.visit_bool(b),
        R::Nil => visitor.visit_unit(),
        R::Vector2(m) => reals(m, visitor),
        R::Rect2(m) => reals(m, visitor),
        R::Vector3(m) => reals(m, visitor),
        R::Transform2D(m) => reals(m, visitor),
        R::Vector4(m) => reals(m, visitor),
        R::Plane(m) => reals(m, visitor),
        R::Quaternion(m) => reals(m, visitor),
        R::Aabb(m) => reals(m, visitor),
        R::Basis(m) => reals(m, visitor),
        R::Transform3D(m) => reals(m, visitor),
        R::Projection(m) => reals(m, visitor),
        R::Vector2i(c) => ints([c.x, c.y], visitor),
        R::Vector3i(c) => ints([c.x, c.y, c.z], visitor),
        R::Vector4i(c) => ints([c.x, c.y, c.z, c.w], visitor),
        R::Rect2i(r) => ints([r.position.x, r.position.y, r.size.x, r.size.y], visitor),
        R::Color(c) => visitor.visit_seq(LeafSeq::new(
            [c.r, c.g, c.b, c.a].into_iter().map(|x| R::Float(widen(x))),
        )),
        R::NodePath(p) => {
            // Bytes: a Godot 3 name need not be UTF-8, and then a `String` refuses it.
            let text = path_text(
                p.is_absolute(),
                p.names().map(|s| s.bytes()),
                p.subnames().map(|s| s.bytes()),
            );
            de::Deserializer::deserialize_any(TextDe::Owned(text), visitor)
        }
        R::Rid(Some(id)) | R::Object(ObjectRef::Id(id)) => visitor.visit_u64(id),
        R::Rid(None) | R::Object(ObjectRef::Null) | R::Callable => visitor.visit_unit(),
        R::Signal(s) => visitor.visit_seq(LeafSeq::new(
            [R::String(s.name()), R::Int(s.object_id() as i64)].into_iter(),
        )),
        R::PackedByteArray(p) => match hint {
            Hint::Seq => visitor.visit_seq(LeafSeq::new(p.iter().map(|b| R::Int(b.into())))),
            _ => visitor.visit_borrowed_bytes(p.as_bytes()),
        },
        R::PackedInt32Array(p) => {
            visitor.visit_seq(LeafSeq::new(p.iter().map(|x| R::Int(x.into()))))
        }
        R::PackedInt64Array(p) => visitor.visit_seq(LeafSeq::new(p.iter().map(R::Int))),
        R::PackedFloat32Array(p) => {
            visitor.visit_seq(LeafSeq::new(p.iter().map(|x| R::Float(widen(x)))))
        }
        R::PackedFloat64Array(p) => visitor.visit_seq(LeafSeq::new(p.iter().map(R::Float))),
        R::PackedStringArray(p) => visitor.visit_seq(LeafSeq::new(p.iter().map(R::String))),
        R::PackedVector2Array(p) => packed_reals(p, R::Vector2, visitor),
        R::PackedVector3Array(p) => packed_reals(p, R::Vector3, visitor),
        R::PackedVector4Array(p) => packed_reals(p, R::Vector4, visitor),
        R::PackedColorArray(p) => visitor.visit_seq(LeafSeq::new(
            p.iter().map(|[r, g, b, a]| R::Color(Color { r, g, b, a })),
        )),
        R::PackedVector2iArray(p) => visitor.visit_seq(LeafSeq::new(
            p.iter().map(|[x, y]| R::Vector2i(Vector2i { x, y })),
        )),
        R::PackedVector3iArray(p) => visitor.visit_seq(LeafSeq::new(
            p.iter().map(|[x, y, z]| R::Vector3i(Vector3i { x, y, z })),
        )),
        R::PackedVector4iArray(p) => visitor.visit_seq(LeafSeq::new(
            p.iter()
                .map(|[x, y, z, w]| R::Vector4i(Vector4i { x, y, z, w })),
        )),
        R::Array(_) | R::Dictionary(_) | R::Object(ObjectRef::Full(_)) => {
            Err(unexpected(&v, &visitor))
        }
    }
}

#[cold]
fn inexact(i: i64, exp: &dyn de::Expected) -> Error {
    Error::invalid_value(Unexpected::Signed(i), exp)
        .into_message_suffix(" (the integer is not exactly representable)")
}

trait Suffix {
    fn into_message_suffix(self, s: &str) -> Error;
}

impl Suffix for Error {
    fn into_message_suffix(self, s: &str) -> Error {
        Error::message(alloc::format!("{self}{s}"))
    }
}

#[inline]
fn reals<'de, M, V: Visitor<'de>>(m: MathRef<'de, M>, visitor: V) -> Result<V::Value>
where
    M: crate::math::WireReals,
{
    visitor.visit_seq(LeafSeq::new(m.components().map(VariantRef::Float)))
}

#[inline]
fn ints<'de, const N: usize, V: Visitor<'de>>(c: [i32; N], visitor: V) -> Result<V::Value> {
    visitor.visit_seq(LeafSeq::new(
        c.into_iter().map(|x| VariantRef::Int(x.into())),
    ))
}

fn packed_reals<'de, const N: usize, M, V>(
    p: PackedReals<'de, N>,
    make: fn(MathRef<'de, M>) -> VariantRef<'de>,
    visitor: V,
) -> Result<V::Value>
where
    M: crate::math::WireReals,
    V: Visitor<'de>,
{
    let size = p.precision().size() * N;
    let items = p
        .as_bytes()
        .chunks_exact(size)
        .map(move |c| make(MathRef::new(c)));
    visitor.visit_seq(LeafSeq::new(items))
}

/// The elements of a packed array or the components of a math type, each a leaf.
pub(crate) struct LeafSeq<I> {
    items: I,
    index: usize,
}

impl<I> LeafSeq<I> {
    pub(crate) fn new(items: I) -> Self {
        LeafSeq { items, index: 0 }
    }
}

impl<'de, I: Iterator<Item = VariantRef<'de>>> SeqAccess<'de> for LeafSeq<I> {
    type Error = Error;

    #[inline]
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        let Some(v) = self.items.next() else {
            return Ok(None);
        };
        let index = self.index;
        self.index += 1;
        match seed.deserialize(LeafDe::new(v)) {
            Ok(x) => Ok(Some(x)),
            Err(e) => Err(e.in_index(index)),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        match self.items.size_hint() {
            (lo, Some(hi)) if lo == hi => Some(lo),
            _ => None,
        }
    }
}

/// A private newtype-struct name that asks for an exact Godot type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Marker {
    /// A `gdwire::math` type: the value must be this math type; its components follow as a
    /// tuple.
    Math(VariantType),
    /// A borrowed packed view: the value must be this packed type (with this precision for
    /// real vectors); its element bytes follow as borrowed bytes.
    View(VariantType, Precision),
    /// `gdwire::serde::packed`: write the following sequence as this packed type.
    Packed(VariantType),
    /// A Godot type with no serde counterpart (StringName, NodePath, typed containers, …:
    /// `serde/godot.rs`).
    Godot(crate::serde::godot::Kind),
    /// An owned [`Variant`](crate::owned::Variant): read whole and handed to the owned
    /// decoder (`serde/variant.rs`).
    Variant,
    /// The math type or packed vector array inside is written in this precision (an owned
    /// `Variant` carries its own); transparent when reading.
    Precision(Precision),
}

pub(crate) const PREFIX: &str = "$gdwire::";

/// Recognises the crate's private names (`$gdwire::Vector3`, `$gdwire::view::…`,
/// `$gdwire::packed::…`); `None` for every other newtype struct.
// Always inlined: the name is a constant at every call site, so the comparisons fold away.
#[inline(always)]
pub(crate) fn marker(name: &str) -> Option<Marker> {
    let rest = name.strip_prefix(PREFIX)?;
    match rest {
        "Variant" => return Some(Marker::Variant),
        "precision::f32" => return Some(Marker::Precision(Precision::Single)),
        "precision::f64" => return Some(Marker::Precision(Precision::Double)),
        _ => {}
    }
    if let Some(view) = rest.strip_prefix("view::") {
        let (ty, precision) = match view.strip_suffix("/f64") {
            Some(ty) => (ty, Precision::Double),
            None => (view, Precision::Single),
        };
        return packed_type(ty).map(|t| Marker::View(t, precision));
    }
    if let Some(packed) = rest.strip_prefix("packed::") {
        return packed_type(packed).map(Marker::Packed);
    }
    if let Some(godot) = rest.strip_prefix("godot::") {
        return crate::serde::godot::Kind::from_marker(godot).map(Marker::Godot);
    }
    math_type(rest).map(Marker::Math)
}

// Always inlined, like `marker`: the name is a constant at every call site.
#[inline(always)]
fn math_type(name: &str) -> Option<VariantType> {
    Some(match name {
        "Vector2" => T::Vector2,
        "Vector2i" => T::Vector2i,
        "Rect2" => T::Rect2,
        "Rect2i" => T::Rect2i,
        "Vector3" => T::Vector3,
        "Vector3i" => T::Vector3i,
        "Transform2D" => T::Transform2D,
        "Vector4" => T::Vector4,
        "Vector4i" => T::Vector4i,
        "Plane" => T::Plane,
        "Quaternion" => T::Quaternion,
        "AABB" => T::Aabb,
        "Basis" => T::Basis,
        "Transform3D" => T::Transform3D,
        "Projection" => T::Projection,
        "Color" => T::Color,
        _ => return None,
    })
}

#[inline(always)]
fn packed_type(name: &str) -> Option<VariantType> {
    Some(match name {
        "PackedByteArray" => T::PackedByteArray,
        "PackedInt32Array" => T::PackedInt32Array,
        "PackedInt64Array" => T::PackedInt64Array,
        "PackedFloat32Array" => T::PackedFloat32Array,
        "PackedFloat64Array" => T::PackedFloat64Array,
        "PackedStringArray" => T::PackedStringArray,
        "PackedVector2Array" => T::PackedVector2Array,
        "PackedVector3Array" => T::PackedVector3Array,
        "PackedVector4Array" => T::PackedVector4Array,
        "PackedColorArray" => T::PackedColorArray,
        "PackedVector2iArray" => T::PackedVector2iArray,
        "PackedVector3iArray" => T::PackedVector3iArray,
        "PackedVector4iArray" => T::PackedVector4iArray,
        _ => return None,
    })
}

impl Marker {
    /// "invalid type: Godot Array, expected Vector3".
    #[cold]
    pub(crate) fn mismatch(m: Marker, v: &VariantRef<'_>) -> Error {
        let wanted = match m {
            Marker::Math(t) | Marker::Packed(t) => alloc::format!("{t}"),
            Marker::View(t, Precision::Single) => alloc::format!("{t}"),
            Marker::View(t, Precision::Double) => alloc::format!("{t} (double precision)"),
            Marker::Godot(k) => k.expected().into(),
            Marker::Variant | Marker::Precision(_) => "any value".into(),
        };
        let found = match v.precision() {
            Some(Precision::Double) if matches!(m, Marker::View(..)) => {
                alloc::format!("Godot {} (double precision)", v.variant_type())
            }
            _ => alloc::format!("Godot {}", v.variant_type()),
        };
        Error::invalid_type(Unexpected::Other(&found), &wanted.as_str())
    }
}

/// The element bytes of a packed value, if it is packed type `ty` sent with `precision`
/// (precision matters only for real vector arrays).
fn packed_bytes<'de>(
    v: &VariantRef<'de>,
    ty: VariantType,
    precision: Precision,
) -> Option<&'de [u8]> {
    use VariantRef as R;
    if v.variant_type() != ty {
        return None;
    }
    if let Some(p) = v.precision() {
        if p != precision {
            return None;
        }
    }
    Some(match v {
        R::PackedByteArray(p) => p.as_bytes(),
        R::PackedInt32Array(p) => p.as_bytes(),
        R::PackedInt64Array(p) => p.as_bytes(),
        R::PackedFloat32Array(p) => p.as_bytes(),
        R::PackedFloat64Array(p) => p.as_bytes(),
        R::PackedVector2Array(p) => p.as_bytes(),
        R::PackedVector3Array(p) => p.as_bytes(),
        R::PackedVector4Array(p) => p.as_bytes(),
        R::PackedColorArray(p) => p.as_bytes(),
        R::PackedVector2iArray(p) => p.as_bytes(),
        R::PackedVector3iArray(p) => p.as_bytes(),
        R::PackedVector4iArray(p) => p.as_bytes(),
        _ => return None,
    })
}

/// The wire components of a real-valued math type (`COUNT` little-endian `f32`, or `f64`
/// from a double-precision build).
fn math_wire<'de>(v: &VariantRef<'de>) -> Option<&'de [u8]> {
    use VariantRef as R;
    Some(match v {
        R::Vector2(m) => m.as_bytes(),
        R::Rect2(m) => m.as_bytes(),
        R::Vector3(m) => m.as_bytes(),
        R::Transform2D(m) => m.as_bytes(),
        R::Vector4(m) => m.as_bytes(),
        R::Plane(m) => m.as_bytes(),
        R::Quaternion(m) => m.as_bytes(),
        R::Aabb(m) => m.as_bytes(),
        R::Basis(m) => m.as_bytes(),
        R::Transform3D(m) => m.as_bytes(),
        R::Projection(m) => m.as_bytes(),
        _ => return None,
    })
}

/// Hands a math type's wire components to the crate's own math visitor in one call (the
/// marker guarantees the visitor is that one), instead of one visit per component.
pub(crate) struct MathWire<'de>(&'de [u8]);

impl<'de> MathWire<'de> {
    #[inline]
    pub(crate) fn new(raw: &'de [u8]) -> Self {
        MathWire(raw)
    }
}

impl<'de> de::Deserializer<'de> for MathWire<'de> {
    type Error = Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_borrowed_bytes(self.0)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// A deserializer over one leaf value.
#[derive(Clone, Copy)]
pub(crate) struct LeafDe<'de> {
    v: VariantRef<'de>,
}

impl<'de> LeafDe<'de> {
    #[inline]
    pub(crate) fn new(v: VariantRef<'de>) -> Self {
        LeafDe { v }
    }

    /// A marked newtype struct: the value must be the marker's exact type.
    #[inline]
    pub(crate) fn marked<V: Visitor<'de>>(self, m: Marker, visitor: V) -> Result<V::Value> {
        match m {
            Marker::Math(ty) if self.v.variant_type() == ty => match math_wire(&self.v) {
                Some(raw) => visitor.visit_newtype_struct(MathWire(raw)),
                None => visitor.visit_newtype_struct(self),
            },
            Marker::View(ty, precision) => match packed_bytes(&self.v, ty, precision) {
                Some(bytes) => visitor.visit_newtype_struct(BorrowedBytesDeserializer::new(bytes)),
                None => Err(Marker::mismatch(m, &self.v)),
            },
            // Packed markers are only written; reading takes the plain sequence.
            Marker::Packed(_) => visitor.visit_newtype_struct(self),
            Marker::Math(_) => Err(Marker::mismatch(m, &self.v)),
            Marker::Godot(k) => crate::serde::godot::visit_leaf_marked(k, self.v, visitor),
            Marker::Variant => crate::serde::variant::visit_view_leaf(self.v, visitor),
            Marker::Precision(_) => visitor.visit_newtype_struct(self),
        }
    }
}

macro_rules! leaf_forward {
    ($($method:ident)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            visit_leaf(self.v, Hint::Any, visitor)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for LeafDe<'de> {
    type Error = Error;

    leaf_forward!(
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_char deserialize_str deserialize_string deserialize_map
        deserialize_identifier deserialize_i128 deserialize_u128 deserialize_bytes
        deserialize_byte_buf deserialize_unit
    );

    #[inline]
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visit_leaf(self.v, Hint::F32, visitor)
    }

    #[inline]
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visit_leaf(self.v, Hint::F64, visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.v {
            VariantRef::Nil | VariantRef::Object(ObjectRef::Null) => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visit_leaf(self.v, Hint::Any, visitor)
    }

    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        match marker(name) {
            Some(m) => self.marked(m, visitor),
            None => visitor.visit_newtype_struct(self),
        }
    }

    #[inline]
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visit_leaf(self.v, Hint::Seq, visitor)
    }

    #[inline]
    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        visit_leaf(self.v, Hint::Seq, visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        visit_leaf(self.v, Hint::Seq, visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        visit_leaf(self.v, Hint::Any, visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.v {
            VariantRef::String(s) | VariantRef::StringName(s) => match s.as_str() {
                Some(name) => visitor.visit_enum(UnitVariant { name }),
                None => Err(not_utf8(Error::invalid_type(
                    Unexpected::Bytes(s.bytes()),
                    &visitor,
                ))),
            },
            other => Err(unexpected(
                &other,
                &"a String (unit variant) or a Dictionary with one entry",
            )),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}

/// An enum sent as a bare String: a unit variant.
struct UnitVariant<'de> {
    name: &'de str,
}

impl<'de> EnumAccess<'de> for UnitVariant<'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self)> {
        let d = BorrowedStrDeserializer::<Error>::new(self.name);
        Ok((seed.deserialize(d)?, self))
    }
}

impl<'de> VariantAccess<'de> for UnitVariant<'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        Ok(())
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, _seed: S) -> Result<S::Value> {
        Err(Error::invalid_type(
            Unexpected::UnitVariant,
            &"newtype variant",
        ))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value> {
        Err(Error::invalid_type(
            Unexpected::UnitVariant,
            &"tuple variant",
        ))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value> {
        Err(Error::invalid_type(
            Unexpected::UnitVariant,
            &"struct variant",
        ))
    }
}
