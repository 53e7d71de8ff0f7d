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

use serde::de::{self, DeserializeSeed, SeqAccess, Visitor};
use serde::ser::{self, Impossible, Serialize, SerializeTuple};

use crate::dialect::TextRules;
use crate::owned::{ElementType, GString, NodePath, Signal};
use crate::read::{ArrayKind, ContainerType, ObjectRef, StrRef, VariantRef};
use crate::serde::error::{Error, Result};
use crate::serde::leaf::{LeafDe, Marker};
use crate::serde::ser::{Compound, Serializer};
use crate::variant_type::VariantType;
use crate::write::Sink;

/// Which Godot type a `$gdwire::godot::…` name asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    String,
    StringName,
    NodePath,
    Rid,
    ObjectId,
    Callable,
    Signal,
    /// The kind is in the name for this crate's serializer, which reads the content's
    /// element type and items and checks the kind after them; other formats see
    /// `[element, [items…], kind]`.
    TypedArray(ArrayKind),
    TypedDictionary,
    Object,
}

impl Kind {
    const ALL: [Kind; 12] = [
        Kind::String,
        Kind::StringName,
        Kind::NodePath,
        Kind::Rid,
        Kind::ObjectId,
        Kind::Callable,
        Kind::Signal,
        Kind::TypedArray(ArrayKind::Array),
        Kind::TypedArray(ArrayKind::TypedArray),
        Kind::TypedArray(ArrayKind::PackedTypedArray),
        Kind::TypedDictionary,
        Kind::Object,
    ];

    /// The private newtype-struct name.
    pub(crate) const fn marker(self) -> &'static str {
        match self {
            Kind::String => "$gdwire::godot::String",
            Kind::StringName => "$gdwire::godot::StringName",
            Kind::NodePath => "$gdwire::godot::NodePath",
            Kind::Rid => "$gdwire::godot::RID",
            Kind::ObjectId => "$gdwire::godot::ObjectId",
            Kind::Callable => "$gdwire::godot::Callable",
            Kind::Signal => "$gdwire::godot::Signal",
            Kind::TypedArray(ArrayKind::Array) => "$gdwire::godot::TypedArray",
            Kind::TypedArray(ArrayKind::TypedArray) => "$gdwire::godot::TypedArray/TypedArray",
            Kind::TypedArray(ArrayKind::PackedTypedArray) => {
                "$gdwire::godot::TypedArray/PackedTypedArray"
            }
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
            Kind::String => "String",
            Kind::StringName => "StringName",
            Kind::NodePath => "NodePath",
            Kind::Rid => "RID",
            Kind::ObjectId => "Object (an instance id)",
            Kind::Callable => "Callable",
            Kind::Signal => "Signal",
            Kind::TypedArray(_) => "Array",
            Kind::TypedDictionary => "Dictionary",
            Kind::Object => "Object (a full object)",
        }
    }

    /// Strings that precede the content of a container kind when it is written (its
    /// element types, or an object's class).
    const fn heads(self) -> usize {
        match self {
            Kind::TypedArray(_) | Kind::Object => 1,
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
        // The block as sent (a BOM, bytes after a NUL), which a GString keeps.
        (Kind::String, R::String(s) | R::StringName(s)) => {
            visitor.visit_newtype_struct(TextDe::Borrowed(s.raw()))
        }
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
            visitor.visit_newtype_struct(TextDe::Owned(text))
        }
        _ => Err(Marker::mismatch(Marker::Godot(k), &v)),
    }
}

/// A marked container (the deserializer's `Begin` event, put back so that `rest` reads the
/// container itself): its type strings, then the container, go to `visitor` as a sequence.
/// A typed Array gives its kind first (`"Array"`, `"TypedArray"`, `"PackedTypedArray"`).
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
        (Kind::TypedArray(_), R::Array(a)) => [
            Some(TextDe::Borrowed(array_kind_name(a.kind()).as_bytes())),
            Some(element_text(a.element_type())),
        ],
        (Kind::TypedDictionary, R::Dictionary(d)) => [
            Some(element_text(d.key_type())),
            Some(element_text(d.value_type())),
        ],
        (Kind::Object, R::Object(ObjectRef::Full(o))) => {
            [Some(TextDe::Borrowed(o.class().bytes())), None]
        }
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
    heads: [Option<TextDe<'de>>; 2],
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
                return seed.deserialize(h).map(Some);
            }
        }
        match self.rest.take() {
            Some(d) => seed.deserialize(d).map(Some),
            None => Ok(None),
        }
    }
}

