//! Godot types with no serde counterpart: StringName, NodePath, RID, Object (by id and
//! full), Callable, Signal, and typed Arrays and Dictionaries.
//!
//! Each serializes as a newtype struct with a private name (`$gdwire::godot::…`), like the
//! math types: this crate's serializer recognises the name and writes the exact Godot type
//! through the [`Writer`](crate::Writer), and its deserializer requires that type. Other
//! formats see the content: a string (StringName, NodePath, element types), a number (RID,
//! object id), unit (Callable), a tuple (Signal; typed containers and objects as their type
//! then their content).

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, value::CowStrDeserializer, DeserializeSeed, SeqAccess, Visitor};
use serde::ser::{self, Impossible, Serialize, SerializeTuple};

use crate::owned::{ElementType, GString, NodePath, Signal};
use crate::read::{ContainerType, ObjectRef, StrRef, VariantRef};
use crate::serde::error::{Error, Result};
use crate::serde::leaf::{LeafDe, Marker};
use crate::serde::ser::{Compound, Serializer};
use crate::variant_type::VariantType;
use crate::write::{ContainerTypeSpec, Sink};

/// Which Godot type a `$gdwire::godot::…` name asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    StringName,
    NodePath,
    Rid,
    ObjectId,
    Callable,
    Signal,
    TypedArray,
    TypedDictionary,
    Object,
}

impl Kind {
    const ALL: [Kind; 9] = [
        Kind::StringName,
        Kind::NodePath,
        Kind::Rid,
        Kind::ObjectId,
        Kind::Callable,
        Kind::Signal,
        Kind::TypedArray,
        Kind::TypedDictionary,
        Kind::Object,
    ];

    /// The private newtype-struct name.
    const fn marker(self) -> &'static str {
        match self {
            Kind::StringName => "$gdwire::godot::StringName",
            Kind::NodePath => "$gdwire::godot::NodePath",
            Kind::Rid => "$gdwire::godot::RID",
            Kind::ObjectId => "$gdwire::godot::ObjectId",
            Kind::Callable => "$gdwire::godot::Callable",
            Kind::Signal => "$gdwire::godot::Signal",
            Kind::TypedArray => "$gdwire::godot::TypedArray",
            Kind::TypedDictionary => "$gdwire::godot::TypedDictionary",
            Kind::Object => "$gdwire::godot::Object",
        }
    }

    /// The kind named by `rest`, the part of a marker after `$gdwire::godot::`.
    pub(crate) fn from_marker(rest: &str) -> Option<Kind> {
        Kind::ALL
            .into_iter()
            .find(|k| &k.marker()["$gdwire::godot::".len()..] == rest)
    }

    /// What the deserializer expected, for errors.
    pub(crate) const fn expected(self) -> &'static str {
        match self {
            Kind::StringName => "StringName",
            Kind::NodePath => "NodePath",
            Kind::Rid => "RID",
            Kind::ObjectId => "Object (an instance id)",
            Kind::Callable => "Callable",
            Kind::Signal => "Signal",
            Kind::TypedArray => "Array",
            Kind::TypedDictionary => "Dictionary",
            Kind::Object => "Object (a full object)",
        }
    }

    /// Strings that precede the content of a container kind (its element types, or an
    /// object's class).
    const fn heads(self) -> usize {
        match self {
            Kind::TypedArray | Kind::Object => 1,
            Kind::TypedDictionary => 2,
            _ => 0,
        }
    }
}

// ---------------------------------------------------------------------------------------
// Reading (called by the deserializer for a marked newtype struct)

/// A marked leaf: the value must be the kind's Godot type; its content goes to `visitor`
/// as a newtype struct.
pub(crate) fn visit_leaf_marked<'de, V: Visitor<'de>>(
    k: Kind,
    v: VariantRef<'de>,
    visitor: V,
) -> Result<V::Value> {
    use VariantRef as R;
    match (k, v) {
        (Kind::StringName, R::StringName(_))
        | (Kind::Rid, R::Rid(Some(_)))
        | (Kind::ObjectId, R::Object(ObjectRef::Id(_)))
        | (Kind::Callable, R::Callable)
        | (Kind::Signal, R::Signal(_)) => visitor.visit_newtype_struct(LeafDe::new(v)),
        // Godot 3 and Pandemonium send no RID id.
        (Kind::Rid, R::Rid(None)) | (Kind::ObjectId, R::Object(ObjectRef::Null)) => {
            visitor.visit_newtype_struct(LeafDe::new(R::Int(0)))
        }
        (Kind::NodePath, R::NodePath(p)) => {
            // The absolute bit as sent (not `is_absolute()`, which Godot 3 drops for a path
            // without names), so the text writes back to the same bytes.
            let text = path_text(
                p.flags() & 1 != 0,
                p.names().map(|s| s.bytes()),
                p.subnames().map(|s| s.bytes()),
            );
            visitor.visit_newtype_struct(de::value::StringDeserializer::<Error>::new(text))
        }
        _ => Err(Marker::mismatch(Marker::Godot(k), &v)),
    }
}

