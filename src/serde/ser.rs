//! The serializer: every serde call becomes one call of the crate's [`Writer`], so the bytes
//! are the engine's (int and float widths, padding, ids of the dialect).

use alloc::vec::Vec;

use serde::ser::{self, Error as _, Impossible, Serialize};

use crate::dialect::Dialect;
use crate::math::{
    Aabb, Basis, Color, Plane, Precision, Projection, Quaternion, Rect2, Rect2i, Transform2D,
    Transform3D, Vector2, Vector2i, Vector3, Vector3i, Vector4, Vector4i, WireReals,
};
use crate::read::{PackedReals, PackedRef, VariantRef};
use crate::serde::error::{Error, Result};
use crate::serde::leaf::{marker, Marker};
use crate::variant_type::VariantType;
use crate::write::{IntoSink, Sink, SliceSink, Writer};

use VariantType as T;

/// A serde serializer writing one value through a [`Writer`] into any [`Sink`].
///
/// ```
/// use serde::Serialize;
/// use gdwire::serde::Serializer;
/// use gdwire::{CountingSink, Dialect};
///
/// #[derive(Serialize)]
/// struct Hp { hp: i32 }
///
/// // Count the bytes first, then write into a buffer of that size.
/// let mut counter = Serializer::new(CountingSink::new(), Dialect::GODOT_4);
/// Hp { hp: 100 }.serialize(&mut counter)?;
/// let len = counter.finish()?;
/// let mut buf = vec![0u8; len];
/// let mut ser = Serializer::new(&mut buf[..], Dialect::GODOT_4);
/// Hp { hp: 100 }.serialize(&mut ser)?;
/// assert_eq!(ser.finish()?, 28);
/// assert_eq!(&buf[..8], &[0x1b, 0, 0, 0, 1, 0, 0, 0]); // a Dictionary with one entry
/// # Ok::<(), gdwire::serde::Error>(())
/// ```
pub struct Serializer<S: Sink> {
    pub(super) w: Writer<S>,
}

impl<S: Sink> Serializer<S> {
    /// A serializer for `dialect` with engine defaults (single-precision math types).
    ///
    /// ```
    /// use serde::Serialize;
    /// use gdwire::serde::Serializer;
    /// use gdwire::Dialect;
    ///
    /// let mut out = Vec::new();
    /// let mut ser = Serializer::new(&mut out, Dialect::GODOT_4);
    /// (1, "a").serialize(&mut ser)?;
    /// ser.finish()?;
    /// // Godot 4.6's var_to_bytes([1, "a"]):
    /// assert_eq!(out, [0x1c,0,0,0, 2,0,0,0, 2,0,0,0, 1,0,0,0, 4,0,0,0, 1,0,0,0, b'a',0,0,0]);
    /// # Ok::<(), gdwire::serde::Error>(())
    /// ```
    pub fn new<I: IntoSink<Sink = S>>(sink: I, dialect: Dialect) -> Serializer<S> {
        Serializer::from_writer(Writer::new(sink, dialect))
    }

    /// A serializer over a configured writer (precision, length prefix, full objects). Its
    /// open-container limit is lifted ([`Writer::with_heap_spill`]), so any shape serde can
    /// produce fits.
    ///
    /// ```
    /// use serde::Serialize;
    /// use gdwire::serde::Serializer;
    /// use gdwire::write::Endian;
    /// use gdwire::{Dialect, Writer};
    ///
    /// // A frame for `StreamPeer.put_var` / `FileAccess.store_var`: u32 length, then the value.
    /// let mut out = Vec::new();
    /// let w = Writer::new(&mut out, Dialect::GODOT_4).with_length_prefix(Endian::Little);
    /// let mut ser = Serializer::from_writer(w);
    /// "a".serialize(&mut ser)?;
    /// assert_eq!(ser.finish()?, 16);
    /// assert_eq!(out, [12,0,0,0, 4,0,0,0, 1,0,0,0, b'a',0,0,0]);
    /// # Ok::<(), gdwire::serde::Error>(())
    /// ```
    pub fn from_writer(writer: Writer<S>) -> Serializer<S> {
        Serializer {
            w: writer.with_heap_spill(true),
        }
    }

