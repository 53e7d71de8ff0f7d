//! Object and Signal views. Objects are never instantiated: a full object is its class name
//! and a lazy list of (property name, value) pairs.

use crate::error::{Error, ErrorKind, Expected, Result};
use crate::read::decoder::Decoder;
use crate::read::head::read_head;
use crate::read::input::{need_u32, string_block};
use crate::read::items::Items;
use crate::read::seq::Seq;
use crate::read::text::StrRef;
use crate::read::value::VariantRef;
use crate::read::walked::Walked;

/// An Object value.
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
    pub fn is_null(&self) -> bool {
        matches!(self, ObjectRef::Id(0) | ObjectRef::Null)
    }
}

/// A full object: class name and its `PROPERTY_USAGE_STORAGE` properties in order.
///
/// The class is not checked against any class list and nothing is instantiated.
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

    /// The class name (e.g. `"Node"`).
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
    pub fn len(&self) -> usize {
        self.props.count as usize
    }

    /// True when no properties were sent.
    pub fn is_empty(&self) -> bool {
        self.props.count == 0
    }

    /// Iterates `(name, value)` pairs.
    pub fn properties(&self) -> PropertyIter<'a> {
        PropertyIter {
            props: self.props.seq(),
        }
    }
}

/// Iterator over a full object's properties.
#[derive(Clone)]
pub struct PropertyIter<'a> {
    props: Seq<'a>,
}

impl<'a> Iterator for PropertyIter<'a> {
    type Item = Result<(StrRef<'a>, VariantRef<'a>)>;

    fn next(&mut self) -> Option<Self::Item> {
        self.props.next_property()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.props.left() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for PropertyIter<'_> {}

impl<'a> PropertyIter<'a> {
    /// Once every property has been taken: where the object ends, for the parent iterator's
    /// `resume` (see [`Walked`]). `None` while items remain or after an error. If the last
    /// property is a container that was not handed back itself, this skips over it.
    pub fn walked(&self) -> Option<Walked<'a>> {
        self.props.walked()
    }

    /// Continues after the container this iterator handed out last, which `child` says has
    /// been walked to its end, instead of skipping it again; `false` (and no change) if
    /// `child` is not that container.
    pub fn resume(&mut self, child: Walked<'a>) -> bool {
        self.props.resume(child)
    }
}

/// A Signal (Godot 4): signal name and the emitting object's id.
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
    pub fn name(&self) -> StrRef<'a> {
        self.name
    }

    /// The object's instance id.
    pub fn object_id(&self) -> u64 {
        self.object_id
    }
}

/// Godot 4.4+ checks a full object's `script` property while decoding it: nil, or a String
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
