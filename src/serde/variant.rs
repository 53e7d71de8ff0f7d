//! `Serialize` / `Deserialize` for the owned [`Variant`] (and its [`Array`] and
//! [`Dictionary`]).
//!
//! Writing: a `Variant` serializes as the serde form of what it holds, each Godot type
//! through the crate's existing private-name wrappers (math types, `$gdwire::godot::…`,
//! `$gdwire::packed::…`), with the precision it carries (`$gdwire::precision::…`). This
//! crate's serializer turns those into the same [`Writer`](crate::Writer) calls the owned
//! encoder makes; other formats see plain data. serde hands a serializer only
//! `impl Serialize`, so the value itself cannot reach the owned encoder.
//!
//! Reading: `Variant` asks for the private name `$gdwire::Variant`. This crate's
//! deserializer then steps over the next whole value (validating it) and hands its bytes
//! and dialect to the visitor, which decodes them with the owned decoder; other formats
//! give plain data, mapped the obvious way.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::de::{self, DeserializeSeed, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};
use serde::ser::{self, Serialize, SerializeMap, SerializeSeq};

use crate::dialect::Dialect;
use crate::math::Precision;
use crate::owned::{Array, Dictionary, ElementType, GString, Object, PackedVectors, Variant};
use crate::read::{Decoder, VariantRef};
use crate::serde::de::MAX_NESTING;
use crate::serde::error::{Error, Result};
use crate::serde::godot::{
    array_kind_name, Callable, Kind, ObjectId, Rid, TextSer, BUILTIN_OBJECT,
};
use crate::variant_type::VariantType;

/// The private name `Variant` deserializes through.
const MARKER: &str = "$gdwire::Variant";
/// The enum tag under which this crate's deserializer hands over `(dialect name, bytes)`.
const WIRE_TAG: &str = "$gdwire::Variant::wire";

fn precision_marker(p: Precision) -> &'static str {
    match p {
        Precision::Single => "$gdwire::precision::f32",
        Precision::Double => "$gdwire::precision::f64",
    }
}

/// Feature `serde`: the value in its Godot type in [`crate::serde`] (byte for byte what the
/// engine writes for the same value: [`Variant::to_vec`]); plain data in other formats: Nil
/// as unit, Bool, Int as `i64`, Float as `f64`, String as a string, Array as a sequence,
/// Dictionary as a map, and the other Godot types in their serde forms (math types as
/// component tuples, StringName and NodePath as text, …: see `docs/serde.md`).
///
/// Full objects need [`Serializer::with_full_objects`](crate::serde::Serializer::with_full_objects)
/// in [`crate::serde`], as for views. A value nested more than
/// [`MAX_NESTING`] levels deep is refused in every format (serde
/// recurses once per level; [`Variant::to_vec`] does not).
///
/// ```
/// use gdwire::owned::{Dictionary, Variant};
/// use gdwire::math::{Precision, Vector3};
/// use gdwire::Dialect;
///
/// let mut d = Dictionary::new();
/// d.insert("hp", 100);
/// d.insert("pos", Variant::Vector3(Vector3 { x: 1.0, y: 2.0, z: 0.5 }, Precision::Single));
/// let v = Variant::from(d);
/// // gdwire's own format: the engine's bytes.
/// assert_eq!(gdwire::serde::to_vec(Dialect::GODOT_4, &v)?, v.to_vec(Dialect::GODOT_4)?);
/// // JSON: plain data.
/// assert_eq!(serde_json::to_string(&v)?, r#"{"hp":100,"pos":[1.0,2.0,0.5]}"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl Serialize for Variant {
    fn serialize<S: ser::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        Inner(self, 0).serialize(s)
    }
}

