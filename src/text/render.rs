//! The traversal shared by every engine's writer: containers, separators, dictionary entries
//! in the engine's order, and objects.
//!
//! Open containers live on a heap stack, one small frame per nesting level, so that deep
//! values cost heap, not call stack: the writer's stack use does not depend on the value.
//!
//! No container is skipped twice, so writing costs O(n) plus the dictionaries' sorts
//! (O(k log k) key comparisons each), whatever the nesting. Arrays and objects are written
//! in wire order, and a walked child is handed back to its parent's iterator (`resume`).
//! Dictionaries are written out of wire order (sorted) and their keys compared, so an
//! outermost dictionary first has the ends of all containers inside it recorded, in one
//! linear pass ([`Ends`](crate::text::ends::Ends)); inside it, every container item is moved
//! past through its recorded end.

use alloc::vec::Vec;
use core::fmt::Write;

use crate::read::{ArrayRef, DictRef, ObjectRef, VariantRef, Walked};
use crate::text::check_depth;
use crate::text::ends::{Ends, Items, Iter, Node};
use crate::text::escape::write_plain;
use crate::text::format::{Format, Res};
use crate::text::leaf::write_leaf;
use crate::text::order::{Entry, Keys};

/// A container that is being written: what is left of it.
enum Open<'a> {
    Array {
        array: ArrayRef<'a>,
        items: Items<'a>,
        first: bool,
    },
    Dictionary {
        dict: DictRef<'a>,
        /// Its number in the table of ends.
        id: Option<usize>,
        /// Its entries are `pending.entries[start..]`, to be written in the order of
        /// `pending.order[from..]` (above them, those of dictionaries inside it while they
        /// are written); `next` is the next position in `pending.order`.
        start: usize,
        from: usize,
        next: usize,
        /// The value of the entry whose key was just written is due.
        value_due: bool,
        first: bool,
    },
    Object {
        properties: Items<'a>,
        first: bool,
    },
}

/// The entries of the dictionaries being written, innermost last.
struct Pending<'a> {
    entries: Vec<Entry<'a>>,
    /// Positions in `entries`, in print order.
    order: Vec<usize>,
}

impl<'a> Pending<'a> {
    fn at(&self, position: usize) -> Option<&Entry<'a>> {
        self.entries.get(*self.order.get(position)?)
    }
}

/// Writes `root` in `f`'s text form.
pub(crate) fn write<W: Write, F: Format>(out: &mut W, f: &F, root: &VariantRef<'_>) -> Res {
    let mut keys = Keys::new(f.dialect());
    let mut pending = Pending {
        entries: Vec::new(),
        order: Vec::new(),
    };
    let mut stack: Vec<Open<'_>> = Vec::new();
    // Object frames on the stack (Godot 4.0 and 4.1 leave them out of the depth limit).
    let mut objects_open = 0u32;
    let mut next = Some(Node { v: *root, id: None });
    loop {
        if let Some(v) = next.take() {
            // A value's depth is the number of containers around it.
            let depth = stack.len() as u32;
            check_depth(depth)?;
            // Godot 4.0's and 4.1's writers count only arrays and dictionaries towards the limit.
            let depth = match f.objects_count_for_depth() {
                true => depth,
                false => depth.saturating_sub(objects_open),
            };
            if let Some(frame) = open(out, f, &mut keys, &mut pending, &v, depth)? {
                objects_open += u32::from(matches!(frame, Open::Object { .. }));
                stack.push(frame);
            }
        }
        let Some(top) = stack.last_mut() else {
            return Ok(());
        };
        next = match top {
            Open::Array {
                array,
                items,
                first,
            } => match items.next(&keys.ends) {
                Some(item) => {
                    separate(out, first, ", ")?;
                    Some(item?)
                }
                None => {
                    f.close_array(out, array)?;
                    None
                }
            },
            Open::Dictionary {
                dict,
                id: _,
                start,
                from,
                next,
                value_due,
                first,
            } => {
                let due = next.checked_sub(1).filter(|_| *value_due);
                if let Some(e) = due.and_then(|at| pending.at(at)) {
                    *value_due = false;
                    out.write_str(": ")?;
                    Some(e.value)
                } else if let Some(e) = pending.at(*next) {
                    *next += 1;
                    *value_due = true;
                    separate(out, first, ",\n")?;
                    Some(e.key)
                } else {
                    pending.entries.truncate(*start);
                    pending.order.truncate(*from);
                    out.write_str("\n}")?;
                    f.close_dictionary(out, dict)?;
                    None
                }
            }
            Open::Object { properties, first } => loop {
                match properties.next_named(&keys.ends) {
                    Some(property) => {
                        let (name, v) = property?;
                        out.write_str(if *first { "\"" } else { ",\"" })?;
                        *first = false;
                        if let Some(name) = name {
                            write_plain(out, name)?;
                        }
                        out.write_str("\":")?;
                        // Godot 4.3+ sends the script as its path and loads it: the engine
                        // prints the loaded Script resource.
                        let script = name.is_some_and(|n| n.bytes() == b"script")
                            && f.dialect().checks_script_property();
                        if let (true, VariantRef::String(_)) = (script, &v.v) {
                            out.write_str("Resource(")?;
                            write_leaf(out, f, &v.v)?;
                            out.write_str(")")?;
                            continue;
                        }
                        break Some(v);
                    }
                    None => {
                        out.write_str(")\n")?;
                        break None;
                    }
                }
            },
        };
        if next.is_none() {
            // The top container is written. A parent outside any table of ends learns where
            // it ends from it (a frame is not moved out to ask).
            let n = stack.len();
            let hand_back = n >= 2 && stack.get(n - 2).is_some_and(Open::hands_back);
            let end = match hand_back {
                true => stack.last().and_then(|done| done.end(&keys.ends)),
                false => None,
            };
            if stack
                .last()
                .is_some_and(|o| matches!(o, Open::Object { .. }))
            {
                objects_open = objects_open.saturating_sub(1);
            }
            stack.truncate(n.saturating_sub(1));
            if let (Some(parent), Some(end)) = (stack.last_mut(), end) {
                parent.resume(end);
            }
        }
    }
}

