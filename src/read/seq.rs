//! A lazy run of values inside a container: the shared engine of array, dictionary and
//! object-property iteration.

use crate::error::Result;
use crate::read::decoder::Decoder;
use crate::read::head::{quick_leaf, read_value, Next};
use crate::read::skip::skip_value;
use crate::read::str_ref::{string_block, StrRef};
use crate::read::value::VariantRef;
use crate::read::walked::Walked;

/// `pos` after an error: the run's end is unknown.
const FAILED: usize = usize::MAX;

/// The item at the run's position through the general reader (anything [`quick_leaf`]
/// declines), the run moved past it: the last step of both `next_value` and `next_trusted`.
/// A macro, not a function: as an inlined call whose `Result` `next_value` wraps, the lazy
/// walks ran up to 2.6 % more instructions.
macro_rules! read_item {
    ($seq:ident) => {{
        let mut next = Next::Leaf($seq.pos);
        let mut value = read_value(&$seq.dec, $seq.data, $seq.pos, $seq.depth, false, &mut next);
        match next {
            _ if value.is_err() => $seq.left = 0,
            Next::Leaf(end) => $seq.pos = end,
            Next::Nest { body, .. } => {
                $seq.unskipped = Some(($seq.pos, body));
                if !$seq.checked {
                    if let Ok(v) = &mut value {
                        v.mark_unchecked();
                    }
                }
            }
        }
        value
    }};
}

/// `left` values starting at `pos`, all at nesting `depth`. Values handed out for nested
/// containers are lazy; the sequence skips over such a value only when asked for the next one
/// (so the last item of a container is never skipped).
#[derive(Clone, Copy)]
pub(crate) struct Seq<'a> {
    dec: Decoder,
    data: &'a [u8],
    pos: usize,
    left: u32,
    depth: u32,
    /// Start of the last container handed out, not yet skipped, and where its items start
    /// (what a `Walked` token of it names).
    unskipped: Option<(usize, usize)>,
    /// Where the items start (identifies the container for `resume`).
    origin: usize,
    /// The run was validated with its container (see `Items::checked`); container views
    /// handed out inherit it, and so does `dec` ([`Decoder::for_items`]).
    checked: bool,
}

impl<'a> Seq<'a> {
    pub(crate) fn new(
        dec: Decoder,
        data: &'a [u8],
        pos: usize,
        left: u32,
        depth: u32,
        checked: bool,
    ) -> Self {
        Seq {
            // The text of a validated run's strings needs no second check (`for_items`).
            dec: dec.for_items(checked),
            data,
            pos,
            left,
            depth,
            unskipped: None,
            origin: pos,
            checked,
        }
    }

    pub(crate) fn left(&self) -> u32 {
        self.left
    }

    /// Skips the container handed out last, if any. The test is inlined into every step;
    /// the skip is not.
    #[inline(always)]
    fn settle(&mut self) -> Result<()> {
        match self.unskipped {
            Some((start, _)) => {
                self.unskipped = None;
                self.skip_unskipped(start)
            }
            None => Ok(()),
        }
    }

    #[inline(never)]
    fn skip_unskipped(&mut self, start: usize) -> Result<()> {
        self.pos = self.end_of(start)?;
        Ok(())
    }

    /// Where the item at `start` (the container handed out last) ends.
    fn end_of(&self, start: usize) -> Result<usize> {
        // The data was validated when the outermost value was decoded.
        skip_value(&self.dec, self.data, start, self.depth, false)
    }

    fn fail<T>(&mut self, e: crate::Error) -> Option<Result<T>> {
        self.left = 0;
        self.pos = FAILED;
        Some(Err(e))
    }

