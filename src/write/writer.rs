//! The streaming writer: its state, options and `finish`.

use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result};
use crate::length_prefix::Endian;
use crate::math::Precision;
use crate::write::sink::{IntoSink, Sink};
use crate::write::stack::{OpenContainer, SAVED_FRAMES};

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
/// assert_eq!(dict.get("hp").and_then(|v| v.as_int()), Some(100));
/// # Ok::<(), gdwire::Error>(())
/// ```
pub struct Writer<S: Sink> {
    pub(super) sink: S,
    pub(super) dialect: Dialect,
    pub(super) precision: Precision,
    pub(crate) full_objects: bool,
    pub(super) prefix: Option<Endian>,
    pub(super) start: usize,
    pub(super) prefix_at: usize,
    /// The innermost container that owes items, or the root.
    pub(super) top: OpenContainer,
    /// The enclosing containers that still owe items, `sp` of them. Made when the first one
    /// is saved: a value whose containers never wait on each other (a flat packet) needs
    /// none, and zeroing the slots cost as much as writing such a packet.
    pub(super) stack: Option<[OpenContainer; SAVED_FRAMES]>,
    pub(super) sp: usize,
    /// Saved containers past `stack`, when [`Writer::with_heap_spill`] allows them.
    #[cfg(feature = "alloc")]
    pub(super) spilled: Option<alloc::vec::Vec<OpenContainer>>,
    pub(super) error: Option<Error>,
    /// Where the writer stands in a full object's `script` property, which Godot 4.3+ checks.
    pub(super) script: ScriptCheck,
}

/// The `script` property rule of Godot 4.3+ readers: its value must be nil or a String holding
/// a `res://` path, so the writer refuses anything else rather than emit bytes they reject.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ScriptCheck {
    /// Not at a `script` value.
    Off,
    /// The next value is a `script` property's.
    Value,
    /// The `script` value is a String: its text must be a `res://` path.
    Path,
}

impl<S: Sink> core::fmt::Debug for Writer<S> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Writer")
            .field("dialect", &self.dialect)
            .field("precision", &self.precision)
            .field("full_objects", &self.full_objects)
            .field("prefix", &self.prefix)
            .field("position", &self.position())
            .field("state", &self.state())
            .field("open_containers", &self.open_containers())
            .field("error", &self.error)
            .finish()
    }
}

