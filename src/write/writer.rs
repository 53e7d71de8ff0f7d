//! The streaming writer.

use core::borrow::Borrow;

use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result};
use crate::float_width::{narrow, widen};
use crate::header::{ContainerKind, Header, FLAG_64, FLAG_OBJECT_AS_ID};
use crate::math::{
    Aabb, Basis, Color, Plane, Precision, Projection, Quaternion, Rect2, Rect2i, Transform2D,
    Transform3D, Vector2, Vector2i, Vector3, Vector3i, Vector4, Vector4i, WireReals,
};
use crate::read::{
    ArrayIter, ArrayKind, ContainerType, Decoder, NodePathRef, ObjectRef, PackedReals,
    PropertyIter, VariantRef, Walked, MAX_DEPTH,
};
use crate::variant_type::VariantType;
use crate::write::sink::{IntoSink, Sink};

use VariantType as T;

/// How many containers that still owe items the streaming calls can track at once.
///
/// A container occupies a slot only while items are still to come after the one being
/// written (a chain of single-item containers uses one slot), so this bounds unusual shapes
/// only; nesting depth itself is limited to the engine's 1024 ([`MAX_DEPTH`]).
/// [`Writer::value`] and [`Writer::raw`] do not use these slots.
pub const MAX_OPEN_CONTAINERS: usize = 64;

/// The engine's sizes are C `int`.
const MAX_LEN: usize = i32::MAX as usize;
/// Class name the engine writes for object-typed containers without full objects.
const ENCODED_OBJECT_AS_ID: &[u8] = b"EncodedObjectAsID";
const NODE_PATH_NEW_FORMAT: u32 = 0x8000_0000;
/// Frames of the `value()` walker before it continues in a nested call.
const WALK_STACK: usize = 32;

/// Byte order of a length prefix (the payload is always little-endian).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Endian {
    /// Little-endian: the engine's default, and always for `PacketPeerStream`.
    #[default]
    Little,
    /// Big-endian: `StreamPeer.big_endian = true`, `FileAccess.big_endian = true` (Godot 3
    /// `File.endian_swap`).
    Big,
}