/// serde serializes by recursion, one level per container: a container more than
/// [`MAX_NESTING`] levels deep (what deserializing accepts) is refused before its items
/// recurse further (an owned value may be 1024 levels deep). `depth` containers are open
/// around the container being written; the check costs a compare per container, where a
/// walk of the whole value beforehand cost a second pass and a heap stack.
fn enter<E: ser::Error>(depth: u32) -> core::result::Result<u32, E> {
    let inside = depth + 1;
    if inside > MAX_NESTING {
        return Err(E::custom(alloc::format!(
            "the value is nested more than {MAX_NESTING} levels deep, serde's limit here"
        )));
    }
    Ok(inside)
}

/// A value with the number of containers around it.
struct Inner<'a>(&'a Variant, u32);

impl Serialize for Inner<'_> {
    fn serialize<S: ser::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        use Variant as V;
        fn real<T: Serialize + ?Sized, S: ser::Serializer>(
            s: S,
            x: &T,
            p: Precision,
        ) -> core::result::Result<S::Ok, S::Error> {
            s.serialize_newtype_struct(precision_marker(p), x)
        }
        match self.0 {
            V::Nil | V::Object(Object::Null) => s.serialize_unit(),
            V::Bool(b) => s.serialize_bool(*b),
            V::Int(i) => s.serialize_i64(*i),
            V::Float(f) => s.serialize_f64(*f),
            V::String(g) => g.serialize(s),
            V::StringName(g) => {
                s.serialize_newtype_struct(Kind::StringName.marker(), &TextSer(g.raw()))
            }
            V::Vector2(x, p) => real(s, x, *p),
            V::Rect2(x, p) => real(s, x, *p),
            V::Vector3(x, p) => real(s, x, *p),
            V::Transform2D(x, p) => real(s, &**x, *p),
            V::Vector4(x, p) => real(s, x, *p),
            V::Plane(x, p) => real(s, x, *p),
            V::Quaternion(x, p) => real(s, x, *p),
            V::Aabb(x, p) => real(s, &**x, *p),
            V::Basis(x, p) => real(s, &**x, *p),
            V::Transform3D(x, p) => real(s, &**x, *p),
            V::Projection(x, p) => real(s, &**x, *p),
            V::Vector2i(x) => x.serialize(s),
            V::Vector3i(x) => x.serialize(s),
            V::Vector4i(x) => x.serialize(s),
            V::Rect2i(x) => x.serialize(s),
            V::Color(x) => x.serialize(s),
            V::NodePath(p) => p.serialize(s),
            V::Rid(id) => Rid(id.unwrap_or(0)).serialize(s),
            V::Object(Object::Id(id)) => ObjectId(*id).serialize(s),
            V::Object(Object::Full(o)) => s.serialize_newtype_struct(
                Kind::Object.marker(),
                &(TextSer(o.class.raw()), Props(&o.properties, enter(self.1)?)),
            ),
            V::Callable => Callable.serialize(s),
            // The name's block as it is (`Signal`'s own form keeps only the visible text).
            V::Signal(sig) => s.serialize_newtype_struct(
                Kind::Signal.marker(),
                &(TextSer(sig.name.raw()), sig.object_id),
            ),
            V::Dictionary(d) => dictionary(d, s, enter(self.1)?),
            V::Array(a) => array(a, s, enter(self.1)?),
            V::PackedByteArray(b) => s.serialize_bytes(b),
            V::PackedInt32Array(a) => crate::serde::packed::serialize(a, s),
            V::PackedInt64Array(a) => crate::serde::packed::serialize(a, s),
            V::PackedFloat32Array(a) => crate::serde::packed::serialize(a, s),
            V::PackedFloat64Array(a) => crate::serde::packed::serialize(a, s),
            V::PackedStringArray(a) => crate::serde::packed::serialize(a, s),
            V::PackedColorArray(a) => {
                s.serialize_newtype_struct("$gdwire::packed::PackedColorArray", a)
            }
            V::PackedVector2iArray(a) => {
                s.serialize_newtype_struct("$gdwire::packed::PackedVector2iArray", a)
            }
            V::PackedVector3iArray(a) => {
                s.serialize_newtype_struct("$gdwire::packed::PackedVector3iArray", a)
            }
            V::PackedVector4iArray(a) => {
                s.serialize_newtype_struct("$gdwire::packed::PackedVector4iArray", a)
            }
            V::PackedVector2Array(a) => real(
                s,
                &PackedReals("$gdwire::packed::PackedVector2Array", a),
                a.precision(),
            ),
            V::PackedVector3Array(a) => real(
                s,
                &PackedReals("$gdwire::packed::PackedVector3Array", a),
                a.precision(),
            ),
            V::PackedVector4Array(a) => real(
                s,
                &PackedReals("$gdwire::packed::PackedVector4Array", a),
                a.precision(),
            ),
        }
    }
}