/// Godot text, which may not be UTF-8 (Godot 3): a `str` when it is UTF-8, else bytes.
/// A visitor that wants a `str` (`String`, `&str`) then fails, saying the text is not UTF-8;
/// one that takes bytes too ([`GString`], [`NodePath`], [`Signal`], [`ElementType`]) keeps
/// them.
pub(crate) enum TextDe<'de> {
    Borrowed(&'de [u8]),
    Owned(Vec<u8>),
}

impl<'de> de::Deserializer<'de> for TextDe<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self {
            TextDe::Borrowed(b) => match core::str::from_utf8(b) {
                Ok(s) => visitor.visit_borrowed_str(s),
                Err(_) => visitor.visit_borrowed_bytes(b).map_err(not_utf8),
            },
            TextDe::Owned(b) => match String::from_utf8(b) {
                Ok(s) => visitor.visit_string(s),
                Err(e) => visitor.visit_byte_buf(e.into_bytes()).map_err(not_utf8),
            },
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// A visitor refused text that is not UTF-8: say so (like `serde_json`'s invalid UTF-8
/// error), since "expected a string" alone would puzzle.
#[cold]
pub(crate) fn not_utf8(e: Error) -> Error {
    Error::message(alloc::format!(
        "{e} (the text is not UTF-8, which Godot 3 allows; read it into a GString or bytes)"
    ))
}

fn element_text(t: Option<ContainerType<'_>>) -> TextDe<'_> {
    match t {
        None | Some(ContainerType::Builtin(VariantType::Nil)) => {
            TextDe::Borrowed(UNTYPED.as_bytes())
        }
        Some(ContainerType::Builtin(ty)) => TextDe::Borrowed(ty.name().as_bytes()),
        Some(ContainerType::ClassName(s) | ContainerType::Script(s)) => TextDe::Borrowed(s.bytes()),
        Some(ContainerType::UnknownBuiltin(id)) => {
            TextDe::Owned(alloc::format!("#{id}").into_bytes())
        }
    }
}

/// The builtin element type Object, which the text `"Object"` (the class) cannot say: an
/// owned `Variant`'s typed container writes it so (`serde/variant.rs`).
pub(crate) const BUILTIN_OBJECT: &str = "$gdwire::builtin::Object";

/// GDScript's name for an untyped element (`Array` is `Array[Variant]`).
const UNTYPED: &str = "Variant";

pub(crate) const fn array_kind_name(k: ArrayKind) -> &'static str {
    match k {
        ArrayKind::Array => "Array",
        ArrayKind::TypedArray => "TypedArray",
        ArrayKind::PackedTypedArray => "PackedTypedArray",
    }
}

/// NodePath text as the engine prints it: `/` first when absolute, names joined by `/`,
/// then `:` before each subname. Bytes: Godot 3 names need not be UTF-8.
pub(crate) fn path_text<'a>(
    absolute: bool,
    names: impl Iterator<Item = &'a [u8]>,
    subnames: impl Iterator<Item = &'a [u8]>,
) -> Vec<u8> {
    let mut text = Vec::new();
    if absolute {
        text.push(b'/');
    }
    for (i, name) in names.enumerate() {
        if i > 0 {
            text.push(b'/');
        }
        text.extend_from_slice(name);
    }
    for sub in subnames {
        text.push(b':');
        text.extend_from_slice(sub);
    }
    text
}

/// NodePath names or subnames.
type PathParts<'a> = Vec<&'a [u8]>;

