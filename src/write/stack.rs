//! Item accounting: the stack of open containers that still owe items, and the sticky error.

use crate::error::{ErrorKind, Result};
use crate::read::MAX_DEPTH;
use crate::write::sink::Sink;
use crate::write::writer::Writer;

/// How many containers that still owe items the streaming calls can track at once.
///
/// A container occupies a slot only while items are still to come after the one being
/// written (a chain of single-item containers uses one slot), so this bounds unusual shapes
/// only; nesting depth itself is limited to the engine's 1024 ([`MAX_DEPTH`]).
/// [`Writer::value`] and [`Writer::raw`] do not use these slots.
pub const MAX_OPEN_CONTAINERS: usize = 64;

#[derive(Clone, Copy, Default)]
pub(super) struct Frame {
    /// Items still to come (dictionary: keys and values; object: properties).
    pub(super) left: u32,
    /// Depth of those items (at most `MAX_DEPTH + 1`). `u16` so the frame has no padding
    /// and the writer's stack is zeroed by a plain memset in `Writer::new`.
    pub(super) depth: u16,
    /// Items are object properties: a name before each value.
    pub(super) props: bool,
    pub(super) need_name: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum State {
    Empty,
    Open,
    Done,
}

impl<S: Sink> Writer<S> {
    /// Runs `f`, making any error sticky.
    pub(super) fn guard<R>(&mut self, f: impl FnOnce(&mut Self) -> Result<R>) -> Result<R> {
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
    pub(super) fn leaf(&mut self, f: impl FnOnce(&mut Self) -> Result<()>) -> Result<()> {
        self.guard(|w| {
            w.item()?;
            f(w)?;
            w.end_item();
            Ok(())
        })
    }

    /// Accounts for the item about to be written; returns its nesting depth.
    pub(super) fn item(&mut self) -> Result<u32> {
        match self.state {
            State::Done => return Err(self.err(ErrorKind::TooManyItems)),
            State::Empty => {
                self.reserve_prefix()?;
                self.state = State::Open;
                return Ok(0);
            }
            State::Open => {}
        }
        let Some(top) = self.sp.checked_sub(1) else {
            return Err(self.err(ErrorKind::TooManyItems));
        };
        let frame = &mut self.stack[top];
        if frame.props && frame.need_name {
            return Err(self.err(ErrorKind::PropertyNameExpected));
        }
        frame.left -= 1;
        frame.need_name = frame.props;
        let depth = u32::from(frame.depth);
        if frame.left == 0 {
            self.sp = top;
        }
        if depth > MAX_DEPTH {
            return Err(self.err(ErrorKind::TooDeep { limit: MAX_DEPTH }));
        }
        Ok(depth)
    }

    /// A container at `depth` whose head is written now owes `values` items.
    pub(super) fn open(&mut self, depth: u32, values: u32, props: bool) -> Result<()> {
        if values > 0 {
            if self.sp == MAX_OPEN_CONTAINERS {
                let limit = MAX_OPEN_CONTAINERS as u32;
                return Err(self.err(ErrorKind::TooManyOpenContainers { limit }));
            }
            self.stack[self.sp] = Frame {
                left: values,
                // `depth <= MAX_DEPTH` here (checked by `item`); saturating keeps it so.
                depth: u16::try_from(depth + 1).unwrap_or(u16::MAX),
                props,
                need_name: props,
            };
            self.sp += 1;
        }
        self.end_item();
        Ok(())
    }

    pub(super) fn end_item(&mut self) {
        if self.sp == 0 {
            self.state = State::Done;
        }
    }
}
