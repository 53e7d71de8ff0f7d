//! `Writer::raw`: copying an already-encoded value after validating it.

use crate::error::{Error, ErrorKind, Result};
use crate::read::{Decoder, MAX_DEPTH};
use crate::write::sink::Sink;
use crate::write::writer::Writer;

impl<S: Sink> Writer<S> {
    /// Copies an already-encoded value as one item, after validating it with the reader in
    /// this dialect (full objects only with [`Writer::with_full_objects`]; the nesting limit
    /// counts from this item's depth). `bytes` must hold exactly one value
    /// ([`ErrorKind::TrailingBytes`] otherwise). A PackedByteArray left unpadded at the very
    /// end, which the engine accepts, gets its zero padding.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.begin_array(1)?;
    /// w.raw(&[2, 0, 0, 0, 7, 0, 0, 0])?; // checked with the reader, then copied
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "[7]");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn raw(&mut self, bytes: &[u8]) -> Result<()> {
        self.guard(|w| {
            let depth = w.item()?;
            let dec = Decoder::new(w.dialect)
                .with_allow_objects(w.full_objects)
                .with_max_depth(MAX_DEPTH - depth);
            let end = dec.value_end(bytes)?;
            if end < bytes.len() {
                let count = bytes.len() - end;
                return Err(Error::new(ErrorKind::TrailingBytes { count }, end));
            }
            w.bytes(bytes)?;
            w.zeros(end - bytes.len())?;
            Ok(())
        })
    }
}
