//! Item accounting: the containers that still owe items, and the sticky error.
//!
//! The innermost container (or, before and after the value, the root) lives in
//! `Writer::top`, so the per-item work touches only the writer's own fields; the enclosing
//! containers that still owe items wait in `Writer::stack`. The root is a pseudo-frame of
//! depth 0 owing the one top-level value; every container's items are at depth 1 or more.

use crate::error::{ErrorKind, Result};
use crate::read::MAX_DEPTH;
use crate::write::sink::Sink;
use crate::write::writer::Writer;

/// How many containers that still owe items the streaming calls can track at once.
///
/// A container occupies a slot only while items are still to come after the one being
/// written (a chain of single-item containers uses one slot), so this bounds unusual shapes
/// only; nesting depth itself is limited to the engine's 1024 ([`MAX_DEPTH`]).
/// [`Writer::value`] and [`Writer::raw`] do not use these slots. With the `alloc` feature,
/// [`Writer::with_heap_spill`] lifts the limit.
///
/// ```
/// use gdwire::write::MAX_OPEN_CONTAINERS;
/// use gdwire::{Dialect, Writer};
/// let mut out = Vec::new();
/// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
/// for _ in 0..MAX_OPEN_CONTAINERS {
///     w.begin_array(2)?; // each still owes its second item
/// }
/// assert!(w.begin_array(2).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const MAX_OPEN_CONTAINERS: usize = 64;

/// Slots for the enclosing containers: the innermost one is `Writer::top`.
pub(super) const SAVED_FRAMES: usize = MAX_OPEN_CONTAINERS - 1;

#[derive(Clone, Copy, Default, Debug)]
pub(super) struct OpenContainer {
    /// Items still to come (dictionary: keys and values; object: properties).
    pub(super) left: u32,
    /// Depth of those items (0 for the root, at most `MAX_DEPTH + 1`). `u16` so the frame
    /// has no padding and the saved frames are zeroed by a plain memset when made.
    pub(super) depth: u16,
    /// Items are object properties: a name before each value.
    pub(super) props: bool,
    /// A property name is due before the next value (only when `props`).
    pub(super) need_name: bool,
}

impl OpenContainer {
    /// The root: one value at depth 0.
    pub(super) const ROOT: OpenContainer = OpenContainer {
        left: 1,
        depth: 0,
        props: false,
        need_name: false,
    };
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum State {
    Empty,
    Open,
    Done,
}

impl<S: Sink> Writer<S> {
    /// Where the value stands (derived: the root frame is untouched before the first item,
    /// and every frame with items owed is `top` or saved).
    pub(super) fn state(&self) -> State {
        if self.top.left == 0 {
            State::Done
        } else if self.top.depth == 0 && self.sp == 0 {
            State::Empty
        } else {
            State::Open
        }
    }

    /// Containers that still owe items.
    pub(super) fn open_containers(&self) -> usize {
        self.sp + usize::from(self.top.left > 0 && self.top.depth > 0)
    }

    /// Runs `f`, making any error sticky.
    #[inline]
    pub(crate) fn guard<R>(&mut self, f: impl FnOnce(&mut Self) -> Result<R>) -> Result<R> {
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
    #[inline]
    pub(crate) fn leaf(&mut self, f: impl FnOnce(&mut Self) -> Result<()>) -> Result<()> {
        self.guard(|w| {
            w.item()?;
            f(w)
        })
    }

    /// Accounts for the item about to be written; returns its nesting depth.
    #[inline]
    pub(crate) fn item(&mut self) -> Result<u32> {
        let top = &mut self.top;
        if top.left == 0 || top.need_name {
            return Err(self.refused_item());
        }
        top.left -= 1;
        top.need_name = top.props;
        let depth = top.depth;
        if top.left == 0 && self.sp > 0 {
            // The container is complete once this item is written: the enclosing one is
            // innermost again (its slot is free for a container this item may open).
            self.sp -= 1;
            self.top = match self.stack.as_ref().and_then(|s| s.get(self.sp)) {
                Some(frame) => *frame,
                None => self.unspill(),
            };
        }
        // One compare for the common case 1..=MAX_DEPTH.
        if usize::from(depth).wrapping_sub(1) >= MAX_DEPTH as usize {
            return self.root_or_too_deep(depth);
        }
        Ok(u32::from(depth))
    }

    #[cold]
    fn refused_item(&self) -> crate::error::Error {
        if self.top.left == 0 {
            self.err(ErrorKind::TooManyItems)
        } else {
            self.err(ErrorKind::PropertyNameExpected)
        }
    }

    /// The top-level value (depth 0) reserves the length prefix; deeper than the engine's
    /// limit is an error.
    #[cold]
    fn root_or_too_deep(&mut self, depth: u16) -> Result<u32> {
        if depth == 0 {
            self.reserve_prefix()?;
            return Ok(0);
        }
        Err(self.err(ErrorKind::TooDeep { limit: MAX_DEPTH }))
    }

    /// A container at `depth` whose head is written now owes `values` items.
    #[inline]
    pub(super) fn open(&mut self, depth: u32, values: u32, props: bool) -> Result<()> {
        if values > 0 {
            if self.top.left > 0 {
                // The enclosing container still owes items after this one: save it.
                let stack = self
                    .stack
                    .get_or_insert([OpenContainer::default(); SAVED_FRAMES]);
                match stack.get_mut(self.sp) {
                    Some(slot) => *slot = self.top,
                    None => self.spill()?,
                }
                self.sp += 1;
            }
            self.top = OpenContainer {
                left: values,
                // `depth <= MAX_DEPTH` here (checked by `item`); saturating keeps it so.
                depth: u16::try_from(depth + 1).unwrap_or(u16::MAX),
                props,
                need_name: props,
            };
        }
        Ok(())
    }

    /// Saves `top` past the fixed slots: on the heap if allowed
    /// ([`Writer::with_heap_spill`]), else the documented limit.
    #[cold]
    fn spill(&mut self) -> Result<()> {
        #[cfg(feature = "alloc")]
        if let Some(spilled) = self.spilled.as_mut() {
            spilled.push(self.top);
            return Ok(());
        }
        let limit = MAX_OPEN_CONTAINERS as u32;
        Err(self.err(ErrorKind::TooManyOpenContainers { limit }))
    }

    /// The innermost saved frame past the fixed slots (`sp` counts those on the heap too).
    #[cold]
    fn unspill(&mut self) -> OpenContainer {
        #[cfg(feature = "alloc")]
        if let Some(frame) = self.spilled.as_mut().and_then(alloc::vec::Vec::pop) {
            return frame;
        }
        // Unreachable: `sp` only passes the fixed slots through `spill`.
        OpenContainer::default()
    }

    /// Names the next property of the innermost container, which must be a full object
    /// owing a value after its name.
    pub(super) fn expect_property(&self) -> Result<()> {
        if self.top.left > 0 && self.top.need_name {
            return Ok(());
        }
        Err(self.err(ErrorKind::UnexpectedPropertyName))
    }
}