    /// The next value, `None` when the run is over. After an error the run is over.
    #[inline(always)]
    pub(crate) fn next_value(&mut self) -> Option<Result<VariantRef<'a>>> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        if let Err(e) = self.settle() {
            return self.fail(e);
        }
        if let Some((value, end)) = quick_leaf(&self.dec, self.data, self.pos, false) {
            self.pos = end;
            return Some(Ok(value));
        }
        Some(read_item!(self))
    }

    /// Takes the next item of a validated run (see [`Seq::next_trusted`]) and skips the
    /// container handed out before it: `false` at the end, or when that skip fails (the run
    /// is then over).
    #[inline(always)]
    fn take_trusted(&mut self) -> bool {
        if self.left == 0 {
            return false;
        }
        self.left -= 1;
        if self.settle().is_err() {
            self.left = 0;
            self.pos = FAILED;
            return false;
        }
        true
    }

    /// [`Seq::next_value`] for a validated run: `None` at the end, and also at malformed
    /// bytes, which only a walker's not yet validated view can hold. Its own steps rather
    /// than `next_value()?.ok()`, so that a quick leaf's view is built in place: through
    /// the `Result`, every item's 64-byte view was copied into the `Option` (lazy array
    /// walks up to 8 % more instructions).
    #[inline(always)]
    pub(crate) fn next_trusted(&mut self) -> Option<VariantRef<'a>> {
        if !self.take_trusted() {
            return None;
        }
        if let Some((value, end)) = quick_leaf(&self.dec, self.data, self.pos, false) {
            self.pos = end;
            return Some(value);
        }
        read_item!(self).ok()
    }

    /// [`Seq::next_trusted`] written into `slot` (`false`, and `slot` as it was, at the end
    /// or at malformed bytes), for a caller that returns more than one view (a dictionary's
    /// pair). The general read's call takes `slot`'s address, so the caller's views stay in
    /// memory and a quick leaf stores only its own type's fields there; a pair of views
    /// returned by value was kept in registers, spilled while the second view was read, and
    /// stored whole (every field of both 64-byte enums). An array's single view is better
    /// off in registers: `next_trusted` through this form ran 5 to 17 % more instructions on
    /// the lazy array walks.
    #[inline(always)]
    pub(crate) fn next_trusted_into(&mut self, slot: &mut VariantRef<'a>) -> bool {
        if !self.take_trusted() {
            return false;
        }
        if let Some((value, end)) = quick_leaf(&self.dec, self.data, self.pos, false) {
            *slot = value;
            self.pos = end;
            return true;
        }
        self.read_item_into(slot)
    }

    /// The general read for [`Seq::next_trusted_into`], out of line (see there).
    #[inline(never)]
    fn read_item_into(&mut self, slot: &mut VariantRef<'a>) -> bool {
        match read_item!(self) {
            Ok(value) => {
                *slot = value;
                true
            }
            Err(_) => false,
        }
    }

    /// The next object property: a name string block, then a value.
    pub(crate) fn next_property(&mut self) -> Option<Result<(StrRef<'a>, VariantRef<'a>)>> {
        if self.left == 0 {
            return None;
        }
        if let Err(e) = self.settle() {
            return self.fail(e);
        }
        let rules = self.dec.dialect().text_rules();
        match string_block(self.data, self.pos, rules, false) {
            Ok((mut name, end)) => {
                self.pos = end;
                name.note_validated(self.dec.text_validated());
                Some(self.next_value()?.map(|value| (name, value)))
            }
            Err(e) => self.fail(e),
        }
    }

    /// Once the run is over: where it ends, as a token a parent run can `resume` with.
    pub(crate) fn walked(&self) -> Option<Walked<'a>> {
        if self.left != 0 || self.pos == FAILED {
            return None;
        }
        // Read-only: no copy of the run to settle.
        let end = match self.unskipped {
            Some((start, _)) => self.end_of(start).ok()?,
            None => self.pos,
        };
        Some(Walked {
            data: self.data,
            dec: self.dec,
            origin: self.origin,
            end,
        })
    }

    /// If `child` is the run of the container handed out last, continue after it instead of
    /// skipping it again. The token is checked against this run's own data, so a foreign one
    /// is refused (`false`) and changes nothing.
    pub(crate) fn resume(&mut self, child: Walked<'a>) -> bool {
        match self.unskipped {
            Some((_, body))
                if body == child.origin
                    && core::ptr::eq(self.data, child.data)
                    && self.dec == child.dec =>
            {
                self.unskipped = None;
                self.pos = child.end;
                true
            }
            _ => false,
        }
    }
}