/// A marked container (the deserializer's `Begin` event, put back so that `rest` reads the
/// container itself): its type strings, then the container, go to `visitor` as a sequence.
pub(crate) fn visit_container_marked<'de, V, D>(
    k: Kind,
    v: VariantRef<'de>,
    rest: D,
    visitor: V,
) -> Result<V::Value>
where
    V: Visitor<'de>,
    D: de::Deserializer<'de, Error = Error>,
{
    use VariantRef as R;
    let heads = match (k, &v) {
        (Kind::TypedArray, R::Array(a)) => [Some(element_text(a.element_type())), None],
        (Kind::TypedDictionary, R::Dictionary(d)) => [
            Some(element_text(d.key_type())),
            Some(element_text(d.value_type())),
        ],
        (Kind::Object, R::Object(ObjectRef::Full(o))) => [Some(str_ref_text(o.class())), None],
        _ => return Err(Marker::mismatch(Marker::Godot(k), &v)),
    };
    visitor.visit_seq(HeadSeq {
        heads,
        next: 0,
        rest: Some(rest),
    })
}

/// The head strings, then the container.
struct HeadSeq<'de, D> {
    heads: [Option<Cow<'de, str>>; 2],
    next: usize,
    rest: Option<D>,
}

impl<'de, D: de::Deserializer<'de, Error = Error>> SeqAccess<'de> for HeadSeq<'de, D> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        while self.next < self.heads.len() {
            let head = self.heads[self.next].take();
            self.next += 1;
            if let Some(h) = head {
                return seed.deserialize(CowStrDeserializer::new(h)).map(Some);
            }
        }
        match self.rest.take() {
            Some(d) => seed.deserialize(d).map(Some),
            None => Ok(None),
        }
    }
}

