//! `tokio_util::codec` support (feature `tokio`): [`FrameCodec`] splits and writes the
//! length-prefixed frames of `StreamPeer.put_var` / `PacketPeerStream` streams with the same
//! rules as [`crate::FrameBuffer`]; frames come out as [`Frame`]s, zero-copy `Bytes`, decoded
//! as a value ([`Frame::value`]) or, where multiplayer packets are framed the same way (in
//! tests), as a packet ([`Frame::packet`]).
//!
//! Message transports carry no prefix and need no codec: a `WebSocketPeer.put_var` message is
//! one value ([`crate::from_bytes`] / [`crate::to_vec`]); a `WebSocketMultiplayerPeer`
//! message is one packet ([`crate::multiplayer::Packet::parse`] /
//! [`crate::multiplayer::packet_to_vec`]), after the peer id message
//! ([`crate::multiplayer::peer_id_message`]).
//!
//! Bad traffic, as with `FrameBuffer`: a prefix above the maximum frame is an error as soon
//! as its four bytes arrive and the codec stays failed (the stream cannot be resynchronised);
//! end of stream inside a frame is `Truncated` at the frame's stream offset; a value that does
//! not decode inside a well-formed frame is only an error of that [`Frame`], the stream goes
//! on. Errors are `std::io::Error`s of kind `InvalidData` wrapping the crate's [`Error`]
//! ([`Error::from_io`] gets it back).
//!
//! ```
//! use bytes::BytesMut;
//! use gdwire::codec::FrameCodec;
//! use gdwire::{Decoder, Dialect, VariantRef};
//! use tokio_util::codec::{Decoder as _, Encoder as _};
//!
//! let mut codec = FrameCodec::new(Dialect::GODOT_4);
//! let mut buf = BytesMut::new();
//! codec.encode(&VariantRef::Int(7), &mut buf)?; // put_var(7)
//! assert_eq!(&buf[..], [8, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0]);
//!
//! let frame = codec.decode(&mut buf)?.expect("a whole frame");
//! assert_eq!(frame.offset(), 0);
//! assert_eq!(frame.value(Decoder::new(Dialect::GODOT_4))?.as_int(), Some(7));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io;

use bytes::{Buf, Bytes, BytesMut};
use tokio_util::codec::{Decoder as CodecDecoder, Encoder};

use crate::error::{Error, Result};
use crate::frame::{Framing, Split};
use crate::multiplayer::Packet;
use crate::read::{Decoder, VariantRef};
use crate::write::{Sink, Writer};
use crate::Dialect;

/// One frame's payload and where its prefix starts in the stream.
///
/// ```
/// use bytes::BytesMut;
/// use gdwire::codec::FrameCodec;
/// use gdwire::{Decoder, Dialect, VariantRef};
/// use tokio_util::codec::{Decoder as _, Encoder as _};
/// let mut codec = FrameCodec::new(Dialect::GODOT_4);
/// let mut buf = BytesMut::new();
/// codec.encode(&VariantRef::Int(7), &mut buf)?;
/// codec.encode(&VariantRef::Nil, &mut buf)?;
/// let frame = codec.decode(&mut buf)?.unwrap();
/// assert_eq!(frame.value(Decoder::new(Dialect::GODOT_4))?, VariantRef::Int(7));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    offset: usize,
    payload: Bytes,
}