    /// Math types and packed vector arrays in `precision` (what a Godot 4 double-precision
    /// build writes with [`Precision::Double`]).
    ///
    /// ```
    /// use serde::Serialize;
    /// use gdwire::math::Vector2;
    /// use gdwire::serde::Serializer;
    /// use gdwire::{Dialect, Precision};
    ///
    /// let v = Vector2 { x: 1.0, y: 2.0 };
    /// let mut single = Vec::new();
    /// v.serialize(&mut Serializer::new(&mut single, Dialect::GODOT_4))?;
    /// // Godot 4.6's var_to_bytes(Vector2(1, 2)): two f32s.
    /// assert_eq!(single, [5,0,0,0, 0,0,0x80,0x3f, 0,0,0,0x40]);
    ///
    /// let mut double = Vec::new();
    /// let mut ser = Serializer::new(&mut double, Dialect::GODOT_4).with_precision(Precision::Double);
    /// v.serialize(&mut ser)?;
    /// // Header bit 16 set, then two f64s.
    /// assert_eq!(double[..4], [5, 0, 1, 0]);
    /// assert_eq!(double[4..], [1.0f64.to_le_bytes(), 2.0f64.to_le_bytes()].concat());
    /// # Ok::<(), gdwire::serde::Error>(())
    /// ```
    pub fn with_precision(self, precision: Precision) -> Serializer<S> {
        Serializer {
            w: self.w.with_precision(precision),
        }
    }

    /// Full objects on or off (see [`Writer::with_full_objects`]): needed to write
    /// [`Object`](crate::serde::Object)s; with it off (the engine's default) typed
    /// containers of objects name the class `EncodedObjectAsID`, as the engine does.
    ///
    /// ```
    /// use serde::Serialize;
    /// use gdwire::serde::{Object, Serializer};
    /// use gdwire::Dialect;
    /// use std::collections::BTreeMap;
    ///
    /// let node = Object { class: "Node".to_string(), properties: BTreeMap::from([("name", "a")]) };
    /// let mut out = Vec::new();
    /// assert!(node.serialize(&mut Serializer::new(&mut out, Dialect::GODOT_4)).is_err());
    /// out.clear();
    /// node.serialize(&mut Serializer::new(&mut out, Dialect::GODOT_4).with_full_objects(true))?;
    /// assert_eq!(out[0], 24); // Object
    /// # Ok::<(), gdwire::serde::Error>(())
    /// ```
    pub fn with_full_objects(self, full: bool) -> Serializer<S> {
        Serializer {
            w: self.w.with_full_objects(full),
        }
    }

    /// Checks that one whole value was written and returns its length (see
    /// [`Writer::finish`]).
    ///
    /// ```
    /// use serde::Serialize;
    /// use gdwire::serde::Serializer;
    /// use gdwire::Dialect;
    ///
    /// let mut out = Vec::new();
    /// let mut ser = Serializer::new(&mut out, Dialect::GODOT_4);
    /// std::collections::BTreeMap::from([("a", 1)]).serialize(&mut ser)?;
    /// assert_eq!(ser.finish()?, 28);
    /// // Godot 4.6's var_to_bytes({"a": 1}).
    /// assert_eq!(out, [0x1b,0,0,0, 1,0,0,0, 4,0,0,0, 1,0,0,0, b'a',0,0,0, 2,0,0,0, 1,0,0,0]);
    /// # Ok::<(), gdwire::serde::Error>(())
    /// ```
    pub fn finish(&mut self) -> Result<usize> {
        self.w.finish().map_err(Error::write)
    }

    /// The writer (and through it the sink).
    ///
    /// ```
    /// use serde::Serialize;
    /// use gdwire::serde::Serializer;
    /// use gdwire::Dialect;
    ///
    /// let mut ser = Serializer::new(Vec::new(), Dialect::GODOT_4);
    /// 1.serialize(&mut ser)?;
    /// ser.finish()?;
    /// let bytes: Vec<u8> = ser.into_writer().into_sink();
    /// assert_eq!(bytes, [2,0,0,0, 1,0,0,0]); // Godot 4.6's var_to_bytes(1)
    /// # Ok::<(), gdwire::serde::Error>(())
    /// ```
    pub fn into_writer(self) -> Writer<S> {
        self.w
    }

