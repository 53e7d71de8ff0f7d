//! Object and Signal views. Objects are never instantiated: a full object is its class name
//! and a lazy list of (property name, value) pairs.

use crate::error::{Error, ErrorKind, Expected, Result};
use crate::read::decoder::Decoder;
use crate::read::head::read_head;
use crate::read::input::need_u32;
use crate::read::items::Items;
use crate::read::seq::Seq;
use crate::read::str_ref::{string_block, StrRef};
use crate::read::value::VariantRef;
use crate::read::walked::Walked;

/// An Object value.
///
/// ```
/// use gdwire::{from_bytes, Dialect, ObjectRef};
/// let bytes = [17, 0, 1, 0, 42, 0, 0, 0, 0, 0, 0, 0]; // Godot 3 object sent as id 42
/// assert_eq!(from_bytes(Dialect::GODOT_3, &bytes)?.as_object(), Some(ObjectRef::Id(42)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ObjectRef<'a> {
    /// Sent as an instance id (the default `full_objects = false`). The engine decodes it as an
    /// `EncodedObjectAsID`, or a null object when the id is 0. Treat the id as opaque: Godot 4
    /// sets bit 63 for RefCounted objects.
    Id(u64),
    /// A full object with an empty class name: the engine decodes a null object. (The engine
    /// writes null objects as Nil; it never produces this form, but accepts it.)
    Null,
    /// A full object: class name and stored properties (only with `allow_objects`).
    Full(FullObjectRef<'a>),
}

impl ObjectRef<'_> {
    /// True for id 0 and for the empty-class form: the engine decodes both as a null object.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// // A full object with an empty class name: the engine reads a null object.
    /// let bytes = [17, 0, 0, 0, 0, 0, 0, 0];
    /// let v = gdwire::Decoder::new(Dialect::GODOT_3).with_allow_objects(true).decode(&bytes)?;
    /// assert!(v.as_object().unwrap().is_null());
    /// assert!(from_bytes(Dialect::GODOT_3, &[17, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0])?.as_object().unwrap().is_null()); // id 0
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_null(&self) -> bool {
        matches!(self, ObjectRef::Id(0) | ObjectRef::Null)
    }
}

/// A full object: class name and its `PROPERTY_USAGE_STORAGE` properties in order.
///
/// The class is not checked against any class list and nothing is instantiated.
///
/// ```
/// use gdwire::{Decoder, Dialect, ObjectRef};
/// let bytes = [17, 0, 0, 0, 4, 0, 0, 0, b'N', b'o', b'd', b'e', 0, 0, 0, 0]; // Node, no properties
/// let v = Decoder::new(Dialect::GODOT_3).with_allow_objects(true).decode(&bytes)?;
/// let Some(ObjectRef::Full(node)) = v.as_object() else { unreachable!() };
/// assert_eq!((node.class().as_str(), node.len()), (Some("Node"), 0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct FullObjectRef<'a> {
    props: Items<'a>,
}

impl<'a> FullObjectRef<'a> {
    pub(crate) fn new(props: Items<'a>) -> Self {
        FullObjectRef { props }
    }