/// NodePath text split like the engine's `NodePath(String)` (see
/// [`crate::write::split_node_path`], whose rules this follows on bytes): absolute, names,
/// subnames; `None` for an empty subname that is not the last.
fn split_path(text: &[u8]) -> Option<(bool, PathParts<'_>, PathParts<'_>)> {
    let absolute = text.first() == Some(&b'/');
    let (names, subnames) = match text.iter().position(|&b| b == b':') {
        Some(i) => (&text[..i], &text[i + 1..]),
        None => (text, &[][..]),
    };
    let subs: Vec<&[u8]> = subnames.split(|&b| b == b':').collect();
    if subs.iter().rev().skip(1).any(|s| s.is_empty()) {
        return None;
    }
    Some((
        absolute,
        names
            .split(|&b| b == b'/')
            .filter(|s| !s.is_empty())
            .collect(),
        subs.into_iter().filter(|s| !s.is_empty()).collect(),
    ))
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
        (Kind::String, Tok::Str(s)) => w.string(&s),
        (Kind::String, Tok::Bytes(b)) => w.string_bytes(&b),
        (Kind::StringName, Tok::Str(s)) => w.string_name(&s),
        (Kind::NodePath, Tok::Str(s)) => w.node_path_str(&s),
        (Kind::NodePath, Tok::Bytes(b)) => match split_path(&b) {
            Some((absolute, names, subnames)) => w.node_path_bytes(absolute, &names, &subnames),
            None => Err(crate::Error::new(crate::ErrorKind::InvalidNodePath, 0)),
        },
        (Kind::Rid, Tok::Int(i)) => w.rid(id(i)?),
        (Kind::ObjectId, Tok::Int(i)) => w.object_id(id(i)?),
        (Kind::Callable, Tok::Unit) => w.callable(),
        (Kind::Signal, Tok::Seq(parts)) => match &parts[..] {
            [Tok::Str(name), Tok::Int(i)] => w.signal(name, id(*i)?),
            [Tok::Bytes(name), Tok::Int(i)] => w.signal_bytes(name, id(*i)?),
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

/// The text content of a value (object property names, element types): a string, or bytes
/// for Godot 3 text that is not UTF-8.
pub(crate) fn capture_text<V: Serialize + ?Sized>(value: &V) -> Result<Vec<u8>> {
    match value.serialize(Capture)? {
        Tok::Str(s) => Ok(s.into_bytes()),
        Tok::Bytes(b) => Ok(b),
        _ => Err(ser::Error::custom("a string was expected")),
    }
}

/// The content of a marked leaf.
enum Tok {
    Str(String),
    /// Text that is not UTF-8 (Godot 3), from a [`GString`] or a NodePath or Signal name.
    Bytes(Vec<u8>),
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
    fn serialize_bytes(self, v: &[u8]) -> Result<Tok> {
        Ok(Tok::Bytes(v.into()))
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

    refuse!(not_scalar(); bool f32 f64 none some unit_variant newtype_variant
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
            body_written: false,
        })
    }

    refuse!(not_container(); bool i8 i16 i32 i64 u8 u16 u32 u64 f32 f64 char str bytes none
        some unit unit_struct unit_variant newtype_struct newtype_variant seq tuple_struct
        tuple_variant map struct struct_variant);
}

struct HeadTuple<'a, S: Sink> {
    ser: &'a mut Serializer<S>,
    kind: Kind,
    heads: Vec<Vec<u8>>,
    body_written: bool,
}

impl<S: Sink> SerializeTuple for HeadTuple<'_, S> {
    type Ok = ();
    type Error = Error;

    fn serialize_element<V: Serialize + ?Sized>(&mut self, value: &V) -> Result<()> {
        if self.heads.len() < self.kind.heads() {
            self.heads.push(capture_text(value)?);
            return Ok(());
        }
        if !self.body_written {
            self.body_written = true;
            return value.serialize(Body {
                ser: &mut *self.ser,
                kind: self.kind,
                heads: &self.heads,
            });
        }
        // A typed Array's kind, after its items: the marker said it already.
        match self.kind {
            Kind::TypedArray(kind) if capture_text(value)? == array_kind_name(kind).as_bytes() => {
                Ok(())
            }
            _ => Err(not_container()),
        }
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
    heads: &'b [Vec<u8>],
}

