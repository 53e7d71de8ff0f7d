//! Where the writer's bytes go: a fixed slice, a growing `Vec<u8>`, or nowhere (counting).

use crate::error::{Error, ErrorKind, Result};

/// A byte destination for [`crate::Writer`].
///
/// Positions are counted from the sink's creation. A sink may accept bytes without storing
/// them (a full [`SliceSink`] keeps counting so it can say how much room was needed); such a
/// sink reports the shortfall from [`Sink::check`], which [`crate::Writer::finish`] calls.
///
/// ```
/// use gdwire::{Dialect, Sink, Writer};
/// // A sink that only hashes what it is given (no storage).
/// #[derive(Default)]
/// struct Checksum { sum: u32, len: usize }
/// impl Sink for Checksum {
///     fn write(&mut self, bytes: &[u8]) -> gdwire::Result<()> {
///         self.sum = bytes.iter().fold(self.sum, |s, b| s.wrapping_mul(31).wrapping_add(u32::from(*b)));
///         self.len += bytes.len();
///         Ok(())
///     }
///     fn position(&self) -> usize { self.len }
///     fn patch(&mut self, _at: usize, _bytes: &[u8]) -> gdwire::Result<()> { Ok(()) }
/// }
/// let mut w = Writer::new(Checksum::default(), Dialect::GODOT_4);
/// w.string("hello")?;
/// assert_eq!(w.finish()?, 16);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Sink {
    /// Appends `bytes`.
    ///
    /// ```
    /// use gdwire::Sink;
    /// let mut out = Vec::new();
    /// out.write(&[1, 2, 3])?;
    /// assert_eq!(out, [1, 2, 3]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn write(&mut self, bytes: &[u8]) -> Result<()>;

    /// Bytes accepted so far (stored or only counted).
    ///
    /// ```
    /// use gdwire::Sink;
    /// let mut out = Vec::new();
    /// out.write(&[1, 2, 3])?;
    /// assert_eq!(Sink::position(&out), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn position(&self) -> usize;

    /// Overwrites `bytes.len()` already-written bytes at `at` (used to patch a length
    /// prefix). Bytes the sink did not store are left alone.
    ///
    /// ```
    /// use gdwire::Sink;
    /// let mut out = Vec::new();
    /// out.write(&[0, 0, 0, 0, 9])?;
    /// out.patch(0, &[1, 0, 0, 0])?; // e.g. a length prefix, once known
    /// assert_eq!(out, [1, 0, 0, 0, 9]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn patch(&mut self, at: usize, bytes: &[u8]) -> Result<()>;

    /// Fails if some accepted bytes could not be stored (default: never).
    ///
    /// ```
    /// use gdwire::{Sink, SliceSink};
    /// let mut buf = [0u8; 2];
    /// let mut sink = SliceSink::new(&mut buf);
    /// sink.write(&[1, 2, 3])?; // accepted and counted
    /// assert!(sink.check().is_err()); // but one byte could not be stored
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn check(&self) -> Result<()> {
        Ok(())
    }

    /// Appends `head`, then `bytes`, then `zeros` zero bytes (at most 4; more are not
    /// written): a length-prefixed, padded block such as a string's. The same bytes as three
    /// [`Sink::write`] calls (the default), so a sink need not implement it; the crate's
    /// sinks store the block with one bounds check.
    ///
    /// ```
    /// use gdwire::Sink;
    /// let mut out = Vec::new();
    /// out.write_padded(&[2, 0, 0, 0], b"hi", 2)?;
    /// assert_eq!(out, [2, 0, 0, 0, b'h', b'i', 0, 0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    fn write_padded(&mut self, head: &[u8], bytes: &[u8], zeros: usize) -> Result<()> {
        self.write(head)?;
        self.write(bytes)?;
        self.write(&[0; 4][..zeros.min(4)])
    }
}

impl<S: Sink + ?Sized> Sink for &mut S {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> Result<()> {
        (**self).write(bytes)
    }
    #[inline]
    fn position(&self) -> usize {
        (**self).position()
    }
    fn patch(&mut self, at: usize, bytes: &[u8]) -> Result<()> {
        (**self).patch(at, bytes)
    }
    fn check(&self) -> Result<()> {
        (**self).check()
    }
    #[inline]
    fn write_padded(&mut self, head: &[u8], bytes: &[u8], zeros: usize) -> Result<()> {
        (**self).write_padded(head, bytes, zeros)
    }
}