    pub(crate) fn items(&self) -> &Items<'a> {
        &self.props
    }

    pub(crate) fn items_mut(&mut self) -> &mut Items<'a> {
        &mut self.props
    }

    /// The class name (e.g. `"Node"`).
    ///
    /// ```
    /// use gdwire::{Decoder, Dialect, ObjectRef};
    /// // A full Godot 3 object: class "Node", one property "visible" = false.
    /// let bytes = [17, 0, 0, 0, 4, 0, 0, 0, b'N', b'o', b'd', b'e', 1, 0, 0, 0,
    ///     7, 0, 0, 0, b'v', b'i', b's', b'i', b'b', b'l', b'e', 0, 1, 0, 0, 0, 0, 0, 0, 0];
    /// let v = Decoder::new(Dialect::GODOT_3).with_allow_objects(true).decode(&bytes)?;
    /// let Some(ObjectRef::Full(object)) = v.as_object() else { unreachable!() };
    /// assert_eq!(object.class(), "Node");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn class(&self) -> StrRef<'a> {
        // Re-read from the header: it was read (and checked) when this view was made.
        let Items {
            data, dec, header, ..
        } = self.props;
        let rules = dec.dialect().text_rules();
        match string_block(data, header + 4, rules, false) {
            Ok((class, _)) => class,
            Err(_) => StrRef::new(&[], rules),
        }
    }

    /// Number of properties.
    ///
    /// ```
    /// use gdwire::{Decoder, Dialect, ObjectRef};
    /// // A full Godot 3 object: class "Node", one property "visible" = false.
    /// let bytes = [17, 0, 0, 0, 4, 0, 0, 0, b'N', b'o', b'd', b'e', 1, 0, 0, 0,
    ///     7, 0, 0, 0, b'v', b'i', b's', b'i', b'b', b'l', b'e', 0, 1, 0, 0, 0, 0, 0, 0, 0];
    /// let v = Decoder::new(Dialect::GODOT_3).with_allow_objects(true).decode(&bytes)?;
    /// let Some(ObjectRef::Full(object)) = v.as_object() else { unreachable!() };
    /// assert_eq!(object.len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn len(&self) -> usize {
        self.props.count as usize
    }

    /// True when no properties were sent.
    ///
    /// ```
    /// use gdwire::{Decoder, Dialect, ObjectRef};
    /// // A full Godot 3 object: class "Node", one property "visible" = false.
    /// let bytes = [17, 0, 0, 0, 4, 0, 0, 0, b'N', b'o', b'd', b'e', 1, 0, 0, 0,
    ///     7, 0, 0, 0, b'v', b'i', b's', b'i', b'b', b'l', b'e', 0, 1, 0, 0, 0, 0, 0, 0, 0];
    /// let v = Decoder::new(Dialect::GODOT_3).with_allow_objects(true).decode(&bytes)?;
    /// let Some(ObjectRef::Full(object)) = v.as_object() else { unreachable!() };
    /// assert!(!object.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.props.count == 0
    }

    /// Iterates `(name, value)` pairs (infallible on a validated view, see
    /// [`ArrayRef`](crate::ArrayRef)).
    ///
    /// ```
    /// use gdwire::{Decoder, Dialect, ObjectRef};
    /// // A full Godot 3 object: class "Node", one property "visible" = false.
    /// let bytes = [17, 0, 0, 0, 4, 0, 0, 0, b'N', b'o', b'd', b'e', 1, 0, 0, 0,
    ///     7, 0, 0, 0, b'v', b'i', b's', b'i', b'b', b'l', b'e', 0, 1, 0, 0, 0, 0, 0, 0, 0];
    /// let v = Decoder::new(Dialect::GODOT_3).with_allow_objects(true).decode(&bytes)?;
    /// let Some(ObjectRef::Full(object)) = v.as_object() else { unreachable!() };
    /// let (name, value) = object.properties().next().unwrap();
    /// assert_eq!((name.as_str(), value.as_bool()), (Some("visible"), Some(false)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn properties(&self) -> PropertyIter<'a> {
        PropertyIter {
            props: self.props.seq(),
        }
    }

    /// Iterates `(name, value)` pairs with an error at malformed bytes, for a walker's
    /// `Event::Begin` view, which is not validated yet.
    ///
    /// ```
    /// use gdwire::{Decoder, Dialect, ObjectRef};
    /// // A full Godot 3 object: class "Node", one property "visible" = false.
    /// let bytes = [17, 0, 0, 0, 4, 0, 0, 0, b'N', b'o', b'd', b'e', 1, 0, 0, 0,
    ///     7, 0, 0, 0, b'v', b'i', b's', b'i', b'b', b'l', b'e', 0, 1, 0, 0, 0, 0, 0, 0, 0];
    /// let v = Decoder::new(Dialect::GODOT_3).with_allow_objects(true).decode(&bytes)?;
    /// let Some(ObjectRef::Full(object)) = v.as_object() else { unreachable!() };
    /// let (name, _) = object.try_properties().next().unwrap()?;
    /// assert_eq!(name, "visible");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn try_properties(&self) -> PropertyTryIter<'a> {
        PropertyTryIter {
            props: self.props.seq(),
        }
    }
}

/// Iterator over a full object's properties, reporting malformed bytes
/// ([`FullObjectRef::try_properties`]).
///
/// ```
/// use gdwire::{Decoder, Dialect, ObjectRef};
/// let bytes = [17, 0, 0, 0, 4, 0, 0, 0, b'N', b'o', b'd', b'e', 0, 0, 0, 0]; // Node, no properties
/// let v = Decoder::new(Dialect::GODOT_3).with_allow_objects(true).decode(&bytes)?;
/// let Some(ObjectRef::Full(node)) = v.as_object() else { unreachable!() };
/// assert_eq!(node.try_properties().count(), 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct PropertyTryIter<'a> {
    props: Seq<'a>,
}