impl Frame {
    /// Stream offset of the frame's length prefix.
    ///
    /// ```
    /// use bytes::BytesMut;
    /// use gdwire::codec::FrameCodec;
    /// use gdwire::{Decoder, Dialect, VariantRef};
    /// use tokio_util::codec::{Decoder as _, Encoder as _};
    /// let mut codec = FrameCodec::new(Dialect::GODOT_4);
    /// let mut buf = BytesMut::new();
    /// codec.encode(&VariantRef::Int(7), &mut buf)?;
    /// codec.encode(&VariantRef::Nil, &mut buf)?;
    /// codec.decode(&mut buf)?;
    /// let second = codec.decode(&mut buf)?.unwrap();
    /// assert_eq!(second.offset(), 12);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The payload (prefix removed).
    ///
    /// ```
    /// use bytes::BytesMut;
    /// use gdwire::codec::FrameCodec;
    /// use gdwire::{Decoder, Dialect, VariantRef};
    /// use tokio_util::codec::{Decoder as _, Encoder as _};
    /// let mut codec = FrameCodec::new(Dialect::GODOT_4);
    /// let mut buf = BytesMut::new();
    /// codec.encode(&VariantRef::Int(7), &mut buf)?;
    /// codec.encode(&VariantRef::Nil, &mut buf)?;
    /// let frame = codec.decode(&mut buf)?.unwrap();
    /// assert_eq!(&frame.payload()[..], [2, 0, 0, 0, 7, 0, 0, 0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn payload(&self) -> &Bytes {
        &self.payload
    }

    /// Decodes the payload as one value, as `get_var` does (bytes after the value are
    /// ignored); error offsets count from the start of the stream.
    ///
    /// ```
    /// use bytes::BytesMut;
    /// use gdwire::codec::FrameCodec;
    /// use gdwire::{Decoder, Dialect, VariantRef};
    /// use tokio_util::codec::{Decoder as _, Encoder as _};
    /// let mut codec = FrameCodec::new(Dialect::GODOT_4);
    /// let mut buf = BytesMut::new();
    /// codec.encode(&VariantRef::Int(7), &mut buf)?;
    /// codec.encode(&VariantRef::Nil, &mut buf)?;
    /// codec.decode(&mut buf)?;
    /// let frame = codec.decode(&mut buf)?.unwrap();
    /// assert!(frame.value(Decoder::new(Dialect::GODOT_4))?.is_nil());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn value(&self, decoder: Decoder) -> Result<VariantRef<'_>> {
        decoder
            .decode(&self.payload)
            .map_err(|e| e.offset_by(self.offset + 4))
    }

    /// Parses the payload as one `SceneMultiplayer` packet; error offsets count from the
    /// start of the stream.
    ///
    /// ```
    /// use bytes::BytesMut;
    /// use gdwire::codec::FrameCodec;
    /// use gdwire::{Decoder, Dialect, VariantRef};
    /// use tokio_util::codec::{Decoder as _, Encoder as _};
    /// let mut codec = FrameCodec::new(Dialect::GODOT_4);
    /// let mut buf = BytesMut::new();
    /// codec.encode(&VariantRef::Int(7), &mut buf)?;
    /// codec.encode(&VariantRef::Nil, &mut buf)?;
    /// let frame = codec.decode(&mut buf)?.unwrap();
    /// // A put_var value is not a SceneMultiplayer packet: an error of this frame only.
    /// assert!(frame.packet(Decoder::new(Dialect::GODOT_4)).is_err());
    /// assert!(codec.decode(&mut buf)?.is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn packet(&self, decoder: Decoder) -> Result<Packet<'_>> {
        Packet::parse_with(decoder, &self.payload).map_err(|e| e.offset_by(self.offset + 4))
    }
}

/// Length-prefixed frames (`u32` prefix, little-endian unless the [`Framing`] says
/// otherwise, maximum frame 8 MiB by default): `Decoder` yields [`Frame`]s, `Encoder` writes
/// a value (`&VariantRef`) or an already encoded payload (`&[u8]`) with its prefix.
///
/// ```
/// use bytes::BytesMut;
/// use gdwire::codec::FrameCodec;
/// use gdwire::{Decoder, Dialect, VariantRef};
/// use tokio_util::codec::{Decoder as _, Encoder as _};
/// let mut codec = FrameCodec::new(Dialect::GODOT_4);
/// let mut buf = BytesMut::new();
/// codec.encode(&VariantRef::Int(7), &mut buf)?;
/// codec.encode(&VariantRef::Nil, &mut buf)?;
/// assert_eq!(buf.len(), 12 + 8);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct FrameCodec {
    framing: Framing,
    dialect: Dialect,
    /// Stream offset of the first byte not handed out yet.
    position: usize,
    error: Option<Error>,
}

impl FrameCodec {
    /// Default framing (little-endian, 8 MiB), values written in `dialect`.
    ///
    /// ```
    /// use gdwire::codec::FrameCodec;
    /// use gdwire::frame::DEFAULT_MAX_FRAME;
    /// use gdwire::Dialect;
    /// assert_eq!(FrameCodec::new(Dialect::GODOT_3).framing().max_frame(), DEFAULT_MAX_FRAME);
    /// ```
    pub fn new(dialect: Dialect) -> FrameCodec {
        FrameCodec::with_framing(Framing::default(), dialect)
    }