fn str_ref_text(s: StrRef<'_>) -> Cow<'_, str> {
    match s.as_str() {
        Some(t) => Cow::Borrowed(t),
        None => Cow::Owned(String::from_utf8_lossy(s.bytes()).into_owned()),
    }
}

fn element_text(t: Option<ContainerType<'_>>) -> Cow<'_, str> {
    match t {
        None | Some(ContainerType::Builtin(VariantType::Nil)) => Cow::Borrowed(UNTYPED),
        Some(ContainerType::Builtin(ty)) => Cow::Borrowed(ty.name()),
        Some(ContainerType::ClassName(s) | ContainerType::Script(s)) => str_ref_text(s),
        Some(ContainerType::UnknownBuiltin(id)) => Cow::Owned(alloc::format!("#{id}")),
    }
}

/// GDScript's name for an untyped element (`Array` is `Array[Variant]`).
const UNTYPED: &str = "Variant";

/// NodePath text as the engine prints it: `/` first when absolute, names joined by `/`,
/// then `:` before each subname.
fn path_text<'a>(
    absolute: bool,
    names: impl Iterator<Item = &'a [u8]>,
    subnames: impl Iterator<Item = &'a [u8]>,
) -> String {
    let mut text = String::new();
    if absolute {
        text.push('/');
    }
    for (i, name) in names.enumerate() {
        if i > 0 {
            text.push('/');
        }
        text.push_str(&String::from_utf8_lossy(name));
    }
    for sub in subnames {
        text.push(':');
        text.push_str(&String::from_utf8_lossy(sub));
    }
    text
}

// ---------------------------------------------------------------------------------------
// Writing (called by the serializer for a marked newtype struct)

/// Writes the content of a marked newtype struct as the kind's Godot type.
pub(crate) fn serialize_marked<S: Sink, V: Serialize + ?Sized>(
    ser: &mut Serializer<S>,
    k: Kind,
    value: &V,
) -> Result<()> {
    if k.heads() > 0 {
        return value.serialize(Heads { ser, kind: k });
    }
    let w = &mut ser.w;
    let r = match (k, value.serialize(Capture)?) {
        (Kind::StringName, Tok::Str(s)) => w.string_name(&s),
        (Kind::NodePath, Tok::Str(s)) => w.node_path_str(&s),
        (Kind::Rid, Tok::Int(i)) => w.rid(id(i)?),
        (Kind::ObjectId, Tok::Int(i)) => w.object_id(id(i)?),
        (Kind::Callable, Tok::Unit) => w.callable(),
        (Kind::Signal, Tok::Seq(parts)) => match &parts[..] {
            [Tok::Str(name), Tok::Int(i)] => w.signal(name, id(*i)?),
            _ => return Err(ser::Error::custom("a Signal is (name, object id)")),
        },
        (k, _) => {
            return Err(ser::Error::custom(alloc::format!(
                "unexpected content for a Godot {}",
                k.expected()
            )))
        }
    };
    r.map_err(Error::write)
}

/// An id as `u64` (an `i64` is taken as its bit pattern: object ids of RefCounted objects
/// have the top bit set).
fn id(i: i128) -> Result<u64> {
    if let Ok(u) = u64::try_from(i) {
        return Ok(u);
    }
    i64::try_from(i)
        .map(|s| s as u64)
        .map_err(|_| ser::Error::custom("an id must fit 64 bits"))
}

/// The string content of a value (object property names, element types).
pub(crate) fn capture_str<V: Serialize + ?Sized>(value: &V) -> Result<String> {
    match value.serialize(Capture)? {
        Tok::Str(s) => Ok(s),
        _ => Err(ser::Error::custom("a string was expected")),
    }
}

/// The content of a marked leaf.
enum Tok {
    Str(String),
    Int(i128),
    Unit,
    Seq(Vec<Tok>),
}

struct Capture;

fn not_scalar() -> Error {
    ser::Error::custom("a Godot type wrapper holds a string, an id, unit or a tuple of those")
}

impl ser::Serializer for Capture {
    type Ok = Tok;
    type Error = Error;
    type SerializeSeq = CaptureSeq;
    type SerializeTuple = CaptureSeq;
    type SerializeTupleStruct = Impossible<Tok, Error>;
    type SerializeTupleVariant = Impossible<Tok, Error>;
    type SerializeMap = Impossible<Tok, Error>;
    type SerializeStruct = Impossible<Tok, Error>;
    type SerializeStructVariant = Impossible<Tok, Error>;

    ints!(|self, v| Ok(Tok::Int(v.into())));
    fn serialize_u64(self, v: u64) -> Result<Tok> {
        Ok(Tok::Int(v.into()))
    }
    fn serialize_char(self, v: char) -> Result<Tok> {
        Ok(Tok::Str(v.into()))
    }
    fn serialize_str(self, v: &str) -> Result<Tok> {
        Ok(Tok::Str(v.into()))
    }
    fn serialize_unit(self) -> Result<Tok> {
        Ok(Tok::Unit)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<Tok> {
        Ok(Tok::Unit)
    }
    fn serialize_newtype_struct<V: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &V,
    ) -> Result<Tok> {
        value.serialize(self)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<CaptureSeq> {
        Ok(CaptureSeq(Vec::with_capacity(len.unwrap_or(0).min(4))))
    }
    fn serialize_tuple(self, len: usize) -> Result<CaptureSeq> {
        Ok(CaptureSeq(Vec::with_capacity(len.min(4))))
    }

    refuse!(not_scalar(); bool f32 f64 bytes none some unit_variant newtype_variant
        tuple_struct tuple_variant map struct struct_variant);
}

struct CaptureSeq(Vec<Tok>);

impl ser::SerializeSeq for CaptureSeq {
    type Ok = Tok;
    type Error = Error;
    fn serialize_element<V: Serialize + ?Sized>(&mut self, value: &V) -> Result<()> {
        self.0.push(value.serialize(Capture)?);
        Ok(())
    }
    fn end(self) -> Result<Tok> {
        Ok(Tok::Seq(self.0))
    }
}

impl ser::SerializeTuple for CaptureSeq {
    type Ok = Tok;
    type Error = Error;
    fn serialize_element<V: Serialize + ?Sized>(&mut self, value: &V) -> Result<()> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<Tok> {
        ser::SerializeSeq::end(self)
    }
}

/// A container kind's content: `(head strings…, container)`.
struct Heads<'a, S: Sink> {
    ser: &'a mut Serializer<S>,
    kind: Kind,
}

fn not_container() -> Error {
    ser::Error::custom("a typed container or object is (type…, content)")
}

impl<'a, S: Sink> ser::Serializer for Heads<'a, S> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = HeadTuple<'a, S>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_tuple(self, _: usize) -> Result<HeadTuple<'a, S>> {
        Ok(HeadTuple {
            ser: self.ser,
            kind: self.kind,
            heads: Vec::new(),
        })
    }

    refuse!(not_container(); bool i8 i16 i32 i64 u8 u16 u32 u64 f32 f64 char str bytes none
        some unit unit_struct unit_variant newtype_struct newtype_variant seq tuple_struct
        tuple_variant map struct struct_variant);
}

struct HeadTuple<'a, S: Sink> {
    ser: &'a mut Serializer<S>,
    kind: Kind,
    heads: Vec<String>,
}

impl<S: Sink> SerializeTuple for HeadTuple<'_, S> {
    type Ok = ();
    type Error = Error;

    fn serialize_element<V: Serialize + ?Sized>(&mut self, value: &V) -> Result<()> {
        if self.heads.len() < self.kind.heads() {
            self.heads.push(capture_str(value)?);
            return Ok(());
        }
        value.serialize(Body {
            ser: &mut *self.ser,
            kind: self.kind,
            heads: &self.heads,
        })
    }

    fn end(self) -> Result<()> {
        Ok(())
    }
}

