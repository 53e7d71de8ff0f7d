//! What a container view keeps: where its header and items are, and nothing it can re-read.

use crate::read::decoder::Decoder;
use crate::read::seq::Seq;

/// A container's items as its view holds them: enough to start iterating, plus where the
/// header is, so rarely used parts (typed-container element types, an object's class name,
/// the array kind) are re-read from the header on demand instead of being carried.
///
/// This keeps every container view at 56 bytes and [`VariantRef`](crate::VariantRef) at 64:
/// views are handed out once per element, and each move of a large view is a `memcpy`.
#[derive(Clone, Copy)]
pub(crate) struct Items<'a> {
    pub(crate) data: &'a [u8],
    pub(crate) dec: Decoder,
    /// Position of the container's header (its type blocks follow it).
    pub(crate) header: usize,
    /// Where the items start, from the header (kept as 32 bits so that the flags fit in
    /// the 56 bytes: a header and its type blocks are far shorter than 4 GiB).
    body_offset: u32,
    /// Values that follow (dictionaries: keys and values; objects: properties).
    pub(crate) count: u32,
    /// Nesting depth of the items.
    pub(crate) depth: u32,
    /// The items were validated with the container (views from `decode`, `Cursor::read` and
    /// their iterators); false for a [`Walker`](crate::read::Walker)'s `Begin` views, whose
    /// items the walk checks only as it reaches them.
    ///
    /// `StrRef::as_str`'s `unsafe` relies on it: the run of a checked container reads its
    /// strings with `dec.for_items(true)` ([`Decoder::for_items`]), whose views then skip
    /// the second text check, and the containers that run hands out keep that decoder and
    /// are checked too. So a `dec` with `text_validated` reads only the top-level value of a
    /// decode (`read::head::validated_view`, after its validation) and checked containers,
    /// and `checked` is only set on bytes a validating pass with `dec` accepted: by the
    /// decode of a whole value, and by a checked run for its items (a run that is not checked
    /// marks the containers it hands out, `VariantRef::mark_unchecked`).
    pub(crate) checked: bool,
    /// The container is the whole of `data` from `header` on, and those bytes are what the
    /// writer writes for it (noted by a decode with
    /// [`Decoder::with_canonical_check`](crate::Decoder::with_canonical_check)): re-sending
    /// it in the same dialect is a copy of them.
    pub(crate) canonical: bool,
}

impl<'a> Items<'a> {
    #[inline(always)]
    pub(crate) fn new(
        data: &'a [u8],
        dec: Decoder,
        header: usize,
        body: usize,
        count: u32,
        depth: u32,
        checked: bool,
    ) -> Items<'a> {
        Items {
            data,
            dec,
            header,
            body_offset: body.saturating_sub(header).try_into().unwrap_or(u32::MAX),
            count,
            depth,
            checked,
            canonical: false,
        }
    }

    /// Where the items start.
    #[inline(always)]
    pub(crate) fn body(&self) -> usize {
        self.header + self.body_offset as usize
    }

    /// A fresh cursor over the items.
    #[inline]
    pub(crate) fn seq(&self) -> Seq<'a> {
        Seq::new(
            self.dec,
            self.data,
            self.body(),
            self.count,
            self.depth,
            self.checked,
        )
    }

    /// The container's bytes from its header on (a walk of them walks this container).
    pub(crate) fn bytes_from_header(&self) -> &'a [u8] {
        self.data.get(self.header..).unwrap_or_default()
    }
}