/// A packed real vector array: its vectors (as `[f32; N]` or `[f64; N]`) under its packed
/// name.
struct PackedReals<'a, const N: usize>(&'static str, &'a PackedVectors<N>);

impl<const N: usize> Serialize for PackedReals<'_, N>
where
    [f32; N]: Serialize,
    [f64; N]: Serialize,
{
    fn serialize<S: ser::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        match self.1 {
            PackedVectors::Single(v) => s.serialize_newtype_struct(self.0, v),
            PackedVectors::Double(v) => s.serialize_newtype_struct(self.0, v),
        }
    }
}

/// A full object's properties: a map from property name to value (nested `depth` deep).
struct Props<'a>(&'a [(GString, Variant)], u32);

impl Serialize for Props<'_> {
    fn serialize<S: ser::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            m.serialize_entry(&TextSer(k.raw()), &Inner(v, self.1))?;
        }
        m.end()
    }
}

/// The items of an Array, as a sequence (nested `depth` deep).
struct Items<'a>(&'a [Variant], u32);

impl Serialize for Items<'_> {
    fn serialize<S: ser::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let mut q = s.serialize_seq(Some(self.0.len()))?;
        for v in self.0 {
            q.serialize_element(&Inner(v, self.1))?;
        }
        q.end()
    }
}

/// The entries of a Dictionary, as a map (in order, duplicate keys kept; nested `depth`
/// deep).
struct Entries<'a>(&'a Dictionary, u32);

impl Serialize for Entries<'_> {
    fn serialize<S: ser::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0.iter() {
            m.serialize_entry(&Inner(k, self.1), &Inner(v, self.1))?;
        }
        m.end()
    }
}

const UNTYPED: ElementType = ElementType::Builtin(VariantType::Nil);

/// An element type as [`ElementType`]'s serde form, except the builtin Object, whose text
/// there (`"Object"`) is the class.
struct Head<'a>(&'a ElementType);

impl Serialize for Head<'_> {
    fn serialize<S: ser::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        match self.0 {
            ElementType::Builtin(VariantType::Object) => s.serialize_str(BUILTIN_OBJECT),
            e => e.serialize(s),
        }
    }
}

/// Feature `serde`: an untyped Array as a sequence; a typed one as
/// [`TypedArray`](crate::serde::TypedArray) does (its element type and kind kept in
/// [`crate::serde`], `[element, [items…], kind]` in other formats).
impl Serialize for Array {
    fn serialize<S: ser::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        array(self, s, enter(0)?)
    }
}

/// `a`, whose items are nested `depth` deep.
fn array<S: ser::Serializer>(a: &Array, s: S, depth: u32) -> core::result::Result<S::Ok, S::Error> {
    match &a.typed {
        None => Items(&a.items, depth).serialize(s),
        Some(t) => {
            let (kind, element) = &**t;
            s.serialize_newtype_struct(
                Kind::TypedArray(*kind).marker(),
                &(
                    Head(element),
                    Items(&a.items, depth),
                    array_kind_name(*kind),
                ),
            )
        }
    }
}

/// Feature `serde`: an untyped Dictionary as a map (in order, duplicate keys kept); a
/// typed one as [`TypedDictionary`](crate::serde::TypedDictionary) does.
impl Serialize for Dictionary {
    fn serialize<S: ser::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        dictionary(self, s, enter(0)?)
    }
}