/// Conversion into a [`Sink`]: every sink, plus `&mut [u8]` and `&mut [u8; N]` (which become
/// a [`SliceSink`]). This is what [`crate::Writer::new`] takes.
///
/// ```
/// use gdwire::write::IntoSink;
/// use gdwire::Sink;
/// let mut buf = [0u8; 4];
/// let sink = (&mut buf[..]).into_sink(); // a SliceSink
/// assert_eq!(sink.position(), 0);
/// ```
pub trait IntoSink {
    /// The sink produced.
    ///
    /// ```
    /// use gdwire::write::IntoSink;
    /// fn takes<I: IntoSink>(sink: I) -> I::Sink { sink.into_sink() }
    /// let _vec_sink: Vec<u8> = takes(Vec::new());
    /// ```
    type Sink: Sink;
    /// Converts.
    ///
    /// ```
    /// use gdwire::write::IntoSink;
    /// use gdwire::Sink;
    /// let sink = Vec::<u8>::new().into_sink();
    /// assert_eq!(sink.position(), 0);
    /// ```
    fn into_sink(self) -> Self::Sink;
}

impl<S: Sink> IntoSink for S {
    type Sink = S;
    fn into_sink(self) -> S {
        self
    }
}

impl<'a> IntoSink for &'a mut [u8] {
    type Sink = SliceSink<'a>;
    fn into_sink(self) -> SliceSink<'a> {
        SliceSink::new(self)
    }
}

impl<'a, const N: usize> IntoSink for &'a mut [u8; N] {
    type Sink = SliceSink<'a>;
    fn into_sink(self) -> SliceSink<'a> {
        SliceSink::new(self)
    }
}

/// Writes into a caller-provided buffer without allocating and **never past its end**.
///
/// When a write does not fit, nothing of it (or of any later write) is stored; the sink keeps
/// counting, so that at the end [`Sink::check`] (and so [`crate::Writer::finish`]) fails with
/// [`ErrorKind::BufferFull`] whose `needed` is the size the whole output needs. Retry with a
/// buffer of at least that size. Individual writer calls do not fail for lack of room; use
/// [`SliceSink::is_full`] to stop early. The stored bytes are always a prefix of the output.
///
/// ```
/// use gdwire::{Dialect, ErrorKind, Writer};
///
/// let mut buf = [0u8; 8];
/// let mut w = Writer::new(&mut buf, Dialect::GODOT_4);
/// w.string("hello")?; // needs 4 + 4 + 5 + 3 bytes of padding = 16
/// let err = w.finish().unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::BufferFull { needed: 16 });
///
/// let mut buf = [0u8; 16];
/// let mut w = Writer::new(&mut buf, Dialect::GODOT_4);
/// w.string("hello")?;
/// assert_eq!(w.finish()?, 16);
/// assert_eq!(&buf[..9], &[4, 0, 0, 0, 5, 0, 0, 0, b'h']);
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Debug)]
pub struct SliceSink<'a> {
    buf: &'a mut [u8],
    stored: usize,
    total: usize,
}

impl<'a> SliceSink<'a> {
    /// A sink writing from the start of `buf`.
    ///
    /// ```
    /// use gdwire::{Dialect, SliceSink, Writer};
    /// let mut buf = [0u8; 8];
    /// let mut w = Writer::new(SliceSink::new(&mut buf), Dialect::GODOT_4);
    /// w.int(3)?;
    /// w.finish()?;
    /// assert_eq!(w.sink().written(), [2, 0, 0, 0, 3, 0, 0, 0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(buf: &'a mut [u8]) -> SliceSink<'a> {
        SliceSink {
            buf,
            stored: 0,
            total: 0,
        }
    }

    /// The bytes stored so far.
    ///
    /// ```
    /// use gdwire::{Dialect, SliceSink, Writer};
    /// let mut buf = [0u8; 4];
    /// let mut w = Writer::new(SliceSink::new(&mut buf), Dialect::GODOT_4);
    /// w.nil()?;
    /// assert_eq!(w.sink().written(), [0, 0, 0, 0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn written(&self) -> &[u8] {
        &self.buf[..self.stored]
    }

    /// True once a write did not fit.
    ///
    /// ```
    /// use gdwire::{Dialect, SliceSink, Writer};
    /// let mut buf = [0u8; 4];
    /// let mut w = Writer::new(SliceSink::new(&mut buf), Dialect::GODOT_4);
    /// w.int(3)?;
    /// assert!(w.sink().is_full());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_full(&self) -> bool {
        self.total > self.stored
    }

    /// The buffer size the output needs so far.
    ///
    /// ```
    /// use gdwire::{Dialect, SliceSink, Writer};
    /// let mut buf = [0u8; 4];
    /// let mut w = Writer::new(SliceSink::new(&mut buf), Dialect::GODOT_4);
    /// w.int(3)?;
    /// assert_eq!(w.sink().needed(), 8);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn needed(&self) -> usize {
        self.total
    }
}