    fn dialect(&self) -> Dialect {
        self.w.dialect()
    }

    fn precision(&self) -> Precision {
        self.w.precision()
    }
}

#[inline]
fn w(r: crate::Result<()>) -> Result<()> {
    r.map_err(Error::write)
}

/// A wide integer as Godot's int, or an error naming it.
#[inline]
fn godot_int<I: TryInto<i64> + core::fmt::Display + Copy>(v: I) -> Result<i64> {
    v.try_into().map_err(|_| {
        Error::custom(alloc::format!(
            "{v} does not fit Godot's int (a signed 64-bit integer)"
        ))
    })
}

/// Serializes `value` into a new `Vec` in `dialect`. See the [module docs](crate::serde) for
/// the type mapping.
///
/// ```
/// use serde::Serialize;
/// use gdwire::Dialect;
///
/// #[derive(Serialize)]
/// struct Hit { target: u32, damage: f64 }
///
/// let bytes = gdwire::serde::to_vec(Dialect::GODOT_4, &Hit { target: 7, damage: 12.5 })?;
/// let dict = gdwire::from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
/// assert_eq!(dict.get_str("damage")?.and_then(|v| v.as_float()), Some(12.5));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn to_vec<T: Serialize + ?Sized>(dialect: Dialect, value: &T) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut ser = Serializer::new(&mut out, dialect);
    value.serialize(&mut ser)?;
    ser.finish()?;
    Ok(out)
}

/// Serializes `value` into `buf` and returns the length written; never writes past the end
/// of `buf` (the error is then [`crate::ErrorKind::BufferFull`] with the size needed).
///
/// ```
/// use gdwire::serde::ErrorCode;
/// use gdwire::{Dialect, ErrorKind};
///
/// let mut buf = [0u8; 64];
/// let len = gdwire::serde::to_slice(Dialect::GODOT_4, &(1, "a"), &mut buf)?;
/// // Godot 4.6's var_to_bytes([1, "a"]):
/// assert_eq!(buf[..len], [0x1c,0,0,0, 2,0,0,0, 2,0,0,0, 1,0,0,0, 4,0,0,0, 1,0,0,0, b'a',0,0,0]);
///
/// let err = gdwire::serde::to_slice(Dialect::GODOT_4, &(1, "a"), &mut buf[..20]).unwrap_err();
/// assert_eq!(err.code(), &ErrorCode::Write(ErrorKind::BufferFull { needed: 28 }));
/// # Ok::<(), gdwire::serde::Error>(())
/// ```
pub fn to_slice<T: Serialize + ?Sized>(
    dialect: Dialect,
    value: &T,
    buf: &mut [u8],
) -> Result<usize> {
    let mut ser = Serializer::new(SliceSink::new(buf), dialect);
    value.serialize(&mut ser)?;
    ser.finish()
}

