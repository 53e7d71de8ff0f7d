//! String, StringName and the length-prefixed, padded text blocks.

use crate::error::{ErrorKind, Result};
use crate::read::input::pad4;
use crate::variant_type::VariantType;
use crate::write::sink::Sink;
use crate::write::writer::{ScriptCheck, Writer};

use VariantType as T;

impl<S: Sink> Writer<S> {
    /// A String.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.string("hp")?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "\"hp\"");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn string(&mut self, s: &str) -> Result<()> {
        self.leaf(|w| w.text_item(T::String, s.as_bytes()))
    }

    /// A String from raw bytes, written as they are. The bytes must be text the dialect's
    /// reader accepts (UTF-8; Godot 3 also takes the non-UTF-8 forms its parser allows, e.g.
    /// 5- and 6-byte sequences), else [`ErrorKind::InvalidText`] (and, like every error, the
    /// writer stops): the writer never emits bytes the reader (and the engine) would reject.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.string_bytes(b"hp")?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "\"hp\"");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn string_bytes(&mut self, s: &[u8]) -> Result<()> {
        self.text_bytes(T::String, s)
    }

    /// A String or StringName (`ty`) from raw bytes, checked as [`Writer::string_bytes`] says.
    pub(crate) fn text_bytes(&mut self, ty: VariantType, s: &[u8]) -> Result<()> {
        self.leaf(|w| {
            if !crate::read::text_is_valid(s, w.dialect.text_rules()) {
                return Err(w.err(ErrorKind::InvalidText));
            }
            w.text_item(ty, s)
        })
    }

    /// A StringName (Godot 4, Pandemonium).
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.string_name("jump")?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "&\"jump\"");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn string_name(&mut self, s: &str) -> Result<()> {
        self.leaf(|w| w.text_item(T::StringName, s.as_bytes()))
    }

    /// Header, length, bytes and padding of valid text.
    #[inline]
    fn text_item(&mut self, ty: VariantType, s: &[u8]) -> Result<()> {
        let n = self.count(s.len())?;
        if self.script == ScriptCheck::Off {
            return self.header_block(ty, 0, n, s, pad4(s.len()));
        }
        self.header_u32(ty, 0, n)?;
        self.script_text(s)?;
        self.bytes(s)?;
        self.pad(s.len())
    }

    /// A text block of bytes from elsewhere (a view), checked for this dialect's reader.
    pub(crate) fn str_block(&mut self, s: &[u8]) -> Result<()> {
        self.check_text(s)?;
        self.script_text(s)?;
        self.block(s)
    }

    /// A text block of a `&str`: UTF-8, which every dialect's reader accepts, so it needs
    /// no check (validating it again was most of the cost of string-heavy encodes).
    #[inline]
    pub(super) fn text_block(&mut self, s: &str) -> Result<()> {
        self.block(s.as_bytes())
    }

    /// Length, bytes and zero padding of text already known to be valid.
    #[inline]
    pub(super) fn block(&mut self, s: &[u8]) -> Result<()> {
        let n = self.count(s.len())?;
        self.sink.write_padded(&n.to_le_bytes(), s, pad4(s.len()))
    }

    /// Text for this dialect's reader. Only views decoded in another dialect can fail: `&str`
    /// is valid everywhere, and Godot 3's parser accepts any UTF-8; Godot 3 text that is not
    /// UTF-8 (5-byte forms, surrogates) cannot be written for a strict-UTF-8 dialect.
    #[inline]
    pub(super) fn check_text(&self, s: &[u8]) -> Result<()> {
        if self.dialect.text_rules() == crate::dialect::TextRules::Strict
            && !s.is_ascii()
            && !crate::read::text_is_valid(s, crate::dialect::TextRules::Strict)
        {
            return Err(self.err(ErrorKind::InvalidText));
        }
        Ok(())
    }

    /// A PackedStringArray element from a view: `len + 1`, bytes, NUL, zero pad.
    pub(crate) fn packed_string(&mut self, s: &[u8], add_nul: bool) -> Result<()> {
        self.check_text(s)?;
        self.packed_block(s, add_nul)
    }

    /// A PackedStringArray element of valid text.
    #[inline]
    pub(super) fn packed_block(&mut self, s: &[u8], add_nul: bool) -> Result<()> {
        let len = s.len() + add_nul as usize;
        let n = self.count(len)?;
        // The NUL and the padding are zeros after the text: at most 1 + 3 of them.
        let zeros = add_nul as usize + pad4(len);
        self.sink.write_padded(&n.to_le_bytes(), s, zeros)
    }
}