impl Sink for SliceSink<'_> {
    // Inlined so the writer's fixed-size writes (headers, scalars) become plain stores
    // instead of a `memcpy` call each.
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> Result<()> {
        let end = self.total.saturating_add(bytes.len());
        if self.total == self.stored {
            if let Some(dst) = self.buf.get_mut(self.stored..end) {
                copy(dst, bytes);
                self.stored = end;
            }
        }
        self.total = end;
        Ok(())
    }

    #[inline]
    fn position(&self) -> usize {
        self.total
    }

    #[inline]
    fn write_padded(&mut self, head: &[u8], bytes: &[u8], zeros: usize) -> Result<()> {
        let zeros = zeros.min(4);
        let end = self
            .total
            .saturating_add(head.len())
            .saturating_add(bytes.len())
            .saturating_add(zeros);
        if self.total == self.stored {
            let block = self.buf.get_mut(self.stored..end);
            let parts = block.and_then(|b| b.split_at_mut_checked(head.len()));
            let parts =
                parts.and_then(|(h, rest)| Some((h, rest.split_at_mut_checked(bytes.len())?)));
            if let Some((h, (body, pad))) = parts {
                copy(h, head);
                copy(body, bytes);
                // Through `copy`'s short arms: `fill` of a runtime length is a `memset` call.
                copy(pad, &[0; 4][..zeros]);
                self.stored = end;
            }
        }
        self.total = end;
        Ok(())
    }

    fn patch(&mut self, at: usize, bytes: &[u8]) -> Result<()> {
        let end = at.saturating_add(bytes.len());
        if end <= self.stored {
            self.buf[at..end].copy_from_slice(bytes);
        }
        Ok(())
    }

    fn check(&self) -> Result<()> {
        if self.is_full() {
            let kind = ErrorKind::BufferFull { needed: self.total };
            return Err(Error::new(kind, self.stored));
        }
        Ok(())
    }
}

/// `dst.copy_from_slice(src)` (equal lengths), with short runtime lengths (keys, names,
/// small strings) copied as two overlapping fixed-size moves instead of a `memcpy` call.
/// Constant lengths fold to their arm when inlined.
#[inline]
fn copy(dst: &mut [u8], src: &[u8]) {
    #[inline]
    fn ends<const K: usize>(dst: &mut [u8], src: &[u8]) {
        if let (Some(d), Some(s)) = (dst.first_chunk_mut::<K>(), src.first_chunk::<K>()) {
            *d = *s;
        }
        if let (Some(d), Some(s)) = (dst.last_chunk_mut::<K>(), src.last_chunk::<K>()) {
            *d = *s;
        }
    }
    let n = src.len();
    if n != dst.len() {
        return dst.copy_from_slice(src);
    }
    match n {
        0 => {}
        1..=3 => {
            dst[0] = src[0];
            dst[n / 2] = src[n / 2];
            dst[n - 1] = src[n - 1];
        }
        4..=7 => ends::<4>(dst, src),
        8..=15 => ends::<8>(dst, src),
        16..=32 => ends::<16>(dst, src),
        _ => dst.copy_from_slice(src),
    }
}

/// Counts bytes and stores nothing: the encoded-length pass.
///
/// ```
/// use gdwire::{CountingSink, Dialect, Writer};
///
/// let mut w = Writer::new(CountingSink::new(), Dialect::GODOT_4);
/// w.begin_array(2)?;
/// w.int(1)?;
/// w.string("a")?;
/// assert_eq!(w.finish()?, 28); // docs/wire-format.md §7: [1, "a"] is 28 bytes
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CountingSink {
    len: usize,
}

impl CountingSink {
    /// A sink at length 0.
    ///
    /// ```
    /// use gdwire::{CountingSink, Dialect, Writer};
    /// let mut w = Writer::new(CountingSink::new(), Dialect::GODOT_4);
    /// w.string("hello")?;
    /// assert_eq!(w.finish()?, 16); // nothing stored, only counted
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn new() -> CountingSink {
        CountingSink { len: 0 }
    }

    /// Bytes counted.
    ///
    /// ```
    /// use gdwire::{CountingSink, Dialect, Writer};
    /// let mut w = Writer::new(CountingSink::new(), Dialect::GODOT_4);
    /// w.nil()?;
    /// assert_eq!(w.sink().len(), 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn len(&self) -> usize {
        self.len
    }

    /// True when nothing was counted.
    ///
    /// ```
    /// use gdwire::CountingSink;
    /// assert!(CountingSink::new().is_empty());
    /// ```
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Sink for CountingSink {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> Result<()> {
        self.len = self.len.saturating_add(bytes.len());
        Ok(())
    }
    #[inline]
    fn position(&self) -> usize {
        self.len
    }
    fn patch(&mut self, _at: usize, _bytes: &[u8]) -> Result<()> {
        Ok(())
    }
}

