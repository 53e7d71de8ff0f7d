//! Walking every frame of a complete buffer: a `store_var` file or a captured stream.

use crate::error::Result;
use crate::read::{Decoder, VariantRef};

use super::framing::{Framing, Split};
use crate::length_prefix::PREFIX_LEN;

/// One frame of a buffer.
///
/// ```
/// use gdwire::frame::Framing;
/// let file = [4, 0, 0, 0, 0, 0, 0, 0];
/// let frame = Framing::default().frames(&file).next().unwrap()?;
/// assert_eq!((frame.offset, frame.payload), (0, &[0u8, 0, 0, 0][..]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame<'a> {
    /// Offset of the frame's length prefix in the buffer.
    pub offset: usize,
    /// The payload (prefix removed).
    pub payload: &'a [u8],
}

impl Frame<'_> {
    /// Offset of the payload's first byte in the buffer.
    ///
    /// ```
    /// use gdwire::frame::Framing;
    /// let file = [4, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0];
    /// let second = Framing::default().frames(&file).nth(1).unwrap()?;
    /// assert_eq!((second.offset, second.payload_offset()), (8, 12));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn payload_offset(&self) -> usize {
        self.offset + PREFIX_LEN
    }
}

/// Iterator over the frames of a complete buffer ([`Framing::frames`]).
///
/// A buffer that ends inside a frame, or a prefix above the maximum, yields one error (offset
/// of that frame's prefix) and then ends.
///
/// ```
/// use gdwire::frame::Framing;
/// use gdwire::write::Endian;
/// // Two store_var frames: 1 and true.
/// let file = [8,0,0,0, 2,0,0,0, 1,0,0,0, 8,0,0,0, 1,0,0,0, 1,0,0,0];
/// let offsets: Vec<usize> = Framing::new(Endian::Little)
///     .frames(&file)
///     .map(|f| f.map(|f| f.offset))
///     .collect::<Result<_, _>>()?;
/// assert_eq!(offsets, [0, 12]);
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Frames<'a> {
    framing: Framing,
    data: &'a [u8],
    pos: usize,
    failed: bool,
}

impl<'a> Frames<'a> {
    pub(crate) fn new(framing: Framing, data: &'a [u8]) -> Frames<'a> {
        Frames {
            framing,
            data,
            pos: 0,
            failed: false,
        }
    }

    /// Offset of the next frame's prefix.
    ///
    /// ```
    /// use gdwire::frame::Framing;
    /// let file = [4, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0];
    /// let mut frames = Framing::default().frames(&file);
    /// frames.next();
    /// assert_eq!(frames.position(), 8); // the next (incomplete) frame starts here
    /// assert!(frames.next().unwrap().is_err());
    /// ```
    pub fn position(&self) -> usize {
        self.pos
    }
}

impl<'a> Iterator for Frames<'a> {
    type Item = Result<Frame<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        let rest = self.data.get(self.pos..).unwrap_or_default();
        if rest.is_empty() || self.failed {
            return None;
        }
        let offset = self.pos;
        let result = match self.framing.split(rest) {
            Ok(Split::Complete { frame, rest: after }) => {
                self.pos = self.data.len() - after.len();
                return Some(Ok(Frame {
                    offset,
                    payload: frame,
                }));
            }
            Ok(Split::Partial { .. }) => Err(Framing::truncated(rest.len(), offset)),
            Err(e) => Err(e.offset_by(offset)),
        };
        self.failed = true;
        Some(result)
    }
}

impl core::iter::FusedIterator for Frames<'_> {}

/// Iterator over the decoded values of a complete framed buffer ([`Framing::values`]): what
/// `FileAccess.get_var` returns call after call.
///
/// A value that fails to decode yields its error (offset from the start of the buffer) and
/// the walk goes on with the next frame, since the frame boundaries are intact; a framing
/// error ends the walk.
///
/// ```
/// use gdwire::frame::Framing;
/// use gdwire::write::Endian;
/// use gdwire::{Decoder, Dialect};
/// let file = [8,0,0,0, 2,0,0,0, 1,0,0,0, 8,0,0,0, 1,0,0,0, 1,0,0,0];
/// let mut values = Framing::new(Endian::Little).values(Decoder::new(Dialect::GODOT_3), &file);
/// assert_eq!(values.next().unwrap()?.as_int(), Some(1));
/// assert_eq!(values.next().unwrap()?.as_bool(), Some(true));
/// assert!(values.next().is_none());
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Values<'a> {
    frames: Frames<'a>,
    decoder: Decoder,
}

impl<'a> Values<'a> {
    pub(crate) fn new(frames: Frames<'a>, decoder: Decoder) -> Values<'a> {
        Values { frames, decoder }
    }
}

impl<'a> Iterator for Values<'a> {
    type Item = Result<VariantRef<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        let frame = match self.frames.next()? {
            Ok(frame) => frame,
            Err(e) => return Some(Err(e)),
        };
        Some(
            self.decoder
                .decode(frame.payload)
                .map_err(|e| e.offset_by(frame.payload_offset())),
        )
    }
}

impl core::iter::FusedIterator for Values<'_> {}