impl<'a, S: Sink> ser::Serializer for &'a mut Serializer<S> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, S>;
    type SerializeTuple = Compound<'a, S>;
    type SerializeTupleStruct = Compound<'a, S>;
    type SerializeTupleVariant = Compound<'a, S>;
    type SerializeMap = Compound<'a, S>;
    type SerializeStruct = Compound<'a, S>;
    type SerializeStructVariant = Compound<'a, S>;

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<()> {
        w(self.w.bool(v))
    }
    ints!(|self, v| w(self.w.int(v)));
    #[inline]
    fn serialize_u64(self, v: u64) -> Result<()> {
        w(self.w.int(godot_int(v)?))
    }
    fn serialize_i128(self, v: i128) -> Result<()> {
        w(self.w.int(godot_int(v)?))
    }
    fn serialize_u128(self, v: u128) -> Result<()> {
        w(self.w.int(godot_int(v)?))
    }
    #[inline]
    fn serialize_f32(self, v: f32) -> Result<()> {
        w(self.w.float(crate::float_width::widen(v)))
    }
    #[inline]
    fn serialize_f64(self, v: f64) -> Result<()> {
        w(self.w.float(v))
    }
    fn serialize_char(self, v: char) -> Result<()> {
        let mut buf = [0u8; 4];
        w(self.w.string(v.encode_utf8(&mut buf)))
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        w(self.w.string(v))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        w(self.w.packed_bytes(v))
    }
    #[inline]
    fn serialize_none(self) -> Result<()> {
        w(self.w.nil())
    }
    #[inline]
    fn serialize_some<V: Serialize + ?Sized>(self, value: &V) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        w(self.w.nil())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        w(self.w.nil())
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<()> {
        w(self.w.string(variant))
    }

    #[inline]
    fn serialize_newtype_struct<V: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &V,
    ) -> Result<()> {
        match marker(name) {
            None => value.serialize(self),
            Some(Marker::Math(ty)) => {
                let mut c = Collect::default();
                value.serialize(&mut c)?;
                self.write_math(ty, &c.comps[..c.n])
            }
            Some(Marker::View(ty, precision)) => value.serialize(ViewWriter {
                ser: self,
                ty,
                precision,
            }),
            Some(Marker::Packed(ty)) => {
                let mut p = PackedCollect::new(ty);
                value.serialize(&mut p)?;
                p.write(self)
            }
            Some(Marker::Godot(kind)) => crate::serde::godot::serialize_marked(self, kind, value),
            Some(Marker::Precision(p)) => {
                let old = self.w.swap_precision(p);
                let r = value.serialize(&mut *self);
                self.w.swap_precision(old);
                r
            }
            Some(Marker::Variant) => value.serialize(self),
        }
    }

    fn serialize_newtype_variant<V: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &V,
    ) -> Result<()> {
        w(self.w.begin_dictionary(1))?;
        w(self.w.string(variant))?;
        value.serialize(self)
    }

    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a, S>> {
        match len {
            Some(n) => {
                w(self.w.begin_array(n))?;
                Ok(Compound::Direct(self))
            }
            None => Ok(Compound::buffered(self, false)),
        }
    }

    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, S>> {
        w(self.w.begin_array(len))?;
        Ok(Compound::Direct(self))
    }

    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a, S>> {
        self.serialize_tuple(len)
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, S>> {
        w(self.w.begin_dictionary(1))?;
        w(self.w.string(variant))?;
        w(self.w.begin_array(len))?;
        Ok(Compound::Direct(self))
    }

    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a, S>> {
        match len {
            Some(n) => {
                w(self.w.begin_dictionary(n))?;
                Ok(Compound::Direct(self))
            }
            None => Ok(Compound::buffered(self, true)),
        }
    }

    #[inline]
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a, S>> {
        w(self.w.begin_dictionary(len))?;
        Ok(Compound::Direct(self))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, S>> {
        w(self.w.begin_dictionary(1))?;
        w(self.w.string(variant))?;
        w(self.w.begin_dictionary(len))?;
        Ok(Compound::Direct(self))
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}

impl<S: Sink> Serializer<S> {
    /// A math type from its components in wire order.
    fn write_math(&mut self, ty: VariantType, c: &[f64]) -> Result<()> {
        fn real<M: WireReals>(c: &[f64]) -> Result<M> {
            if c.len() == M::COUNT {
                Ok(M::from_wire(c))
            } else {
                Err(Error::custom("wrong number of math components"))
            }
        }
        let int = |i: usize| c.get(i).map_or(0, |&x| x as i32);
        let ints = |n: usize| -> Result<()> {
            if c.len() == n && c.iter().all(|&x| x == f64::from(x as i32)) {
                Ok(())
            } else {
                Err(Error::custom("integer vector components must be i32"))
            }
        };
        let w = &mut self.w;
        let r = match ty {
            T::Vector2 => w.vector2(real::<Vector2>(c)?),
            T::Rect2 => w.rect2(real::<Rect2>(c)?),
            T::Vector3 => w.vector3(real::<Vector3>(c)?),
            T::Transform2D => w.transform2d(real::<Transform2D>(c)?),
            T::Vector4 => w.vector4(real::<Vector4>(c)?),
            T::Plane => w.plane(real::<Plane>(c)?),
            T::Quaternion => w.quaternion(real::<Quaternion>(c)?),
            T::Aabb => w.aabb(real::<Aabb>(c)?),
            T::Basis => w.basis(real::<Basis>(c)?),
            T::Transform3D => w.transform3d(real::<Transform3D>(c)?),
            T::Projection => w.projection(real::<Projection>(c)?),
            T::Vector2i => {
                ints(2)?;
                w.vector2i(Vector2i {
                    x: int(0),
                    y: int(1),
                })
            }
            T::Vector3i => {
                ints(3)?;
                w.vector3i(Vector3i {
                    x: int(0),
                    y: int(1),
                    z: int(2),
                })
            }
            T::Vector4i => {
                ints(4)?;
                w.vector4i(Vector4i {
                    x: int(0),
                    y: int(1),
                    z: int(2),
                    w: int(3),
                })
            }
            T::Rect2i => {
                ints(4)?;
                w.rect2i(Rect2i {
                    position: Vector2i {
                        x: int(0),
                        y: int(1),
                    },
                    size: Vector2i {
                        x: int(2),
                        y: int(3),
                    },
                })
            }
            T::Color if c.len() == 4 => w.color(Color {
                r: c[0] as f32,
                g: c[1] as f32,
                b: c[2] as f32,
                a: c[3] as f32,
            }),
            _ => return Err(Error::custom("wrong number of math components")),
        };
        r.map_err(Error::write)
    }
}

/// Items of an Array or Dictionary. With a known length they go straight to the writer;
/// without one (`#[serde(flatten)]`, iterators of unknown length) each item is encoded on its
/// own and the container is written once the count is known.
///
/// ```
/// use serde::ser::{SerializeSeq, Serializer as _};
/// use gdwire::serde::{Compound, Serializer};
/// use gdwire::Dialect;
///
/// // What a hand-written `Serialize` impl does for a sequence.
/// let mut out = Vec::new();
/// let mut ser = Serializer::new(&mut out, Dialect::GODOT_4);
/// let mut seq: Compound<'_, _> = (&mut ser).serialize_seq(Some(2))?;
/// seq.serialize_element(&1)?;
/// seq.serialize_element("a")?;
/// seq.end()?;
/// ser.finish()?;
/// // Godot 4.6's var_to_bytes([1, "a"]):
/// assert_eq!(out, [0x1c,0,0,0, 2,0,0,0, 2,0,0,0, 1,0,0,0, 4,0,0,0, 1,0,0,0, b'a',0,0,0]);
/// # Ok::<(), gdwire::serde::Error>(())
/// ```
pub enum Compound<'a, S: Sink> {
    #[doc(hidden)]
    Direct(&'a mut Serializer<S>),
    /// The properties of a full object: keys are property names.
    #[doc(hidden)]
    Props(&'a mut Serializer<S>),
    #[doc(hidden)]
    Buffered {
        ser: &'a mut Serializer<S>,
        map: bool,
        bytes: Vec<u8>,
        /// End offset of each item in `bytes`.
        ends: Vec<usize>,
    },
}

impl<'a, S: Sink> Compound<'a, S> {
    fn buffered(ser: &'a mut Serializer<S>, map: bool) -> Self {
        Compound::Buffered {
            ser,
            map,
            bytes: Vec::new(),
            ends: Vec::new(),
        }
    }

    #[inline]
    fn item<V: Serialize + ?Sized>(&mut self, value: &V) -> Result<()> {
        match self {
            Compound::Direct(ser) | Compound::Props(ser) => value.serialize(&mut **ser),
            Compound::Buffered {
                ser, bytes, ends, ..
            } => {
                let writer =
                    Writer::new(&mut *bytes, ser.dialect()).with_precision(ser.precision());
                let mut item = Serializer::from_writer(writer);
                value.serialize(&mut item)?;
                item.finish()?;
                ends.push(bytes.len());
                Ok(())
            }
        }
    }

    fn close(self) -> Result<()> {
        match self {
            Compound::Direct(_) | Compound::Props(_) => Ok(()),
            Compound::Buffered {
                ser,
                map,
                bytes,
                ends,
            } => {
                if map {
                    w(ser.w.begin_dictionary(ends.len() / 2))?;
                } else {
                    w(ser.w.begin_array(ends.len()))?;
                }
                let mut start = 0;
                for end in ends {
                    w(ser.w.raw(&bytes[start..end]))?;
                    start = end;
                }
                Ok(())
            }
        }
    }
}

macro_rules! compound {
    ($trait:ident, $method:ident) => {
        impl<S: Sink> ser::$trait for Compound<'_, S> {
            type Ok = ();
            type Error = Error;
            #[inline]
            fn $method<V: Serialize + ?Sized>(&mut self, value: &V) -> Result<()> {
                self.item(value)
            }
            fn end(self) -> Result<()> {
                self.close()
            }
        }
    };
}

compound!(SerializeSeq, serialize_element);
compound!(SerializeTuple, serialize_element);
compound!(SerializeTupleStruct, serialize_field);
compound!(SerializeTupleVariant, serialize_field);

impl<S: Sink> ser::SerializeMap for Compound<'_, S> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_key<V: Serialize + ?Sized>(&mut self, key: &V) -> Result<()> {
        match self {
            Compound::Props(ser) => {
                let name = crate::serde::godot::capture_text(key)?;
                match core::str::from_utf8(&name) {
                    Ok(name) => w(ser.w.property_name(name)),
                    // Godot 3 property names need not be UTF-8 (a `GString` key).
                    Err(_) => w(ser.w.property_name_bytes(&name)),
                }
            }
            _ => self.item(key),
        }
    }
    #[inline]
    fn serialize_value<V: Serialize + ?Sized>(&mut self, value: &V) -> Result<()> {
        self.item(value)
    }
    fn end(self) -> Result<()> {
        self.close()
    }
}