/// The container of a typed Array / Dictionary or the properties of an object, started with
/// its type strings once its length is known.
struct Body<'b, S: Sink> {
    ser: &'b mut Serializer<S>,
    kind: Kind,
    heads: &'b [String],
}

impl<'b, S: Sink> Body<'b, S> {
    fn head(&self, i: usize) -> &'b str {
        self.heads.get(i).map_or("", String::as_str)
    }

    fn array(self, len: Option<usize>) -> Result<Compound<'b, S>> {
        let n = len.ok_or_else(needs_len)?;
        if self.kind != Kind::TypedArray {
            return Err(not_container());
        }
        let spec = spec(self.head(0))?;
        self.ser
            .w
            .begin_typed_array(n, spec)
            .map_err(Error::write)?;
        Ok(Compound::Direct(self.ser))
    }

    fn map(self, len: Option<usize>) -> Result<Compound<'b, S>> {
        let n = len.ok_or_else(needs_len)?;
        match self.kind {
            Kind::TypedDictionary => {
                let (k, v) = (spec(self.head(0))?, spec(self.head(1))?);
                let w = &mut self.ser.w;
                w.begin_typed_dictionary(n, k, v).map_err(Error::write)?;
                Ok(Compound::Direct(self.ser))
            }
            Kind::Object => {
                let class = self.head(0);
                self.ser.w.begin_object(class, n).map_err(Error::write)?;
                Ok(Compound::Props(self.ser))
            }
            _ => Err(not_container()),
        }
    }
}

fn needs_len() -> Error {
    ser::Error::custom("a typed container or object needs its length up front")
}

impl<'b, S: Sink> ser::Serializer for Body<'b, S> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'b, S>;
    type SerializeTuple = Compound<'b, S>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Compound<'b, S>;
    type SerializeStruct = Compound<'b, S>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'b, S>> {
        self.array(len)
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'b, S>> {
        self.array(Some(len))
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'b, S>> {
        self.map(len)
    }
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Compound<'b, S>> {
        self.map(Some(len))
    }
    /// A newtype around the content (`struct Props(BTreeMap<…>)`) is its content.
    fn serialize_newtype_struct<V: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &V,
    ) -> Result<()> {
        value.serialize(self)
    }

    refuse!(not_container(); bool i8 i16 i32 i64 u8 u16 u32 u64 f32 f64 char str bytes none
        some unit unit_struct unit_variant newtype_variant tuple_struct tuple_variant
        struct_variant);
}

/// An element type from its text (see [`ElementType`]'s serde form).
fn spec(text: &str) -> Result<ContainerTypeSpec<'_>> {
    Ok(match parse_element(text) {
        Parsed::Builtin(ty) => ContainerTypeSpec::Builtin(ty),
        Parsed::Class => ContainerTypeSpec::ClassName(text),
        Parsed::Script => ContainerTypeSpec::Script(text),
        Parsed::Unknown(_) => {
            return Err(ser::Error::custom(alloc::format!(
                "element type {text}: an unknown builtin id cannot be written"
            )))
        }
    })
}

enum Parsed {
    Builtin(VariantType),
    Class,
    Script,
    Unknown(u32),
}

/// `Variant` (untyped), a builtin type's name (`int`, `Vector3`, …; `Object` is the class),
/// `res://…` (a script), `#N` (an unknown builtin id), else a class name.
fn parse_element(text: &str) -> Parsed {
    if text == UNTYPED {
        return Parsed::Builtin(VariantType::Nil);
    }
    if text.starts_with("res://") {
        return Parsed::Script;
    }
    if let Some(id) = text.strip_prefix('#').and_then(|n| n.parse().ok()) {
        return Parsed::Unknown(id);
    }
    match VariantType::ALL.into_iter().find(|t| t.name() == text) {
        Some(VariantType::Object) | None => Parsed::Class,
        Some(ty) => Parsed::Builtin(ty),
    }
}

// ---------------------------------------------------------------------------------------
// The public wrappers

/// `Serialize` / `Deserialize` of a `u64` id newtype marked as `kind`.
macro_rules! id_wrapper {
    ($t:ident, $kind:expr) => {
        impl Serialize for $t {
            fn serialize<Z: ser::Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
                s.serialize_newtype_struct($kind.marker(), &self.0)
            }
        }

        impl<'de> de::Deserialize<'de> for $t {
            fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                content::<AnyU64, _>(d, $kind).map(|v| $t(v.0))
            }
        }
    };
}

/// Deserializes a marked newtype struct's content as `T`.
struct Content<T>(PhantomData<T>, &'static str);

impl<'de, T: de::Deserialize<'de>> Visitor<'de> for Content<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.1)
    }

    fn visit_newtype_struct<D: de::Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        T::deserialize(d)
    }
}

