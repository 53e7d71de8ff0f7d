//! `Debug` output of container views, without recursion.
//!
//! Formatting item by item through the views would recurse once per nesting level and skip
//! every nested container again (O(n × depth)); a [`Walker`] gives the items in one linear
//! pass instead. Containers nested deeper than [`SHOWN_LEVELS`] below the one printed show
//! as `…`, so the bookkeeping is a small fixed array.

use core::fmt::{self, Write};

use crate::read::array::ArrayRef;
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

#[derive(Clone, Copy, PartialEq)]
enum Shape {
    Array,
    Dictionary,
    Object,
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

fn show(f: &mut fmt::Formatter<'_>, items: &Items<'_>) -> fmt::Result {
    let pretty = f.alternate();
    let mut levels = [CLOSED; SHOWN_LEVELS];
    let mut open = 0usize;
    // Containers open below the shown levels (their events are skipped).
    let mut hidden = 0u32;
    for event in Walker::new(items.dec, items.bytes_from_header()) {
        let event = match event {
            Ok(event) => event,
            Err(e) => {
                separate(f, &mut levels, open, pretty)?;
                write!(f, "<error: {e}>")?;
                break;
            }
        };
        if hidden > 0 {
            match event {
                Event::Begin(_) => hidden += 1,
                Event::End => hidden -= 1,
                _ => {}
            }
            continue;
        }
        if !matches!(event, Event::End) {
            separate(f, &mut levels, open, pretty)?;
        }
        match event {
            Event::Value(v) => write!(f, "{v:?}")?,
            Event::Property(name) => write!(f, "{name:?}: ")?,
            Event::Begin(v) => {
                let level = begin(f, &v, open > 0)?;
                if open == SHOWN_LEVELS {
                    f.write_char('…')?;
                    f.write_str(level.close)?;
                    hidden = 1;
                } else {
                    levels[open] = level;
                    open += 1;
                }
            }
            Event::End => {
                let Some(top) = open.checked_sub(1) else {
                    break;
                };
                open = top;
                end(f, &levels[open], open, pretty)?;
            }
        }
    }
    // After an error: close what is open, so the output stays balanced.
    while let Some(top) = open.checked_sub(1) {
        open = top;
        end(f, &levels[open], open, pretty)?;
    }
    Ok(())
}

/// Writes what comes before the next item of the innermost of the `depth` open levels.
fn separate(
    f: &mut fmt::Formatter<'_>,
    levels: &mut [Level],
    depth: usize,
    pretty: bool,
) -> fmt::Result {
    let Some(level) = depth.checked_sub(1).and_then(|top| levels.get_mut(top)) else {
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

/// Opens container `v`; `nested` containers carry their `VariantRef` variant name, as the
/// derived `Debug` of `VariantRef` prints them.
fn begin(
    f: &mut fmt::Formatter<'_>,
    v: &VariantRef<'_>,
    nested: bool,
) -> Result<Level, fmt::Error> {
    let (shape, close) = match v {
        VariantRef::Array(a) => {
            if nested {
                f.write_str("Array(")?;
            }
            if let Some(t) = a.element_type() {
                write!(f, "{:?}<{t:?}>", a.kind())?;
            }
            f.write_char('[')?;
            (Shape::Array, if nested { "])" } else { "]" })
        }
        VariantRef::Dictionary(d) => {
            if nested {
                f.write_str("Dictionary(")?;
            }
            let (key, value) = (d.key_type(), d.value_type());
            if key.is_some() || value.is_some() {
                write!(f, "<{key:?}, {value:?}>")?;
            }
            f.write_char('{')?;
            (Shape::Dictionary, if nested { "})" } else { "}" })
        }
        VariantRef::Object(ObjectRef::Full(o)) => {
            if nested {
                f.write_str("Object(Full(")?;
            }
            write!(f, "{:?} {{", o.class())?;
            (Shape::Object, if nested { "}))" } else { "}" })
        }
        // The walker begins only the three container kinds.
        other => {
            write!(f, "{other:?}")?;
            (Shape::Array, "")
        }
    };
    Ok(Level {
        shape,
        items: 0,
        close,
    })
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