impl<S: Sink> ser::SerializeStruct for Compound<'_, S> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_field<V: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &V,
    ) -> Result<()> {
        match self {
            Compound::Direct(ser) => {
                w(ser.w.string(key))?;
                value.serialize(&mut **ser)
            }
            Compound::Props(ser) => {
                w(ser.w.property_name(key))?;
                value.serialize(&mut **ser)
            }
            Compound::Buffered { .. } => {
                self.item(key)?;
                self.item(value)
            }
        }
    }
    fn end(self) -> Result<()> {
        self.close()
    }
}

impl<S: Sink> ser::SerializeStructVariant for Compound<'_, S> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<V: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &V,
    ) -> Result<()> {
        ser::SerializeStruct::serialize_field(self, key, value)
    }
    fn end(self) -> Result<()> {
        self.close()
    }
}

/// Collects the components of a math type (a tuple of numbers).
#[derive(Default)]
struct Collect {
    comps: [f64; 16],
    n: usize,
}

impl Collect {
    fn push(&mut self, v: f64) -> Result<()> {
        let slot = self
            .comps
            .get_mut(self.n)
            .ok_or_else(|| Error::custom("too many math components"))?;
        *slot = v;
        self.n += 1;
        Ok(())
    }
}

fn only_numbers() -> Error {
    Error::custom("a math type's components must be numbers")
}

