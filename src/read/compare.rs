//! Equality of container views, without recursion.
//!
//! Comparing element by element through the views' iterators would recurse once per nesting
//! level (a hostile 1024-deep value overflowed a 2 MiB thread stack in a debug build) and
//! skip every nested container again on the way out (O(n × depth)). Instead both containers
//! are walked in lockstep by [`Walker`]s: linear, and the only state is the walkers' fixed
//! stacks.

use crate::error::{ErrorKind, Result};
use crate::read::array::ArrayRef;
use crate::read::dict::DictRef;
use crate::read::items::Items;
use crate::read::object::{FullObjectRef, ObjectRef};
use crate::read::skip::MAX_PENDING_LEVELS;
use crate::read::value::VariantRef;
use crate::read::walker::{Event, Walker};

/// Levels with pending items the first attempt has room for: two walkers of 32 levels take
/// under 1 KiB of stack; the full size (2 × 18 KiB) only when a value needs it.
const SHALLOW: usize = 32;

impl PartialEq for ArrayRef<'_> {
    /// Element-wise equality (and same kind and element type); an undecodable element makes
    /// the arrays unequal. Iterative: any nesting compares in linear time and fixed stack.
    fn eq(&self, other: &Self) -> bool {
        same_head(&VariantRef::Array(*self), &VariantRef::Array(*other))
            && items_eq(self.items(), other.items())
    }
}

impl PartialEq for DictRef<'_> {
    /// Entry-wise equality in wire order (and same key and value types); an undecodable
    /// entry makes the dictionaries unequal. Iterative, like arrays.
    fn eq(&self, other: &Self) -> bool {
        same_head(
            &VariantRef::Dictionary(*self),
            &VariantRef::Dictionary(*other),
        ) && items_eq(self.items(), other.items())
    }
}

impl PartialEq for FullObjectRef<'_> {
    /// Same class and equal properties in wire order. Iterative, like arrays.
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (ObjectRef::Full(*self), ObjectRef::Full(*other));
        same_head(&VariantRef::Object(a), &VariantRef::Object(b))
            && items_eq(self.items(), other.items())
    }
}

/// Whether the containers whose items these are hold equal items.
fn items_eq(a: &Items<'_>, b: &Items<'_>) -> bool {
    lockstep(a, b, |x, y| match (x, y) {
        (None, None) => Some(true),
        (Some(Ok(x)), Some(Ok(y))) => (!same_event(&x, &y)).then_some(false),
        _ => Some(false),
    })
}

/// Walks two containers from their headers in lockstep (each with its own decoder, validating
/// as it goes) and hands each pair of events to `step`, until `step` returns a result; `step`
/// must return one once both walks have ended. The one pairwise traversal of two values: `==`
/// of views and the text writer's key equality use it. Linear, no recursion, no allocation.
///
/// The walks start with small stacks and, if a value needs more pending levels, start over
/// with full ones: `step` must not keep state between calls.
pub(crate) fn lockstep<'a, R>(
    a: &Items<'a>,
    b: &Items<'a>,
    mut step: impl FnMut(Option<Result<Event<'a>>>, Option<Result<Event<'a>>>) -> Option<R>,
) -> R {
    match lockstep_with::<SHALLOW, R>(a, b, &mut step) {
        Some(result) => result,
        None => lockstep_deep(a, b, &mut step),
    }
}

#[inline(never)] // keeps the large walkers out of the common path's stack frame
fn lockstep_deep<'a, R>(
    a: &Items<'a>,
    b: &Items<'a>,
    step: &mut impl FnMut(Option<Result<Event<'a>>>, Option<Result<Event<'a>>>) -> Option<R>,
) -> R {
    // Never `None`: walkers of `MAX_PENDING_LEVELS` hand their depth errors to `step`.
    let mut result = lockstep_with::<{ MAX_PENDING_LEVELS as usize }, R>(a, b, step);
    loop {
        if let Some(result) = result.take() {
            return result;
        }
        result = step(None, None);
    }
}

/// [`lockstep`] with walkers of `N` levels; `None` when that is too small for the values
/// (never for `N` = [`MAX_PENDING_LEVELS`], the most a decodable value may need).
fn lockstep_with<'a, const N: usize, R>(
    a: &Items<'a>,
    b: &Items<'a>,
    step: &mut impl FnMut(Option<Result<Event<'a>>>, Option<Result<Event<'a>>>) -> Option<R>,
) -> Option<R> {
    let mut left = Walker::<'_, N>::with_stack(a.dec, a.bytes_from_header());
    let mut right = Walker::<'_, N>::with_stack(b.dec, b.bytes_from_header());
    let too_small = |e: &Option<Result<Event<'_>>>| {
        N < MAX_PENDING_LEVELS as usize
            && matches!(e, Some(Err(e)) if e.kind() == ErrorKind::TooDeep { limit: N as u32 })
    };
    loop {
        let (x, y) = (left.next(), right.next());
        if too_small(&x) || too_small(&y) {
            return None;
        }
        if let Some(result) = step(x, y) {
            return Some(result);
        }
    }
}

fn same_event(x: &Event<'_>, y: &Event<'_>) -> bool {
    match (x, y) {
        // Leaves: their own equality does not recurse.
        (Event::Value(a), Event::Value(b)) => a == b,
        (Event::Begin(a), Event::Begin(b)) => same_head(a, b),
        (Event::Property(a), Event::Property(b)) => a == b,
        (Event::End, Event::End) => true,
        _ => false,
    }
}

/// Same container type, length and declared types (not the items).
fn same_head(a: &VariantRef<'_>, b: &VariantRef<'_>) -> bool {
    match (a, b) {
        (VariantRef::Array(a), VariantRef::Array(b)) => {
            a.kind() == b.kind() && a.len() == b.len() && a.element_type() == b.element_type()
        }
        (VariantRef::Dictionary(a), VariantRef::Dictionary(b)) => {
            a.len() == b.len() && a.key_type() == b.key_type() && a.value_type() == b.value_type()
        }
        (VariantRef::Object(ObjectRef::Full(a)), VariantRef::Object(ObjectRef::Full(b))) => {
            a.len() == b.len() && a.class() == b.class()
        }
        _ => false,
    }
}