impl<'b, S: Sink> Body<'b, S> {
    fn head(&self, i: usize) -> &'b [u8] {
        self.heads.get(i).map_or(&[][..], Vec::as_slice)
    }

    fn array(self, len: Option<usize>) -> Result<Compound<'b, S>> {
        let n = len.ok_or_else(needs_len)?;
        let Kind::TypedArray(kind) = self.kind else {
            return Err(not_container());
        };
        let (preferred, elem) = match (kind, element_type(self.head(0))) {
            // Untyped: a plain Array, as `begin_typed_array` writes for `Builtin(Nil)`.
            (ArrayKind::Array, ContainerType::Builtin(VariantType::Nil)) => {
                (VariantType::Array, None)
            }
            (ArrayKind::Array, e) => (VariantType::Array, Some(e)),
            // Pandemonium's TypedArray / PackedTypedArray keep even element id 0 (Nil).
            (ArrayKind::TypedArray, e) => (VariantType::TypedArray, Some(e)),
            (ArrayKind::PackedTypedArray, e) => (VariantType::PackedTypedArray, Some(e)),
        };
        let w = &mut self.ser.w;
        w.array_of(preferred, n, elem).map_err(Error::write)?;
        Ok(Compound::Direct(self.ser))
    }

    fn map(self, len: Option<usize>) -> Result<Compound<'b, S>> {
        let n = len.ok_or_else(needs_len)?;
        match self.kind {
            Kind::TypedDictionary => {
                let side = |t| match element_type(t) {
                    ContainerType::Builtin(VariantType::Nil) => None,
                    e => Some(e),
                };
                let (k, v) = (side(self.head(0)), side(self.head(1)));
                let w = &mut self.ser.w;
                w.dictionary_of(n, k, v).map_err(Error::write)?;
                Ok(Compound::Direct(self.ser))
            }
            Kind::Object => {
                // `Object::class` is a `String`; only another type could send bytes here.
                let class = core::str::from_utf8(self.head(0))
                    .map_err(|_| ser::Error::custom("an object's class must be UTF-8"))?;
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

/// An element type from its text (see [`ElementType`]'s serde form), as the writer takes
/// it. The writer checks a class name's bytes for its dialect and refuses an unknown id the
/// dialect cannot carry; a script is a `res://` path by construction.
fn element_type(text: &[u8]) -> ContainerType<'_> {
    // Only the bytes are written; Godot 3's rules accept every text there is.
    let name = || StrRef::new(text, TextRules::Godot3);
    match parse_element(text) {
        Parsed::Builtin(ty) => ContainerType::Builtin(ty),
        Parsed::Class => ContainerType::ClassName(name()),
        Parsed::Script => ContainerType::Script(name()),
        Parsed::Unknown(id) => ContainerType::UnknownBuiltin(id),
    }
}

enum Parsed {
    Builtin(VariantType),
    Class,
    Script,
    Unknown(u32),
}

/// `Variant` (untyped), a builtin type's name (`int`, `Vector3`, …; `Object` is the class),
/// `res://…` (a script), `#N` (an unknown builtin id), else a class name (any bytes: Godot 3
/// text need not be UTF-8).
fn parse_element(text: &[u8]) -> Parsed {
    if text == UNTYPED.as_bytes() {
        return Parsed::Builtin(VariantType::Nil);
    }
    if text == BUILTIN_OBJECT.as_bytes() {
        return Parsed::Builtin(VariantType::Object);
    }
    if text.starts_with(b"res://") {
        return Parsed::Script;
    }
    let utf8 = core::str::from_utf8(text).ok();
    if let Some(id) = utf8
        .and_then(|t| t.strip_prefix('#'))
        .and_then(|n| n.parse().ok())
    {
        return Parsed::Unknown(id);
    }
    match utf8.and_then(|t| VariantType::ALL.into_iter().find(|ty| ty.name() == t)) {
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

/// A typed Array (Godot 4.0+: `Array[int]`, `Array[Node]`, …; Pandemonium 5's TypedArray
/// and PackedTypedArray): the element type, then the elements.
/// `ElementType::Builtin(VariantType::Nil)` is an untyped Array, so this reads any Array and
/// writes back the same type block.
///
/// `kind` says which Array type it is on the wire, as [`owned::Array::kind`] does:
/// [`ArrayKind::Array`] (the default of [`TypedArray::new`]) for an Array, typed or not
/// (written as the dialect's typed array when the element type is not `Variant`: Godot 4.3+
/// typed Array, Pandemonium 5 TypedArray); [`ArrayKind::TypedArray`] and
/// [`ArrayKind::PackedTypedArray`] for Pandemonium 5's two types, kept even with element id
/// 0 (`Variant`). Dialects without them write the other kinds as `ArrayKind::Array`.
///
/// In other serde formats the element type is a string: `"int"`, `"Vector3"`, a class name
/// (`"Node"`), a script path (`"res://item.gd"`), `"Variant"` for untyped, `"#N"` for a
/// Pandemonium element id that is no type of the dialect; the whole is
/// `[element, [items…], kind]` (kind `"Array"`, `"TypedArray"` or `"PackedTypedArray"`),
/// so every field survives any format, `postcard` and `bincode` included.
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
///
/// // A Pandemonium 5 PackedTypedArray of int holding 5 and 6 (docs/wire-format.md §4.12):
/// // type 28, element type 2 (int), count 2, then the elements.
/// let pandemonium = [28, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0, 2, 0, 0, 0, 6, 0, 0, 0];
/// let p: TypedArray<i32> = gdwire::serde::from_bytes(Dialect::PANDEMONIUM_5, &pandemonium)?;
/// assert_eq!(p.kind, gdwire::read::ArrayKind::PackedTypedArray);
/// assert_eq!(gdwire::serde::to_vec(Dialect::PANDEMONIUM_5, &p)?, pandemonium);
/// # Ok::<(), gdwire::serde::Error>(())
/// ```
///
/// [`owned::Array::kind`]: crate::owned::Array::kind
#[derive(Clone, Debug, PartialEq)]
pub struct TypedArray<T> {
    /// Which Array type: `Array`, or Pandemonium 5's `TypedArray` / `PackedTypedArray`.
    pub kind: ArrayKind,
    /// What the Array holds.
    pub element: ElementType,
    /// The elements.
    pub items: Vec<T>,
}

impl<T> TypedArray<T> {
    /// An Array of `element` holding `items` (kind [`ArrayKind::Array`]).
    ///
    /// ```
    /// use gdwire::serde::TypedArray;
    /// let names = TypedArray::new(gdwire::VariantType::String, vec!["a", "b"]);
    /// let bytes = gdwire::serde::to_vec(gdwire::Dialect::GODOT_4, &names)?;
    /// assert_eq!(&bytes[..4], &[0x1c, 0, 1, 0]); // Array, builtin element type
    /// # Ok::<(), gdwire::serde::Error>(())
    /// ```
    pub fn new(element: impl Into<ElementType>, items: Vec<T>) -> Self {
        TypedArray::with_kind(ArrayKind::Array, element, items)
    }

    /// An Array of the given kind (Pandemonium 5's `PackedTypedArray`, …).
    ///
    /// ```
    /// use gdwire::read::ArrayKind;
    /// use gdwire::serde::TypedArray;
    /// use gdwire::{Dialect, VariantType};
    /// let a = TypedArray::with_kind(ArrayKind::PackedTypedArray, VariantType::Int, vec![7]);
    /// let bytes = gdwire::serde::to_vec(Dialect::PANDEMONIUM_5, &a)?;
    /// assert_eq!(&bytes[..8], &[28, 0, 0, 0, 2, 0, 0, 0]); // PackedTypedArray of int
    /// // Godot 4 has no such type: an Array[int] there.
    /// assert_eq!(&gdwire::serde::to_vec(Dialect::GODOT_4, &a)?[..4], &[0x1c, 0, 1, 0]);
    /// # Ok::<(), gdwire::serde::Error>(())
    /// ```
    pub fn with_kind(kind: ArrayKind, element: impl Into<ElementType>, items: Vec<T>) -> Self {
        TypedArray {
            kind,
            element: element.into(),
            items,
        }
    }
}

impl<T: Serialize> Serialize for TypedArray<T> {
    fn serialize<Z: ser::Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        // Other formats see no marker: the kind follows the items, so that it survives.
        let content = (&self.element, &self.items, array_kind_name(self.kind));
        s.serialize_newtype_struct(Kind::TypedArray(self.kind).marker(), &content)
    }
}

impl<'de, T: de::Deserialize<'de>> de::Deserialize<'de> for TypedArray<T> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: de::Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = TypedArray<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a typed Array")
            }
            // Other formats: `(element, items, kind)`.
            fn visit_newtype_struct<D: de::Deserializer<'de>>(
                self,
                d: D,
            ) -> Result<TypedArray<T>, D::Error> {
                d.deserialize_tuple(3, Plain(PhantomData))
            }
            // This crate's deserializer: the kind, the element type, then the Array.
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<TypedArray<T>, A::Error> {
                let kind: KindName = seq_part(&mut seq, 0)?;
                let element: ElementType = seq_part(&mut seq, 1)?;
                let items: Vec<T> = seq_part(&mut seq, 2)?;
                Ok(TypedArray::with_kind(kind.0, element, items))
            }
        }
        /// The form in other formats.
        struct Plain<T>(PhantomData<T>);
        impl<'de, T: de::Deserialize<'de>> Visitor<'de> for Plain<T> {
            type Value = TypedArray<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a typed Array: element type, items, kind")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<TypedArray<T>, A::Error> {
                let element: ElementType = seq_part(&mut seq, 0)?;
                let items: Vec<T> = seq_part(&mut seq, 1)?;
                let kind: KindName = seq_part(&mut seq, 2)?;
                Ok(TypedArray::with_kind(kind.0, element, items))
            }
        }
        d.deserialize_newtype_struct(Kind::TypedArray(ArrayKind::Array).marker(), V(PhantomData))
    }
}