impl<'a> ser::Serializer for &'a mut Collect {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = &'a mut Collect;
    type SerializeTuple = &'a mut Collect;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_f64(self, v: f64) -> Result<()> {
        self.push(v)
    }
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.push(crate::float_width::widen(v))
    }
    ints!(|self, v| self.push(v as f64));
    fn serialize_tuple(self, _len: usize) -> Result<Self> {
        Ok(self)
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self> {
        Ok(self)
    }
    fn serialize_newtype_struct<V: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &V,
    ) -> Result<()> {
        value.serialize(self)
    }

    fn serialize_u64(self, v: u64) -> Result<()> {
        self.push(v as f64)
    }

    refuse!(only_numbers(); bool char str bytes none some unit unit_struct unit_variant
        newtype_variant tuple_struct tuple_variant map struct struct_variant);
}

impl ser::SerializeTuple for &mut Collect {
    type Ok = ();
    type Error = Error;
    fn serialize_element<V: Serialize + ?Sized>(&mut self, value: &V) -> Result<()> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<()> {
        Ok(())
    }
}

impl ser::SerializeSeq for &mut Collect {
    type Ok = ();
    type Error = Error;
    fn serialize_element<V: Serialize + ?Sized>(&mut self, value: &V) -> Result<()> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<()> {
        Ok(())
    }
}

/// Writes a borrowed packed view from its element bytes (no copy).
struct ViewWriter<'a, S: Sink> {
    ser: &'a mut Serializer<S>,
    ty: VariantType,
    precision: Precision,
}

