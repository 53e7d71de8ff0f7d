//! Where every container inside a dictionary ends, found in one linear pass before the
//! dictionary is written, so that no container is ever skipped twice.
//!
//! A lazy iterator learns where a nested container ends only by skipping it when asked for
//! the next item. Writing text visits a dictionary's containers out of wire order (its
//! entries are collected and sorted first) and compares its keys, so the same containers
//! would be skipped again at every enclosing level: O(n × depth). [`Ends::build`] walks an
//! outermost dictionary once (the reader's traversal) and records each container's end
//! (`Walked`) under its pre-order number. [`Items`] then hands a
//! container child's recorded end to `resume` as soon as the child is handed out: moving past
//! it costs nothing, however it is visited later, or not at all. Outside dictionaries, items
//! have no numbers and the writer hands walked children back itself.
//!
//! The numbers only save work: `resume` checks that a token belongs to the container just
//! handed out and refuses (changing nothing) otherwise, so a wrong number would cost a skip,
//! never a wrong result.

use alloc::vec::Vec;

use crate::error::{Error, ErrorKind};
use crate::read::decoder::Decoder;
use crate::read::head::{read_head, Next};
use crate::read::quick_leaf;
use crate::read::skip::{traverse, Visit};
use crate::read::str_ref::string_block;
use crate::read::{ArrayIter, ObjectRef, PropertyIter, StrRef, VariantRef, Walked};
use crate::text::{check_depth, TextError};

/// A value with its container number (pre-order in the table of [`Ends`]), if it has one.
#[derive(Clone, Copy)]
pub(crate) struct Node<'a> {
    pub(crate) v: VariantRef<'a>,
    pub(crate) id: Option<usize>,
}

#[derive(Clone, Copy)]
struct Span<'a> {
    /// Where the container ends (`None` if the walk could not say: it is then skipped).
    end: Option<Walked<'a>>,
    /// Containers in its subtree, itself included: the next sibling's number is `id + size`.
    size: usize,
}

/// Every container's end, by pre-order number. One entry per container: bounded by the input
/// (a container takes at least 8 bytes on the wire).
pub(crate) struct Ends<'a> {
    spans: Vec<Span<'a>>,
    /// The walk's open containers: number, items still owed, where their items start (kept
    /// between walks: no allocation per dictionary).
    open: Vec<(usize, u32, usize)>,
    /// The root's own items, numbered, as the walk met them (so that the root's items need
    /// not be iterated a second time).
    pub(crate) root_items: Vec<Node<'a>>,
}

/// The items of an Array or a Dictionary (keys and values alternating) or a full object's
/// properties.
#[derive(Clone)]
pub(crate) enum Iter<'a> {
    Seq(ArrayIter<'a>),
    Props(PropertyIter<'a>),
}

/// True for the values [`children`] iterates.
fn is_container(v: &VariantRef<'_>) -> bool {
    matches!(
        v,
        VariantRef::Array(_) | VariantRef::Dictionary(_) | VariantRef::Object(ObjectRef::Full(_))
    )
}

/// The items of `v` if it is a container that has an iterator (and so an end to record).
pub(crate) fn children<'a>(v: &VariantRef<'a>) -> Option<Iter<'a>> {
    Some(match v {
        VariantRef::Array(a) => Iter::Seq(a.iter()),
        VariantRef::Dictionary(d) => Iter::Seq(d.keys_and_values()),
        VariantRef::Object(ObjectRef::Full(o)) => Iter::Props(o.properties()),
        _ => return None,
    })
}

impl<'a> Iter<'a> {
    fn walked(&self) -> Option<Walked<'a>> {
        match self {
            Iter::Seq(it) => it.walked(),
            Iter::Props(it) => it.walked(),
        }
    }

    fn resume(&mut self, child: Walked<'a>) -> bool {
        match self {
            Iter::Seq(it) => it.resume(child),
            Iter::Props(it) => it.resume(child),
        }
    }
}

