//! The framing rules (prefix byte order, maximum frame size) and the splitter.

use crate::error::{Error, ErrorKind, Expected, Result};
use crate::length_prefix::{Endian, PREFIX_LEN};
use crate::read::Decoder;

use super::frames::{Frames, Values};

/// The default maximum frame payload: 8 MiB, the engine's `PacketPeer.encode_buffer_max_size`.
///
/// ```
/// use gdwire::frame::{Framing, DEFAULT_MAX_FRAME};
/// assert_eq!(Framing::default().max_frame(), DEFAULT_MAX_FRAME);
/// assert!(Framing::default().prefix(DEFAULT_MAX_FRAME + 1).is_err());
/// ```
pub const DEFAULT_MAX_FRAME: usize = 8 * 1024 * 1024;

/// The engine's sizes are C `int`s: no frame can be longer than this.
const ENGINE_MAX_FRAME: usize = i32::MAX as usize;

/// What [`Framing::split`] found at the start of a buffer.
///
/// ```
/// use gdwire::frame::{Framing, Split};
/// let framing = Framing::default();
/// assert_eq!(framing.split(&[8, 0, 0])?, Split::Partial { needed: 1 });
/// let buf = [4, 0, 0, 0, 0, 0, 0, 0, 0xAA];
/// assert_eq!(framing.split(&buf)?, Split::Complete { frame: &buf[4..8], rest: &buf[8..] });
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split<'a> {
    /// A whole frame: its payload (prefix removed) and the bytes after it.
    Complete {
        /// The frame's payload: one encoded value.
        frame: &'a [u8],
        /// Everything after the frame.
        rest: &'a [u8],
    },
    /// The buffer holds only part of a frame; at least `needed` more bytes must arrive.
    Partial {
        /// Bytes missing before the frame (or its prefix) is complete.
        needed: usize,
    },
}

/// How a stream is framed: the length prefix's byte order and the largest payload accepted.
///
/// `Copy` and cheap: build one per connection or file type and keep it.
///
/// ```
/// use gdwire::frame::{Framing, Split};
/// use gdwire::write::Endian;
/// use gdwire::ErrorKind;
///
/// let framing = Framing::new(Endian::Little).with_max_frame(1024);
/// // A prefix of 2^31 is rejected at once, before waiting for 2 GiB.
/// let err = framing.split(&[0, 0, 0, 0x80]).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::FrameTooLarge { len: 1 << 31, max: 1024 });
/// assert_eq!(framing.split(&[4, 0])?, Split::Partial { needed: 2 });
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Framing {
    endian: Endian,
    max_frame: usize,
}

impl Default for Framing {
    /// Little-endian prefixes, 8 MiB maximum.
    fn default() -> Self {
        Framing::new(Endian::Little)
    }
}

impl Framing {
    /// Prefixes in `endian` order ([`Endian::Little`] unless the engine side set
    /// `big_endian`; `PacketPeerStream` is always little-endian), maximum
    /// [`DEFAULT_MAX_FRAME`].
    ///
    /// ```
    /// use gdwire::frame::Framing;
    /// use gdwire::write::Endian;
    /// let framing = Framing::new(Endian::Big);
    /// assert_eq!(framing.endian(), Endian::Big);
    /// ```
    pub const fn new(endian: Endian) -> Framing {
        Framing {
            endian,
            max_frame: DEFAULT_MAX_FRAME,
        }
    }