/// `d`, whose entries are nested `depth` deep.
fn dictionary<S: ser::Serializer>(
    d: &Dictionary,
    s: S,
    depth: u32,
) -> core::result::Result<S::Ok, S::Error> {
    match (d.key_type(), d.value_type()) {
        (None, None) => Entries(d, depth).serialize(s),
        (k, v) => s.serialize_newtype_struct(
            Kind::TypedDictionary.marker(),
            &(
                Head(k.unwrap_or(&UNTYPED)),
                Head(v.unwrap_or(&UNTYPED)),
                Entries(d, depth),
            ),
        ),
    }
}

/// Feature `serde`: any value in [`crate::serde`], exactly as [`Variant::from_bytes`]
/// decodes it (every type of every dialect, precision, typed containers, full objects
/// when the [`Decoder`] allows them); from other self-describing formats (`serde_json`,
/// …): unit / none → Nil, bool → Bool, integers → Int (beyond `i64`: an error), floats →
/// Float, strings and chars → String, bytes → PackedByteArray, sequences → Array, maps →
/// Dictionary, an enum variant → a Dictionary with one entry (tag → content).
///
/// A format that is not self-describing (`postcard`, `bincode`) cannot give one: as for
/// `serde_json::Value`, it must say what it holds.
///
/// ```
/// use gdwire::owned::Variant;
/// let v: Variant = serde_json::from_str(r#"{"hp": 100, "speed": 1.5, "tags": ["a", null]}"#)?;
/// assert_eq!(v.get("hp"), Some(&Variant::Int(100)));
/// assert_eq!(v.get("speed"), Some(&Variant::Float(1.5)));
/// assert_eq!(v.get("tags").and_then(Variant::as_array).map(|a| a.len()), Some(2));
/// # Ok::<(), serde_json::Error>(())
/// ```
impl<'de> de::Deserialize<'de> for Variant {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> core::result::Result<Variant, D::Error> {
        d.deserialize_newtype_struct(MARKER, VariantVisitor)
    }
}

/// Feature `serde`: an Array (typed too) as a [`Variant`] reads it; any other value is an
/// error.
impl<'de> de::Deserialize<'de> for Array {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> core::result::Result<Array, D::Error> {
        match Variant::deserialize(d)? {
            Variant::Array(a) => Ok(a),
            other => Err(de::Error::custom(alloc::format!(
                "invalid type: Godot {}, expected an Array",
                other.variant_type()
            ))),
        }
    }
}

/// Feature `serde`: a Dictionary (typed too) as a [`Variant`] reads it; any other value is
/// an error.
impl<'de> de::Deserialize<'de> for Dictionary {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> core::result::Result<Dictionary, D::Error> {
        match Variant::deserialize(d)? {
            Variant::Dictionary(x) => Ok(x),
            other => Err(de::Error::custom(alloc::format!(
                "invalid type: Godot {}, expected a Dictionary",
                other.variant_type()
            ))),
        }
    }
}

use serde::de::{Deserialize as _, Deserializer as _};

struct VariantVisitor;

