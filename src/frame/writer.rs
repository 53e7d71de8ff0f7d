//! Writing framed values: `store_var` files and `put_var` streams.

use std::io::{self, Write};
use std::vec::Vec;

use crate::dialect::Dialect;
use crate::error::Result;
use crate::math::Precision;
use crate::read::VariantRef;
use crate::write::Writer;

use super::framing::Framing;
use crate::length_prefix::PREFIX_LEN;

/// Writes length-prefixed values to an [`std::io::Write`]: the bytes of
/// `FileAccess.store_var` (a save file) or `StreamPeer.put_var` (a TCP stream). Each value is
/// encoded into one reused scratch buffer, so the steady state does not allocate, and goes
/// out in a single `write_all`. Feature `std`.
///
/// ```
/// use gdwire::frame::{FrameWriter, Framing};
/// use gdwire::write::Endian;
/// use gdwire::{Decoder, Dialect, VariantRef};
///
/// let mut file = FrameWriter::new(Vec::new(), Framing::new(Endian::Little), Dialect::GODOT_3);
/// file.write_value(&VariantRef::Int(1))?;
/// file.write_with(|w| {
///     w.begin_array(2)?;
///     w.string("hp")?;
///     w.int(100)
/// })?;
/// let bytes = file.into_inner();
/// let values = Framing::new(Endian::Little).values(Decoder::new(Dialect::GODOT_3), &bytes);
/// assert_eq!(values.count(), 2);
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct FrameWriter<W> {
    inner: W,
    framing: Framing,
    dialect: Dialect,
    precision: Precision,
    scratch: Vec<u8>,
}