/// The `i`th part of a marked container's sequence.
fn seq_part<'de, A: SeqAccess<'de>, P: de::Deserialize<'de>>(
    seq: &mut A,
    i: usize,
) -> Result<P, A::Error> {
    seq.next_element()?
        .ok_or_else(|| de::Error::invalid_length(i, &"the parts of a typed Array"))
}

/// An [`ArrayKind`] by its type name.
struct KindName(ArrayKind);

impl<'de> de::Deserialize<'de> for KindName {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = KindName;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("Array, TypedArray or PackedTypedArray")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<KindName, E> {
                [
                    ArrayKind::Array,
                    ArrayKind::TypedArray,
                    ArrayKind::PackedTypedArray,
                ]
                .into_iter()
                .find(|&k| array_kind_name(k) == v)
                .map(KindName)
                .ok_or_else(|| E::invalid_value(de::Unexpected::Str(v), &self))
            }
        }
        d.deserialize_str(V)
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
/// `BTreeMap`, …). The class is a `String` unless `C` says otherwise: `Object<P, &str>`
/// borrows it from the input (as `&str` fields do), so reading an object whose properties
/// borrow too allocates nothing.
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
///
/// // The class borrowed from the input instead of copied into a `String`.
/// let borrowed: Object<Props, &str> = gdwire::serde::from_bytes_with(decoder, &engine)?;
/// assert_eq!(borrowed.class, "RefCounted");
/// # Ok::<(), gdwire::serde::Error>(())
/// ```
///
/// [`Serializer::with_full_objects`]: crate::serde::Serializer::with_full_objects
#[derive(Clone, Debug, PartialEq)]
pub struct Object<P, C = String> {
    /// The class name (`"Node"`): a `String`, `&str`, `Cow<str>`, …
    pub class: C,
    /// The properties.
    pub properties: P,
}

