//! Handing a fully iterated container back to the iterator that produced it.
//!
//! A container's iterator only learns where a nested container ends by skipping it when
//! asked for the next item. A recursive walk has already been through that nested container,
//! so skipping it again makes a full walk cost O(n × depth). The child's iterator, once
//! exhausted, knows where it ended: [`ArrayIter::walked`](crate::read::ArrayIter::walked)
//! (and the dictionary and property iterators' twins) returns that as a [`Walked`] token, and
//! the parent's `resume` continues from there. With every level handed back, a full walk
//! is linear. For a walk that does not need views, [`Walker`](crate::read::Walker) is simpler.

use crate::read::decoder::Decoder;

/// Where a fully iterated container ends; give it to the iterator that handed the container
/// out (`resume`) so that it does not skip the container again. A token from another
/// container, buffer or decoder is refused and changes nothing.
///
/// ```
/// use gdwire::{from_bytes, Dialect, VariantRef};
/// // [[1, 2], 3] in Godot 4.
/// let bytes = [0x1c,0,0,0, 2,0,0,0, 0x1c,0,0,0, 2,0,0,0, 2,0,0,0, 1,0,0,0, 2,0,0,0, 2,0,0,0,
///              2,0,0,0, 3,0,0,0];
/// let outer = from_bytes(Dialect::GODOT_4, &bytes)?.as_array().unwrap();
/// let mut items = outer.iter();
/// let inner = items.next().unwrap().as_array().unwrap();
/// let mut inner_items = inner.iter();
/// assert_eq!(inner_items.by_ref().map(|v| v.as_int().unwrap()).sum::<i64>(), 3);
/// // The inner array was walked: hand its end back so `items` need not skip it again.
/// assert!(items.resume(inner_items.walked().unwrap()));
/// assert_eq!(items.next().unwrap(), VariantRef::Int(3));
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Walked<'a> {
    pub(crate) data: &'a [u8],
    pub(crate) dec: Decoder,
    /// Where the container's items start.
    pub(crate) origin: usize,
    /// Where the container ends.
    pub(crate) end: usize,
}
