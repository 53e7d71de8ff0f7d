//! Equality of container views, without recursion.
//!
//! Comparing element by element through the views' iterators would recurse once per nesting
//! level (a hostile 1024-deep value overflowed a 2 MiB thread stack in a debug build) and
//! skip every nested container again on the way out (O(n × depth)). Instead both containers
//! are walked in lockstep by [`Walker`]s: linear, and the only state is the walkers' fixed
//! stacks.

use crate::error::ErrorKind;
use crate::read::array::ArrayRef;
use crate::read::dict::DictRef;
use crate::read::items::Items;
use crate::read::object::{FullObjectRef, ObjectRef};
use crate::read::skip::MAX_PENDING_LEVELS;
use crate::read::value::VariantRef;
use crate::read::walker::{Event, Walker};

/// Levels with pending items the first attempt has room for: two walkers of 32 levels take
/// under 1 KiB of stack; the full size (2 × 24 KiB) only when a value needs it.
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
    match lockstep::<SHALLOW>(a, b) {
        Some(equal) => equal,
        None => lockstep_deep(a, b),
    }
}

#[inline(never)] // keeps the large walkers out of the common path's stack frame
fn lockstep_deep(a: &Items<'_>, b: &Items<'_>) -> bool {
    lockstep::<{ MAX_PENDING_LEVELS as usize }>(a, b).unwrap_or(false)
}

/// Walks both containers from their headers; `None` when a walker of `N` levels is too small.
fn lockstep<const N: usize>(a: &Items<'_>, b: &Items<'_>) -> Option<bool> {
    let mut left = Walker::<'_, N>::with_stack(a.dec, a.bytes_from_header());
    let mut right = Walker::<'_, N>::with_stack(b.dec, b.bytes_from_header());
    let too_small = ErrorKind::TooDeep { limit: N as u32 };
    loop {
        match (left.next(), right.next()) {
            (None, None) => return Some(true),
            (Some(Ok(x)), Some(Ok(y))) => {
                if !same_event(&x, &y) {
                    return Some(false);
                }
            }
            (Some(Err(e)), _) | (_, Some(Err(e))) if e.kind() == too_small => return None,
            _ => return Some(false),
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
