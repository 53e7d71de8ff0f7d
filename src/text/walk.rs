//! The traversal shared by every engine's writer: containers, separators, dictionary entries
//! in the engine's order, and objects.
//!
//! Open containers live on a heap stack, one small frame per nesting level, so that deep
//! values cost heap, not call stack: the writer's stack use does not depend on the value.

use alloc::vec::{IntoIter, Vec};
use core::fmt::Write;

use crate::read::{ArrayIter, ArrayRef, DictRef, ObjectRef, PropertyIter, VariantRef};
use crate::text::check_depth;
use crate::text::escape::write_plain;
use crate::text::format::{Format, Res};
use crate::text::leaf::write_leaf;
use crate::text::order::{rules_for, Keys};

/// A container that is being written: what is left of it.
enum Frame<'a> {
    Array {
        array: ArrayRef<'a>,
        items: ArrayIter<'a>,
        first: bool,
    },
    Dictionary {
        dict: DictRef<'a>,
        entries: IntoIter<(VariantRef<'a>, VariantRef<'a>)>,
        /// The value of the entry whose key was just written.
        value: Option<VariantRef<'a>>,
        first: bool,
    },
    Object {
        properties: PropertyIter<'a>,
        first: bool,
    },
}

/// Writes `root` in `f`'s text form.
pub(crate) fn write<W: Write, F: Format>(out: &mut W, f: &F, root: &VariantRef<'_>) -> Res {
    let keys = Keys::new(f.dialect(), rules_for(f.dialect()));
    let mut stack = Vec::new();
    let mut next = Some(*root);
    loop {
        if let Some(v) = next.take() {
            // A value's depth is the number of containers around it.
            let depth = stack.len() as u32;
            check_depth(depth)?;
            if let Some(frame) = open(out, f, &keys, &v, depth)? {
                stack.push(frame);
            }
        }
        let Some(top) = stack.last_mut() else {
            return Ok(());
        };
        next = match top {
            Frame::Array {
                array,
                items,
                first,
            } => match items.next() {
                Some(item) => {
                    separate(out, first, ", ")?;
                    Some(item?)
                }
                None => {
                    f.close_array(out, array)?;
                    None
                }
            },
            Frame::Dictionary {
                dict,
                entries,
                value,
                first,
            } => {
                if let Some(v) = value.take() {
                    out.write_str(": ")?;
                    Some(v)
                } else if let Some((k, v)) = entries.next() {
                    separate(out, first, ",\n")?;
                    *value = Some(v);
                    Some(k)
                } else {
                    out.write_str("\n}")?;
                    f.close_dictionary(out, dict)?;
                    None
                }
            }
            Frame::Object { properties, first } => match properties.next() {
                Some(property) => {
                    let (name, v) = property?;
                    out.write_str(if *first { "\"" } else { ",\"" })?;
                    *first = false;
                    write_plain(out, name)?;
                    out.write_str("\":")?;
                    Some(v)
                }
                None => {
                    out.write_str(")\n")?;
                    None
                }
            },
        };
        if next.is_none() {
            // Hand a walked array back to its parent array, which then does not skip it again
            // (keeps deep arrays linear; dictionaries are collected for ordering first).
            let walked = match stack.pop() {
                Some(Frame::Array { items, .. }) => items.walked(),
                _ => None,
            };
            if let (Some(Frame::Array { items, .. }), Some(w)) = (stack.last_mut(), walked) {
                items.resume(w);
            }
        }
    }
}

fn separate<W: Write>(out: &mut W, first: &mut bool, separator: &str) -> Res {
    if !*first {
        out.write_str(separator)?;
    }
    *first = false;
    Ok(())
}

/// Writes a value up to its first child; a container with children to come becomes a frame.
fn open<'a, W: Write, F: Format>(
    out: &mut W,
    f: &F,
    keys: &Keys,
    v: &VariantRef<'a>,
    depth: u32,
) -> Result<Option<Frame<'a>>, crate::text::TextError> {
    Ok(Some(match v {
        VariantRef::Array(array) => {
            f.open_array(out, array)?;
            Frame::Array {
                array: *array,
                items: array.iter(),
                first: true,
            }
        }
        VariantRef::Dictionary(dict) => {
            f.open_dictionary(out, dict)?;
            let entries = keys.entries(dict, depth)?;
            if entries.is_empty() {
                out.write_str(f.empty_dictionary())?;
                f.close_dictionary(out, dict)?;
                return Ok(None);
            }
            out.write_str("{\n")?;
            Frame::Dictionary {
                dict: *dict,
                entries: entries.into_iter(),
                value: None,
                first: true,
            }
        }
        VariantRef::Object(o) => match o {
            ObjectRef::Id(0) | ObjectRef::Null => {
                out.write_str("null")?;
                return Ok(None);
            }
            // An id-form object decodes to an `EncodedObjectAsID`, whose stored properties
            // are its `object_id` and the `script` every object has.
            ObjectRef::Id(id) => {
                writeln!(
                    out,
                    "Object(EncodedObjectAsID,\"object_id\":{},\"script\":null)",
                    *id as i64
                )?;
                return Ok(None);
            }
            // Printed with the properties the bytes carry; the engine prints those of the
            // instance it created, which are the same unless a script adds non-exported
            // variables (see docs/text.md).
            ObjectRef::Full(full) => {
                out.write_str("Object(")?;
                write_plain(out, full.class())?;
                out.write_str(",")?;
                Frame::Object {
                    properties: full.properties(),
                    first: true,
                }
            }
        },
        leaf => {
            write_leaf(out, f, leaf)?;
            return Ok(None);
        }
    }))
}