fn content<'de, T: de::Deserialize<'de>, D: de::Deserializer<'de>>(
    d: D,
    k: Kind,
) -> Result<T, D::Error> {
    d.deserialize_newtype_struct(k.marker(), Content(PhantomData, k.expected()))
}

/// A Godot `StringName` (`&"name"` in GDScript): text, written with the StringName type id.
/// `S` is any text type: `String`, `&str` (borrowed from the input), `Box<str>`, ….
///
/// Reading requires a StringName on the wire (a plain `String` field reads both).
///
/// ```
/// use serde::{Deserialize, Serialize};
/// use gdwire::serde::StringName;
/// use gdwire::Dialect;
///
/// #[derive(Serialize, Deserialize, Debug, PartialEq)]
/// struct Player<'a> {
///     #[serde(borrow)]
///     team: StringName<&'a str>,
/// }
///
/// let bytes = gdwire::serde::to_vec(Dialect::GODOT_4, &Player { team: StringName("red") })?;
/// // {"team": &"red"}: the value has type id 21 (StringName).
/// assert_eq!(&bytes[20..24], &[21, 0, 0, 0]);
/// let back: Player = gdwire::serde::from_bytes(Dialect::GODOT_4, &bytes)?;
/// assert_eq!(back.team, StringName("red"));
/// # Ok::<(), gdwire::serde::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StringName<S = String>(pub S);

impl<S: AsRef<str>> Serialize for StringName<S> {
    fn serialize<Z: ser::Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        s.serialize_newtype_struct(Kind::StringName.marker(), self.0.as_ref())
    }
}

impl<'de, S: de::Deserialize<'de>> de::Deserialize<'de> for StringName<S> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        content(d, Kind::StringName).map(StringName)
    }
}

/// A Godot `RID` by its id. Godot 3 and Pandemonium send no id: their RIDs read as
/// `Rid(0)`, and every `Rid` is written as the header alone there, as by the engine.
///
/// ```
/// use gdwire::serde::Rid;
/// use gdwire::Dialect;
/// let bytes = gdwire::serde::to_vec(Dialect::GODOT_4, &Rid(13))?;
/// assert_eq!(bytes, [23, 0, 0, 0, 13, 0, 0, 0, 0, 0, 0, 0]); // Godot 4.6: rid_13
/// assert_eq!(gdwire::serde::from_bytes::<Rid>(Dialect::GODOT_4, &bytes)?, Rid(13));
/// # Ok::<(), gdwire::serde::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rid(pub u64);

id_wrapper!(Rid, Kind::Rid);

/// An Object sent by instance id: what the engine writes for an object when full objects
/// are off (its default). A null object is Nil on the wire: use `Option<ObjectId>`.
/// `ObjectId(0)` is written as Nil too, like the engine.
///
/// ```
/// use gdwire::serde::ObjectId;
/// use gdwire::Dialect;
/// // Godot 4.6, a Node: object_id_node.
/// let bytes = [0x18, 0, 1, 0, 0x00, 0x10, 0, 0, 0, 0, 0, 0];
/// let id: ObjectId = gdwire::serde::from_bytes(Dialect::GODOT_4, &bytes)?;
/// assert_eq!(id, ObjectId(4096));
/// assert_eq!(gdwire::serde::to_vec(Dialect::GODOT_4, &id)?, bytes);
/// # Ok::<(), gdwire::serde::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ObjectId(pub u64);

id_wrapper!(ObjectId, Kind::ObjectId);

/// A Godot 4 `Callable`. The engine sends the header alone (and decodes an empty
/// Callable), so there is nothing in it.
///
/// ```
/// use gdwire::serde::Callable;
/// use gdwire::Dialect;
/// assert_eq!(gdwire::serde::to_vec(Dialect::GODOT_4, &Callable)?, [25, 0, 0, 0]);
/// gdwire::serde::from_bytes::<Callable>(Dialect::GODOT_4, &[25, 0, 0, 0])?;
/// # Ok::<(), gdwire::serde::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Callable;

impl Serialize for Callable {
    fn serialize<Z: ser::Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        s.serialize_newtype_struct(Kind::Callable.marker(), &())
    }
}

impl<'de> de::Deserialize<'de> for Callable {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        content::<(), _>(d, Kind::Callable).map(|()| Callable)
    }
}