impl<'a> PropertyTryIter<'a> {
    /// As the infallible iterator's `walked` (see [`Walked`](crate::read::Walked)).
    ///
    /// ```
    /// use gdwire::{Decoder, Dialect, ObjectRef};
    /// let bytes = [17, 0, 0, 0, 4, 0, 0, 0, b'N', b'o', b'd', b'e', 0, 0, 0, 0];
    /// let v = Decoder::new(Dialect::GODOT_3).with_allow_objects(true).decode(&bytes)?;
    /// let Some(ObjectRef::Full(node)) = v.as_object() else { unreachable!() };
    /// let mut properties = node.try_properties();
    /// assert!(properties.next().is_none());
    /// assert!(properties.walked().is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn walked(&self) -> Option<crate::read::Walked<'a>> {
        self.props.walked()
    }

    /// As the infallible iterator's `resume` (see [`Walked`](crate::read::Walked)).
    ///
    /// ```
    /// use gdwire::{Decoder, Dialect, ObjectRef};
    /// let bytes = [17, 0, 0, 0, 4, 0, 0, 0, b'N', b'o', b'd', b'e', 1, 0, 0, 0, 1, 0, 0, 0, b'a', 0, 0, 0,
    ///     19, 0, 0, 0, 0, 0, 0, 0];
    /// let v = Decoder::new(Dialect::GODOT_3).with_allow_objects(true).decode(&bytes)?;
    /// let Some(ObjectRef::Full(node)) = v.as_object() else { unreachable!() };
    /// let mut properties = node.try_properties();
    /// let (_, value) = properties.next().unwrap()?;
    /// let inner = value.as_array().unwrap().iter();
    /// assert!(properties.resume(inner.walked().unwrap()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resume(&mut self, child: crate::read::Walked<'a>) -> bool {
        self.props.resume(child)
    }
}

impl<'a> Iterator for PropertyTryIter<'a> {
    type Item = Result<(StrRef<'a>, VariantRef<'a>)>;

    fn next(&mut self) -> Option<Self::Item> {
        self.props.next_property()
    }
}

/// Iterator over a full object's properties.
///
/// ```
/// use gdwire::{Decoder, Dialect, ObjectRef};
/// let bytes = [17, 0, 0, 0, 4, 0, 0, 0, b'N', b'o', b'd', b'e', 1, 0, 0, 0,
///     1, 0, 0, 0, b'a', 0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0];
/// let v = Decoder::new(Dialect::GODOT_3).with_allow_objects(true).decode(&bytes)?;
/// let Some(ObjectRef::Full(node)) = v.as_object() else { unreachable!() };
/// for (name, value) in node.properties() {
///     assert_eq!((name.as_str(), value.as_int()), (Some("a"), Some(5)));
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct PropertyIter<'a> {
    props: Seq<'a>,
}

