//! Reassembling frames from socket reads.

use alloc::vec::Vec;

use crate::error::{Error, Result};

use super::framing::{Framing, Split};
use crate::length_prefix::PREFIX_LEN;

/// Bytes asked of each read when the next frame's size is not known yet.
const DEFAULT_READ_SIZE: usize = 64 * 1024;

/// A reusable reassembly buffer for a stream of length-prefixed frames (a `StreamPeerTCP`
/// connection, a pipe): read into it, then take whole frames out as borrowed slices.
///
/// Memory is bounded: the buffer never holds more than `max_frame + 4` bytes, grows only when
/// a frame (or a read) needs room, and reuses its allocation for every later frame, so the
/// steady state allocates nothing. A prefix above the maximum is an error as soon as its four
/// bytes arrive; after any error the buffer stays failed (the stream cannot be resynchronised).
/// Error offsets count bytes from the start of the stream.
///
/// ```
/// use gdwire::frame::{FrameBuffer, Framing};
/// use gdwire::write::Endian;
/// use gdwire::{from_bytes, Dialect};
///
/// let mut buffer = FrameBuffer::new(Framing::new(Endian::Little));
/// // Two StreamPeer.put_var(7) frames arrive cut at an awkward place.
/// let stream = [8,0,0,0, 2,0,0,0, 7,0,0,0, 8,0,0,0, 2,0,0,0, 7,0,0,0];
/// let mut seen = 0;
/// for chunk in [&stream[..6], &stream[6..15], &stream[15..]] {
///     buffer.push(chunk)?;
///     while let Some(frame) = buffer.next_frame()? {
///         assert_eq!(from_bytes(Dialect::GODOT_3, frame)?.as_int(), Some(7));
///         seen += 1;
///     }
/// }
/// buffer.finish()?; // nothing left half-read
/// assert_eq!(seen, 2);
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct FrameBuffer {
    framing: Framing,
    buf: Vec<u8>,
    /// First byte not handed out yet.
    start: usize,
    /// End of the bytes received.
    end: usize,
    /// Stream offset of `buf[start]`.
    position: usize,
    read_size: usize,
    error: Option<Error>,
}

impl FrameBuffer {
    /// An empty buffer; nothing is allocated until the first read.
    ///
    /// ```
    /// use gdwire::frame::{FrameBuffer, Framing};
    /// let buffer = FrameBuffer::new(Framing::default());
    /// assert_eq!((buffer.buffered(), buffer.capacity()), (0, 0));
    /// ```
    pub fn new(framing: Framing) -> FrameBuffer {
        FrameBuffer {
            framing,
            buf: Vec::new(),
            start: 0,
            end: 0,
            position: 0,
            read_size: DEFAULT_READ_SIZE,
            error: None,
        }
    }