/// A typed Array (Godot 4.0+: `Array[int]`, `Array[Node]`, …): the element type, then the
/// elements. `ElementType::Builtin(VariantType::Nil)` is an untyped Array, so this reads
/// any Array and writes back the same type block.
///
/// In other serde formats the element type is a string: `"int"`, `"Vector3"`, a class name
/// (`"Node"`), a script path (`"res://item.gd"`), `"Variant"` for untyped.
///
/// ```
/// use gdwire::owned::ElementType;
/// use gdwire::serde::TypedArray;
/// use gdwire::{Dialect, VariantType};
///
/// // var_to_bytes(Array[int]([1, -2, 2147483648])) in Godot 4.6 (typed_array_int).
/// let engine = [
///     0x1c, 0, 1, 0, 2, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0,
///     0xfe, 0xff, 0xff, 0xff, 2, 0, 1, 0, 0, 0, 0, 0x80, 0, 0, 0, 0,
/// ];
/// let a: TypedArray<i64> = gdwire::serde::from_bytes(Dialect::GODOT_4, &engine)?;
/// assert_eq!(a.element, ElementType::Builtin(VariantType::Int));
/// assert_eq!(a.items, [1, -2, 2147483648]);
/// assert_eq!(gdwire::serde::to_vec(Dialect::GODOT_4, &a)?, engine);
/// # Ok::<(), gdwire::serde::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct TypedArray<T> {
    /// What the Array holds.
    pub element: ElementType,
    /// The elements.
    pub items: Vec<T>,
}

impl<T> TypedArray<T> {
    /// An Array of `element` holding `items`.
    ///
    /// ```
    /// use gdwire::serde::TypedArray;
    /// let names = TypedArray::new(gdwire::VariantType::String, vec!["a", "b"]);
    /// let bytes = gdwire::serde::to_vec(gdwire::Dialect::GODOT_4, &names)?;
    /// assert_eq!(&bytes[..4], &[0x1c, 0, 1, 0]); // Array, builtin element type
    /// # Ok::<(), gdwire::serde::Error>(())
    /// ```
    pub fn new(element: impl Into<ElementType>, items: Vec<T>) -> Self {
        TypedArray {
            element: element.into(),
            items,
        }
    }
}

impl<T: Serialize> Serialize for TypedArray<T> {
    fn serialize<Z: ser::Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        s.serialize_newtype_struct(Kind::TypedArray.marker(), &(&self.element, &self.items))
    }
}

impl<'de, T: de::Deserialize<'de>> de::Deserialize<'de> for TypedArray<T> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (element, items) = d.deserialize_newtype_struct(
            Kind::TypedArray.marker(),
            Parts::<(ElementType, Vec<T>)>::new("a typed Array"),
        )?;
        Ok(TypedArray { element, items })
    }
}

/// A typed Dictionary (Godot 4.4+: `Dictionary[String, int]`, …): key and value types,
/// then the entries, in any map type `M` (`BTreeMap`, `HashMap`, a struct, …).
/// `Builtin(Nil)` on a side means untyped, so this reads any Dictionary.
///
/// ```
/// use std::collections::BTreeMap;
/// use gdwire::owned::ElementType;
/// use gdwire::serde::TypedDictionary;
/// use gdwire::{Dialect, VariantType};
///
/// let scores = TypedDictionary::new(
///     VariantType::Int,
///     VariantType::Int,
///     BTreeMap::from([(1, 1200), (2, -15)]),
/// );
/// let bytes = gdwire::serde::to_vec(Dialect::GODOT_4, &scores)?;
/// let view = gdwire::from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
/// assert_eq!(view.key_type(), Some(gdwire::ContainerType::Builtin(VariantType::Int)));
/// let back: TypedDictionary<BTreeMap<i64, i64>> =
///     gdwire::serde::from_bytes(Dialect::GODOT_4, &bytes)?;
/// assert_eq!(back, scores);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct TypedDictionary<M> {
    /// The key type.
    pub key: ElementType,
    /// The value type.
    pub value: ElementType,
    /// The entries.
    pub entries: M,
}

impl<M> TypedDictionary<M> {
    /// A Dictionary of `key` → `value` holding `entries`.
    ///
    /// ```
    /// use gdwire::serde::TypedDictionary;
    /// use gdwire::VariantType;
    /// let d = TypedDictionary::new(VariantType::String, VariantType::Nil, vec![("a", 1)]);
    /// assert_eq!(d.entries.len(), 1);
    /// ```
    pub fn new(key: impl Into<ElementType>, value: impl Into<ElementType>, entries: M) -> Self {
        TypedDictionary {
            key: key.into(),
            value: value.into(),
            entries,
        }
    }
}

impl<M: Serialize> Serialize for TypedDictionary<M> {
    fn serialize<Z: ser::Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        s.serialize_newtype_struct(
            Kind::TypedDictionary.marker(),
            &(&self.key, &self.value, &self.entries),
        )
    }
}

impl<'de, M: de::Deserialize<'de>> de::Deserialize<'de> for TypedDictionary<M> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (key, value, entries) = d.deserialize_newtype_struct(
            Kind::TypedDictionary.marker(),
            Parts::<(ElementType, ElementType, M)>::new("a typed Dictionary"),
        )?;
        Ok(TypedDictionary {
            key,
            value,
            entries,
        })
    }
}