impl<P: Serialize, C: AsRef<str>> Serialize for Object<P, C> {
    fn serialize<Z: ser::Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        let class: &str = self.class.as_ref();
        s.serialize_newtype_struct(Kind::Object.marker(), &(class, &self.properties))
    }
}

impl<'de, P: de::Deserialize<'de>, C: de::Deserialize<'de>> de::Deserialize<'de> for Object<P, C> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (class, properties) = d.deserialize_newtype_struct(
            Kind::Object.marker(),
            Parts::<(C, P)>::new("a full Object"),
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

/// Godot text from any format: a string, or bytes (Godot 3 text that is not UTF-8; JSON
/// and other formats that have no bytes send them as a sequence of numbers).
struct RawText<'de>(Cow<'de, [u8]>);

impl<'de> RawText<'de> {
    fn into_gstring<E: de::Error>(self) -> Result<GString, E> {
        match core::str::from_utf8(&self.0) {
            Ok(s) => Ok(s.into()),
            Err(_) => GString::from_raw(self.0.into_owned())
                .ok_or_else(|| E::custom("bytes that no Godot version reads as text")),
        }
    }
}

impl<'de> de::Deserialize<'de> for RawText<'de> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawText<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("text")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<RawText<'de>, E> {
                Ok(RawText(Cow::Borrowed(v.as_bytes())))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<RawText<'de>, E> {
                Ok(RawText(Cow::Owned(v.as_bytes().to_vec())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<RawText<'de>, E> {
                Ok(RawText(Cow::Owned(v.into_bytes())))
            }
            fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<RawText<'de>, E> {
                Ok(RawText(Cow::Borrowed(v)))
            }
            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<RawText<'de>, E> {
                Ok(RawText(Cow::Owned(v.to_vec())))
            }
            fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<RawText<'de>, E> {
                Ok(RawText(Cow::Owned(v)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawText<'de>, A::Error> {
                let mut bytes = Vec::new();
                while let Some(b) = seq.next_element::<u8>()? {
                    bytes.push(b);
                }
                Ok(RawText(Cow::Owned(bytes)))
            }
        }
        // Self-describing text formats may hold bytes as a sequence; the others (and this
        // crate's own, which hands out bytes whatever is asked) take the `str` hint.
        if d.is_human_readable() {
            d.deserialize_any(V)
        } else {
            d.deserialize_str(V)
        }
    }
}