impl<S: Sink> Writer<S> {
    /// A writer for `dialect` with engine defaults: single precision, objects as ids, no
    /// length prefix. `sink` is any [`Sink`], or `&mut [u8]` / `&mut [u8; N]`.
    ///
    /// ```
    /// use gdwire::{Dialect, Writer};
    /// // Into a fixed buffer: no allocation.
    /// let mut buf = [0u8; 16];
    /// let mut w = Writer::new(&mut buf, Dialect::GODOT_3);
    /// w.bool(true)?;
    /// assert_eq!(w.finish()?, 8);
    /// assert_eq!(buf[..8], [1, 0, 0, 0, 1, 0, 0, 0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
            top: OpenContainer::ROOT,
            stack: None,
            sp: 0,
            #[cfg(feature = "alloc")]
            spilled: None,
            error: None,
            script: ScriptCheck::Off,
        }
    }

    /// Precision of real math types written by the streaming calls. `Double` writes what a
    /// Godot 4 double-precision build writes: header bit 16 and `f64` components for
    /// Vector2/3/4, Rect2, Transform2D, Plane, Quaternion, AABB, Basis, Transform3D,
    /// Projection and PackedVector2/3/4Array; never for Color, PackedColorArray,
    /// PackedFloat32Array or integer vectors. Ignored (always single) in Godot 3 and
    /// Pandemonium dialects. [`Writer::value`] uses each view's own precision instead.
    ///
    /// The bit is set in every Godot 4 dialect: Godot 4.0 and 4.1 double builds write
    /// Vector4 and Projection with `f64` components but without it, bytes they cannot read
    /// back themselves, while they read these components with the bit as every later build.
    ///
    /// ```
    /// use gdwire::{Dialect, Precision, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4).with_precision(Precision::Double);
    /// w.vector2(gdwire::math::Vector2 { x: 1.0, y: 2.0 })?;
    /// w.finish()?;
    /// assert_eq!(out.len(), 4 + 16); // bit 16 set, two f64
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_precision(mut self, precision: Precision) -> Self {
        self.precision = precision;
        self
    }

    /// Full objects (`var_to_bytes_with_objects`, `full_objects = true`): enables
    /// [`Writer::begin_object`] and full-object views in [`Writer::value`], and keeps class
    /// names and script paths of typed containers (otherwise written as
    /// `"EncodedObjectAsID"`, or the object-as-id flag in Pandemonium 5, like the engine).
    ///
    /// ```
    /// use gdwire::{Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// assert!(w.begin_object("Node", 0).is_err()); // objects as ids only, like the engine's default
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4).with_full_objects(true);
    /// w.begin_object("Node", 0)?;
    /// w.finish()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_full_objects(mut self, full: bool) -> Self {
        self.full_objects = full;
        self
    }

    /// Keeps containers that still owe items past the first [`MAX_OPEN_CONTAINERS`] in a
    /// heap `Vec` instead of failing with [`ErrorKind::TooManyOpenContainers`], so the
    /// streaming calls can write any shape up to the nesting limit (the JSON input uses
    /// this). Nothing is allocated until the fixed slots are full. Feature `alloc`.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, Writer};
    /// // 100 nested arrays, each with an Int after the nested one: 100 containers owe items.
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4).with_heap_spill(true);
    /// for _ in 0..100 {
    ///     w.begin_array(2)?;
    /// }
    /// w.nil()?;
    /// for i in 0..100 {
    ///     w.int(i)?;
    /// }
    /// w.finish()?;
    /// assert!(from_bytes(Dialect::GODOT_4, &out).is_ok());
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    ///
    /// [`MAX_OPEN_CONTAINERS`]: crate::write::MAX_OPEN_CONTAINERS
    #[cfg(feature = "alloc")]
    #[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
    pub fn with_heap_spill(mut self, spill: bool) -> Self {
        self.spilled = spill.then(alloc::vec::Vec::new);
        self
    }

    /// The dialect.
    ///
    /// ```
    /// use gdwire::{Dialect, Writer};
    /// let mut out = Vec::new();
    /// assert_eq!(Writer::new(&mut out, Dialect::GODOT_3).dialect(), Dialect::GODOT_3);
    /// ```
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The precision math types are written with by the streaming calls (always single where
    /// the dialect has no 64-bit math flag).
    ///
    /// ```
    /// use gdwire::{Dialect, Precision, Writer};
    /// let mut out = Vec::new();
    /// let w = Writer::new(&mut out, Dialect::GODOT_3).with_precision(Precision::Double);
    /// assert_eq!(w.precision(), Precision::Single); // Godot 3 has no 64-bit math
    /// ```
    pub fn precision(&self) -> Precision {
        self.precision_of(self.precision)
    }

    /// Sets the precision of the math types written next and gives back the previous one
    /// (the serializer writes an owned value's math types in the precision they carry).
    #[cfg(feature = "serde")]
    pub(crate) fn swap_precision(&mut self, p: Precision) -> Precision {
        core::mem::replace(&mut self.precision, p)
    }

    /// What precision `p` becomes in this dialect: single where it has no 64-bit flag.
    pub(crate) fn precision_of(&self, p: Precision) -> Precision {
        if self.dialect.math_follows_flag_64() {
            p
        } else {
            Precision::Single
        }
    }

    /// Bytes written (or, for a full [`crate::SliceSink`], counted) by this writer so far.
    ///
    /// ```
    /// use gdwire::{Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.begin_array(1)?;
    /// assert_eq!(w.position(), 8);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn position(&self) -> usize {
        self.sink.position() - self.start
    }

    /// The sink.
    ///
    /// ```
    /// use gdwire::{Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.nil()?;
    /// assert_eq!(w.sink().len(), 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn sink(&self) -> &S {
        &self.sink
    }

    /// Gives the sink back.
    ///
    /// ```
    /// use gdwire::{Dialect, Writer};
    /// let mut w = Writer::new(Vec::new(), Dialect::GODOT_4);
    /// w.int(1)?;
    /// w.finish()?;
    /// let bytes: Vec<u8> = w.into_sink();
    /// assert_eq!(bytes, [2, 0, 0, 0, 1, 0, 0, 0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn into_sink(self) -> S {
        self.sink
    }

    /// Checks that the value is complete, patches the length prefix and returns the number
    /// of bytes written (prefix included). Fails with [`ErrorKind::MissingItems`] if
    /// containers still owe items (or nothing was written), with
    /// [`ErrorKind::BufferFull`] if a [`crate::SliceSink`] ran out of room (`needed` = the
    /// size of the whole output), or with the writer's earlier error.
    ///
    /// ```
    /// use gdwire::{Dialect, ErrorKind, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.begin_array(2)?;
    /// w.int(1)?;
    /// assert!(matches!(w.finish().unwrap_err().kind(), ErrorKind::MissingItems { .. }));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn finish(&mut self) -> Result<usize> {
        if let Some(e) = self.error {
            return Err(e);
        }
        // Items owed by the innermost container (1 for a missing top-level value).
        if self.top.left > 0 {
            let count = self.top.left;
            return Err(self.err(ErrorKind::MissingItems { count }));
        }
        self.patch_prefix()?;
        self.sink.check()?;
        Ok(self.position())
    }
}