impl<S: Sink> ViewWriter<'_, S> {
    fn write(self, b: &[u8]) -> Result<()> {
        use VariantRef as R;
        fn p<T: crate::read::Element>(b: &[u8]) -> Result<PackedRef<'_, T>> {
            if b.len() % T::SIZE == 0 {
                Ok(PackedRef::new(b))
            } else {
                Err(Error::custom(
                    "packed element bytes are not a whole number of elements",
                ))
            }
        }
        fn r<const N: usize>(b: &[u8], precision: Precision) -> Result<PackedReals<'_, N>> {
            if b.len() % (N * precision.size()) == 0 {
                Ok(PackedReals::new(b, precision))
            } else {
                Err(Error::custom(
                    "packed element bytes are not a whole number of elements",
                ))
            }
        }
        let v = match self.ty {
            T::PackedByteArray => R::PackedByteArray(p(b)?),
            T::PackedInt32Array => R::PackedInt32Array(p(b)?),
            T::PackedInt64Array => R::PackedInt64Array(p(b)?),
            T::PackedFloat32Array => R::PackedFloat32Array(p(b)?),
            T::PackedFloat64Array => R::PackedFloat64Array(p(b)?),
            T::PackedColorArray => R::PackedColorArray(p(b)?),
            T::PackedVector2iArray => R::PackedVector2iArray(p(b)?),
            T::PackedVector3iArray => R::PackedVector3iArray(p(b)?),
            T::PackedVector4iArray => R::PackedVector4iArray(p(b)?),
            T::PackedVector2Array => R::PackedVector2Array(r(b, self.precision)?),
            T::PackedVector3Array => R::PackedVector3Array(r(b, self.precision)?),
            T::PackedVector4Array => R::PackedVector4Array(r(b, self.precision)?),
            _ => return Err(Error::custom("not a packed view")),
        };
        w(self.ser.w.value(&v))
    }
}

impl<S: Sink> ser::Serializer for ViewWriter<'_, S> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        self.write(v)
    }

    refuse!(not_view(); bool i8 i16 i32 i64 u8 u16 u32 u64 f32 f64 char str none some unit
        unit_struct unit_variant newtype_struct newtype_variant seq tuple tuple_struct
        tuple_variant map struct struct_variant);
}

fn not_view() -> Error {
    Error::custom("a packed view serializes as its element bytes")
}

/// Collects a sequence for `gdwire::serde::packed` and writes it as one packed array.
pub(crate) struct PackedCollect {
    ty: VariantType,
    ints: Vec<i64>,
    reals: Vec<f64>,
    /// PackedStringArray elements (bytes: a `GString` may hold Godot 3 text that is not
    /// UTF-8).
    strings: Vec<Vec<u8>>,
    /// Components of the element being collected (vectors, colors).
    depth: u32,
}

impl PackedCollect {
    fn new(ty: VariantType) -> Self {
        PackedCollect {
            ty,
            ints: Vec::new(),
            reals: Vec::new(),
            strings: Vec::new(),
            depth: 0,
        }
    }

    fn int_elements(&self) -> bool {
        matches!(
            self.ty,
            T::PackedByteArray
                | T::PackedInt32Array
                | T::PackedInt64Array
                | T::PackedVector2iArray
                | T::PackedVector3iArray
                | T::PackedVector4iArray
        )
    }

    fn number(&mut self, int: Option<i64>, real: f64) -> Result<()> {
        if self.ty == T::PackedStringArray {
            return Err(Error::custom("a PackedStringArray holds strings"));
        }
        if self.int_elements() {
            let i = int.ok_or_else(|| Error::custom("this packed array holds integers"))?;
            self.ints.push(i);
        } else {
            self.reals.push(real);
        }
        Ok(())
    }