impl<'a> Iterator for PropertyIter<'a> {
    type Item = (StrRef<'a>, VariantRef<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        self.props.next_property()?.ok()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.props.left() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for PropertyIter<'_> {}

impl<'a> PropertyIter<'a> {
    /// The next property or the error at malformed bytes (see `ArrayIter::try_next`).
    #[cfg(feature = "alloc")]
    pub(crate) fn try_next(&mut self) -> Option<Result<(StrRef<'a>, VariantRef<'a>)>> {
        self.props.next_property()
    }

    /// Once every property has been taken: where the object ends, for the parent iterator's
    /// `resume` (see [`Walked`]). `None` while items remain or after an error. If the last
    /// property is a container that was not handed back itself, this skips over it.
    ///
    /// ```
    /// use gdwire::{Decoder, Dialect, ObjectRef};
    /// let bytes = [17, 0, 0, 0, 4, 0, 0, 0, b'N', b'o', b'd', b'e', 1, 0, 0, 0,
    ///     7, 0, 0, 0, b'v', b'i', b's', b'i', b'b', b'l', b'e', 0, 1, 0, 0, 0, 0, 0, 0, 0];
    /// let v = Decoder::new(Dialect::GODOT_3).with_allow_objects(true).decode(&bytes)?;
    /// let Some(ObjectRef::Full(object)) = v.as_object() else { unreachable!() };
    /// let mut properties = object.properties();
    /// properties.by_ref().for_each(drop);
    /// assert!(properties.walked().is_some()); // every property taken
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn walked(&self) -> Option<Walked<'a>> {
        self.props.walked()
    }

    /// Continues after the container this iterator handed out last, which `child` says has
    /// been walked to its end, instead of skipping it again; `false` (and no change) if
    /// `child` is not that container.
    ///
    /// ```
    /// use gdwire::{Decoder, Dialect, ObjectRef, VariantRef};
    /// // Object "Node" with one property "a" = [1].
    /// let bytes = [17, 0, 0, 0, 4, 0, 0, 0, b'N', b'o', b'd', b'e', 1, 0, 0, 0, 1, 0, 0, 0, b'a', 0, 0, 0,
    ///     19, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0];
    /// let v = Decoder::new(Dialect::GODOT_3).with_allow_objects(true).decode(&bytes)?;
    /// let Some(ObjectRef::Full(object)) = v.as_object() else { unreachable!() };
    /// let mut properties = object.properties();
    /// let (_, value) = properties.next().unwrap();
    /// let mut inner = value.as_array().unwrap().iter();
    /// assert_eq!(inner.next(), Some(VariantRef::Int(1)));
    /// assert!(properties.resume(inner.walked().unwrap()));
    /// assert!(properties.next().is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resume(&mut self, child: Walked<'a>) -> bool {
        self.props.resume(child)
    }
}

/// A Signal (Godot 4): signal name and the emitting object's id.
///
/// ```
/// use gdwire::{from_bytes, Dialect, VariantRef};
/// let bytes = [26, 0, 0, 0, 2, 0, 0, 0, b'o', b'k', 0, 0, 1, 0, 0, 0, 0, 0, 0, 0];
/// let VariantRef::Signal(s) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
/// assert_eq!((s.name().as_str(), s.object_id()), (Some("ok"), 1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SignalRef<'a> {
    name: StrRef<'a>,
    object_id: u64,
}

impl<'a> SignalRef<'a> {
    pub(crate) fn new(name: StrRef<'a>, object_id: u64) -> Self {
        SignalRef { name, object_id }
    }

    /// The signal's name.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // Signal: name "hit", object id 7 (Godot 4).
    /// let bytes = [26, 0, 0, 0, 3, 0, 0, 0, b'h', b'i', b't', 0, 7, 0, 0, 0, 0, 0, 0, 0];
    /// let VariantRef::Signal(signal) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
    /// assert_eq!(signal.name(), "hit");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn name(&self) -> StrRef<'a> {
        self.name
    }

    /// The object's instance id.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // Signal: name "hit", object id 7 (Godot 4).
    /// let bytes = [26, 0, 0, 0, 3, 0, 0, 0, b'h', b'i', b't', 0, 7, 0, 0, 0, 0, 0, 0, 0];
    /// let VariantRef::Signal(signal) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
    /// assert_eq!(signal.object_id(), 7);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn object_id(&self) -> u64 {
        self.object_id
    }
}

/// Godot 4.3+ checks a full object's `script` property while decoding it: nil, or a String
/// holding a `res://` path (which the engine then loads; loading is out of scope here). Called
/// with the property `name` and the position of its value; errors of the value itself come
/// first, as in the engine. A container value is rejected from its head alone, so this never
/// recurses.
pub(crate) fn check_script_property(
    dec: &Decoder,
    data: &[u8],
    name: StrRef<'_>,
    pos: usize,
    depth: u32,
    validate: bool,
) -> Result<()> {
    if !dec.dialect().checks_script_property() || name.bytes() != b"script" {
        return Ok(());
    }
    let header = need_u32(data, pos, Expected::Header)?;
    let bad = Error::new(ErrorKind::InvalidScriptProperty, pos);
    match dec.dialect().type_of((header & 0xff) as u8) {
        Some(crate::VariantType::Nil) => Ok(()),
        Some(crate::VariantType::String) => {
            let rules = dec.dialect().text_rules();
            let (path, _) = string_block(data, pos + 4, rules, validate)?;
            if path.bytes().starts_with(b"res://") {
                Ok(())
            } else {
                Err(bad)
            }
        }
        _ => {
            read_head(dec, data, pos, depth, validate)?;
            Err(bad)
        }
    }
}