/// A full Object (`var_to_bytes_with_objects`, `put_var(v, true)`): class name and
/// properties, in any map type `P` (a struct with the property names as fields, a
/// `BTreeMap`, …).
///
/// Writing needs a serializer with full objects on ([`Serializer::with_full_objects`]);
/// reading needs a [`Decoder`](crate::Decoder) that allows objects
/// ([`from_bytes_with`](crate::serde::from_bytes_with)). A null object is Nil: use
/// `Option<Object<P>>`.
///
/// ```
/// use serde::{Deserialize, Serialize};
/// use gdwire::serde::{Object, Serializer};
/// use gdwire::{Decoder, Dialect};
///
/// #[derive(Serialize, Deserialize, Debug, PartialEq)]
/// struct Props { script: Option<()> }
///
/// // var_to_bytes_with_objects(RefCounted.new()) in Godot 4.6 (object_full_refcounted).
/// let engine = [
///     0x18, 0, 0, 0, 10, 0, 0, 0, b'R', b'e', b'f', b'C', b'o', b'u', b'n', b't', b'e', b'd',
///     0, 0, 1, 0, 0, 0, 6, 0, 0, 0, b's', b'c', b'r', b'i', b'p', b't', 0, 0, 0, 0, 0, 0,
/// ];
/// let decoder = Decoder::new(Dialect::GODOT_4).with_allow_objects(true);
/// let o: Object<Props> = gdwire::serde::from_bytes_with(decoder, &engine)?;
/// assert_eq!(o.class, "RefCounted");
///
/// let mut out = Vec::new();
/// let mut ser = Serializer::new(&mut out, Dialect::GODOT_4).with_full_objects(true);
/// o.serialize(&mut ser)?;
/// assert_eq!(out, engine);
/// # Ok::<(), gdwire::serde::Error>(())
/// ```
///
/// [`Serializer::with_full_objects`]: crate::serde::Serializer::with_full_objects
#[derive(Clone, Debug, PartialEq)]
pub struct Object<P> {
    /// The class name (`"Node"`).
    pub class: String,
    /// The properties.
    pub properties: P,
}

impl<P: Serialize> Serialize for Object<P> {
    fn serialize<Z: ser::Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        s.serialize_newtype_struct(Kind::Object.marker(), &(&self.class, &self.properties))
    }
}

impl<'de, P: de::Deserialize<'de>> de::Deserialize<'de> for Object<P> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (class, properties) = d.deserialize_newtype_struct(
            Kind::Object.marker(),
            Parts::<(String, P)>::new("a full Object"),
        )?;
        Ok(Object { class, properties })
    }
}

/// A marked newtype struct whose content is a tuple `T`: from this crate's deserializer the
/// parts come as a sequence directly; elsewhere as the newtype's tuple.
struct Parts<T> {
    what: &'static str,
    _t: PhantomData<T>,
}

impl<T> Parts<T> {
    fn new(what: &'static str) -> Self {
        Parts {
            what,
            _t: PhantomData,
        }
    }
}

impl<'de, T: de::Deserialize<'de>> Visitor<'de> for Parts<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.what)
    }

    fn visit_newtype_struct<D: de::Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        T::deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<T, A::Error> {
        T::deserialize(de::value::SeqAccessDeserializer::new(seq))
    }
}

/// A `u64` also read from an `i64` (its bit pattern): object ids with the top bit set come
/// as negative ints from a Godot int.
struct AnyU64(u64);

impl<'de> de::Deserialize<'de> for AnyU64 {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = AnyU64;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an id")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<AnyU64, E> {
                Ok(AnyU64(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<AnyU64, E> {
                Ok(AnyU64(v as u64))
            }
        }
        d.deserialize_u64(V)
    }
}

/// Text that may not be UTF-8 (Godot 3 strings), as a [`GString`].
struct Text(GString);

impl<'de> de::Deserialize<'de> for Text {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Text;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("text")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Text, E> {
                Ok(Text(v.into()))
            }
            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Text, E> {
                let lossy = String::from_utf8_lossy(v);
                Ok(Text(
                    GString::from_raw(v.to_vec()).unwrap_or_else(|| lossy.as_ref().into()),
                ))
            }
        }
        d.deserialize_str(V)
    }
}

fn lossy(s: &GString) -> Cow<'_, str> {
    String::from_utf8_lossy(s.bytes())
}