/// Godot text written as a `str` when it is UTF-8, else as bytes (Godot 3 allows text that
/// is not), so that no byte is lost.
pub(crate) struct TextSer<'a>(pub(crate) &'a [u8]);

impl Serialize for TextSer<'_> {
    fn serialize<Z: ser::Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        match core::str::from_utf8(self.0) {
            Ok(text) => s.serialize_str(text),
            Err(_) => s.serialize_bytes(self.0),
        }
    }
}

/// Feature `serde`: a Godot String, its block's bytes exactly as they are (a leading BOM,
/// bytes after a NUL, Godot 3 text that is not UTF-8), so that it round-trips byte for byte
/// where a Rust `String` cannot. Reads a String or StringName; writes a String. Other
/// formats see a string, or bytes when the text is not UTF-8.
///
/// ```
/// use gdwire::owned::GString;
/// use gdwire::Dialect;
/// // A Godot 3 String holding a lone surrogate (U+D800 as ED A0 80), as Godot 3.2.3 writes
/// // it: not UTF-8, so a `String` field refuses it, and a GString keeps it.
/// let engine = [4, 0, 0, 0, 3, 0, 0, 0, 0xed, 0xa0, 0x80, 0];
/// assert!(gdwire::serde::from_bytes::<String>(Dialect::GODOT_3, &engine).is_err());
/// let s: GString = gdwire::serde::from_bytes(Dialect::GODOT_3, &engine)?;
/// assert!(s.code_points().eq([0xD800]));
/// assert_eq!(gdwire::serde::to_vec(Dialect::GODOT_3, &s)?, engine);
/// // Godot 4 reads strict UTF-8 only: the writer refuses it there.
/// assert!(gdwire::serde::to_vec(Dialect::GODOT_4, &s).is_err());
/// # Ok::<(), gdwire::serde::Error>(())
/// ```
impl Serialize for GString {
    fn serialize<Z: ser::Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        s.serialize_newtype_struct(Kind::String.marker(), &TextSer(self.raw()))
    }
}