impl<W: Write> FrameWriter<W> {
    /// A writer of `dialect` values framed by `framing` (its byte order and maximum frame).
    ///
    /// ```
    /// use gdwire::frame::{FrameWriter, Framing};
    /// use gdwire::Dialect;
    /// let mut out = FrameWriter::new(Vec::new(), Framing::default(), Dialect::GODOT_4);
    /// out.write_payload(&[0, 0, 0, 0])?;
    /// assert_eq!(out.into_inner(), [4, 0, 0, 0, 0, 0, 0, 0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(inner: W, framing: Framing, dialect: Dialect) -> FrameWriter<W> {
        FrameWriter {
            inner,
            framing,
            dialect,
            precision: Precision::Single,
            scratch: Vec::new(),
        }
    }

    /// Writes the math values of [`FrameWriter::write_with`] in `precision`
    /// ([`Writer::with_precision`]): [`Precision::Double`] for a Godot 4 game built with
    /// double precision. Views given to [`FrameWriter::write_value`] keep their own.
    ///
    /// ```
    /// use gdwire::frame::{FrameWriter, Framing};
    /// use gdwire::{math::Vector2, Dialect, Precision};
    /// let mut out = FrameWriter::new(Vec::new(), Framing::default(), Dialect::GODOT_4)
    ///     .with_precision(Precision::Double);
    /// out.write_with(|w| w.vector2(Vector2 { x: 1.0, y: 2.0 }))?;
    /// assert_eq!(out.get_ref()[..8], [20, 0, 0, 0, 0x05, 0, 1, 0]); // 4 + 16 bytes, bit 16
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_precision(mut self, precision: Precision) -> FrameWriter<W> {
        self.precision = precision;
        self
    }

    /// Writes one frame holding `value` re-encoded canonically (full objects kept as in the
    /// view, like [`crate::to_vec`]).
    ///
    /// ```
    /// use gdwire::frame::{FrameWriter, Framing};
    /// use gdwire::{Dialect, VariantRef};
    /// let mut out = FrameWriter::new(Vec::new(), Framing::default(), Dialect::GODOT_4);
    /// out.write_value(&VariantRef::Bool(true))?;
    /// assert_eq!(out.into_inner(), [8, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_value(&mut self, value: &VariantRef<'_>) -> io::Result<()> {
        self.write_with(|w| w.value(value))
    }

    /// Writes one frame whose value is produced by streaming calls on a [`Writer`] (full
    /// objects enabled). The frame is written only if the value is complete and valid.
    ///
    /// ```
    /// use gdwire::frame::{FrameWriter, Framing};
    /// use gdwire::Dialect;
    /// let mut out = FrameWriter::new(Vec::new(), Framing::default(), Dialect::GODOT_4);
    /// out.write_with(|w| w.float(0.5))?;
    /// assert_eq!(out.get_ref().len(), 4 + 8);
    /// // An incomplete value writes nothing.
    /// assert!(out.write_with(|w| w.begin_array(2)).is_err());
    /// assert_eq!(out.get_ref().len(), 4 + 8);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_with<F>(&mut self, encode: F) -> io::Result<()>
    where
        F: FnOnce(&mut Writer<&mut Vec<u8>>) -> Result<()>,
    {
        self.scratch.clear();
        self.scratch.extend_from_slice(&[0; PREFIX_LEN]);
        let mut w = Writer::new(&mut self.scratch, self.dialect)
            .with_full_objects(true)
            .with_precision(self.precision);
        encode(&mut w)?;
        w.finish()?;
        let prefix = self.framing.prefix(self.scratch.len() - PREFIX_LEN)?;
        self.scratch[..PREFIX_LEN].copy_from_slice(&prefix);
        self.inner.write_all(&self.scratch)
    }

    /// Writes one frame around an already encoded value (not checked; see
    /// [`Writer::raw`] for a validated copy).
    ///
    /// ```
    /// use gdwire::frame::{FrameWriter, Framing};
    /// use gdwire::Dialect;
    /// let mut out = FrameWriter::new(Vec::new(), Framing::default(), Dialect::GODOT_4);
    /// out.write_payload(&[2, 0, 0, 0, 7, 0, 0, 0])?; // var_to_bytes(7), already encoded
    /// assert_eq!(out.into_inner()[..4], [8, 0, 0, 0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_payload(&mut self, payload: &[u8]) -> io::Result<()> {
        let prefix = self.framing.prefix(payload.len())?;
        self.inner.write_all(&prefix)?;
        self.inner.write_all(payload)
    }

    /// Flushes the inner writer.
    ///
    /// ```
    /// use gdwire::frame::{FrameWriter, Framing};
    /// use gdwire::{Dialect, VariantRef};
    /// let mut out = FrameWriter::new(std::io::BufWriter::new(Vec::new()), Framing::default(), Dialect::GODOT_4);
    /// out.write_value(&VariantRef::Nil)?;
    /// out.flush()?;
    /// assert_eq!(out.get_ref().get_ref().len(), 8);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }

    /// The inner writer.
    ///
    /// ```
    /// use gdwire::frame::{FrameWriter, Framing};
    /// use gdwire::Dialect;
    /// let out = FrameWriter::new(Vec::<u8>::new(), Framing::default(), Dialect::GODOT_4);
    /// assert!(out.get_ref().is_empty());
    /// ```
    pub fn get_ref(&self) -> &W {
        &self.inner
    }

    /// The inner writer, mutably.
    ///
    /// ```
    /// use gdwire::frame::{FrameWriter, Framing};
    /// use gdwire::{Dialect, VariantRef};
    /// let mut out = FrameWriter::new(Vec::new(), Framing::default(), Dialect::GODOT_4);
    /// out.write_value(&VariantRef::Nil)?;
    /// out.get_mut().clear(); // e.g. after sending the bytes
    /// assert!(out.get_ref().is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.inner
    }

    /// Unwraps the inner writer (not flushed).
    ///
    /// ```
    /// use gdwire::frame::{FrameWriter, Framing};
    /// use gdwire::{Dialect, VariantRef};
    /// let mut out = FrameWriter::new(Vec::new(), Framing::default(), Dialect::GODOT_4);
    /// out.write_value(&VariantRef::Int(1))?;
    /// let bytes: Vec<u8> = out.into_inner();
    /// assert_eq!(bytes.len(), 12);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn into_inner(self) -> W {
        self.inner
    }
}