/// Feature `serde`: the Godot NodePath in [`crate::serde`] (its text there and in other
/// formats, `"/root/Player:position"`, parsed back with [`NodePath::parse`]).
///
/// ```
/// use gdwire::owned::NodePath;
/// use gdwire::Dialect;
/// // var_to_bytes(NodePath("/root/a:b")) in Godot 4.6 (nodepath_root_a_b).
/// let engine = [
///     0x16, 0, 0, 0, 2, 0, 0, 0x80, 1, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, b'r', b'o', b'o', b't',
///     1, 0, 0, 0, b'a', 0, 0, 0, 1, 0, 0, 0, b'b', 0, 0, 0,
/// ];
/// let p: NodePath = gdwire::serde::from_bytes(Dialect::GODOT_4, &engine)?;
/// assert_eq!(p, NodePath::parse("/root/a:b").unwrap());
/// assert_eq!(gdwire::serde::to_vec(Dialect::GODOT_4, &p)?, engine);
/// # Ok::<(), gdwire::serde::Error>(())
/// ```
impl Serialize for NodePath {
    fn serialize<Z: ser::Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        let text = path_text(
            self.flags() & 1 != 0,
            self.names().iter().map(GString::bytes),
            self.subnames().iter().map(GString::bytes),
        );
        s.serialize_newtype_struct(Kind::NodePath.marker(), &text)
    }
}

/// Feature `serde`: from a Godot NodePath in [`crate::serde`]; from its text elsewhere.
impl<'de> de::Deserialize<'de> for NodePath {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text: Cow<'de, str> = content::<CowStr<'de>, _>(d, Kind::NodePath)?.0;
        NodePath::parse(&text)
            .ok_or_else(|| de::Error::custom(alloc::format!("invalid NodePath text {text:?}")))
    }
}

/// Text borrowed when the format can, owned otherwise.
struct CowStr<'de>(Cow<'de, str>);

impl<'de> de::Deserialize<'de> for CowStr<'de> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = CowStr<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("text")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<CowStr<'de>, E> {
                Ok(CowStr(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<CowStr<'de>, E> {
                Ok(CowStr(Cow::Owned(v.into())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<CowStr<'de>, E> {
                Ok(CowStr(Cow::Owned(v)))
            }
        }
        d.deserialize_str(V)
    }
}

/// Feature `serde`: the Godot 4 Signal in [`crate::serde`]; the tuple `(name, object_id)`
/// in other formats.
///
/// ```
/// use gdwire::owned::Signal;
/// use gdwire::Dialect;
/// // The `ready` signal of a Node, from Godot 4.6 (signal_node_ready).
/// let engine = [
///     0x1a, 0, 0, 0, 5, 0, 0, 0, b'r', b'e', b'a', b'd', b'y', 0, 0, 0, 0, 0x10, 0, 0, 0, 0,
///     0, 0,
/// ];
/// let s: Signal = gdwire::serde::from_bytes(Dialect::GODOT_4, &engine)?;
/// assert_eq!((s.name.as_str(), s.object_id), (Some("ready"), 4096));
/// assert_eq!(gdwire::serde::to_vec(Dialect::GODOT_4, &s)?, engine);
/// # Ok::<(), gdwire::serde::Error>(())
/// ```
impl Serialize for Signal {
    fn serialize<Z: ser::Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        s.serialize_newtype_struct(Kind::Signal.marker(), &(lossy(&self.name), self.object_id))
    }
}

/// Feature `serde`: from a Godot 4 Signal in [`crate::serde`]; from `(name, object_id)`
/// elsewhere.
impl<'de> de::Deserialize<'de> for Signal {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (name, id) = content::<(Text, AnyU64), _>(d, Kind::Signal)?;
        Ok(Signal {
            name: name.0,
            object_id: id.0,
        })
    }
}

/// Feature `serde`: an element type as text: `"Variant"` (untyped), a builtin type's name
/// (`"int"`, `"Vector3"`, …), a class name (`"Node"`), a script path (`"res://item.gd"`), or
/// `"#N"` for a Pandemonium element id that is no type of the dialect (readable, not
/// writable).
///
/// ```
/// use gdwire::owned::ElementType;
/// use gdwire::VariantType;
/// assert_eq!(serde_json::to_string(&ElementType::Builtin(VariantType::Int))?, "\"int\"");
/// let e: ElementType = serde_json::from_str("\"Node\"")?;
/// assert_eq!(e, ElementType::ClassName("Node".into()));
/// # Ok::<(), serde_json::Error>(())
/// ```
impl Serialize for ElementType {
    fn serialize<Z: ser::Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        match self {
            ElementType::Builtin(VariantType::Nil) => s.serialize_str(UNTYPED),
            ElementType::Builtin(ty) => s.serialize_str(ty.name()),
            ElementType::ClassName(g) | ElementType::Script(g) => s.serialize_str(&lossy(g)),
            ElementType::UnknownBuiltin(id) => s.collect_str(&format_args!("#{id}")),
        }
    }
}

/// Feature `serde`: from the text form (see its `Serialize`).
impl<'de> de::Deserialize<'de> for ElementType {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = CowStr::deserialize(d)?.0;
        Ok(match parse_element(&text) {
            Parsed::Builtin(ty) => ElementType::Builtin(ty),
            Parsed::Class => ElementType::ClassName(text.as_ref().into()),
            Parsed::Script => ElementType::Script(text.as_ref().into()),
            Parsed::Unknown(id) => ElementType::UnknownBuiltin(id),
        })
    }
}