impl<'a> Ends<'a> {
    /// An empty table: every container's end unknown.
    pub(crate) fn new() -> Ends<'a> {
        Ends {
            spans: Vec::new(),
            open: Vec::new(),
            root_items: Vec::new(),
        }
    }

    /// Walks `root` once (the reader's traversal, `read/skip.rs`: linear) and records where
    /// each container in it ends, `root` numbered 0, replacing what was recorded (the memory
    /// is reused). Refuses nesting deeper than the text writer's limit, as writing would;
    /// `depth` is `root`'s.
    pub(crate) fn build(&mut self, root: &VariantRef<'a>, depth: u32) -> Result<(), TextError> {
        self.spans.clear();
        self.open.clear();
        self.root_items.clear();
        let Some(items) = root.items().filter(|_| is_container(root)) else {
            return Ok(());
        };
        let mut visit = Record {
            ends: self,
            root: items.depth.saturating_sub(1),
            depth,
            // A view not validated yet (a walker's) is checked as it is read.
            validate: !items.checked,
            failed: None,
        };
        match traverse(&items.dec, items.data, items.header, visit.root, &mut visit) {
            Ok(_) => Ok(()),
            Err(e) => Err(visit.failed.take().unwrap_or(TextError::Decode(e))),
        }
    }

    /// Where container `id` ends, if recorded.
    pub(crate) fn end(&self, id: usize) -> Option<Walked<'a>> {
        self.spans.get(id)?.end
    }
}

/// The visitor of [`Ends::build`]: numbers each container as the traversal meets it and
/// records its end once its last item is done.
struct Record<'e, 'a> {
    ends: &'e mut Ends<'a>,
    /// The root container's decode depth (the traversal's numbering).
    root: u32,
    /// The root's depth for the text writer's limit.
    depth: u32,
    validate: bool,
    /// The depth error, carried out of the traversal (which stops on any error).
    failed: Option<TextError>,
}

impl<'a> Record<'_, 'a> {
    /// Container `id`, whose items start at `origin`, ends at `end`.
    fn close(&mut self, dec: &Decoder, data: &'a [u8], id: usize, origin: usize, end: usize) {
        let size = self.ends.spans.len() - id;
        let walked = Walked {
            data,
            dec: *dec,
            origin,
            end,
        };
        if let Some(span) = self.ends.spans.get_mut(id) {
            *span = Span {
                end: Some(walked),
                size,
            };
        }
    }

    /// An item ending at `end` is done: close every container it completes.
    fn item_done(&mut self, dec: &Decoder, data: &'a [u8], end: usize) {
        while let Some((id, left, origin)) = self.ends.open.last_mut() {
            *left -= 1;
            if *left > 0 {
                break;
            }
            let (id, origin) = (*id, *origin);
            self.ends.open.pop();
            self.close(dec, data, id, origin, end);
        }
    }
}

impl<'a> Visit<'a> for Record<'_, 'a> {
    fn value(
        &mut self,
        dec: &Decoder,
        data: &'a [u8],
        pos: usize,
        depth: u32,
    ) -> Result<Next, Error> {
        // The item's depth: the root's plus the containers around it below.
        let level = depth - self.root;
        if let Err(e) = check_depth(self.depth.saturating_add(level)) {
            self.failed = Some(e);
            // Never seen: `build` returns the kept error instead.
            return Err(Error::new(ErrorKind::TooDeep { limit: 0 }, pos));
        }
        let (v, next) = match quick_leaf(dec, data, pos, self.validate) {
            Some((v, end)) => (v, Next::Leaf(end)),
            None => read_head(dec, data, pos, depth, self.validate)?,
        };
        let id = is_container(&v).then(|| {
            self.ends.spans.push(Span { end: None, size: 1 });
            self.ends.spans.len() - 1
        });
        if level == 1 {
            self.ends.root_items.push(Node { v, id });
        }
        match (next, id) {
            (Next::Nest { body, values, .. }, Some(id)) if values > 0 => {
                self.ends.open.push((id, values, body));
            }
            (Next::Nest { body, .. }, Some(id)) => {
                self.close(dec, data, id, body, body);
                self.item_done(dec, data, body);
            }
            (Next::Nest { body, .. }, None) => self.item_done(dec, data, body),
            (Next::Leaf(end), _) => self.item_done(dec, data, end),
        }
        Ok(next)
    }

