//! `Debug` output of container views, without recursion.
//!
//! Formatting item by item through the views would recurse once per nesting level and skip
//! every nested container again (O(n × depth)); a [`Walker`] gives the items in one linear
//! pass instead. Containers nested deeper than [`SHOWN_LEVELS`] below the one printed show
//! as `…`, so the bookkeeping is a small fixed array.
//!
//! The layout itself lives in [`Printer`], which is fed one item at a time, so that any
//! linear walk of a value (the owned `Variant`'s too) prints exactly the same text.

use core::fmt::{self, Write};

use crate::read::array::{ArrayKind, ArrayRef};
use crate::read::dict::DictRef;
use crate::read::items::Items;
use crate::read::object::{FullObjectRef, ObjectRef};
use crate::read::value::VariantRef;
use crate::read::walker::{Event, Walker};

/// Container levels shown; deeper containers print as `Array([…])`, `Dictionary({…})`, ….
const SHOWN_LEVELS: usize = 64;

impl fmt::Debug for ArrayRef<'_> {
    /// `[Int(1), String("a")]`; a typed array is prefixed with its kind and element type
    /// (`Array<Builtin(Int)>[…]`). `{:#?}` puts one item a line. Shows 64 levels of nesting.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        show(f, self.items())
    }
}

impl fmt::Debug for DictRef<'_> {
    /// `{String("a"): Int(1)}`; a typed dictionary is prefixed with its key and value types.
    /// `{:#?}` puts one entry a line. Shows 64 levels of nesting.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        show(f, self.items())
    }
}

impl fmt::Debug for FullObjectRef<'_> {
    /// `"Node" {"name": String("a")}`. Shows 64 levels of nesting.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        show(f, self.items())
    }
}

/// What kind of container a [`Head`] opens.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Shape {
    Array,
    Dictionary,
    Object,
}