impl<'de> Visitor<'de> for VariantVisitor {
    type Value = Variant;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }

    fn visit_newtype_struct<D: de::Deserializer<'de>>(
        self,
        d: D,
    ) -> core::result::Result<Variant, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_unit<E: de::Error>(self) -> core::result::Result<Variant, E> {
        Ok(Variant::Nil)
    }

    fn visit_none<E: de::Error>(self) -> core::result::Result<Variant, E> {
        Ok(Variant::Nil)
    }

    fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> core::result::Result<Variant, D::Error> {
        Variant::deserialize(d)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> core::result::Result<Variant, E> {
        Ok(Variant::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> core::result::Result<Variant, E> {
        Ok(Variant::Int(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> core::result::Result<Variant, E> {
        i64::try_from(v)
            .map(Variant::Int)
            .map_err(|_| E::custom(alloc::format!("{v} is out of range for a Godot int")))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> core::result::Result<Variant, E> {
        i64::try_from(v)
            .map(Variant::Int)
            .map_err(|_| E::custom(alloc::format!("{v} is out of range for a Godot int")))
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> core::result::Result<Variant, E> {
        i64::try_from(v)
            .map(Variant::Int)
            .map_err(|_| E::custom(alloc::format!("{v} is out of range for a Godot int")))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> core::result::Result<Variant, E> {
        Ok(Variant::Float(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> core::result::Result<Variant, E> {
        Ok(Variant::String(v.into()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> core::result::Result<Variant, E> {
        Ok(Variant::String(v.into()))
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> core::result::Result<Variant, E> {
        Ok(Variant::PackedByteArray(v.into()))
    }

    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> core::result::Result<Variant, E> {
        Ok(Variant::PackedByteArray(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> core::result::Result<Variant, A::Error> {
        let mut a = Array::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(v) = seq.next_element::<Variant>()? {
            a.push(v);
        }
        Ok(Variant::Array(a))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> core::result::Result<Variant, A::Error> {
        let mut d = Dictionary::with_capacity(map.size_hint().unwrap_or(0).min(4096));
        while let Some((k, v)) = map.next_entry::<Variant, Variant>()? {
            d.push(k, v);
        }
        Ok(Variant::Dictionary(d))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> core::result::Result<Variant, A::Error> {
        let (tag, content) = data.variant::<Variant>()?;
        if tag == *WIRE_TAG {
            // This crate's deserializer: the value's bytes, for the owned decoder.
            return content.newtype_variant_seed(WireSeed);
        }
        let mut d = Dictionary::with_capacity(1);
        d.push(tag, content.newtype_variant::<Variant>()?);
        Ok(Variant::Dictionary(d))
    }
}

/// Reads `(dialect name, bytes)` and decodes the bytes with the owned decoder.
struct WireSeed;

impl<'de> DeserializeSeed<'de> for WireSeed {
    type Value = Variant;
    fn deserialize<D: de::Deserializer<'de>>(
        self,
        d: D,
    ) -> core::result::Result<Variant, D::Error> {
        d.deserialize_tuple(2, WireSeed)
    }
}

impl<'de> Visitor<'de> for WireSeed {
    type Value = Variant;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a dialect name and a value's bytes")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> core::result::Result<Variant, A::Error> {
        let name = seq
            .next_element::<&str>()?
            .ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let dialect = Dialect::from_name(name)
            .ok_or_else(|| de::Error::custom(alloc::format!("unknown dialect {name:?}")))?;
        seq.next_element_seed(Decode(dialect))?
            .ok_or_else(|| de::Error::invalid_length(1, &self))
    }
}

/// The owned decoder over one value's bytes. They were validated with the caller's
/// [`Decoder`] options (objects allowed or not, nesting limit) as they were stepped over;
/// decoding them on their own needs only the dialect.
struct Decode(Dialect);

impl<'de> DeserializeSeed<'de> for Decode {
    type Value = Variant;
    fn deserialize<D: de::Deserializer<'de>>(
        self,
        d: D,
    ) -> core::result::Result<Variant, D::Error> {
        d.deserialize_bytes(self)
    }
}

impl<'de> Visitor<'de> for Decode {
    type Value = Variant;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a value's bytes")
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> core::result::Result<Variant, E> {
        Decoder::new(self.0)
            .with_allow_objects(true)
            .decode_owned_exact(v)
            .map_err(|e| E::custom(e))
    }
}

/// Hands one whole value (its bytes, in `dialect`) to a `Variant`'s visitor (the
/// `$gdwire::Variant` name guarantees the visitor is that one).
pub(crate) fn visit_wire<'de, V: Visitor<'de>>(
    dialect: Dialect,
    bytes: &[u8],
    visitor: V,
) -> Result<V::Value> {
    visitor.visit_enum(Wire { dialect, bytes })
}

/// A leaf view with no bytes at hand (`from_variant_ref` on a leaf, elements of packed
/// arrays): encoded with the owned encoder in a dialect that gives the same value back,
/// then handed over as [`visit_wire`] does. Godot 4 holds most leaves; Godot 3 its own
/// quirks (a RID without id, text that is not UTF-8, an empty absolute NodePath).
pub(crate) fn visit_view_leaf<'de, V: Visitor<'de>>(
    v: VariantRef<'de>,
    visitor: V,
) -> Result<V::Value> {
    // The common elements of packed arrays map one to one onto the visitor's plain
    // methods (the name guarantees the visitor is a `Variant`'s): no bytes needed.
    match v {
        VariantRef::Nil => return visitor.visit_unit(),
        VariantRef::Bool(b) => return visitor.visit_bool(b),
        VariantRef::Int(i) => return visitor.visit_i64(i),
        VariantRef::Float(f) => return visitor.visit_f64(f),
        VariantRef::String(s) => {
            // The block exactly (a BOM, bytes after a NUL), when it is UTF-8.
            if let Ok(text) = core::str::from_utf8(s.raw()) {
                return visitor.visit_str(text);
            }
        }
        _ => {}
    }
    let owned = Variant::from(v);
    // Math types, colors and integer vectors are the same in every dialect that has them;
    // the rest is checked (Godot 3 keeps what Godot 4 cannot say, and the reverse).
    let plain = !matches!(
        owned,
        Variant::String(_)
            | Variant::StringName(_)
            | Variant::NodePath(_)
            | Variant::Rid(_)
            | Variant::Object(_)
            | Variant::Signal(_)
    );
    // `Debug` shows every part of a value (also what `==` cannot: NaN equals itself here).
    let shown = (!plain).then(|| alloc::format!("{owned:?}"));
    for d in [Dialect::GODOT_4, Dialect::GODOT_3]
        .into_iter()
        .chain(Dialect::ALL)
    {
        let Ok(bytes) = owned.to_vec(d) else { continue };
        let same = shown.as_ref().is_none_or(|shown| {
            let back = Decoder::new(d)
                .with_allow_objects(true)
                .decode_owned_exact(&bytes);
            back.is_ok_and(|b| {
                b.precision() == owned.precision() && alloc::format!("{b:?}") == *shown
            })
        });
        if same {
            return visit_wire(d, &bytes, visitor);
        }
    }
    Err(de::Error::custom(alloc::format!(
        "no dialect gives this Godot {} back",
        owned.variant_type()
    )))
}

struct Wire<'a> {
    dialect: Dialect,
    bytes: &'a [u8],
}

impl<'de> EnumAccess<'de> for Wire<'_> {
    type Error = Error;
    type Variant = Self;
    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self)> {
        let tag = seed.deserialize(de::value::BorrowedStrDeserializer::new(WIRE_TAG))?;
        Ok((tag, self))
    }
}

impl<'de> VariantAccess<'de> for Wire<'_> {
    type Error = Error;
    fn unit_variant(self) -> Result<()> {
        Err(de::Error::custom("a Variant's bytes"))
    }
    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value> {
        seed.deserialize(WireContent(self))
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        WireContent(self).deserialize_any(visitor)
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        WireContent(self).deserialize_any(visitor)
    }
}

/// `(dialect name, bytes)`.
struct WireContent<'a>(Wire<'a>);

impl<'de> de::Deserializer<'de> for WireContent<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_seq(WireSeq {
            wire: self.0,
            next: 0,
        })
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

struct WireSeq<'a> {
    wire: Wire<'a>,
    next: u8,
}

impl<'de> SeqAccess<'de> for WireSeq<'_> {
    type Error = Error;
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        self.next += 1;
        match self.next {
            1 => seed
                .deserialize(de::value::BorrowedStrDeserializer::new(
                    self.wire.dialect.name(),
                ))
                .map(Some),
            2 => seed
                .deserialize(de::value::BytesDeserializer::new(self.wire.bytes))
                .map(Some),
            _ => Ok(None),
        }
    }
}
