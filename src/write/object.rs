//! Objects (by id and full), Callable and Signal.

use crate::error::{ErrorKind, Result};
use crate::header::FLAG_OBJECT_AS_ID;
use crate::variant_type::VariantType;
use crate::write::sink::Sink;
use crate::write::writer::Writer;

use VariantType as T;

impl<S: Sink> Writer<S> {
    /// An object by instance id (the engine's default, `full_objects = false`): bit 16 and
    /// the `u64` id. Id 0 (a null object) is written as Nil, like the engine.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.object_id(1234)?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "Object(EncodedObjectAsID,\"object_id\":1234,\"script\":null)\n");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn object_id(&mut self, id: u64) -> Result<()> {
        self.leaf(|w| w.put_object_id(id))
    }

    /// Starts a full object (needs [`Writer::with_full_objects`]): class name and property
    /// count; then write `properties` × ([`Writer::property_name`], value). A class that is empty
    /// as text (empty, starting with NUL, or only a BOM: the engine reads a null object) is
    /// [`ErrorKind::EmptyClassName`]: write a null object with [`Writer::nil`].
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Decoder, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_3).with_full_objects(true);
    /// w.begin_object("Node2D", 1)?;
    /// w.property_name("visible")?;
    /// w.bool(false)?;
    /// w.finish()?;
    /// let v = Decoder::new(Dialect::GODOT_3).with_allow_objects(true).decode_exact(&out)?;
    /// assert_eq!(text::to_text(Dialect::GODOT_3, &v)?, "Object(Node2D,\"visible\":false)\n");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
            w.text_block(class)?;
            w.u32(n)?;
            w.open(depth, n, true)
        })
    }

    /// The name of the next property of the innermost full object. In Godot 4.3+ the value
    /// of a property named `script` must be nil or a String holding a `res://` path (what
    /// those readers and the engine accept), else [`ErrorKind::InvalidScriptProperty`].
    ///
    /// ```
    /// use gdwire::{Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4).with_full_objects(true);
    /// w.begin_object("Resource", 1)?;
    /// assert!(w.int(1).is_err()); // a property name must come first
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn property_name(&mut self, name: &str) -> Result<()> {
        self.guard(|w| {
            w.expect_property()?;
            w.text_block(name)?;
            w.top.need_name = false;
            w.property_named(name.as_bytes());
            Ok(())
        })
    }

    /// A property name from raw bytes, checked for this dialect's reader.
    #[cfg(feature = "serde")]
    pub(crate) fn property_name_bytes(&mut self, name: &[u8]) -> Result<()> {
        self.guard(|w| {
            w.expect_property()?;
            w.str_block(name)?;
            w.top.need_name = false;
            w.property_named(name);
            Ok(())
        })
    }

    /// A Callable (Godot 4): the engine sends the header only and decodes an empty Callable.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.callable()?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "Callable()");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn callable(&mut self) -> Result<()> {
        self.leaf(|w| w.header(T::Callable, 0))
    }

    /// A Signal (Godot 4): name and object id.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.signal("hit", 1234)?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "Signal()");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn signal(&mut self, name: &str, object_id: u64) -> Result<()> {
        self.leaf(|w| {
            w.header(T::Signal, 0)?;
            w.text_block(name)?;
            w.u64(object_id)
        })
    }

    /// A Signal whose name is raw bytes, checked for this dialect's reader.
    #[cfg(any(feature = "json", feature = "serde"))]
    pub(crate) fn signal_bytes(&mut self, name: &[u8], object_id: u64) -> Result<()> {
        self.leaf(|w| {
            w.header(T::Signal, 0)?;
            w.str_block(name)?;
            w.u64(object_id)
        })
    }

    pub(crate) fn put_object_id(&mut self, id: u64) -> Result<()> {
        if id == 0 {
            return self.header(T::Nil, 0);
        }
        self.header_u64(T::Object, FLAG_OBJECT_AS_ID, id)
    }
}