/// The head of a container as `Debug` prints it.
pub(crate) enum Head<'h> {
    /// An array: its kind and, if typed, its element type.
    Array(ArrayKind, Option<&'h dyn fmt::Debug>),
    /// A dictionary: its key and value types (`None`: that side is untyped).
    Dictionary(Option<&'h dyn fmt::Debug>, Option<&'h dyn fmt::Debug>),
    /// A full object: its class name.
    Object(&'h dyn fmt::Debug),
}

/// An open container being printed.
#[derive(Clone, Copy)]
struct Level {
    shape: Shape,
    /// Items (dictionary keys and values counted apart) printed so far.
    items: u32,
    close: &'static str,
}

const CLOSED: Level = Level {
    shape: Shape::Array,
    items: 0,
    close: "",
};

/// Prints one container from a linear walk of it: the container's own `Begin`, then its
/// items (`value`, `property`, nested `begin` … `end`), then its `end`.
pub(crate) struct Printer<'f, 'g> {
    f: &'f mut fmt::Formatter<'g>,
    pretty: bool,
    levels: [Level; SHOWN_LEVELS],
    open: usize,
    /// Containers open below the shown levels (their items are skipped).
    hidden: u32,
}

impl<'f, 'g> Printer<'f, 'g> {
    pub(crate) fn new(f: &'f mut fmt::Formatter<'g>) -> Self {
        Printer {
            pretty: f.alternate(),
            f,
            levels: [CLOSED; SHOWN_LEVELS],
            open: 0,
            hidden: 0,
        }
    }

    /// A value that holds no others (printed with its own `Debug`).
    pub(crate) fn value(&mut self, v: &dyn fmt::Debug) -> fmt::Result {
        if self.hidden > 0 {
            return Ok(());
        }
        self.separate()?;
        write!(self.f, "{v:?}")
    }

    /// The name of a full object's next property.
    pub(crate) fn property(&mut self, name: &dyn fmt::Debug) -> fmt::Result {
        if self.hidden > 0 {
            return Ok(());
        }
        self.separate()?;
        write!(self.f, "{name:?}: ")
    }

    /// A container starts.
    pub(crate) fn begin(&mut self, head: Head<'_>) -> fmt::Result {
        if self.hidden > 0 {
            self.hidden += 1;
            return Ok(());
        }
        self.separate()?;
        let level = begin(self.f, head, self.open > 0)?;
        if self.open == SHOWN_LEVELS {
            self.f.write_char('…')?;
            self.f.write_str(level.close)?;
            self.hidden = 1;
        } else {
            self.levels[self.open] = level;
            self.open += 1;
        }
        Ok(())
    }

    /// The innermost open container ends.
    pub(crate) fn end(&mut self) -> fmt::Result {
        if self.hidden > 0 {
            self.hidden -= 1;
            return Ok(());
        }
        let Some(top) = self.open.checked_sub(1) else {
            return Ok(());
        };
        self.open = top;
        end(self.f, &self.levels[top], top, self.pretty)
    }

    /// The walk failed: shows the error and closes what is open, so the output stays
    /// balanced.
    pub(crate) fn fail(&mut self, e: &dyn fmt::Display) -> fmt::Result {
        self.separate()?;
        write!(self.f, "<error: {e}>")?;
        self.hidden = 0;
        self.finish()
    }

    /// Closes whatever is still open.
    pub(crate) fn finish(&mut self) -> fmt::Result {
        while self.open > 0 {
            self.end()?;
        }
        Ok(())
    }

    /// Writes what comes before the next item of the innermost open level.
    fn separate(&mut self) -> fmt::Result {
        let (f, depth, pretty) = (&mut *self.f, self.open, self.pretty);
        let Some(level) = depth
            .checked_sub(1)
            .and_then(|top| self.levels.get_mut(top))
        else {
            return Ok(()); // the printed container itself
        };
        let index = level.items;
        level.items += 1;
        match level.shape {
            // A dictionary value follows its key; an object value follows its property name.
            Shape::Dictionary if index % 2 == 1 => return f.write_str(": "),
            Shape::Object if index % 2 == 1 => return Ok(()),
            _ => {}
        }
        if pretty {
            if index > 0 {
                f.write_char(',')?;
            }
            f.write_char('\n')?;
            indent(f, depth)
        } else if index > 0 {
            f.write_str(", ")
        } else {
            Ok(())
        }
    }
}

fn show(f: &mut fmt::Formatter<'_>, items: &Items<'_>) -> fmt::Result {
    let mut p = Printer::new(f);
    for event in Walker::new(items.dec, items.bytes_from_header()) {
        match event {
            Ok(Event::Value(v)) => p.value(&v)?,
            Ok(Event::Property(name)) => p.property(&name)?,
            Ok(Event::Begin(v)) => match v {
                VariantRef::Array(a) => {
                    p.begin(Head::Array(a.kind(), a.element_type().as_ref().map(dbg)))?
                }
                VariantRef::Dictionary(d) => {
                    let (key, value) = (d.key_type(), d.value_type());
                    p.begin(Head::Dictionary(
                        key.as_ref().map(dbg),
                        value.as_ref().map(dbg),
                    ))?
                }
                VariantRef::Object(ObjectRef::Full(o)) => p.begin(Head::Object(&o.class()))?,
                // The walker begins only the three container kinds.
                other => p.value(&other)?,
            },
            Ok(Event::End) => p.end()?,
            Err(e) => return p.fail(&e),
        }
    }
    p.finish()
}

fn dbg<T: fmt::Debug>(t: &T) -> &dyn fmt::Debug {
    t
}

/// Opens a container; `nested` containers carry their `VariantRef` variant name, as the
/// derived `Debug` of `VariantRef` prints them.
fn begin(f: &mut fmt::Formatter<'_>, head: Head<'_>, nested: bool) -> Result<Level, fmt::Error> {
    let (shape, close) = match head {
        Head::Array(kind, element) => {
            if nested {
                f.write_str("Array(")?;
            }
            if let Some(t) = element {
                write!(f, "{kind:?}<{t:?}>")?;
            }
            f.write_char('[')?;
            (Shape::Array, if nested { "])" } else { "]" })
        }
        Head::Dictionary(key, value) => {
            if nested {
                f.write_str("Dictionary(")?;
            }
            if key.is_some() || value.is_some() {
                write!(f, "<{}, {}>", Typed(key), Typed(value))?;
            }
            f.write_char('{')?;
            (Shape::Dictionary, if nested { "})" } else { "}" })
        }
        Head::Object(class) => {
            if nested {
                f.write_str("Object(Full(")?;
            }
            write!(f, "{class:?} {{")?;
            (Shape::Object, if nested { "}))" } else { "}" })
        }
    };
    Ok(Level {
        shape,
        items: 0,
        close,
    })
}

/// A side of a dictionary's types as `Option<ContainerType>`'s `Debug` prints it.
struct Typed<'h>(Option<&'h dyn fmt::Debug>);

impl fmt::Display for Typed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(t) => write!(f, "Some({t:?})"),
            None => f.write_str("None"),
        }
    }
}

fn end(f: &mut fmt::Formatter<'_>, level: &Level, depth: usize, pretty: bool) -> fmt::Result {
    if pretty && level.items > 0 {
        f.write_str(",\n")?;
        indent(f, depth)?;
    }
    f.write_str(level.close)
}

fn indent(f: &mut fmt::Formatter<'_>, depth: usize) -> fmt::Result {
    (0..depth).try_for_each(|_| f.write_str("    "))
}
