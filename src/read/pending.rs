//! The [`Walker`](crate::read::Walker)'s pending-level stack: the containers whose items are
//! still to come, innermost on top. (The validating skip in `skip.rs` keeps a shorter stack
//! of its own that continues in a nested call when full; an iterator cannot do that.)
//!
//! A level is pushed when a container with items starts and popped as soon as its last item
//! starts, so a chain of last items needs one level and only levels with items still pending
//! take room.
//!
//! The slots are not initialised when the stack is created: a slot is written by `push`
//! before `pop` reads it back. Initialising the walker's 2048 levels cost more than walking
//! a small packet (docs/dev/performance-history.md, "The full walk"), so this file holds one
//! of the crate's two `unsafe` blocks (docs/hardening.md).

use core::mem::MaybeUninit;

/// One pending level: a container with items still to come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Level {
    /// Items still to come (values, or for objects (name, value) pairs).
    pub(crate) left: u32,
    /// Nesting depth of those items.
    pub(crate) depth: u32,
    /// The items are object properties: a name string block before each value.
    pub(crate) props: bool,
}

/// The next item of the top level, as [`Pending::take_item`] hands it out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Item {
    /// Its nesting depth.
    pub(crate) depth: u32,
    /// It is an object property (a name string block, then the value).
    pub(crate) property: bool,
}

/// A level's items left (low 32 bits) and their depth (high 32 bits) in one word: the top is
/// written and read whole, and copied to and from its slot as one load and one store. (As
/// three fields, the copy on a push loaded 8 and 4 bytes that the push before had just
/// stored as 4, 4 and 1: a failed store forward on every nested container, 5 % of the
/// `Walker`'s time on a game state.)
#[inline(always)]
const fn word(left: u32, depth: u32) -> u64 {
    left as u64 | (depth as u64) << 32
}

/// Up to `N` pending levels. The top level is a plain field, so taking an item (once per
/// value) reads no slot and checks no length; slots are written on a push over a pending
/// level and read back when the level above it is done.
#[derive(Clone)]
pub(crate) struct Pending<const N: usize> {
    /// The innermost pending level ([`word`]); 0 when `len == 0`. A pending level always has
    /// items left (it is popped as its last item is taken), so no items left says empty.
    top: u64,
    /// The top level's items are object properties.
    top_props: bool,
    /// The levels under the top, outermost first: `below[..len - 1]` and
    /// `below_props[..len - 1]` are initialised (written by `push`); the rest may not be.
    below: [MaybeUninit<u64>; N],
    below_props: [MaybeUninit<bool>; N],
    len: usize,
}

impl<const N: usize> Pending<N> {
    /// An empty stack; costs nothing whatever `N` is.
    #[inline(always)]
    pub(crate) const fn new() -> Self {
        Pending {
            top: 0,
            top_props: false,
            below: [const { MaybeUninit::uninit() }; N],
            below_props: [const { MaybeUninit::uninit() }; N],
            len: 0,
        }
    }

    /// Forgets every level.
    #[inline(always)]
    pub(crate) fn clear(&mut self) {
        self.top = 0;
        self.top_props = false;
        self.len = 0;
    }

    /// How many levels are pending.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Pushes `level` (which has items: `left > 0`) on top; `false` (and nothing pushed) when
    /// `N` levels are pending.
    #[inline(always)]
    pub(crate) fn push(&mut self, level: Level) -> bool {
        debug_assert!(level.left > 0);
        if self.len >= N {
            return false;
        }
        if let Some(under) = self.len.checked_sub(1) {
            match (self.below.get_mut(under), self.below_props.get_mut(under)) {
                (Some(slot), Some(props)) => {
                    slot.write(self.top);
                    props.write(self.top_props);
                }
                _ => return false,
            };
        }
        self.top = word(level.left, level.depth);
        self.top_props = level.props;
        self.len += 1;
        true
    }

    /// Takes the next item of the top level, popping the level if that was its last item
    /// (so a chain of last items needs no level); `None` when nothing is pending.
    #[inline(always)]
    pub(crate) fn take_item(&mut self) -> Option<Item> {
        if self.top as u32 == 0 {
            return None;
        }
        // Items left are in the low half and not 0: the depth above is untouched.
        self.top -= 1;
        let item = Item {
            depth: self.next_depth(),
            property: self.top_props,
        };
        if self.top as u32 == 0 {
            self.pop();
        }
        Some(item)
    }

    /// The depth of the next pending item (that of the top level); 0 when none is pending.
    #[inline(always)]
    pub(crate) fn next_depth(&self) -> u32 {
        (self.top >> 32) as u32
    }

    /// Drops the top level; the one under it (if any) becomes the top.
    #[inline(always)]
    #[allow(unsafe_code)] // one of the crate's two `unsafe` blocks, see docs/hardening.md
    fn pop(&mut self) {
        self.len = self.len.saturating_sub(1);
        let under = self.len.checked_sub(1);
        (self.top, self.top_props) = match under
            .and_then(|under| Some((self.below.get(under)?, self.below_props.get(under)?)))
        {
            // SAFETY: the slots are below the old `len - 1`, and `below[..len - 1]` and
            // `below_props[..len - 1]` are all written: `push` writes both at `len - 1` (the
            // old top) before raising `len` by one, and nothing else raises `len` (`new` and
            // `clear` set it to 0, `pop` lowers it).
            Some((slot, props)) => unsafe { (slot.assume_init_read(), props.assume_init_read()) },
            None => (0, false),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(left: u32, depth: u32, props: bool) -> Level {
        Level { left, depth, props }
    }

    /// Against a model stack of initialised levels (a `Vec`), over random pushes, takes and
    /// clears, including pushes on a full stack: every answer agrees. Under Miri this also
    /// checks that no uninitialised slot is ever read.
    #[test]
    fn agrees_with_a_vec() {
        let mut rand = crate::test_rand::xorshift(0x5EED_u64);
        let steps = if cfg!(miri) { 2_000 } else { 200_000 };
        let mut stack = Pending::<8>::new();
        let mut model: std::vec::Vec<Level> = std::vec::Vec::new();
        for _ in 0..steps {
            match rand() % 16 {
                0..=6 => {
                    let l = level(
                        1 + (rand() % 3) as u32,
                        (rand() % 100) as u32,
                        rand() % 2 == 0,
                    );
                    let pushed = stack.push(l);
                    assert_eq!(pushed, model.len() < 8);
                    if pushed {
                        model.push(l);
                    }
                }
                7..=14 => {
                    let want = model.last_mut().map(|top| {
                        top.left -= 1;
                        Item {
                            depth: top.depth,
                            property: top.props,
                        }
                    });
                    if model.last().is_some_and(|top| top.left == 0) {
                        model.pop();
                    }
                    assert_eq!(stack.take_item(), want);
                }
                _ => {
                    stack.clear();
                    model.clear();
                }
            }
            assert_eq!(stack.len(), model.len());
            assert_eq!(stack.next_depth(), model.last().map_or(0, |top| top.depth));
        }
    }

    /// A clone carries the pending levels over.
    #[test]
    fn clones_keep_levels() {
        let mut stack = Pending::<4>::new();
        assert!(stack.push(level(2, 1, false)));
        assert!(stack.push(level(1, 2, true)));
        let mut copy = stack.clone();
        let first = Item {
            depth: 2,
            property: true,
        };
        assert_eq!(copy.take_item(), Some(first));
        assert_eq!(copy.next_depth(), 1);
        assert_eq!(stack.take_item(), Some(first));
    }
}
