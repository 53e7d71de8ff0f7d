//! The iterative walk over a view's nested containers used by `Writer::value`.

use crate::error::{ErrorKind, Result};
use crate::read::{ArrayIter, PropertyIter, VariantRef, Walked, MAX_DEPTH};
use crate::write::sink::Sink;
use crate::write::writer::Writer;

/// Frames of the `value()` walker before it continues in a nested call.
pub(super) const WALK_STACK: usize = 32;

/// Items of a container being re-encoded. Dictionaries are walked as keys and values one at
/// a time so that every walked child, keys included, can be handed back (`resume`): the
/// parent then does not skip it again, which keeps re-encoding linear on deep input.
pub(super) enum Walk<'v> {
    Array(ArrayIter<'v>),
    Props(PropertyIter<'v>),
}

impl<'v> Walk<'v> {
    fn walked(&self) -> Option<Walked<'v>> {
        match self {
            Walk::Array(it) => it.walked(),
            Walk::Props(it) => it.walked(),
        }
    }

    fn resume(&mut self, child: Option<Walked<'v>>) {
        if let Some(child) = child {
            match self {
                Walk::Array(it) => it.resume(child),
                Walk::Props(it) => it.resume(child),
            };
        }
    }
}

pub(super) struct WalkFrame<'v> {
    pub(super) iter: Walk<'v>,
    pub(super) depth: u32,
}

pub(super) enum Start<'v> {
    Value(VariantRef<'v>, u32),
    Frame(WalkFrame<'v>),
}

impl<S: Sink> Writer<S> {
    /// Writes `start` and everything in it; returns where a `Start::Frame` container ended.
    pub(super) fn walk<'v>(&mut self, start: Start<'v>) -> Result<Option<Walked<'v>>> {
        let mut stack: [Option<WalkFrame<'v>>; WALK_STACK] = core::array::from_fn(|_| None);
        let mut sp = 0;
        let mut next = None;
        match start {
            Start::Value(v, depth) => next = Some((v, depth)),
            Start::Frame(frame) => {
                stack[0] = Some(frame);
                sp = 1;
            }
        }
        loop {
            if let Some((v, depth)) = next.take() {
                if depth > MAX_DEPTH {
                    return Err(self.err(ErrorKind::TooDeep { limit: MAX_DEPTH }));
                }
                if let Some(iter) = self.put_view_head(&v)? {
                    let frame = WalkFrame {
                        iter,
                        depth: depth + 1,
                    };
                    if sp == WALK_STACK {
                        let walked = self.walk(Start::Frame(frame))?;
                        if let Some(top) = stack[sp - 1].as_mut() {
                            top.iter.resume(walked);
                        }
                    } else {
                        stack[sp] = Some(frame);
                        sp += 1;
                    }
                }
            }
            let Some(top) = sp.checked_sub(1).and_then(|i| stack[i].as_mut()) else {
                return Ok(None);
            };
            match self.next_walk_item(&mut top.iter)? {
                Some(v) => next = Some((v, top.depth)),
                None => {
                    let walked = top.iter.walked();
                    sp -= 1;
                    stack[sp] = None;
                    match sp.checked_sub(1).and_then(|i| stack[i].as_mut()) {
                        Some(parent) => parent.iter.resume(walked),
                        None => return Ok(walked),
                    }
                }
            }
        }
    }

    pub(super) fn next_walk_item<'v>(
        &mut self,
        iter: &mut Walk<'v>,
    ) -> Result<Option<VariantRef<'v>>> {
        match iter {
            Walk::Array(it) => it.next().transpose(),
            Walk::Props(it) => match it.next() {
                None => Ok(None),
                Some(prop) => {
                    let (name, v) = prop?;
                    self.str_block(name.raw())?;
                    Ok(Some(v))
                }
            },
        }
    }
}