    fn write<S: Sink>(self, ser: &mut Serializer<S>) -> Result<()> {
        fn narrow_all<const N: usize, U: TryFrom<i64> + Copy + Default>(
            v: &[i64],
        ) -> Result<Vec<[U; N]>> {
            if v.len() % N != 0 {
                return Err(Error::custom(
                    "packed element has the wrong number of components",
                ));
            }
            v.chunks_exact(N)
                .map(|c| {
                    let mut out = [U::default(); N];
                    for (o, &x) in out.iter_mut().zip(c) {
                        *o = U::try_from(x).map_err(|_| {
                            Error::custom(alloc::format!(
                                "{x} is out of range for this packed array"
                            ))
                        })?;
                    }
                    Ok(out)
                })
                .collect()
        }
        fn reals<const N: usize>(v: &[f64]) -> Result<Vec<[f64; N]>> {
            if v.len() % N != 0 {
                return Err(Error::custom(
                    "packed element has the wrong number of components",
                ));
            }
            Ok(v.chunks_exact(N)
                .map(|c| core::array::from_fn(|i| c[i]))
                .collect())
        }
        let w = &mut ser.w;
        let r = match self.ty {
            T::PackedByteArray => {
                let b: Vec<[u8; 1]> = narrow_all(&self.ints)?;
                w.packed_bytes_iter(b.iter().map(|x| x[0]))
            }
            T::PackedInt32Array => {
                let v: Vec<[i32; 1]> = narrow_all(&self.ints)?;
                w.packed_i32(v.iter().map(|x| x[0]))
            }
            T::PackedInt64Array => w.packed_i64(&self.ints),
            T::PackedFloat32Array => w.packed_f32(self.reals.iter().map(|&x| x as f32)),
            T::PackedFloat64Array => w.packed_f64(&self.reals),
            T::PackedStringArray => w.packed_string_blocks(&self.strings),
            T::PackedVector2Array => w.packed_vector2::<f64, _>(reals::<2>(&self.reals)?),
            T::PackedVector3Array => w.packed_vector3::<f64, _>(reals::<3>(&self.reals)?),
            T::PackedVector4Array => w.packed_vector4::<f64, _>(reals::<4>(&self.reals)?),
            T::PackedColorArray => {
                let v = reals::<4>(&self.reals)?;
                w.packed_color(v.iter().map(|c| c.map(|x| x as f32)))
            }
            T::PackedVector2iArray => w.packed_vector2i(narrow_all::<2, i32>(&self.ints)?),
            T::PackedVector3iArray => w.packed_vector3i(narrow_all::<3, i32>(&self.ints)?),
            T::PackedVector4iArray => w.packed_vector4i(narrow_all::<4, i32>(&self.ints)?),
            _ => return Err(Error::custom("not a packed array type")),
        };
        r.map_err(Error::write)
    }
}

fn not_packable() -> Error {
    Error::custom("this value cannot be an element of a packed array")
}

impl<'a> ser::Serializer for &'a mut PackedCollect {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = &'a mut PackedCollect;
    type SerializeTuple = &'a mut PackedCollect;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    ints!(|self, v| self.number(Some(v), v as f64));
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.number(i64::try_from(v).ok(), v as f64)
    }
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.number(None, crate::float_width::widen(v))
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.number(None, v)
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        if self.ty != T::PackedStringArray {
            return Err(not_packable());
        }
        self.strings.push(v.as_bytes().into());
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        match (self.ty, self.depth) {
            (T::PackedByteArray, 0) => self.ints.extend(v.iter().map(|&b| i64::from(b))),
            // A `GString` element holding Godot 3 text that is not UTF-8 (checked by the
            // writer for the dialect).
            (T::PackedStringArray, 1) => self.strings.push(v.into()),
            _ => return Err(not_packable()),
        }
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self> {
        self.depth += 1;
        Ok(self)
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self> {
        self.depth += 1;
        Ok(self)
    }
    fn serialize_newtype_struct<V: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &V,
    ) -> Result<()> {
        value.serialize(self)
    }

    refuse!(not_packable(); bool char none some unit unit_struct unit_variant newtype_variant
        tuple_struct tuple_variant map struct struct_variant);
}

impl ser::SerializeSeq for &mut PackedCollect {
    type Ok = ();
    type Error = Error;
    fn serialize_element<V: Serialize + ?Sized>(&mut self, value: &V) -> Result<()> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<()> {
        self.depth -= 1;
        Ok(())
    }
}

impl ser::SerializeTuple for &mut PackedCollect {
    type Ok = ();
    type Error = Error;
    fn serialize_element<V: Serialize + ?Sized>(&mut self, value: &V) -> Result<()> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<()> {
        self.depth -= 1;
        Ok(())
    }
}