    /// The given framing (byte order, maximum frame).
    ///
    /// ```
    /// use bytes::BytesMut;
    /// use gdwire::codec::FrameCodec;
    /// use gdwire::frame::Framing;
    /// use gdwire::write::Endian;
    /// use gdwire::{Dialect, VariantRef};
    /// use tokio_util::codec::Encoder as _;
    /// let mut codec = FrameCodec::with_framing(Framing::new(Endian::Big), Dialect::GODOT_4);
    /// let mut buf = BytesMut::new();
    /// codec.encode(&VariantRef::Nil, &mut buf)?;
    /// assert_eq!(&buf[..4], [0, 0, 0, 4]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_framing(framing: Framing, dialect: Dialect) -> FrameCodec {
        FrameCodec {
            framing,
            dialect,
            position: 0,
            error: None,
        }
    }

    /// The framing.
    ///
    /// ```
    /// use gdwire::codec::FrameCodec;
    /// use gdwire::write::Endian;
    /// use gdwire::Dialect;
    /// assert_eq!(FrameCodec::new(Dialect::GODOT_4).framing().endian(), Endian::Little);
    /// ```
    pub fn framing(&self) -> Framing {
        self.framing
    }

    /// Stream offset of the next frame.
    ///
    /// ```
    /// use bytes::BytesMut;
    /// use gdwire::codec::FrameCodec;
    /// use gdwire::{Decoder, Dialect, VariantRef};
    /// use tokio_util::codec::{Decoder as _, Encoder as _};
    /// let mut codec = FrameCodec::new(Dialect::GODOT_4);
    /// let mut buf = BytesMut::new();
    /// codec.encode(&VariantRef::Int(7), &mut buf)?;
    /// codec.encode(&VariantRef::Nil, &mut buf)?;
    /// codec.decode(&mut buf)?;
    /// assert_eq!(codec.position(), 12);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn position(&self) -> usize {
        self.position
    }

    fn fail(&mut self, e: Error) -> io::Error {
        let e = e.offset_by(self.position);
        self.error = Some(e);
        e.into()
    }
}

impl CodecDecoder for FrameCodec {
    type Item = Frame;
    type Error = io::Error;

    fn decode(&mut self, src: &mut BytesMut) -> io::Result<Option<Frame>> {
        if let Some(e) = self.error {
            return Err(e.into());
        }
        // The one splitter of the crate decides; only the lengths are taken from it.
        let len = match self.framing.split(src) {
            Ok(Split::Complete { frame, .. }) => frame.len(),
            Ok(Split::Partial { needed }) => {
                src.reserve(needed);
                return Ok(None);
            }
            Err(e) => return Err(self.fail(e)),
        };
        src.advance(4);
        let payload = src.split_to(len).freeze();
        let offset = self.position;
        self.position += 4 + len;
        Ok(Some(Frame { offset, payload }))
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> io::Result<Option<Frame>> {
        match self.decode(src)? {
            Some(frame) => Ok(Some(frame)),
            None if src.is_empty() => Ok(None),
            None => {
                let e = Framing::truncated(src.len(), 0);
                Err(self.fail(e))
            }
        }
    }
}

/// Lets the crate's writer append to a `BytesMut`.
struct BytesSink<'a>(&'a mut BytesMut);

impl Sink for BytesSink<'_> {
    fn write(&mut self, bytes: &[u8]) -> Result<()> {
        self.0.extend_from_slice(bytes);
        Ok(())
    }
    fn position(&self) -> usize {
        self.0.len()
    }
    fn patch(&mut self, at: usize, bytes: &[u8]) -> Result<()> {
        if let Some(dst) = self.0.get_mut(at..at.saturating_add(bytes.len())) {
            dst.copy_from_slice(bytes);
        }
        Ok(())
    }
}

impl Encoder<&VariantRef<'_>> for FrameCodec {
    type Error = io::Error;

    fn encode(&mut self, value: &VariantRef<'_>, dst: &mut BytesMut) -> io::Result<()> {
        let start = dst.len();
        let mut w =
            Writer::new(BytesSink(dst), self.dialect).with_length_prefix(self.framing.endian());
        let written = w.value(value).and_then(|()| w.finish());
        let dst = w.into_sink().0;
        let checked = written.and_then(|n| self.framing.prefix(n - 4).map(|_| ()));
        if let Err(e) = checked {
            dst.truncate(start);
            return Err(e.into());
        }
        Ok(())
    }
}

impl Encoder<&[u8]> for FrameCodec {
    type Error = io::Error;

    fn encode(&mut self, payload: &[u8], dst: &mut BytesMut) -> io::Result<()> {
        let prefix = self.framing.prefix(payload.len())?;
        dst.reserve(4 + payload.len());
        dst.extend_from_slice(&prefix);
        dst.extend_from_slice(payload);
        Ok(())
    }
}