    fn name(&mut self, dec: &Decoder, data: &'a [u8], pos: usize) -> Result<usize, Error> {
        Ok(string_block(data, pos, dec.dialect().text_rules(), self.validate)?.1)
    }

    fn validates(&self) -> bool {
        self.validate
    }
}

/// A container's items, moving past container items without skipping them (see the module).
#[derive(Clone)]
pub(crate) struct Items<'a> {
    iter: Iter<'a>,
    /// The number of the next container item (`None`: unknown, items are skipped).
    next: Option<usize>,
}

impl<'a> Items<'a> {
    /// The items `iter` yields, of the container numbered `id`.
    pub(crate) fn new(iter: Iter<'a>, id: Option<usize>) -> Items<'a> {
        Items {
            iter,
            next: id.map(|id| id + 1),
        }
    }

    /// The items of `container` (`None` if it has none to iterate).
    pub(crate) fn of(container: &Node<'a>) -> Option<Items<'a>> {
        Some(Items::new(children(&container.v)?, container.id))
    }

    /// The next item of an array or dictionary (an object's property values, names dropped).
    #[inline]
    pub(crate) fn next(&mut self, ends: &Ends<'a>) -> Option<Result<Node<'a>, Error>> {
        let v = match &mut self.iter {
            Iter::Seq(it) => it.try_next()?,
            Iter::Props(it) => it.try_next()?.map(|(_, v)| v),
        };
        Some(v.map(|v| self.place(v, ends)))
    }

    /// The next item with its property name (`None` for arrays and dictionaries).
    pub(crate) fn next_named(
        &mut self,
        ends: &Ends<'a>,
    ) -> Option<Result<(Option<StrRef<'a>>, Node<'a>), Error>> {
        let (name, v) = match &mut self.iter {
            Iter::Seq(it) => (None, it.try_next()?),
            Iter::Props(it) => match it.try_next()? {
                Ok((name, v)) => (Some(name), Ok(v)),
                Err(e) => return Some(Err(e)),
            },
        };
        Some(v.map(|v| (name, self.place(v, ends))))
    }

    /// Numbers a container item and moves past it.
    #[inline]
    fn place(&mut self, v: VariantRef<'a>, ends: &Ends<'a>) -> Node<'a> {
        let id = match is_container(&v) {
            true => self.next.and_then(|id| self.pass(id, ends)),
            false => None,
        };
        Node { v, id }
    }

    /// Moves past container item `id`; returns `id` if it is in the table.
    fn pass(&mut self, id: usize, ends: &Ends<'a>) -> Option<usize> {
        let span = ends.spans.get(id);
        self.next = span.map(|s| id + s.size);
        let span = span?;
        if let Some(end) = span.end {
            // Refused only if the numbering went wrong; the item is then skipped.
            self.iter.resume(end);
        }
        Some(id)
    }

    /// True when the items have no numbers (outside any table): a walked container item must
    /// then be handed back with [`Items::resume`].
    pub(crate) fn hands_back(&self) -> bool {
        self.next.is_none()
    }

    /// Once the items are exhausted: where the container ends.
    pub(crate) fn walked(&self) -> Option<Walked<'a>> {
        self.iter.walked()
    }

    /// Continues after the container item handed out last, which ends at `end`.
    pub(crate) fn resume(&mut self, end: Walked<'a>) {
        self.iter.resume(end);
    }
}

/// Two containers' items side by side, until either runs out.
#[derive(Clone)]
pub(crate) struct Pair<'a> {
    a: Items<'a>,
    b: Items<'a>,
}

impl<'a> Pair<'a> {
    pub(crate) fn of(a: &Node<'a>, b: &Node<'a>) -> Option<Pair<'a>> {
        Some(Pair {
            a: Items::of(a)?,
            b: Items::of(b)?,
        })
    }

    pub(crate) fn next(&mut self, ends: &Ends<'a>) -> Option<Result<(Node<'a>, Node<'a>), Error>> {
        let x = self.a.next(ends)?;
        let y = self.b.next(ends)?;
        Some(x.and_then(|x| Ok((x, y?))))
    }
}
