//! Wire primitives: little-endian words, zero padding, headers, engine-sized counts.

use crate::error::{Error, ErrorKind, Result};
use crate::read::input::pad4;
use crate::read::str_ref::visible_text;
use crate::variant_type::VariantType;
use crate::write::sink::Sink;
use crate::write::writer::{ScriptCheck, Writer};

/// The engine's sizes are C `int`.
pub(super) const MAX_LEN: usize = i32::MAX as usize;

impl<S: Sink> Writer<S> {
    #[cold]
    pub(crate) fn err(&self, kind: ErrorKind) -> Error {
        Error::new(kind, self.position())
    }

    /// A length or count as the engine's 32-bit `int`.
    #[inline]
    pub(crate) fn count(&self, n: usize) -> Result<u32> {
        if n > MAX_LEN {
            return Err(self.err(ErrorKind::TooLong { len: n }));
        }
        Ok(n as u32)
    }

    #[inline]
    pub(super) fn bytes(&mut self, b: &[u8]) -> Result<()> {
        self.sink.write(b)
    }

    #[inline]
    pub(crate) fn u32(&mut self, v: u32) -> Result<()> {
        self.sink.write(&v.to_le_bytes())
    }

    #[inline]
    pub(crate) fn u64(&mut self, v: u64) -> Result<()> {
        self.sink.write(&v.to_le_bytes())
    }

    #[inline]
    pub(super) fn zeros(&mut self, n: usize) -> Result<()> {
        self.sink.write(&[0; 4][..n.min(4)])
    }

    /// Zero padding after `len` bytes.
    #[inline]
    pub(super) fn pad(&mut self, len: usize) -> Result<()> {
        self.zeros(pad4(len))
    }

    /// The header word of `ty` in this dialect.
    #[inline]
    fn head(&mut self, ty: VariantType, data: u32) -> Result<[u8; 4]> {
        if self.script != ScriptCheck::Off {
            self.script_value(ty)?;
        }
        let id = self
            .dialect
            .wire_id(ty)
            .ok_or_else(|| self.err(ErrorKind::Unsupported(ty)))?;
        Ok((id as u32 | data).to_le_bytes())
    }

    #[inline]
    pub(crate) fn header(&mut self, ty: VariantType, data: u32) -> Result<()> {
        let h = self.head(ty, data)?;
        self.bytes(&h)
    }

    /// A header and a word in one sink write (each write has its own bookkeeping).
    #[inline]
    pub(super) fn header_u32(&mut self, ty: VariantType, data: u32, v: u32) -> Result<()> {
        let h = self.head(ty, data)?;
        self.bytes([h, v.to_le_bytes()].as_flattened())
    }

    /// A header, a word `n` (a length or count), `body` and `zeros` zero bytes (at most 4), in
    /// one sink write: strings, packed arrays. The caller has no `script` property check
    /// pending, or has made it.
    #[inline]
    pub(super) fn header_block(
        &mut self,
        ty: VariantType,
        data: u32,
        n: u32,
        body: &[u8],
        zeros: usize,
    ) -> Result<()> {
        let h = u32::from_le_bytes(self.head(ty, data)?);
        // One word, made in a register: from an array of the two, this write compiled to
        // 15 % more instructions on a whole encode of sync packets.
        let head = (u64::from(h) | u64::from(n) << 32).to_le_bytes();
        self.sink.write_padded(&head, body, zeros)
    }

    /// A header and a little-endian `u64` in one sink write.
    #[inline]
    pub(super) fn header_u64(&mut self, ty: VariantType, data: u32, v: u64) -> Result<()> {
        let h = self.head(ty, data)?;
        let lo = (v as u32).to_le_bytes();
        let hi = ((v >> 32) as u32).to_le_bytes();
        self.bytes([h, lo, hi].as_flattened())
    }

    /// A header and `words` (at most 32) in one sink write.
    #[inline]
    pub(super) fn header_words(
        &mut self,
        ty: VariantType,
        data: u32,
        words: &[[u8; 4]],
    ) -> Result<()> {
        let mut buf = [[0u8; 4]; 33];
        buf[0] = self.head(ty, data)?;
        let n = words.len().min(32);
        buf[1..=n].copy_from_slice(&words[..n]);
        self.bytes(buf[..=n].as_flattened())
    }

    /// After a property name: a `script` property's value is checked where the reader does.
    /// The name is compared as the reader sees it (a BOM skipped, cut at a NUL: `script\0`
    /// is `script` there).
    pub(crate) fn property_named(&mut self, name: &[u8]) {
        if self.dialect.checks_script_property() && visible_text(name) == b"script" {
            self.script = ScriptCheck::Value;
        }
    }

    /// The header of a `script` property's value: nil, or a String whose text comes next.
    #[cold]
    fn script_value(&mut self, ty: VariantType) -> Result<()> {
        match (self.script, ty) {
            (ScriptCheck::Value, VariantType::Nil) => self.script = ScriptCheck::Off,
            (ScriptCheck::Value, VariantType::String) => self.script = ScriptCheck::Path,
            _ => return Err(self.err(ErrorKind::InvalidScriptProperty)),
        }
        Ok(())
    }

    /// The text of a `script` property's String value, if this is one: a `res://` path.
    #[inline]
    pub(super) fn script_text(&mut self, s: &[u8]) -> Result<()> {
        if self.script == ScriptCheck::Off {
            return Ok(());
        }
        self.script = ScriptCheck::Off;
        if visible_text(s).starts_with(b"res://") {
            Ok(())
        } else {
            Err(self.err(ErrorKind::InvalidScriptProperty))
        }
    }
}