impl<'a> Open<'a> {
    /// True when a written child must be handed back to this frame's iterator.
    fn hands_back(&self) -> bool {
        match self {
            Open::Array { items, .. }
            | Open::Object {
                properties: items, ..
            } => items.hands_back(),
            // Entries are collected before they are written.
            Open::Dictionary { .. } => false,
        }
    }

    /// Where the written container ends.
    fn end(&self, ends: &Ends<'a>) -> Option<Walked<'a>> {
        match self {
            Open::Array { items, .. }
            | Open::Object {
                properties: items, ..
            } => items.walked(),
            Open::Dictionary { id, .. } => id.and_then(|id| ends.end(id)),
        }
    }

    fn resume(&mut self, end: Walked<'a>) {
        if let Open::Array { items, .. }
        | Open::Object {
            properties: items, ..
        } = self
        {
            items.resume(end);
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
    keys: &mut Keys<'a>,
    pending: &mut Pending<'a>,
    node: &Node<'a>,
    depth: u32,
) -> Result<Option<Open<'a>>, crate::text::TextError> {
    if f.cut_depth().is_some_and(|limit| depth > limit) {
        // Written like a leaf: the parent's iterator moves past what is not written.
        match &node.v {
            VariantRef::Array(array) => {
                f.open_array(out, array)?;
                f.close_array(out, array)?;
                return Ok(None);
            }
            VariantRef::Dictionary(dict) => {
                f.open_dictionary(out, dict)?;
                out.write_str(f.empty_dictionary())?;
                f.close_dictionary(out, dict)?;
                return Ok(None);
            }
            VariantRef::Object(_) if f.objects_count_for_depth() => {
                out.write_str("null")?;
                return Ok(None);
            }
            _ => {}
        }
    }
    Ok(Some(match &node.v {
        VariantRef::Array(array) => {
            f.open_array(out, array)?;
            Open::Array {
                array: *array,
                items: Items::new(Iter::Seq(array.iter()), node.id),
                first: true,
            }
        }
        VariantRef::Dictionary(dict) => {
            let mut node = *node;
            if node.id.is_none() {
                // An outermost dictionary: record where everything in it ends.
                keys.ends.build(&node.v, depth)?;
                node.id = Some(0);
            }
            f.open_dictionary(out, dict)?;
            let (start, from) = (pending.entries.len(), pending.order.len());
            keys.entries(&node, depth, &mut pending.entries, &mut pending.order)?;
            if pending.order.len() == from {
                pending.entries.truncate(start);
                out.write_str(f.empty_dictionary())?;
                f.close_dictionary(out, dict)?;
                return Ok(None);
            }
            out.write_str("{\n")?;
            Open::Dictionary {
                dict: *dict,
                id: node.id,
                start,
                from,
                next: from,
                value_due: false,
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
                Open::Object {
                    properties: Items::new(Iter::Props(full.properties()), node.id),
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