/// Appends to a `Vec<u8>`, which grows as needed (feature `alloc`). Positions are the
/// vector's length, so writing after existing content appends to it.
///
/// ```
/// use gdwire::{Dialect, Writer};
///
/// let mut out = Vec::new();
/// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
/// w.bool(true)?;
/// w.finish()?;
/// assert_eq!(out, [1, 0, 0, 0, 1, 0, 0, 0]);
/// # Ok::<(), gdwire::Error>(())
/// ```
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
impl Sink for alloc::vec::Vec<u8> {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> Result<()> {
        self.extend_from_slice(bytes);
        Ok(())
    }
    #[inline]
    fn position(&self) -> usize {
        self.len()
    }
    #[inline]
    fn write_padded(&mut self, head: &[u8], bytes: &[u8], zeros: usize) -> Result<()> {
        let zeros = zeros.min(4);
        self.reserve(head.len() + bytes.len() + zeros);
        self.extend_from_slice(head);
        self.extend_from_slice(bytes);
        self.extend_from_slice(&[0; 4][..zeros]);
        Ok(())
    }
    fn patch(&mut self, at: usize, bytes: &[u8]) -> Result<()> {
        let end = at.saturating_add(bytes.len());
        if let Some(dst) = self.get_mut(at..end) {
            dst.copy_from_slice(bytes);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{CountingSink, Sink, SliceSink};

    /// A sink that stores through `write` alone: the trait's default `write_padded`.
    struct Plain(Vec<u8>);

    impl Sink for Plain {
        fn write(&mut self, bytes: &[u8]) -> crate::Result<()> {
            self.0.extend_from_slice(bytes);
            Ok(())
        }
        fn position(&self) -> usize {
            self.0.len()
        }
        fn patch(&mut self, _at: usize, _bytes: &[u8]) -> crate::Result<()> {
            Ok(())
        }
    }

    /// `write_padded` stores what three `write` calls store, in every sink: blocks of every
    /// head, text and padding length after every offset, into slices too short, just long
    /// enough and longer (nothing stored past the block, and nothing of a block that does
    /// not fit, which is still counted).
    #[test]
    fn padded_blocks_are_the_three_writes() {
        let src: [u8; 40] = core::array::from_fn(|i| i as u8 + 1);
        let heads: [&[u8]; 3] = [&[], &[9, 8, 7, 6], &[9, 8, 7, 6, 5, 4, 3, 2]];
        // Under Miri, the lengths at the short-copy arms' edges only.
        let lengths: Vec<usize> = match cfg!(miri) {
            true => vec![0, 1, 3, 4, 7, 8, 15, 16, 32, 33],
            false => (0..=33).collect(),
        };
        for at in 0..5 {
            for head in heads {
                for &n in &lengths {
                    for pad in 0..=4 {
                        let text = &src[..n];
                        let block = at + head.len() + n + pad;
                        let mut plain = Plain(vec![0x55; at]);
                        plain.write_padded(head, text, pad).unwrap();
                        let mut vec = vec![0x55; at];
                        vec.write_padded(head, text, pad).unwrap();
                        assert_eq!(vec, plain.0);
                        let mut count = CountingSink::new();
                        count.write(&vec![0; at]).unwrap();
                        count.write_padded(head, text, pad).unwrap();
                        assert_eq!(count.len(), block);
                        for room in [block.saturating_sub(1), block, block + 5] {
                            let mut buf = vec![0xAA; room];
                            let mut sink = SliceSink::new(&mut buf);
                            sink.write(&[0x55; 4][..at]).unwrap();
                            sink.write_padded(head, text, pad).unwrap();
                            assert_eq!(sink.position(), block);
                            assert_eq!(sink.is_full(), room < block);
                            // A write that does not fit stores nothing, nor does any after.
                            let stored = match (room < block, at <= room) {
                                (false, _) => block,
                                (true, true) => at,
                                (true, false) => 0,
                            };
                            let mut want = vec![0xAA; room];
                            want[..stored].copy_from_slice(&plain.0[..stored]);
                            assert_eq!(buf, want, "at {at} head {head:?} n {n} pad {pad}");
                        }
                    }
                }
            }
        }
    }

    /// Every length through the short-copy arms and past them, at every alignment: the
    /// bytes land exactly where `copy_from_slice` puts them and nothing after is touched.
    #[test]
    fn short_copies_store_exactly_the_bytes() {
        let src: [u8; 48] = core::array::from_fn(|i| i as u8 + 1);
        for at in 0..8 {
            for n in 0..=40 {
                let mut buf = [0xAAu8; 64];
                let mut sink = SliceSink::new(&mut buf);
                sink.write(&[0x55; 8][..at]).unwrap();
                sink.write(&src[..n]).unwrap();
                assert_eq!(sink.position(), at + n);
                let mut want = [0xAAu8; 64];
                want[..at].fill(0x55);
                want[at..at + n].copy_from_slice(&src[..n]);
                assert_eq!(buf, want, "at {at}, n {n}");
            }
        }
    }
}
