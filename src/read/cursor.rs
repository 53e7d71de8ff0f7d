//! A pull reader over a sequence of values.

use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Expected, Result};
use crate::header::Header;
use crate::read::decoder::{read_noting_copy, Decoder};
use crate::read::head::validated_view;
use crate::read::input::u32_at;
use crate::read::skip::skip_value;
use crate::read::value::VariantRef;
use crate::variant_type::VariantType;

/// Reads values one after another from a byte slice: [`Cursor::read`] hands out a validated
/// view, [`Cursor::skip`] validates and steps over a whole value in one pass without
/// recursion, [`Cursor::peek_type`] looks at the next header.
///
/// ```
/// use gdwire::{Cursor, Dialect, VariantType};
/// // Two values back to back: 7 and "hi".
/// let bytes = [2,0,0,0, 7,0,0,0, 4,0,0,0, 2,0,0,0, b'h',b'i',0,0];
/// let mut cursor = Cursor::new(Dialect::GODOT_4, &bytes);
/// assert_eq!(cursor.peek_type()?, VariantType::Int);
/// cursor.skip()?;
/// assert_eq!(cursor.read()?.as_str(), Some("hi"));
/// assert!(cursor.is_at_end());
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Cursor<'a> {
    dec: Decoder,
    data: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor with engine defaults for `dialect`.
    ///
    /// ```
    /// use gdwire::{Cursor, Dialect};
    /// let mut cursor = Cursor::new(Dialect::GODOT_3, &[0, 0, 0, 0]);
    /// assert!(cursor.read()?.is_nil());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(dialect: Dialect, data: &'a [u8]) -> Cursor<'a> {
        Cursor::with_decoder(Decoder::new(dialect), data)
    }

    /// A cursor with the given options.
    ///
    /// ```
    /// use gdwire::{Cursor, Decoder, Dialect};
    /// let decoder = Decoder::new(Dialect::GODOT_4).with_max_depth(0);
    /// let mut cursor = Cursor::with_decoder(decoder, &[28, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
    /// assert!(cursor.read().is_err()); // [null] nests one level: too deep here
    /// ```
    pub fn with_decoder(dec: Decoder, data: &'a [u8]) -> Cursor<'a> {
        Cursor { dec, data, pos: 0 }
    }

    /// The decoding options.
    ///
    /// ```
    /// use gdwire::{Cursor, Dialect};
    /// let cursor = Cursor::new(Dialect::GODOT_3, &[]);
    /// assert_eq!(cursor.decoder().dialect(), Dialect::GODOT_3);
    /// ```
    pub fn decoder(&self) -> Decoder {
        self.dec
    }

    /// Offset of the next value.
    ///
    /// ```
    /// use gdwire::{Cursor, Dialect};
    /// let mut cursor = Cursor::new(Dialect::GODOT_4, &[0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]);
    /// cursor.skip()?;
    /// assert_eq!(cursor.position(), 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The bytes not read yet.
    ///
    /// ```
    /// use gdwire::{Cursor, Dialect};
    /// let mut cursor = Cursor::new(Dialect::GODOT_4, &[0, 0, 0, 0, 0xAA]);
    /// cursor.skip()?;
    /// assert_eq!(cursor.remaining(), [0xAA]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn remaining(&self) -> &'a [u8] {
        self.data.get(self.pos..).unwrap_or_default()
    }

    /// True when no bytes are left.
    ///
    /// ```
    /// use gdwire::{Cursor, Dialect};
    /// let mut cursor = Cursor::new(Dialect::GODOT_4, &[0, 0, 0, 0]);
    /// assert!(!cursor.is_at_end());
    /// cursor.skip()?;
    /// assert!(cursor.is_at_end());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_at_end(&self) -> bool {
        self.pos >= self.data.len()
    }

    /// The type of the next value, from its header, without consuming it.
    ///
    /// ```
    /// use gdwire::{Cursor, Dialect, VariantType};
    /// let cursor = Cursor::new(Dialect::GODOT_4, &[28, 0, 0, 0, 0, 0, 0, 0]);
    /// assert_eq!(cursor.peek_type()?, VariantType::Array);
    /// assert_eq!(cursor.position(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn peek_type(&self) -> Result<VariantType> {
        let header = u32_at(self.data, self.pos)
            .ok_or(Error::new(ErrorKind::Truncated(Expected::Header), self.pos))?;
        let id = Header(header).type_id();
        let dialect = self.dec.dialect();
        dialect.type_of(id).ok_or(Error::new(
            ErrorKind::UnknownType {
                id,
                max: dialect.variant_max(),
            },
            self.pos,
        ))
    }

    /// Validates the next value and returns a view of it; the cursor moves past it. On error
    /// the cursor does not move.
    ///
    /// ```
    /// use gdwire::{Cursor, Dialect, VariantRef};
    /// let mut cursor = Cursor::new(Dialect::GODOT_4, &[2, 0, 0, 0, 5, 0, 0, 0, 0xff, 0, 0, 0]);
    /// assert_eq!(cursor.read()?, VariantRef::Int(5));
    /// assert!(cursor.read().is_err());
    /// assert_eq!(cursor.position(), 8); // not moved by the failure
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn read(&mut self) -> Result<VariantRef<'a>> {
        // The view is returned as the callee built it, not unwrapped and wrapped again: a
        // copy of it would read its fields' narrow stores back as 16-byte loads.
        if self.dec.checks_canonical() {
            // The callee writes the position (capped at the input's end): nothing is left to
            // do after the call.
            return read_noting_copy(&self.dec, self.data, self.pos, &mut self.pos);
        }
        let end = skip_value(&self.dec, self.data, self.pos, 0, true)?;
        let value = validated_view(&self.dec, self.data, self.pos, end);
        if value.is_ok() {
            self.pos = end.min(self.data.len());
        }
        value
    }

    /// Like [`Cursor::read`], but builds an owned [`Variant`](crate::owned::Variant) (feature
    /// `alloc`) that outlives the input, in the same one validating pass as
    /// [`Decoder::decode_owned`]. On error the cursor does not move; error offsets count from
    /// the start of the cursor's input.
    ///
    /// ```
    /// use gdwire::owned::Variant;
    /// use gdwire::{Cursor, Dialect};
    /// // var_to_bytes(7) then var_to_bytes("hi"), back to back.
    /// let bytes = vec![2, 0, 0, 0, 7, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'i', 0, 0];
    /// let mut cursor = Cursor::new(Dialect::GODOT_4, &bytes);
    /// let mut kept = Vec::new();
    /// while !cursor.is_at_end() {
    ///     kept.push(cursor.read_owned()?);
    /// }
    /// drop(bytes); // the values own their data
    /// assert_eq!(kept, [Variant::Int(7), Variant::from("hi")]);
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    #[cfg(feature = "alloc")]
    #[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
    pub fn read_owned(&mut self) -> Result<crate::owned::Variant> {
        let (value, used) = self
            .dec
            .decode_owned_prefix(self.remaining())
            .map_err(|e| e.offset_by(self.pos))?;
        self.pos = (self.pos + used).min(self.data.len());
        Ok(value)
    }

    /// Validates the next value and moves past it; returns its type. On error the cursor does
    /// not move.
    ///
    /// ```
    /// use gdwire::{Cursor, Dialect, VariantType};
    /// let mut cursor = Cursor::new(Dialect::GODOT_4, &[1, 0, 0, 0, 1, 0, 0, 0]);
    /// assert_eq!(cursor.skip()?, VariantType::Bool);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn skip(&mut self) -> Result<VariantType> {
        let ty = self.peek_type()?;
        let end = skip_value(&self.dec, self.data, self.pos, 0, true)?;
        self.pos = end.min(self.data.len());
        Ok(ty)
    }
}