    /// Sets the largest payload accepted, in bytes (capped at `i32::MAX`, the engine's limit).
    /// Longer prefixes are errors as soon as the prefix is read.
    ///
    /// ```
    /// use gdwire::frame::Framing;
    /// let framing = Framing::default().with_max_frame(1024);
    /// assert!(framing.payload_len(&[1, 4, 0, 0]).is_err()); // 1025 bytes: too large
    /// assert_eq!(framing.payload_len(&[0, 4, 0, 0])?, Some(1024));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn with_max_frame(mut self, max: usize) -> Framing {
        self.max_frame = if max > ENGINE_MAX_FRAME {
            ENGINE_MAX_FRAME
        } else {
            max
        };
        self
    }

    /// The prefix byte order.
    ///
    /// ```
    /// use gdwire::frame::Framing;
    /// use gdwire::write::Endian;
    /// assert_eq!(Framing::default().endian(), Endian::Little);
    /// ```
    pub const fn endian(&self) -> Endian {
        self.endian
    }

    /// The largest payload accepted.
    ///
    /// ```
    /// use gdwire::frame::Framing;
    /// assert_eq!(Framing::default().with_max_frame(100).max_frame(), 100);
    /// ```
    pub const fn max_frame(&self) -> usize {
        self.max_frame
    }

    /// Reads the length prefix at the start of `buf`: `Ok(None)` if fewer than 4 bytes, an
    /// error if the length is above the maximum. Never looks past the prefix.
    ///
    /// ```
    /// use gdwire::frame::Framing;
    /// assert_eq!(Framing::default().payload_len(&[12, 0, 0, 0])?, Some(12));
    /// assert_eq!(Framing::default().payload_len(&[12, 0])?, None); // prefix not complete yet
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn payload_len(&self, buf: &[u8]) -> Result<Option<usize>> {
        let Some(prefix) = buf.first_chunk::<PREFIX_LEN>() else {
            return Ok(None);
        };
        let len = self.endian.decode(*prefix);
        if len as usize > self.max_frame {
            return Err(Error::new(
                ErrorKind::FrameTooLarge {
                    len,
                    max: self.max_frame as u32,
                },
                0,
            ));
        }
        Ok(Some(len as usize))
    }

    /// Splits the first frame off `buf`. Errors only on a prefix above the maximum (offset 0);
    /// a buffer too short for the prefix or the payload is [`Split::Partial`].
    ///
    /// ```
    /// use gdwire::frame::{Framing, Split};
    /// let buf = [8, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0];
    /// let Split::Complete { frame, rest } = Framing::default().split(&buf)? else { unreachable!() };
    /// assert_eq!((frame.len(), rest.len()), (8, 0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn split<'a>(&self, buf: &'a [u8]) -> Result<Split<'a>> {
        let Some(len) = self.payload_len(buf)? else {
            return Ok(Split::Partial {
                needed: PREFIX_LEN - buf.len(),
            });
        };
        let body = &buf[PREFIX_LEN..];
        match (body.get(..len), body.get(len..)) {
            (Some(frame), Some(rest)) => Ok(Split::Complete { frame, rest }),
            _ => Ok(Split::Partial {
                needed: len - body.len(),
            }),
        }
    }

    /// The prefix for a payload of `len` bytes, or [`ErrorKind::FrameTooLarge`].
    ///
    /// ```
    /// use gdwire::frame::Framing;
    /// let payload = [2, 0, 0, 0, 7, 0, 0, 0];
    /// let mut frame = Framing::default().prefix(payload.len())?.to_vec();
    /// frame.extend_from_slice(&payload); // what StreamPeer.put_var(7) sends
    /// assert_eq!(frame[..4], [8, 0, 0, 0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn prefix(&self, len: usize) -> Result<[u8; PREFIX_LEN]> {
        if len > self.max_frame {
            return Err(Error::new(
                ErrorKind::FrameTooLarge {
                    len: u32::try_from(len).unwrap_or(u32::MAX),
                    max: self.max_frame as u32,
                },
                0,
            ));
        }
        Ok(self.endian.encode(len as u32))
    }

    /// The frames of a complete buffer (a `store_var` file, a captured stream).
    ///
    /// ```
    /// use gdwire::frame::Framing;
    /// let file = [4, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0]; // store_var(null) twice
    /// let sizes: Vec<usize> = Framing::default().frames(&file).map(|f| f.map(|f| f.payload.len())).collect::<Result<_, _>>()?;
    /// assert_eq!(sizes, [4, 4]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn frames<'a>(&self, data: &'a [u8]) -> Frames<'a> {
        Frames::new(*self, data)
    }

    /// The values of a complete buffer, one per frame, decoded by `decoder` as
    /// `FileAccess.get_var` / `StreamPeer.get_var` do (bytes after the value inside its frame
    /// are ignored). Error offsets are from the start of `data`.
    ///
    /// ```
    /// use gdwire::frame::Framing;
    /// use gdwire::{Decoder, Dialect, VariantRef};
    /// let file = [8, 0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0];
    /// let mut values = Framing::default().values(Decoder::new(Dialect::GODOT_4), &file);
    /// assert_eq!(values.next().transpose()?, Some(VariantRef::Int(5)));
    /// assert!(values.next().is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn values<'a>(&self, decoder: Decoder, data: &'a [u8]) -> Values<'a> {
        Values::new(self.frames(data), decoder)
    }

    /// Error for a buffer that ends inside a frame whose prefix starts at `offset`.
    pub(crate) fn truncated(buffered: usize, offset: usize) -> Error {
        let what = if buffered < PREFIX_LEN {
            Expected::LengthPrefix
        } else {
            Expected::FramePayload
        };
        Error::new(ErrorKind::Truncated(what), offset)
    }
}