    /// Sets how many bytes [`FrameBuffer::spare`] offers when the next frame's size is not
    /// known yet (default 64 KiB; always capped by the maximum frame size).
    ///
    /// ```
    /// use gdwire::frame::{FrameBuffer, Framing};
    /// let mut buffer = FrameBuffer::new(Framing::default()).with_read_size(4096);
    /// assert_eq!(buffer.spare()?.len(), 4096);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_read_size(mut self, bytes: usize) -> FrameBuffer {
        self.read_size = bytes.max(PREFIX_LEN);
        self
    }

    /// The framing rules.
    ///
    /// ```
    /// use gdwire::frame::{FrameBuffer, Framing};
    /// let framing = Framing::default().with_max_frame(64);
    /// assert_eq!(FrameBuffer::new(framing).framing(), framing);
    /// ```
    pub fn framing(&self) -> Framing {
        self.framing
    }

    /// Most bytes the buffer will ever hold: the maximum frame plus its prefix.
    ///
    /// ```
    /// use gdwire::frame::{FrameBuffer, Framing};
    /// assert_eq!(FrameBuffer::new(Framing::default().with_max_frame(64)).limit(), 68);
    /// ```
    pub fn limit(&self) -> usize {
        self.framing.max_frame() + PREFIX_LEN
    }

    /// Bytes received and not handed out yet.
    ///
    /// ```
    /// use gdwire::frame::{FrameBuffer, Framing};
    /// let mut buffer = FrameBuffer::new(Framing::default());
    /// buffer.push(&[8, 0, 0, 0, 2, 0])?;
    /// assert_eq!(buffer.buffered(), 6);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn buffered(&self) -> usize {
        self.end - self.start
    }

    /// Bytes allocated.
    ///
    /// ```
    /// use gdwire::frame::{FrameBuffer, Framing};
    /// let mut buffer = FrameBuffer::new(Framing::default());
    /// buffer.push(&[4, 0, 0, 0])?;
    /// assert!(buffer.capacity() >= 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn capacity(&self) -> usize {
        self.buf.len()
    }

    /// Stream offset of the next frame's prefix (bytes handed out so far, prefixes included).
    ///
    /// ```
    /// use gdwire::frame::{FrameBuffer, Framing};
    /// let mut buffer = FrameBuffer::new(Framing::default());
    /// buffer.push(&[4, 0, 0, 0, 0, 0, 0, 0])?;
    /// buffer.next_frame()?;
    /// assert_eq!(buffer.position(), 8);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn position(&self) -> usize {
        self.position
    }

    /// Forgets buffered bytes and any error, keeping the allocation (for a new connection).
    ///
    /// ```
    /// use gdwire::frame::{FrameBuffer, Framing};
    /// let mut buffer = FrameBuffer::new(Framing::default().with_max_frame(16));
    /// buffer.push(&[0xff, 0xff, 0, 0])?; // too large a prefix: the buffer is failed
    /// assert!(buffer.next_frame().is_err());
    /// buffer.reset();
    /// buffer.push(&[4, 0, 0, 0, 0, 0, 0, 0])?;
    /// assert!(buffer.next_frame()?.is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reset(&mut self) {
        self.start = 0;
        self.end = 0;
        self.position = 0;
        self.error = None;
    }

    /// Room to read into, at the end of the buffered bytes: pass it to `read`, then call
    /// [`FrameBuffer::filled`] with the count read. Moves unread bytes to the front and grows
    /// (up to [`FrameBuffer::limit`]) only when needed. Empty only if a whole frame is
    /// buffered and not taken yet: take frames with [`FrameBuffer::next_frame`] first.
    ///
    /// ```
    /// use gdwire::frame::{FrameBuffer, Framing};
    /// use std::io::Read;
    /// let mut source: &[u8] = &[8, 0, 0, 0, 2, 0, 0, 0, 9, 0, 0, 0];
    /// let mut buffer = FrameBuffer::new(Framing::default());
    /// let n = source.read(buffer.spare()?)?;
    /// buffer.filled(n);
    /// assert_eq!(buffer.next_frame()?.map(<[u8]>::len), Some(8));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn spare(&mut self) -> Result<&mut [u8]> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let buffered = self.buffered();
        // Bytes wanted in the buffer: the whole current frame when its size is known,
        // otherwise one read's worth.
        let frame_total = match self.framing.payload_len(&self.buf[self.start..self.end]) {
            Ok(Some(len)) => Some(PREFIX_LEN + len),
            Ok(None) => None,
            Err(e) => return Err(self.fail(e)),
        };
        // Grow with the bytes that arrived, not with the size the prefix announces (at most
        // doubling): four bytes from a peer must not make the buffer allocate a whole
        // maximum-size frame.
        let wanted = match frame_total {
            Some(total) => total.min(buffered + self.read_size.max(buffered)),
            None => buffered + self.read_size,
        }
        .min(self.limit());
        if self.start > 0 && (buffered == 0 || self.buf.len() - self.start < wanted) {
            self.buf.copy_within(self.start..self.end, 0);
            self.start = 0;
            self.end = buffered;
        }
        if self.buf.len() < self.start + wanted {
            self.buf.resize(self.start + wanted, 0);
        }
        Ok(&mut self.buf[self.end..])
    }

    /// Records that `n` bytes were read into the slice [`FrameBuffer::spare`] returned.
    ///
    /// ```
    /// use gdwire::frame::{FrameBuffer, Framing};
    /// let mut buffer = FrameBuffer::new(Framing::default());
    /// let room = buffer.spare()?;
    /// room[..8].copy_from_slice(&[4, 0, 0, 0, 0, 0, 0, 0]);
    /// buffer.filled(8);
    /// assert!(buffer.next_frame()?.is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn filled(&mut self, n: usize) {
        self.end = (self.end + n).min(self.buf.len());
    }

    /// Copies bytes in (for transports that hand out chunks). Returns how many were taken:
    /// fewer than `bytes.len()` only when the buffer holds a whole untaken frame or is at its
    /// limit; take frames and push the rest.
    ///
    /// ```
    /// use gdwire::frame::{FrameBuffer, Framing};
    /// let mut buffer = FrameBuffer::new(Framing::default());
    /// assert_eq!(buffer.push(&[4, 0, 0, 0, 0, 0])?, 6);
    /// assert_eq!(buffer.next_frame()?, None); // two bytes missing
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn push(&mut self, bytes: &[u8]) -> Result<usize> {
        let mut taken = 0;
        while taken < bytes.len() {
            let spare = self.spare()?;
            if spare.is_empty() {
                break;
            }
            let n = spare.len().min(bytes.len() - taken);
            spare[..n].copy_from_slice(&bytes[taken..taken + n]);
            self.filled(n);
            taken += n;
        }
        Ok(taken)
    }

    /// Takes the next whole frame's payload, borrowed from the buffer until the next call;
    /// `Ok(None)` when more bytes are needed.
    ///
    /// ```
    /// use gdwire::frame::{FrameBuffer, Framing};
    /// use gdwire::{from_bytes, Dialect};
    /// let mut buffer = FrameBuffer::new(Framing::default());
    /// buffer.push(&[8, 0, 0, 0, 2, 0, 0, 0, 9, 0, 0, 0])?;
    /// let frame = buffer.next_frame()?.unwrap();
    /// assert_eq!(from_bytes(Dialect::GODOT_4, frame)?.as_int(), Some(9));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn next_frame(&mut self) -> Result<Option<&[u8]>> {
        if let Some(e) = self.error {
            return Err(e);
        }
        match self.framing.split(&self.buf[self.start..self.end]) {
            Ok(Split::Complete { frame, .. }) => {
                let from = self.start + PREFIX_LEN;
                let to = from + frame.len();
                self.start = to;
                self.position += PREFIX_LEN + frame.len();
                Ok(Some(&self.buf[from..to]))
            }
            Ok(Split::Partial { .. }) => Ok(None),
            Err(e) => Err(self.fail(e)),
        }
    }

    /// Bytes still missing before the next frame is whole (at least 1 when none is buffered).
    ///
    /// ```
    /// use gdwire::frame::{FrameBuffer, Framing};
    /// let mut buffer = FrameBuffer::new(Framing::default());
    /// buffer.push(&[8, 0, 0, 0, 2, 0])?;
    /// assert_eq!(buffer.needed(), 6);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn needed(&self) -> usize {
        match self.framing.split(&self.buf[self.start..self.end]) {
            Ok(Split::Partial { needed }) => needed,
            _ => 0,
        }
    }

    /// Call at end of stream: an error if the stream failed or stopped inside a frame
    /// (a peer that disconnected mid-frame).
    ///
    /// ```
    /// use gdwire::frame::{FrameBuffer, Framing};
    /// let mut buffer = FrameBuffer::new(Framing::default());
    /// buffer.push(&[8, 0, 0, 0, 2, 0])?;
    /// assert!(buffer.finish().is_err()); // the peer stopped inside a frame
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn finish(&self) -> Result<()> {
        if let Some(e) = self.error {
            return Err(e);
        }
        if self.buffered() > 0 {
            return Err(Framing::truncated(self.buffered(), self.position));
        }
        Ok(())
    }

    /// Reads once from `reader` into the buffer; `Ok(0)` is end of stream. Framing errors
    /// come back as [`std::io::ErrorKind::InvalidData`] wrapping the [`Error`]. Feature `std`.
    ///
    /// ```
    /// use gdwire::frame::{FrameBuffer, Framing};
    /// let mut socket: &[u8] = &[8, 0, 0, 0, 2, 0, 0, 0, 9, 0, 0, 0];
    /// let mut buffer = FrameBuffer::new(Framing::default());
    /// let mut frames = 0;
    /// while buffer.read_from(&mut socket)? > 0 {
    ///     while let Some(_payload) = buffer.next_frame()? {
    ///         frames += 1;
    ///     }
    /// }
    /// buffer.finish()?;
    /// assert_eq!(frames, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn read_from<R: std::io::Read + ?Sized>(
        &mut self,
        reader: &mut R,
    ) -> std::io::Result<usize> {
        let spare = self.spare().map_err(std::io::Error::from)?;
        if spare.is_empty() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "frame buffer holds a whole frame: take it with next_frame before reading",
            ));
        }
        let n = reader.read(spare)?;
        self.filled(n);
        Ok(n)
    }

    fn fail(&mut self, e: Error) -> Error {
        let e = e.offset_by(self.position);
        self.error = Some(e);
        e
    }
}