/// The element type of a typed container, for [`Writer::begin_typed_array`] and
/// [`Writer::begin_typed_dictionary`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContainerTypeSpec<'s> {
    /// A builtin type. `Builtin(Nil)` means untyped (Godot's `Variant`); `Builtin(Object)` is
    /// written as class `"Object"`, as the engine does for `Array[Object]`.
    Builtin(VariantType),
    /// Objects of a class (`Array[Node]`). Without full objects the engine writes the class
    /// as `"EncodedObjectAsID"`; so does this writer.
    ClassName(&'s str),
    /// Objects with a script, by `res://` path. Without full objects written as class
    /// `"EncodedObjectAsID"`, like the engine.
    Script(&'s str),
}

/// A real component type accepted by the packed vector calls (`f32` or `f64`).
pub trait Real: Copy + sealed::Sealed {
    /// Widens (exactly) to `f64`.
    fn to_f64(self) -> f64;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

impl Real for f32 {
    fn to_f64(self) -> f64 {
        widen(self)
    }
}
impl Real for f64 {
    fn to_f64(self) -> f64 {
        self
    }
}

/// A container element type as written (from a spec or from a view).
#[derive(Clone, Copy, Debug)]
enum Elem<'s> {
    Builtin(VariantType),
    /// A Pandemonium 5 element id that is not a type of the dialect, written as is.
    RawId(u32),
    Class(&'s [u8]),
    Script(&'s [u8]),
}

impl<'s> Elem<'s> {
    fn from_spec(spec: ContainerTypeSpec<'s>) -> Option<Elem<'s>> {
        match spec {
            ContainerTypeSpec::Builtin(T::Nil) => None,
            ContainerTypeSpec::Builtin(T::Object) => Some(Elem::Class(b"Object")),
            ContainerTypeSpec::Builtin(ty) => Some(Elem::Builtin(ty)),
            ContainerTypeSpec::ClassName(name) => Some(Elem::Class(name.as_bytes())),
            ContainerTypeSpec::Script(path) => Some(Elem::Script(path.as_bytes())),
        }
    }

    fn from_view(t: ContainerType<'s>) -> Elem<'s> {
        match t {
            ContainerType::Builtin(ty) => Elem::Builtin(ty),
            ContainerType::UnknownBuiltin(id) => Elem::RawId(id),
            ContainerType::ClassName(s) => Elem::Class(s.raw()),
            ContainerType::Script(s) => Elem::Script(s.raw()),
        }
    }
}

/// The Godot 4 type block of a resolved element type.
#[derive(Clone, Copy)]
enum Block<'s> {
    None,
    Id(u32),
    Str(&'s [u8]),
}

#[derive(Clone, Copy, Default)]
struct Frame {
    /// Items still to come (dictionary: keys and values; object: properties).
    left: u32,
    /// Depth of those items (at most `MAX_DEPTH + 1`). `u16` so the frame has no padding
    /// and the writer's stack is zeroed by a plain memset in `Writer::new`.
    depth: u16,
    /// Items are object properties: a name before each value.
    props: bool,
    need_name: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Empty,
    Open,
    Done,
}

/// Items of a container being re-encoded. Dictionaries are walked as keys and values one at
/// a time so that every walked child, keys included, can be handed back (`resume`): the
/// parent then does not skip it again, which keeps re-encoding linear on deep input.
enum Walk<'v> {
    Array(ArrayIter<'v>),
    Props(PropertyIter<'v>),
}

impl<'v> Walk<'v> {
    fn walked(&self) -> Option<Walked<'v>> {
        match self {
            Walk::Array(it) => it.walked(),
            Walk::Props(it) => it.walked(),
        }
    }

    fn resume(&mut self, child: Option<Walked<'v>>) {
        if let Some(child) = child {
            match self {
                Walk::Array(it) => it.resume(child),
                Walk::Props(it) => it.resume(child),
            };
        }
    }
}

struct WalkFrame<'v> {
    iter: Walk<'v>,
    depth: u32,
}

enum Start<'v> {
    Value(VariantRef<'v>, u32),
    Frame(WalkFrame<'v>),
}

/// Streaming encoder of one value into a [`Sink`].
///
/// Each call writes one item; containers announce their item count up front
/// (`begin_array(n)` then `n` values, `begin_dictionary(n)` then `n` key/value pairs,
/// `begin_object(class, n)` then `n` × (`property_name`, value)) and the writer checks it:
/// a surplus item is [`ErrorKind::TooManyItems`], [`Writer::finish`] with items still owed is
/// [`ErrorKind::MissingItems`]. A writer writes exactly one top-level value (plus an optional
/// length prefix); to write several, create one writer per value over `&mut sink`.
///
/// Output is what the engine's `encode_variant` writes: int and float widths chosen like the
/// engine, zero padding, NUL terminators in PackedStringArray elements, a null object as Nil,
/// wire ids and rules from the [`Dialect`]. After any error the writer stays failed and
/// returns that error; the output is then unusable.
///
/// ```
/// use gdwire::{from_bytes, Dialect, Writer};
///
/// let mut buf = [0u8; 64];
/// let mut w = Writer::new(&mut buf[..], Dialect::GODOT_4);
/// w.begin_dictionary(1)?;
/// w.string("hp")?;
/// w.int(100)?;
/// let len = w.finish()?;
///
/// let dict = from_bytes(Dialect::GODOT_4, &buf[..len])?.as_dictionary().unwrap();
/// assert_eq!(dict.get_str("hp")?.and_then(|v| v.as_int()), Some(100));
/// # Ok::<(), gdwire::Error>(())
/// ```
pub struct Writer<S: Sink> {
    sink: S,
    dialect: Dialect,
    precision: Precision,
    full_objects: bool,
    prefix: Option<Endian>,
    start: usize,
    prefix_at: usize,
    state: State,
    stack: [Frame; MAX_OPEN_CONTAINERS],
    sp: usize,
    error: Option<Error>,
}

impl<S: Sink> core::fmt::Debug for Writer<S> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Writer")
            .field("dialect", &self.dialect)
            .field("precision", &self.precision)
            .field("full_objects", &self.full_objects)
            .field("prefix", &self.prefix)
            .field("position", &self.position())
            .field("state", &self.state)
            .field("open_containers", &self.sp)
            .field("error", &self.error)
            .finish()
    }
}

impl<S: Sink> Writer<S> {
    /// A writer for `dialect` with engine defaults: single precision, objects as ids, no
    /// length prefix. `sink` is any [`Sink`], or `&mut [u8]` / `&mut [u8; N]`.
    pub fn new<I: IntoSink<Sink = S>>(sink: I, dialect: Dialect) -> Writer<S> {
        let sink = sink.into_sink();
        let start = sink.position();
        Writer {
            sink,
            dialect,
            precision: Precision::Single,
            full_objects: false,
            prefix: None,
            start,
            prefix_at: start,
            state: State::Empty,
            stack: [Frame::default(); MAX_OPEN_CONTAINERS],
            sp: 0,
            error: None,
        }
    }

    /// Precision of real math types written by the streaming calls. `Double` writes what a
    /// Godot 4 double-precision build writes: header bit 16 and `f64` components for
    /// Vector2/3/4, Rect2, Transform2D, Plane, Quaternion, AABB, Basis, Transform3D,
    /// Projection and PackedVector2/3/4Array; never for Color, PackedColorArray,
    /// PackedFloat32Array or integer vectors. Ignored (always single) in Godot 3 and
    /// Pandemonium dialects. [`Writer::value`] uses each view's own precision instead.
    pub fn with_precision(mut self, precision: Precision) -> Self {
        self.precision = precision;
        self
    }

    /// Full objects (`var_to_bytes_with_objects`, `full_objects = true`): enables
    /// [`Writer::begin_object`] and full-object views in [`Writer::value`], and keeps class
    /// names and script paths of typed containers (otherwise written as
    /// `"EncodedObjectAsID"`, or the object-as-id flag in Pandemonium 5, like the engine).
    pub fn with_full_objects(mut self, full: bool) -> Self {
        self.full_objects = full;
        self
    }

    /// Precedes the value with its `u32` length in `endian` order, as `StreamPeer.put_var`,
    /// `FileAccess.store_var` (Godot 3 `File.store_var`) and `PacketPeerStream` write (spec
    /// §5). The prefix is patched by [`Writer::finish`].
    pub fn with_length_prefix(mut self, endian: Endian) -> Self {
        self.prefix = Some(endian);
        self
    }

    /// The dialect.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The precision math types are written with by the streaming calls (always single where
    /// the dialect has no 64-bit math flag).
    pub fn precision(&self) -> Precision {
        if self.dialect.math_follows_flag_64() {
            self.precision
        } else {
            Precision::Single
        }
    }

    /// Bytes written (or, for a full [`crate::SliceSink`], counted) by this writer so far.
    pub fn position(&self) -> usize {
        self.sink.position() - self.start
    }

    /// The sink.
    pub fn sink(&self) -> &S {
        &self.sink
    }

    /// Gives the sink back.
    pub fn into_sink(self) -> S {
        self.sink
    }

    /// Checks that the value is complete, patches the length prefix and returns the number
    /// of bytes written (prefix included). Fails with [`ErrorKind::MissingItems`] if
    /// containers still owe items (or nothing was written), with
    /// [`ErrorKind::BufferFull`] if a [`crate::SliceSink`] ran out of room (`needed` = the
    /// size of the whole output), or with the writer's earlier error.
    pub fn finish(&mut self) -> Result<usize> {
        if let Some(e) = self.error {
            return Err(e);
        }
        match self.state {
            State::Empty => return Err(self.err(ErrorKind::MissingItems { count: 1 })),
            State::Open => {
                let top = self.sp.checked_sub(1).and_then(|i| self.stack.get(i));
                let count = top.map_or(1, |f| f.left);
                return Err(self.err(ErrorKind::MissingItems { count }));
            }
            State::Done => {}
        }
        if let Some(endian) = self.prefix {
            let len = self.sink.position() - self.prefix_at - 4;
            if len > MAX_LEN {
                return Err(self.err(ErrorKind::TooLong { len }));
            }
            let len = len as u32;
            let bytes = match endian {
                Endian::Little => len.to_le_bytes(),
                Endian::Big => len.to_be_bytes(),
            };
            self.sink.patch(self.prefix_at, &bytes)?;
        }
        self.sink.check()?;
        Ok(self.position())
    }

    // ----- scalars -------------------------------------------------------------------------

    /// Nil (`null`).
    pub fn nil(&mut self) -> Result<()> {
        self.leaf(|w| w.header(T::Nil, 0))
    }

    /// A bool.
    pub fn bool(&mut self, v: bool) -> Result<()> {
        self.leaf(|w| {
            w.header(T::Bool, 0)?;
            w.u32(v as u32)
        })
    }

    /// An int: `i32` when in `[-2^31, 2^31-1]`, else bit 16 + `i64` (spec §2.1).
    pub fn int(&mut self, v: i64) -> Result<()> {
        self.leaf(|w| w.put_int(v))
    }

    /// A float: `f32` when `f64::from(v as f32) == v`, else bit 16 + `f64`, the engine's rule
    /// (spec §2.2): NaN is always 64-bit, `-0.0` and `±inf` are 32-bit.
    pub fn float(&mut self, v: f64) -> Result<()> {
        self.leaf(|w| w.put_float(v))
    }

    /// A String.
    pub fn string(&mut self, s: &str) -> Result<()> {
        self.string_bytes(s.as_bytes())
    }

    /// A String from raw bytes, written as they are. The bytes must be text the dialect's
    /// reader accepts (UTF-8; Godot 3 also takes the non-UTF-8 forms its parser allows, e.g.
    /// 5- and 6-byte sequences), else [`ErrorKind::InvalidText`] (and, like every error, the
    /// writer stops): the writer never emits bytes the reader (and the engine) would reject.
    pub fn string_bytes(&mut self, s: &[u8]) -> Result<()> {
        self.leaf(|w| {
            if !crate::read::text_is_valid(s, w.dialect.text_rules()) {
                return Err(w.err(ErrorKind::InvalidText));
            }
            w.header(T::String, 0)?;
            w.str_block(s)
        })
    }

    /// A StringName (Godot 4, Pandemonium).
    pub fn string_name(&mut self, s: &str) -> Result<()> {
        self.leaf(|w| {
            w.header(T::StringName, 0)?;
            w.str_block(s.as_bytes())
        })
    }

    // ----- math ----------------------------------------------------------------------------

    /// A Vector2.
    pub fn vector2(&mut self, v: Vector2) -> Result<()> {
        self.reals(T::Vector2, &v)
    }

    /// A Rect2.
    pub fn rect2(&mut self, v: Rect2) -> Result<()> {
        self.reals(T::Rect2, &v)
    }

    /// A Vector3.
    pub fn vector3(&mut self, v: Vector3) -> Result<()> {
        self.reals(T::Vector3, &v)
    }

    /// A Transform2D.
    pub fn transform2d(&mut self, v: Transform2D) -> Result<()> {
        self.reals(T::Transform2D, &v)
    }

    /// A Vector4 (Godot 4, Pandemonium 3.8+).
    pub fn vector4(&mut self, v: Vector4) -> Result<()> {
        self.reals(T::Vector4, &v)
    }

    /// A Plane.
    pub fn plane(&mut self, v: Plane) -> Result<()> {
        self.reals(T::Plane, &v)
    }

    /// A Quaternion (Godot 3 `Quat`).
    pub fn quaternion(&mut self, v: Quaternion) -> Result<()> {
        self.reals(T::Quaternion, &v)
    }

    /// An AABB.
    pub fn aabb(&mut self, v: Aabb) -> Result<()> {
        self.reals(T::Aabb, &v)
    }

    /// A Basis (written row-major, like the engine).
    pub fn basis(&mut self, v: Basis) -> Result<()> {
        self.reals(T::Basis, &v)
    }

    /// A Transform3D (Godot 3 `Transform`).
    pub fn transform3d(&mut self, v: Transform3D) -> Result<()> {
        self.reals(T::Transform3D, &v)
    }

    /// A Projection (Godot 4, Pandemonium 3.8+; column-major).
    pub fn projection(&mut self, v: Projection) -> Result<()> {
        self.reals(T::Projection, &v)
    }

    /// A Vector2i.
    pub fn vector2i(&mut self, v: Vector2i) -> Result<()> {
        self.leaf(|w| w.put_ints(T::Vector2i, &[v.x, v.y]))
    }

    /// A Rect2i.
    pub fn rect2i(&mut self, v: Rect2i) -> Result<()> {
        let c = [v.position.x, v.position.y, v.size.x, v.size.y];
        self.leaf(|w| w.put_ints(T::Rect2i, &c))
    }

    /// A Vector3i.
    pub fn vector3i(&mut self, v: Vector3i) -> Result<()> {
        self.leaf(|w| w.put_ints(T::Vector3i, &[v.x, v.y, v.z]))
    }

    /// A Vector4i.
    pub fn vector4i(&mut self, v: Vector4i) -> Result<()> {
        self.leaf(|w| w.put_ints(T::Vector4i, &[v.x, v.y, v.z, v.w]))
    }

    /// A Color (always `f32`, whatever the precision).
    pub fn color(&mut self, c: Color) -> Result<()> {
        self.leaf(|w| w.put_color(c))
    }

    // ----- paths, ids, objects -------------------------------------------------------------

    /// A NodePath from its parts: names (`/`-separated in text), subnames (`:`-separated),
    /// and whether it is absolute. Pad bytes are written as zeros (the engine before 4.6.3
    /// leaves them uninitialised).
    pub fn node_path<N: AsRef<str>, U: AsRef<str>>(
        &mut self,
        names: &[N],
        subnames: &[U],
        absolute: bool,
    ) -> Result<()> {
        self.leaf(|w| {
            let n = w.count(names.len())?;
            let s = w.count(subnames.len())?;
            w.node_path_head(n, s, absolute)?;
            for part in names {
                w.str_block(part.as_ref().as_bytes())?;
            }
            for part in subnames {
                w.str_block(part.as_ref().as_bytes())?;
            }
            Ok(())
        })
    }

    /// A NodePath parsed from text the way the engine's `NodePath(String)` does: absolute if
    /// it starts with `/`; names are the non-empty `/`-separated parts before the first `:`;
    /// subnames are the `:`-separated parts after it, where only a trailing empty one is
    /// allowed (`"a:b:"`); an empty subname elsewhere (`"a::b"`) is
    /// [`ErrorKind::InvalidNodePath`] (the engine prints an error and makes an empty path).
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.node_path_str("/root//a:b")?;
    /// w.finish()?;
    /// let p = from_bytes(Dialect::GODOT_4, &out)?.as_node_path().unwrap();
    /// assert!(p.is_absolute());
    /// assert!(p.names().eq(["root", "a"]));
    /// assert!(p.subnames().eq(["b"]));
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn node_path_str(&mut self, path: &str) -> Result<()> {
        self.leaf(|w| {
            let (absolute, names, subnames) =
                split_node_path(path).ok_or_else(|| w.err(ErrorKind::InvalidNodePath))?;
            let names = names.split('/').filter(|s| !s.is_empty());
            let subnames = subnames.split(':').filter(|s| !s.is_empty());
            let n = w.count(names.clone().count())?;
            let s = w.count(subnames.clone().count())?;
            w.node_path_head(n, s, absolute)?;
            for part in names.chain(subnames) {
                w.str_block(part.as_bytes())?;
            }
            Ok(())
        })
    }

    /// An RID. The id is written only where the dialect has an RID payload (Godot 4); in
    /// Godot 3 and Pandemonium an RID is a bare header and `id` is dropped.
    pub fn rid(&mut self, id: u64) -> Result<()> {
        self.leaf(|w| w.put_rid(id))
    }

    /// An object by instance id (the engine's default, `full_objects = false`): bit 16 and
    /// the `u64` id. Id 0 (a null object) is written as Nil, like the engine.
    pub fn object_id(&mut self, id: u64) -> Result<()> {
        self.leaf(|w| w.put_object_id(id))
    }

    /// Starts a full object (needs [`Writer::with_full_objects`]): class name and property
    /// count; then write `properties` × ([`Writer::property_name`], value). A class that is empty
    /// as text (empty, starting with NUL, or only a BOM: the engine reads a null object) is
    /// [`ErrorKind::EmptyClassName`]: write a null object with [`Writer::nil`].
    pub fn begin_object(&mut self, class: &str, properties: usize) -> Result<()> {
        self.guard(|w| {
            let depth = w.item()?;
            let n = w.count(properties)?;
            if !w.full_objects {
                return Err(w.err(ErrorKind::FullObjectsDisabled));
            }
            // Empty as text (e.g. "\0x", or only a BOM) is a null object to the reader and
            // the engine: no property count would be read.
            if crate::read::visible_text(class.as_bytes()).is_empty() {
                return Err(w.err(ErrorKind::EmptyClassName));
            }
            w.header(T::Object, 0)?;
            w.str_block(class.as_bytes())?;
            w.u32(n)?;
            w.open(depth, n, true)
        })
    }

    /// The name of the next property of the innermost full object.
    pub fn property_name(&mut self, name: &str) -> Result<()> {
        self.guard(|w| {
            let top = match w.sp.checked_sub(1) {
                Some(i) if w.stack[i].props && w.stack[i].need_name => i,
                _ => return Err(w.err(ErrorKind::UnexpectedPropertyName)),
            };
            w.str_block(name.as_bytes())?;
            w.stack[top].need_name = false;
            Ok(())
        })
    }

    /// A Callable (Godot 4): the engine sends the header only and decodes an empty Callable.
    pub fn callable(&mut self) -> Result<()> {
        self.leaf(|w| w.header(T::Callable, 0))
    }

    /// A Signal (Godot 4): name and object id.
    pub fn signal(&mut self, name: &str, object_id: u64) -> Result<()> {
        self.leaf(|w| {
            w.header(T::Signal, 0)?;
            w.str_block(name.as_bytes())?;
            w.u64(object_id)
        })
    }

    // ----- containers ----------------------------------------------------------------------

    /// Starts an untyped Array of `len` elements.
    pub fn begin_array(&mut self, len: usize) -> Result<()> {
        self.guard(|w| {
            let depth = w.item()?;
            let n = w.count(len)?;
            w.array_head(T::Array, n, None)?;
            w.open(depth, n, false)
        })
    }

    /// Starts a typed Array of `len` elements. Godot 4.3+: header bits 16–17 and a type block
    /// (spec §3.13). Pandemonium 5: a `TypedArray` (spec §3.15). Other dialects have no typed
    /// arrays: an untyped Array is written, as Godot 4.0–4.2 do.
    pub fn begin_typed_array(&mut self, len: usize, element: ContainerTypeSpec<'_>) -> Result<()> {
        self.typed_array(T::TypedArray, len, element)
    }

    /// Like [`Writer::begin_typed_array`], but a `PackedTypedArray` in Pandemonium 5.
    pub fn begin_packed_typed_array(
        &mut self,
        len: usize,
        element: ContainerTypeSpec<'_>,
    ) -> Result<()> {
        self.typed_array(T::PackedTypedArray, len, element)
    }

    fn typed_array(&mut self, pm: VariantType, len: usize, spec: ContainerTypeSpec) -> Result<()> {
        self.guard(|w| {
            let depth = w.item()?;
            let n = w.count(len)?;
            w.array_head(pm, n, Elem::from_spec(spec))?;
            w.open(depth, n, false)
        })
    }

    /// Starts an untyped Dictionary of `len` entries: then `len` × (key, value).
    pub fn begin_dictionary(&mut self, len: usize) -> Result<()> {
        self.guard(|w| {
            let depth = w.item()?;
            let n = w.count(len)?;
            w.dict_head(n, None, None)?;
            w.open(depth, n * 2, false)
        })
    }

    /// Starts a typed Dictionary (Godot 4.4+: header bits 16–19 and type blocks, spec §3.12).
    /// Elsewhere an untyped Dictionary is written. `Builtin(Nil)` leaves that side untyped.
    pub fn begin_typed_dictionary(
        &mut self,
        len: usize,
        key: ContainerTypeSpec<'_>,
        value: ContainerTypeSpec<'_>,
    ) -> Result<()> {
        self.guard(|w| {
            let depth = w.item()?;
            let n = w.count(len)?;
            w.dict_head(n, Elem::from_spec(key), Elem::from_spec(value))?;
            w.open(depth, n * 2, false)
        })
    }

    // ----- packed arrays -------------------------------------------------------------------

    /// A PackedByteArray (PoolByteArray), zero-padded to 4 bytes.
    pub fn packed_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        self.leaf(|w| w.put_packed_raw(T::PackedByteArray, 0, bytes.len(), bytes))
    }

    /// A PackedByteArray from an iterator of known length.
    pub fn packed_bytes_iter<I>(&mut self, items: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<u8>,
        I::IntoIter: ExactSizeIterator,
    {
        self.leaf(|w| {
            let len = w.put_packed(T::PackedByteArray, 0, items, 1, |b: &u8, out| out[0] = *b)?;
            w.pad(len)
        })
    }

    /// A PackedInt32Array (PoolIntArray), from a slice or any iterator of known length.
    pub fn packed_i32<I>(&mut self, items: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<i32>,
        I::IntoIter: ExactSizeIterator,
    {
        self.leaf(|w| {
            w.put_packed(T::PackedInt32Array, 0, items, 4, |v: &i32, out| {
                out.copy_from_slice(&v.to_le_bytes())
            })
            .map(drop)
        })
    }

    /// A PackedInt64Array (Godot 4).
    pub fn packed_i64<I>(&mut self, items: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<i64>,
        I::IntoIter: ExactSizeIterator,
    {
        self.leaf(|w| {
            w.put_packed(T::PackedInt64Array, 0, items, 8, |v: &i64, out| {
                out.copy_from_slice(&v.to_le_bytes())
            })
            .map(drop)
        })
    }

    /// A PackedFloat32Array (PoolRealArray); always `f32`.
    pub fn packed_f32<I>(&mut self, items: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<f32>,
        I::IntoIter: ExactSizeIterator,
    {
        self.leaf(|w| {
            w.put_packed(T::PackedFloat32Array, 0, items, 4, |v: &f32, out| {
                out.copy_from_slice(&v.to_le_bytes())
            })
            .map(drop)
        })
    }

    /// A PackedFloat64Array (Godot 4).
    pub fn packed_f64<I>(&mut self, items: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<f64>,
        I::IntoIter: ExactSizeIterator,
    {
        self.leaf(|w| {
            w.put_packed(T::PackedFloat64Array, 0, items, 8, |v: &f64, out| {
                out.copy_from_slice(&v.to_le_bytes())
            })
            .map(drop)
        })
    }

    /// A PackedStringArray (PoolStringArray): each element's length counts a NUL terminator
    /// that is written, then zero padding, like the engine.
    pub fn packed_strings<I>(&mut self, items: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
        I::IntoIter: ExactSizeIterator,
    {
        self.leaf(|w| {
            let mut items = items.into_iter();
            let n = w.count(items.len())?;
            w.header(T::PackedStringArray, 0)?;
            w.u32(n)?;
            for _ in 0..n {
                let s = items
                    .next()
                    .ok_or_else(|| w.err(ErrorKind::MissingItems { count: n }))?;
                w.packed_string(s.as_ref().as_bytes(), true)?;
            }
            if items.next().is_some() {
                return Err(w.err(ErrorKind::TooManyItems));
            }
            Ok(())
        })
    }

    /// A PackedVector2Array from `[x, y]` items of `f32` or `f64`, written with the writer's
    /// [`Writer::precision`].
    pub fn packed_vector2<R: Real, I>(&mut self, items: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<[R; 2]>,
        I::IntoIter: ExactSizeIterator,
    {
        self.packed_reals(T::PackedVector2Array, items)
    }

    /// A PackedVector3Array from `[x, y, z]` items, written with the writer's precision.
    pub fn packed_vector3<R: Real, I>(&mut self, items: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<[R; 3]>,
        I::IntoIter: ExactSizeIterator,
    {
        self.packed_reals(T::PackedVector3Array, items)
    }

    /// A PackedVector4Array (Godot 4.3+, Pandemonium 3.8+ `PoolVector4Array`), written with
    /// the writer's precision.
    pub fn packed_vector4<R: Real, I>(&mut self, items: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<[R; 4]>,
        I::IntoIter: ExactSizeIterator,
    {
        self.packed_reals(T::PackedVector4Array, items)
    }

    /// A PackedColorArray from `[r, g, b, a]` items; always `f32`.
    pub fn packed_color<I>(&mut self, items: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<[f32; 4]>,
        I::IntoIter: ExactSizeIterator,
    {
        self.packed_ints_or_colors(T::PackedColorArray, items, |c: &[f32; 4], out| {
            for (chunk, c) in out.chunks_exact_mut(4).zip(c) {
                chunk.copy_from_slice(&c.to_le_bytes());
            }
        })
    }

    /// A Pandemonium PoolVector2iArray.
    pub fn packed_vector2i<I>(&mut self, items: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<[i32; 2]>,
        I::IntoIter: ExactSizeIterator,
    {
        self.packed_ints_or_colors(T::PackedVector2iArray, items, put_i32s::<2>)
    }

    /// A Pandemonium PoolVector3iArray.
    pub fn packed_vector3i<I>(&mut self, items: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<[i32; 3]>,
        I::IntoIter: ExactSizeIterator,
    {
        self.packed_ints_or_colors(T::PackedVector3iArray, items, put_i32s::<3>)
    }

    /// A Pandemonium 3.8+ PoolVector4iArray. The true `w` is written; the Pandemonium encoder
    /// writes `z` in that slot and its decoder reads `w` from the `z` slot (spec §3.15,
    /// §4.6), so the engine sees `w == z` either way.
    pub fn packed_vector4i<I>(&mut self, items: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<[i32; 4]>,
        I::IntoIter: ExactSizeIterator,
    {
        self.packed_ints_or_colors(T::PackedVector4iArray, items, put_i32s::<4>)
    }

    // ----- views and raw bytes -------------------------------------------------------------

    /// Re-encodes a decoded view as one item, in this writer's dialect (so a view can also be
    /// transcoded between dialects; a type the dialect lacks is [`ErrorKind::Unsupported`]).
    ///
    /// Each math value and packed vector array keeps the precision it was read with (where
    /// the dialect has the 64-bit flag); strings are written from their raw bytes; NodePath
    /// pads are zeros; an object with id 0 or an empty class is written as Nil; full objects
    /// need [`Writer::with_full_objects`]; typed container classes follow the full-objects
    /// rule of [`Writer::with_full_objects`]. So engine-made bytes re-encode byte for byte
    /// (NodePath pads aside).
    ///
    /// Nesting is walked with a fixed stack of 32 levels that continues in a nested call when
    /// full: native recursion is at most `1024 / 32` calls deep. Depth above 1024 is
    /// [`ErrorKind::TooDeep`].
    pub fn value(&mut self, v: &VariantRef<'_>) -> Result<()> {
        self.guard(|w| {
            let depth = w.item()?;
            w.walk(Start::Value(*v, depth))?;
            w.end_item();
            Ok(())
        })
    }

    /// Copies an already-encoded value as one item, after validating it with the reader in
    /// this dialect (full objects only with [`Writer::with_full_objects`]; the nesting limit
    /// counts from this item's depth). `bytes` must hold exactly one value
    /// ([`ErrorKind::TrailingBytes`] otherwise). A PackedByteArray left unpadded at the very
    /// end, which the engine accepts, gets its zero padding.
    pub fn raw(&mut self, bytes: &[u8]) -> Result<()> {
        self.guard(|w| {
            let depth = w.item()?;
            let dec = Decoder::new(w.dialect)
                .with_allow_objects(w.full_objects)
                .with_max_depth(MAX_DEPTH - depth);
            let end = dec.value_end(bytes)?;
            if end < bytes.len() {
                let count = bytes.len() - end;
                return Err(Error::new(ErrorKind::TrailingBytes { count }, end));
            }
            w.bytes(bytes)?;
            w.zeros(end - bytes.len())?;
            w.end_item();
            Ok(())
        })
    }

    // ----- item accounting -----------------------------------------------------------------

    fn err(&self, kind: ErrorKind) -> Error {
        Error::new(kind, self.position())
    }

    /// A length or count as the engine's 32-bit `int`.
    fn count(&self, n: usize) -> Result<u32> {
        if n > MAX_LEN {
            return Err(self.err(ErrorKind::TooLong { len: n }));
        }
        Ok(n as u32)
    }

    /// Runs `f`, making any error sticky.
    fn guard<R>(&mut self, f: impl FnOnce(&mut Self) -> Result<R>) -> Result<R> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let r = f(self);
        if let Err(e) = &r {
            self.error = Some(*e);
        }
        r
    }

    /// One complete value that is not a container.
    fn leaf(&mut self, f: impl FnOnce(&mut Self) -> Result<()>) -> Result<()> {
        self.guard(|w| {
            w.item()?;
            f(w)?;
            w.end_item();
            Ok(())
        })
    }

    /// Accounts for the item about to be written; returns its nesting depth.
    fn item(&mut self) -> Result<u32> {
        match self.state {
            State::Done => return Err(self.err(ErrorKind::TooManyItems)),
            State::Empty => {
                if self.prefix.is_some() {
                    self.prefix_at = self.sink.position();
                    self.u32(0)?;
                }
                self.state = State::Open;
                return Ok(0);
            }
            State::Open => {}
        }
        let Some(top) = self.sp.checked_sub(1) else {
            return Err(self.err(ErrorKind::TooManyItems));
        };
        let frame = &mut self.stack[top];
        if frame.props && frame.need_name {
            return Err(self.err(ErrorKind::PropertyNameExpected));
        }
        frame.left -= 1;
        frame.need_name = frame.props;
        let depth = u32::from(frame.depth);
        if frame.left == 0 {
            self.sp = top;
        }
        if depth > MAX_DEPTH {
            return Err(self.err(ErrorKind::TooDeep { limit: MAX_DEPTH }));
        }
        Ok(depth)
    }

    /// A container at `depth` whose head is written now owes `values` items.
    fn open(&mut self, depth: u32, values: u32, props: bool) -> Result<()> {
        if values > 0 {
            if self.sp == MAX_OPEN_CONTAINERS {
                let limit = MAX_OPEN_CONTAINERS as u32;
                return Err(self.err(ErrorKind::TooManyOpenContainers { limit }));
            }
            self.stack[self.sp] = Frame {
                left: values,
                // `depth <= MAX_DEPTH` here (checked by `item`); saturating keeps it so.
                depth: u16::try_from(depth + 1).unwrap_or(u16::MAX),
                props,
                need_name: props,
            };
            self.sp += 1;
        }
        self.end_item();
        Ok(())
    }

    fn end_item(&mut self) {
        if self.sp == 0 {
            self.state = State::Done;
        }
    }

    // ----- primitives ----------------------------------------------------------------------

    fn bytes(&mut self, b: &[u8]) -> Result<()> {
        self.sink.write(b)
    }

    fn u32(&mut self, v: u32) -> Result<()> {
        self.sink.write(&v.to_le_bytes())
    }

    fn u64(&mut self, v: u64) -> Result<()> {
        self.sink.write(&v.to_le_bytes())
    }

    fn zeros(&mut self, n: usize) -> Result<()> {
        self.sink.write(&[0; 4][..n.min(4)])
    }

    /// Zero padding after `len` bytes.
    fn pad(&mut self, len: usize) -> Result<()> {
        self.zeros((4 - len % 4) % 4)
    }

    fn header(&mut self, ty: VariantType, data: u32) -> Result<()> {
        let id = self
            .dialect
            .wire_id(ty)
            .ok_or_else(|| self.err(ErrorKind::Unsupported(ty)))?;
        self.u32(id as u32 | data)
    }

    fn str_block(&mut self, s: &[u8]) -> Result<()> {
        self.check_text(s)?;
        let n = self.count(s.len())?;
        self.u32(n)?;
        self.bytes(s)?;
        self.pad(s.len())
    }

    /// Text for this dialect's reader. Only views decoded in another dialect can fail: `&str`
    /// is valid everywhere, and Godot 3's parser accepts any UTF-8; Godot 3 text that is not
    /// UTF-8 (5-byte forms, surrogates) cannot be written for a strict-UTF-8 dialect.
    #[inline]
    fn check_text(&self, s: &[u8]) -> Result<()> {
        if self.dialect.text_rules() == crate::dialect::TextRules::Strict
            && !s.is_ascii()
            && !crate::read::text_is_valid(s, crate::dialect::TextRules::Strict)
        {
            return Err(self.err(ErrorKind::InvalidText));
        }
        Ok(())
    }

    /// A PackedStringArray element: `len + 1`, bytes, NUL, zero pad.
    fn packed_string(&mut self, s: &[u8], add_nul: bool) -> Result<()> {
        self.check_text(s)?;
        let len = s.len() + add_nul as usize;
        let n = self.count(len)?;
        self.u32(n)?;
        self.bytes(s)?;
        if add_nul {
            self.zeros(1)?;
        }
        self.pad(len)
    }

    fn put_int(&mut self, v: i64) -> Result<()> {
        if v > i32::MAX as i64 || v < i32::MIN as i64 {
            self.header(T::Int, FLAG_64)?;
            self.u64(v as u64)
        } else {
            self.header(T::Int, 0)?;
            self.u32(v as i32 as u32)
        }
    }

    fn put_float(&mut self, v: f64) -> Result<()> {
        let narrow = v as f32;
        #[allow(clippy::float_cmp)] // the engine's exact rule: double(float(d)) != d
        if narrow as f64 != v {
            self.header(T::Float, FLAG_64)?;
            self.u64(v.to_bits())
        } else {
            self.header(T::Float, 0)?;
            self.u32(narrow.to_bits())
        }
    }

    fn reals<R: WireReals>(&mut self, ty: VariantType, v: &R) -> Result<()> {
        let precision = self.precision();
        self.leaf(|w| w.put_reals(ty, v, precision))
    }

    fn put_reals<R: WireReals>(&mut self, ty: VariantType, v: &R, p: Precision) -> Result<()> {
        let mut comps = [0.0f64; 16];
        v.to_wire(&mut comps[..R::COUNT]);
        let p = if self.dialect.math_follows_flag_64() {
            p
        } else {
            Precision::Single
        };
        let mut buf = [0u8; 128];
        let len = R::COUNT * p.size();
        for (c, out) in comps[..R::COUNT].iter().zip(buf.chunks_exact_mut(p.size())) {
            match p {
                Precision::Single => out.copy_from_slice(&narrow(*c).to_le_bytes()),
                Precision::Double => out.copy_from_slice(&c.to_le_bytes()),
            }
        }
        let flag = if p == Precision::Double { FLAG_64 } else { 0 };
        self.header(ty, flag)?;
        self.bytes(&buf[..len])
    }

    fn put_ints(&mut self, ty: VariantType, c: &[i32]) -> Result<()> {
        self.header(ty, 0)?;
        for v in c {
            self.u32(*v as u32)?;
        }
        Ok(())
    }

    fn put_color(&mut self, c: Color) -> Result<()> {
        self.header(T::Color, 0)?;
        for v in [c.r, c.g, c.b, c.a] {
            self.u32(v.to_bits())?;
        }
        Ok(())
    }

    fn put_rid(&mut self, id: u64) -> Result<()> {
        self.header(T::Rid, 0)?;
        if self.dialect.rid_has_payload() {
            self.u64(id)?;
        }
        Ok(())
    }

    fn put_object_id(&mut self, id: u64) -> Result<()> {
        if id == 0 {
            return self.header(T::Nil, 0);
        }
        self.header(T::Object, FLAG_OBJECT_AS_ID)?;
        self.u64(id)
    }

    fn node_path_head(&mut self, names: u32, subnames: u32, absolute: bool) -> Result<()> {
        self.header(T::NodePath, 0)?;
        self.u32(names | NODE_PATH_NEW_FORMAT)?;
        self.u32(subnames)?;
        self.u32(absolute as u32)
    }

    /// Header, count and elements of a fixed-size packed array; returns the byte length of
    /// the elements.
    fn put_packed<E: ?Sized, I>(
        &mut self,
        ty: VariantType,
        flags: u32,
        items: I,
        size: usize,
        encode: impl Fn(&E, &mut [u8]),
    ) -> Result<usize>
    where
        I: IntoIterator,
        I::Item: Borrow<E>,
        I::IntoIter: ExactSizeIterator,
    {
        let mut items = items.into_iter();
        let n = items.len();
        let total = self.packed_len(n, size)?;
        self.header(ty, flags)?;
        self.u32(n as u32)?;
        // Elements are encoded a buffer at a time (a tight loop over fixed-size slots, which
        // the compiler unrolls and vectorises), then handed to the sink in one write.
        let mut buf = [0u8; 2048];
        let per_buf = buf.len() / size;
        let mut done = 0;
        while done < n {
            let k = per_buf.min(n - done);
            for (i, slot) in buf[..k * size].chunks_exact_mut(size).enumerate() {
                let Some(item) = items.next() else {
                    let count = (n - done - i) as u32;
                    return Err(self.err(ErrorKind::MissingItems { count }));
                };
                encode(item.borrow(), slot);
            }
            self.bytes(&buf[..k * size])?;
            done += k;
        }
        if items.next().is_some() {
            return Err(self.err(ErrorKind::TooManyItems));
        }
        Ok(total)
    }

    fn packed_len(&self, n: usize, size: usize) -> Result<usize> {
        if n > MAX_LEN {
            return Err(self.err(ErrorKind::TooLong { len: n }));
        }
        match n.checked_mul(size) {
            Some(total) if total <= MAX_LEN => Ok(total),
            _ => {
                let kind = ErrorKind::SizeOverflow {
                    count: n as u32,
                    size: size as u32,
                };
                Err(self.err(kind))
            }
        }
    }

    /// A packed array whose element bytes are already encoded.
    fn put_packed_raw(&mut self, ty: VariantType, flags: u32, n: usize, b: &[u8]) -> Result<()> {
        self.packed_len(n, b.len().checked_div(n).unwrap_or(1))?;
        self.header(ty, flags)?;
        self.u32(n as u32)?;
        self.bytes(b)?;
        if ty == T::PackedByteArray {
            self.pad(b.len())?;
        }
        Ok(())
    }

    fn packed_reals<R: Real, const N: usize, I>(&mut self, ty: VariantType, items: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<[R; N]>,
        I::IntoIter: ExactSizeIterator,
    {
        let p = self.precision();
        self.leaf(|w| w.put_packed_reals::<R, N, I>(ty, items, p))
    }

    fn put_packed_reals<R: Real, const N: usize, I>(
        &mut self,
        ty: VariantType,
        items: I,
        p: Precision,
    ) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<[R; N]>,
        I::IntoIter: ExactSizeIterator,
    {
        match p {
            Precision::Single => self.put_packed(ty, 0, items, 4 * N, |v: &[R; N], out| {
                for (chunk, c) in out.chunks_exact_mut(4).zip(v) {
                    chunk.copy_from_slice(&narrow(c.to_f64()).to_le_bytes());
                }
            }),
            Precision::Double => self.put_packed(ty, FLAG_64, items, 8 * N, |v: &[R; N], out| {
                for (chunk, c) in out.chunks_exact_mut(8).zip(v) {
                    chunk.copy_from_slice(&c.to_f64().to_le_bytes());
                }
            }),
        }
        .map(drop)
    }

    fn packed_ints_or_colors<E: Copy, const N: usize, I>(
        &mut self,
        ty: VariantType,
        items: I,
        encode: fn(&[E; N], &mut [u8]),
    ) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<[E; N]>,
        I::IntoIter: ExactSizeIterator,
    {
        self.leaf(|w| w.put_packed(ty, 0, items, 4 * N, encode).map(drop))
    }

    // ----- typed container heads -----------------------------------------------------------

    fn type_block<'e>(&self, elem: Option<Elem<'e>>) -> Result<(ContainerKind, Block<'e>)> {
        let Some(elem) = elem else {
            return Ok((ContainerKind::None, Block::None));
        };
        Ok(match elem {
            Elem::Builtin(ty) => {
                let id = self
                    .dialect
                    .wire_id(ty)
                    .ok_or_else(|| self.err(ErrorKind::Unsupported(ty)))?;
                (ContainerKind::Builtin, Block::Id(id as u32))
            }
            Elem::RawId(id) => {
                if id >= self.dialect.variant_max() as u32 {
                    let id = id as i32;
                    return Err(self.err(ErrorKind::InvalidContainerType { id }));
                }
                (ContainerKind::Builtin, Block::Id(id))
            }
            Elem::Class(name) if self.full_objects => (ContainerKind::ClassName, Block::Str(name)),
            Elem::Script(path) if self.full_objects => (ContainerKind::Script, Block::Str(path)),
            Elem::Class(_) | Elem::Script(_) => {
                (ContainerKind::ClassName, Block::Str(ENCODED_OBJECT_AS_ID))
            }
        })
    }

    fn put_block(&mut self, block: Block<'_>) -> Result<()> {
        match block {
            Block::None => Ok(()),
            Block::Id(id) => self.u32(id),
            Block::Str(s) => self.str_block(s),
        }
    }

    /// Head of an array: `preferred` is `Array`, `TypedArray` or `PackedTypedArray`.
    fn array_head(&mut self, preferred: VariantType, n: u32, elem: Option<Elem<'_>>) -> Result<()> {
        let d = self.dialect;
        if let Some(elem) = elem {
            let pm = match preferred {
                T::PackedTypedArray => T::PackedTypedArray,
                _ => T::TypedArray,
            };
            if d.supports(pm) {
                return self.pm_typed_head(pm, n, elem);
            }
            if d.has_typed_arrays() {
                let (kind, block) = self.type_block(Some(elem))?;
                self.header(T::Array, Header::with_array_kind(0, kind).0)?;
                self.put_block(block)?;
                return self.u32(n);
            }
        }
        self.header(T::Array, 0)?;
        self.u32(n)
    }

    /// Pandemonium 5 TypedArray / PackedTypedArray head (spec §3.15).
    fn pm_typed_head(&mut self, ty: VariantType, n: u32, elem: Elem<'_>) -> Result<()> {
        let object =
            self.dialect
                .wire_id(T::Object)
                .ok_or_else(|| self.err(ErrorKind::Unsupported(T::Object)))? as u32;
        match elem {
            Elem::Class(name) if self.full_objects => {
                self.header(ty, 0)?;
                self.u32(object)?;
                self.header(T::StringName, 0)?;
                self.str_block(name)?;
            }
            Elem::Builtin(T::Object) | Elem::Class(_) | Elem::Script(_) => {
                self.header(ty, FLAG_OBJECT_AS_ID)?;
                self.u32(object)?;
            }
            Elem::Builtin(t) => {
                let id = self
                    .dialect
                    .wire_id(t)
                    .ok_or_else(|| self.err(ErrorKind::Unsupported(t)))?;
                self.header(ty, 0)?;
                self.u32(id as u32)?;
            }
            Elem::RawId(id) => {
                self.header(ty, 0)?;
                self.u32(id)?;
            }
        }
        self.u32(n)
    }

    fn dict_head(&mut self, n: u32, key: Option<Elem<'_>>, value: Option<Elem<'_>>) -> Result<()> {
        if self.dialect.has_typed_dictionaries() && (key.is_some() || value.is_some()) {
            let (kk, kb) = self.type_block(key)?;
            let (vk, vb) = self.type_block(value)?;
            self.header(T::Dictionary, Header::with_dict_kinds(0, kk, vk).0)?;
            self.put_block(kb)?;
            self.put_block(vb)?;
        } else {
            self.header(T::Dictionary, 0)?;
        }
        self.u32(n)
    }

    // ----- views ---------------------------------------------------------------------------

    /// Writes `start` and everything in it; returns where a `Start::Frame` container ended.
    fn walk<'v>(&mut self, start: Start<'v>) -> Result<Option<Walked<'v>>> {
        let mut stack: [Option<WalkFrame<'v>>; WALK_STACK] = core::array::from_fn(|_| None);
        let mut sp = 0;
        let mut next = None;
        match start {
            Start::Value(v, depth) => next = Some((v, depth)),
            Start::Frame(frame) => {
                stack[0] = Some(frame);
                sp = 1;
            }
        }
        loop {
            if let Some((v, depth)) = next.take() {
                if depth > MAX_DEPTH {
                    return Err(self.err(ErrorKind::TooDeep { limit: MAX_DEPTH }));
                }
                if let Some(iter) = self.put_view_head(&v)? {
                    let frame = WalkFrame {
                        iter,
                        depth: depth + 1,
                    };
                    if sp == WALK_STACK {
                        let walked = self.walk(Start::Frame(frame))?;
                        if let Some(top) = stack[sp - 1].as_mut() {
                            top.iter.resume(walked);
                        }
                    } else {
                        stack[sp] = Some(frame);
                        sp += 1;
                    }
                }
            }
            let Some(top) = sp.checked_sub(1).and_then(|i| stack[i].as_mut()) else {
                return Ok(None);
            };
            match self.next_walk_item(&mut top.iter)? {
                Some(v) => next = Some((v, top.depth)),
                None => {
                    let walked = top.iter.walked();
                    sp -= 1;
                    stack[sp] = None;
                    match sp.checked_sub(1).and_then(|i| stack[i].as_mut()) {
                        Some(parent) => parent.iter.resume(walked),
                        None => return Ok(walked),
                    }
                }
            }
        }
    }

    fn next_walk_item<'v>(&mut self, iter: &mut Walk<'v>) -> Result<Option<VariantRef<'v>>> {
        match iter {
            Walk::Array(it) => it.next().transpose(),
            Walk::Props(it) => match it.next() {
                None => Ok(None),
                Some(prop) => {
                    let (name, v) = prop?;
                    self.str_block(name.raw())?;
                    Ok(Some(v))
                }
            },
        }
    }

    /// Writes a view's header and everything up to its items; returns the items to walk.
    fn put_view_head<'v>(&mut self, v: &VariantRef<'v>) -> Result<Option<Walk<'v>>> {
        use VariantRef as V;
        match *v {
            V::Nil => self.header(T::Nil, 0)?,
            V::Bool(b) => {
                self.header(T::Bool, 0)?;
                self.u32(b as u32)?;
            }
            V::Int(i) => self.put_int(i)?,
            V::Float(f) => self.put_float(f)?,
            V::String(s) => {
                self.header(T::String, 0)?;
                self.str_block(s.raw())?;
            }
            V::StringName(s) => {
                self.header(T::StringName, 0)?;
                self.str_block(s.raw())?;
            }
            V::Vector2(x) => {
                let p = x.precision();
                let x = x.get();
                self.put_reals(T::Vector2, &x, p)?
            }
            V::Rect2(x) => {
                let p = x.precision();
                let x = x.get();
                self.put_reals(T::Rect2, &x, p)?
            }
            V::Vector3(x) => {
                let p = x.precision();
                let x = x.get();
                self.put_reals(T::Vector3, &x, p)?
            }
            V::Transform2D(x) => {
                let p = x.precision();
                let x = x.get();
                self.put_reals(T::Transform2D, &x, p)?
            }
            V::Vector4(x) => {
                let p = x.precision();
                let x = x.get();
                self.put_reals(T::Vector4, &x, p)?
            }
            V::Plane(x) => {
                let p = x.precision();
                let x = x.get();
                self.put_reals(T::Plane, &x, p)?
            }
            V::Quaternion(x) => {
                let p = x.precision();
                let x = x.get();
                self.put_reals(T::Quaternion, &x, p)?
            }
            V::Aabb(x) => {
                let p = x.precision();
                let x = x.get();
                self.put_reals(T::Aabb, &x, p)?
            }
            V::Basis(x) => {
                let p = x.precision();
                let x = x.get();
                self.put_reals(T::Basis, &x, p)?
            }
            V::Transform3D(x) => {
                let p = x.precision();
                let x = x.get();
                self.put_reals(T::Transform3D, &x, p)?
            }
            V::Projection(x) => {
                let p = x.precision();
                let x = x.get();
                self.put_reals(T::Projection, &x, p)?
            }
            V::Vector2i(x) => self.put_ints(T::Vector2i, &[x.x, x.y])?,
            V::Vector3i(x) => self.put_ints(T::Vector3i, &[x.x, x.y, x.z])?,
            V::Vector4i(x) => self.put_ints(T::Vector4i, &[x.x, x.y, x.z, x.w])?,
            V::Rect2i(r) => {
                let c = [r.position.x, r.position.y, r.size.x, r.size.y];
                self.put_ints(T::Rect2i, &c)?
            }
            V::Color(c) => self.put_color(c)?,
            V::NodePath(p) => self.put_node_path_view(&p)?,
            V::Rid(id) => self.put_rid(id.unwrap_or(0))?,
            V::Object(ObjectRef::Id(id)) => self.put_object_id(id)?,
            V::Object(ObjectRef::Null) => self.header(T::Nil, 0)?,
            V::Object(ObjectRef::Full(obj)) => {
                if !self.full_objects {
                    return Err(self.err(ErrorKind::FullObjectsDisabled));
                }
                if obj.class().bytes().is_empty() {
                    return Err(self.err(ErrorKind::EmptyClassName));
                }
                let n = self.count(obj.len())?;
                self.header(T::Object, 0)?;
                self.str_block(obj.class().raw())?;
                self.u32(n)?;
                if n > 0 {
                    return Ok(Some(Walk::Props(obj.properties())));
                }
            }
            V::Callable => self.header(T::Callable, 0)?,
            V::Signal(s) => {
                self.header(T::Signal, 0)?;
                self.str_block(s.name().raw())?;
                self.u64(s.object_id())?;
            }
            V::Dictionary(d) => {
                let n = self.count(d.len())?;
                let key = d.key_type().map(Elem::from_view);
                let value = d.value_type().map(Elem::from_view);
                self.dict_head(n, key, value)?;
                if n > 0 {
                    return Ok(Some(Walk::Array(d.keys_and_values())));
                }
            }
            V::Array(a) => {
                let n = self.count(a.len())?;
                let elem = a.element_type().map(Elem::from_view);
                let preferred = match a.kind() {
                    ArrayKind::Array => T::Array,
                    ArrayKind::TypedArray => T::TypedArray,
                    ArrayKind::PackedTypedArray => T::PackedTypedArray,
                };
                self.array_head(preferred, n, elem)?;
                if n > 0 {
                    return Ok(Some(Walk::Array(a.iter())));
                }
            }
            V::PackedByteArray(p) => {
                self.put_packed_raw(T::PackedByteArray, 0, p.len(), p.as_bytes())?
            }
            V::PackedInt32Array(p) => {
                self.put_packed_raw(T::PackedInt32Array, 0, p.len(), p.as_bytes())?
            }
            V::PackedInt64Array(p) => {
                self.put_packed_raw(T::PackedInt64Array, 0, p.len(), p.as_bytes())?
            }
            V::PackedFloat32Array(p) => {
                self.put_packed_raw(T::PackedFloat32Array, 0, p.len(), p.as_bytes())?
            }
            V::PackedFloat64Array(p) => {
                self.put_packed_raw(T::PackedFloat64Array, 0, p.len(), p.as_bytes())?
            }
            V::PackedColorArray(p) => {
                self.put_packed_raw(T::PackedColorArray, 0, p.len(), p.as_bytes())?
            }
            V::PackedVector2iArray(p) => {
                self.put_packed_raw(T::PackedVector2iArray, 0, p.len(), p.as_bytes())?
            }
            V::PackedVector3iArray(p) => {
                self.put_packed_raw(T::PackedVector3iArray, 0, p.len(), p.as_bytes())?
            }
            V::PackedVector4iArray(p) => {
                self.put_packed_raw(T::PackedVector4iArray, 0, p.len(), p.as_bytes())?
            }
            V::PackedVector2Array(p) => self.put_packed_reals_view(T::PackedVector2Array, &p)?,
            V::PackedVector3Array(p) => self.put_packed_reals_view(T::PackedVector3Array, &p)?,
            V::PackedVector4Array(p) => self.put_packed_reals_view(T::PackedVector4Array, &p)?,
            V::PackedStringArray(s) => {
                let n = self.count(s.len())?;
                self.header(T::PackedStringArray, 0)?;
                self.u32(n)?;
                for item in s.iter() {
                    // Engine bytes carry the NUL in the length; add it where missing.
                    let raw = item.raw();
                    self.packed_string(raw, raw.last() != Some(&0))?;
                }
            }
        }
        Ok(None)
    }

    fn put_node_path_view(&mut self, p: &NodePathRef<'_>) -> Result<()> {
        let names = self.count(p.name_count())?;
        let subnames = self.count(p.subname_count())?;
        // The absolute bit as sent (`is_absolute()` mirrors the engine's decoder, which
        // drops it for a path without names), so engine bytes re-encode unchanged.
        self.node_path_head(names, subnames, p.flags() & 1 != 0)?;
        for part in p.parts().iter() {
            self.str_block(part.raw())?;
        }
        Ok(())
    }

    fn put_packed_reals_view<const N: usize>(
        &mut self,
        ty: VariantType,
        p: &PackedReals<'_, N>,
    ) -> Result<()> {
        let flag64 = self.dialect.math_follows_flag_64();
        match p {
            PackedReals::Single(s) => self.put_packed_raw(ty, 0, s.len(), s.as_bytes()),
            PackedReals::Double(d) if flag64 => {
                self.put_packed_raw(ty, FLAG_64, d.len(), d.as_bytes())
            }
            PackedReals::Double(d) => {
                let items = d.iter();
                self.put_packed_reals::<f64, N, _>(ty, items, Precision::Single)
            }
        }
    }
}

fn put_i32s<const N: usize>(v: &[i32; N], out: &mut [u8]) {
    for (chunk, c) in out.chunks_exact_mut(4).zip(v) {
        chunk.copy_from_slice(&c.to_le_bytes());
    }
}

/// Splits NodePath text like the engine's `NodePath(String)`: (absolute, names part,
/// subnames part), or `None` for an empty subname that is not at the end.
fn split_node_path(path: &str) -> Option<(bool, &str, &str)> {
    let absolute = path.starts_with('/');
    let (names, subnames) = match path.find(':') {
        Some(i) => (&path[..i], &path[i + 1..]),
        None => (path, ""),
    };
    let mut parts = subnames.split(':').peekable();
    while let Some(part) = parts.next() {
        if part.is_empty() && parts.peek().is_some() {
            return None;
        }
    }
    Some((absolute, names, subnames))
}