/// Feature `serde`: from a Godot String or StringName in [`crate::serde`]; from a string
/// or bytes elsewhere.
impl<'de> de::Deserialize<'de> for GString {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        content::<RawText<'de>, _>(d, Kind::String)?.into_gstring()
    }
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
        s.serialize_newtype_struct(Kind::NodePath.marker(), &TextSer(&text))
    }
}

/// Feature `serde`: from a Godot NodePath in [`crate::serde`]; from its text elsewhere
/// (bytes, for Godot 3 names that are not UTF-8).
impl<'de> de::Deserialize<'de> for NodePath {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = content::<RawText<'de>, _>(d, Kind::NodePath)?.0;
        let invalid = || {
            let shown = String::from_utf8_lossy(&text);
            de::Error::custom(alloc::format!("invalid NodePath text {shown:?}"))
        };
        let (absolute, names, subnames) = split_path(&text).ok_or_else(invalid)?;
        let part = |b: &&[u8]| RawText(Cow::Borrowed(*b)).into_gstring();
        let names = names
            .iter()
            .map(part)
            .collect::<Result<Vec<_>, D::Error>>()?;
        let subnames = subnames
            .iter()
            .map(part)
            .collect::<Result<Vec<_>, D::Error>>()?;
        Ok(NodePath::new(names, subnames, absolute))
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
        let name = TextSer(self.name.bytes());
        s.serialize_newtype_struct(Kind::Signal.marker(), &(name, self.object_id))
    }
}

/// Feature `serde`: from a Godot 4 Signal in [`crate::serde`]; from `(name, object_id)`
/// elsewhere.
impl<'de> de::Deserialize<'de> for Signal {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (name, id) = content::<(RawText<'de>, AnyU64), _>(d, Kind::Signal)?;
        Ok(Signal {
            name: name.into_gstring()?,
            object_id: id.0,
        })
    }
}

/// Feature `serde`: an element type as text: `"Variant"` (untyped), a builtin type's name
/// (`"int"`, `"Vector3"`, …), a class name (`"Node"`), a script path (`"res://item.gd"`), or
/// `"#N"` for a Pandemonium element id that is no type of the dialect. A class name or path
/// that is not UTF-8 is bytes.
///
/// ```
/// use gdwire::owned::ElementType;
/// use gdwire::VariantType;
/// assert_eq!(serde_json::to_string(&ElementType::Builtin(VariantType::Int))?, "\"int\"");
/// let e: ElementType = serde_json::from_str("\"Node\"")?;
/// assert_eq!(e, ElementType::ClassName("Node".into()));
/// assert_eq!(serde_json::to_string(&ElementType::UnknownBuiltin(99))?, "\"#99\"");
/// # Ok::<(), serde_json::Error>(())
/// ```
impl Serialize for ElementType {
    fn serialize<Z: ser::Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        match self {
            ElementType::Builtin(VariantType::Nil) => s.serialize_str(UNTYPED),
            ElementType::Builtin(ty) => s.serialize_str(ty.name()),
            ElementType::ClassName(g) | ElementType::Script(g) => TextSer(g.bytes()).serialize(s),
            ElementType::UnknownBuiltin(id) => s.collect_str(&format_args!("#{id}")),
        }
    }
}

/// Feature `serde`: from the text form (see its `Serialize`).
impl<'de> de::Deserialize<'de> for ElementType {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = RawText::deserialize(d)?;
        Ok(match parse_element(&text.0) {
            Parsed::Builtin(ty) => ElementType::Builtin(ty),
            Parsed::Class => ElementType::ClassName(text.into_gstring()?),
            Parsed::Script => ElementType::Script(text.into_gstring()?),
            Parsed::Unknown(id) => ElementType::UnknownBuiltin(id),
        })
    }
}
