//! Decoding options and the entry points.

use crate::dialect::{Dialect, TextRules};
use crate::error::{Error, ErrorKind, Result};
use crate::read::cursor::Cursor;
use crate::read::head::{quick_leaf, validated_view};
use crate::read::input::pad4;
use crate::read::skip::{skip_noting_copy, skip_value};
use crate::read::value::VariantRef;

/// The engine's `MAX_RECURSION_DEPTH`: values nested deeper than this are rejected.
///
/// ```
/// use gdwire::{from_bytes, Dialect, MAX_DEPTH};
/// let mut deep = Vec::new();
/// for _ in 0..=MAX_DEPTH {
///     deep.extend_from_slice(&[28, 0, 0, 0, 1, 0, 0, 0]);
/// }
/// deep.extend_from_slice(&[0, 0, 0, 0]); // null at depth 1025
/// assert!(from_bytes(Dialect::GODOT_4, &deep).is_err());
/// ```
pub const MAX_DEPTH: u32 = 1024;

/// Decoding options: dialect, whether full objects are allowed, nesting limit.
///
/// Defaults match the engine's `bytes_to_var` / `get_var`: objects not allowed (id-mode
/// objects always decode), depth limit 1024.
///
/// ```
/// use gdwire::{Decoder, Dialect};
/// let decoder = Decoder::new(Dialect::GODOT_3).with_allow_objects(true).with_max_depth(64);
/// let (value, used) = decoder.decode_prefix(&[0, 0, 0, 0, 0xAA])?;
/// assert!(value.is_nil());
/// assert_eq!(used, 4); // trailing bytes are left alone
/// assert!(decoder.decode_exact(&[0, 0, 0, 0, 0xAA]).is_err());
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Decoder {
    dialect: Dialect,
    /// The nesting limit in the low 32 bits, then the option bits ([`ALLOW_OBJECTS`],
    /// [`CANONICAL_CHECK`], [`TEXT_VALIDATED`]). One word, so that a decoder is a pair of
    /// words: passed in two registers and copied as two words. As separate fields it was
    /// written with narrow stores and copied on with one 16-byte load, which the processor
    /// cannot serve from them (a stall on every packet a server parses).
    options: u64,
}

/// [`Decoder::with_allow_objects`].
const ALLOW_OBJECTS: u64 = 1 << 32;
/// [`Decoder::with_canonical_check`].
const CANONICAL_CHECK: u64 = 1 << 33;
/// Set only in the copy the run of a validated container reads with (`Seq::new`, see
/// `Items::checked`) and the one a validated top-level leaf is read with
/// (`read::head::validated_view`), in the strict-UTF-8 dialects: the strings read with it
/// were accepted by a validating pass, so their text is strict UTF-8
/// (`StrRef::note_validated`). Never set on a decoder a user holds.
const TEXT_VALIDATED: u64 = 1 << 34;

/// The options a user sets (`text_validated` is internal to the views, never set on a
/// decoder a user holds).
impl core::fmt::Debug for Decoder {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Decoder")
            .field("dialect", &self.dialect)
            .field("allow_objects", &self.allows_objects())
            .field("canonical_check", &self.checks_canonical())
            .field("max_depth", &self.max_depth())
            .finish()
    }
}

impl Decoder {
    /// Engine defaults for `dialect`.
    ///
    /// ```
    /// use gdwire::{Decoder, Dialect, MAX_DEPTH};
    /// let decoder = Decoder::new(Dialect::GODOT_4);
    /// assert_eq!(decoder.max_depth(), MAX_DEPTH);
    /// assert!(!decoder.allows_objects());
    /// ```
    pub const fn new(dialect: Dialect) -> Decoder {
        Decoder {
            dialect,
            options: MAX_DEPTH as u64,
        }
    }

    /// This decoder with the option `bit` set to `on`.
    #[inline(always)]
    const fn with_bit(mut self, bit: u64, on: bool) -> Decoder {
        self.options = (self.options & !bit) | ((on as u64).wrapping_neg() & bit);
        self
    }

    /// Allows full objects (class name and properties), as `bytes_to_var_with_objects` /
    /// `allow_objects = true` do. Objects are never instantiated by this crate, so this is safe
    /// here; the option exists for engine parity (without it the engine rejects them).
    ///
    /// ```
    /// use gdwire::{Decoder, Dialect};
    /// // A full Godot 3 object: class "Node" and no properties.
    /// let object = [17, 0, 0, 0, 4, 0, 0, 0, b'N', b'o', b'd', b'e', 0, 0, 0, 0];
    /// assert!(Decoder::new(Dialect::GODOT_3).decode(&object).is_err());
    /// let v = Decoder::new(Dialect::GODOT_3).with_allow_objects(true).decode(&object)?;
    /// assert!(v.as_object().is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn with_allow_objects(self, allow: bool) -> Decoder {
        self.with_bit(ALLOW_OBJECTS, allow)
    }

    /// Sets the nesting limit (top-level value = depth 0). Skipping never recurses per level,
    /// so large limits are safe (Godot 3.2 had none and crashed at ~30,000 levels). Whatever
    /// the limit, at most 2048 levels may have items still pending after a nested child at
    /// once (that needs memory, and the read path does not allocate); deeper such inputs fail
    /// with `TooDeep { limit: 2048 }`. Chains of last items are not limited by this.
    ///
    /// ```
    /// use gdwire::{Decoder, Dialect};
    /// // [[]] nests one level deep.
    /// let nested = [28, 0, 0, 0, 1, 0, 0, 0, 28, 0, 0, 0, 0, 0, 0, 0];
    /// assert!(Decoder::new(Dialect::GODOT_4).with_max_depth(1).decode(&nested).is_ok());
    /// assert!(Decoder::new(Dialect::GODOT_4).with_max_depth(0).decode(&nested).is_err());
    /// ```
    pub const fn with_max_depth(mut self, max_depth: u32) -> Decoder {
        self.options = (self.options & !(u32::MAX as u64)) | max_depth as u64;
        self
    }

    /// Also notes, in the same pass as the validation, whether each decoded value's bytes
    /// are exactly what [`Writer::value`](crate::Writer::value) writes for it in this
    /// dialect ("canonical": engine output and this crate's always are). Re-sending such a
    /// container unchanged ([`to_slice`](crate::to_slice), [`to_vec`](crate::to_vec),
    /// [`Writer::value`](crate::Writer::value)) is then a plain copy, with no second look at
    /// its bytes. For relays and servers that forward what they decode: in the crate's
    /// benchmarks, decode and re-send took 9–19 % less time on game states, packets, save
    /// games and text, and 9 % more on deeply nested values. The decode itself does more
    /// per value, so the option is off by default. Applies to the
    /// values that [`Decoder::decode`] and [`Cursor::read`] return, not to the containers
    /// reached by iterating them (those are checked when re-encoded, as without the option).
    ///
    /// ```
    /// use gdwire::{to_slice, Decoder, Dialect};
    /// // [1, "a"] as Godot 4.6 writes it, forwarded unchanged.
    /// let bytes = [0x1c,0,0,0, 2,0,0,0, 2,0,0,0, 1,0,0,0, 4,0,0,0, 1,0,0,0, b'a',0,0,0];
    /// let relay = Decoder::new(Dialect::GODOT_4).with_canonical_check(true);
    /// let value = relay.decode(&bytes)?;
    /// let mut out = [0u8; 64];
    /// let n = to_slice(Dialect::GODOT_4, &value, &mut out)?; // a copy
    /// assert_eq!(&out[..n], &bytes[..]);
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub const fn with_canonical_check(self, check: bool) -> Decoder {
        self.with_bit(CANONICAL_CHECK, check)
    }

    /// Whether decoding notes which values are canonical ([`Decoder::with_canonical_check`]).
    ///
    /// ```
    /// use gdwire::{Decoder, Dialect};
    /// assert!(!Decoder::new(Dialect::GODOT_4).checks_canonical());
    /// ```
    pub const fn checks_canonical(&self) -> bool {
        self.options & CANONICAL_CHECK != 0
    }

    /// The dialect.
    ///
    /// ```
    /// use gdwire::{Decoder, Dialect};
    /// assert_eq!(Decoder::new(Dialect::GODOT_3).dialect(), Dialect::GODOT_3);
    /// ```
    pub const fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Whether full objects are accepted.
    ///
    /// ```
    /// use gdwire::{Decoder, Dialect};
    /// assert!(Decoder::new(Dialect::GODOT_3).with_allow_objects(true).allows_objects());
    /// ```
    pub const fn allows_objects(&self) -> bool {
        self.options & ALLOW_OBJECTS != 0
    }

    /// The nesting limit.
    ///
    /// ```
    /// use gdwire::{Decoder, Dialect};
    /// assert_eq!(Decoder::new(Dialect::GODOT_3).with_max_depth(64).max_depth(), 64);
    /// ```
    pub const fn max_depth(&self) -> u32 {
        self.options as u32
    }

    /// This decoder as the one a container's run reads with: `validated` says a validating
    /// pass with it accepted the container's bytes (`Items::checked`), which in the
    /// strict-UTF-8 dialects proves the text of its strings (see [`TEXT_VALIDATED`]).
    #[inline(always)]
    pub(crate) fn for_items(self, validated: bool) -> Decoder {
        let strict = self.dialect.text_rules() == TextRules::Strict;
        self.with_bit(TEXT_VALIDATED, validated && strict)
    }

    /// Whether the strings read with this decoder (without validating them) have strict
    /// UTF-8 text: see [`Decoder::for_items`].
    #[inline(always)]
    pub(crate) const fn text_validated(&self) -> bool {
        self.options & TEXT_VALIDATED != 0
    }

    /// Decodes the value at the start of `bytes` and returns it with the number of bytes it
    /// used. The whole value is validated first (one pass, no allocation), so iterating the
    /// returned view cannot meet malformed data.
    ///
    /// ```
    /// use gdwire::{Decoder, Dialect, VariantRef};
    /// // 7, then bytes that belong to whatever comes next.
    /// let (value, used) = Decoder::new(Dialect::GODOT_4).decode_prefix(&[2, 0, 0, 0, 7, 0, 0, 0, 0xAA])?;
    /// assert_eq!((value, used), (VariantRef::Int(7), 8));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn decode_prefix<'a>(&self, bytes: &'a [u8]) -> Result<(VariantRef<'a>, usize)> {
        let mut end = 0;
        let value = self.decode_at_start(bytes, &mut end)?;
        // An unpadded PackedByteArray at the very end "uses" its missing padding, as in the
        // engine; report what the input actually had.
        Ok((value, end.min(bytes.len())))
    }

    /// The value at the start of `bytes`; where it ends is written to `end`. The view is
    /// returned alone, so that `decode` hands it on as built (out of a tuple it was copied,
    /// its fields' narrow stores read back with 16-byte loads).
    #[inline(always)]
    fn decode_at_start<'a>(&self, bytes: &'a [u8], end: &mut usize) -> Result<VariantRef<'a>> {
        if self.checks_canonical() {
            return read_noting_copy(self, bytes, 0, end);
        }
        *end = skip_value(self, bytes, 0, 0, true)?;
        validated_view(self, bytes, 0, *end)
    }

    /// Decodes the value at the start of `bytes`, ignoring anything after it, like the
    /// engine's `bytes_to_var` and `get_var`.
    ///
    /// ```
    /// use gdwire::{Decoder, Dialect};
    /// let v = Decoder::new(Dialect::GODOT_4).decode(&[1, 0, 0, 0, 1, 0, 0, 0, 0xAA])?;
    /// assert_eq!(v.as_bool(), Some(true)); // the trailing 0xAA is ignored, as by the engine
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn decode<'a>(&self, bytes: &'a [u8]) -> Result<VariantRef<'a>> {
        self.decode_at_start(bytes, &mut 0)
    }

    /// Decodes `bytes`, which must hold exactly one value.
    ///
    /// ```
    /// use gdwire::{Decoder, Dialect};
    /// let decoder = Decoder::new(Dialect::GODOT_4);
    /// assert!(decoder.decode_exact(&[0, 0, 0, 0]).is_ok());
    /// assert!(decoder.decode_exact(&[0, 0, 0, 0, 0xAA]).is_err());
    /// ```
    pub fn decode_exact<'a>(&self, bytes: &'a [u8]) -> Result<VariantRef<'a>> {
        let mut end = 0;
        let value = self.decode_at_start(bytes, &mut end);
        let used = end.min(bytes.len());
        match bytes.len() - used {
            count if count > 0 && value.is_ok() => {
                Err(Error::new(ErrorKind::TrailingBytes { count }, used))
            }
            _ => value,
        }
    }

    /// Validates the value at the start of `bytes` without building views; returns its length.
    ///
    /// ```
    /// use gdwire::{Decoder, Dialect};
    /// // A String "hi" is 12 bytes; the rest is not looked at.
    /// let used = Decoder::new(Dialect::GODOT_4).validate(&[4, 0, 0, 0, 2, 0, 0, 0, b'h', b'i', 0, 0, 0xAA])?;
    /// assert_eq!(used, 12);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn validate(&self, bytes: &[u8]) -> Result<usize> {
        Ok(skip_value(self, bytes, 0, 0, true)?.min(bytes.len()))
    }

    /// Validates the value at the start of `bytes` and returns where it ends, which may lie
    /// past `bytes.len()` for an unpadded PackedByteArray at the very end (the engine counts
    /// the missing padding). Used by the writer's raw pass-through.
    pub(crate) fn value_end(&self, bytes: &[u8]) -> Result<usize> {
        // The reader caps that PackedByteArray's end at the input's end. Every value's size
        // is a multiple of four, so the end with the padding is the capped end rounded up.
        let end = skip_value(self, bytes, 0, 0, true)?;
        Ok(end + pad4(end))
    }

    /// [`Decoder::validate`] of a value this decoder validated before: where it ends,
    /// without checking it again.
    pub(crate) fn validated_len(&self, bytes: &[u8]) -> Result<usize> {
        Ok(skip_value(self, bytes, 0, 0, false)?.min(bytes.len()))
    }

    /// [`Decoder::decode_prefix`] of a value this decoder validated before (a parsed
    /// multiplayer packet's arguments): the same view and extent without the second
    /// validation. The bytes must have been validated with this decoder: the container views
    /// returned are marked so (`Items::checked`), and `StrRef::as_str` trusts the text of
    /// their items on that mark. Its one caller reads only the values its packet's parse
    /// validated (`multiplayer/values.rs`: `Values::check`, then `read_one` on the same bytes
    /// with the same decoder).
    ///
    /// Where the value ends is written to `end`. The view is returned alone, and as the
    /// iterator that calls this returns it (`None` where the validation before would have
    /// failed): converted from a `Result` or moved out of a tuple, it was copied with wider
    /// loads than its fields were stored with.
    pub(crate) fn decode_validated_prefix<'a>(
        &self,
        bytes: &'a [u8],
        end: &mut usize,
    ) -> Option<VariantRef<'a>> {
        if self.checks_canonical() {
            // The canonical note is made while validating.
            let value = self.decode_at_start(bytes, end).ok();
            *end = (*end).min(bytes.len());
            return value;
        }
        if let Some((value, value_end)) = quick_leaf(&self.for_items(true), bytes, 0, false) {
            *end = value_end;
            return Some(value);
        }
        let value_end = skip_value(self, bytes, 0, 0, false).ok()?;
        *end = value_end.min(bytes.len());
        validated_view(self, bytes, 0, value_end).ok()
    }

    /// A cursor over a sequence of values in `bytes`.
    ///
    /// ```
    /// use gdwire::{Decoder, Dialect, VariantRef};
    /// // Two values back to back, no length prefixes.
    /// let bytes = [2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0];
    /// let mut cursor = Decoder::new(Dialect::GODOT_4).cursor(&bytes);
    /// assert_eq!(cursor.read()?, VariantRef::Int(1));
    /// assert_eq!(cursor.read()?, VariantRef::Int(2));
    /// assert!(cursor.is_at_end());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cursor<'a>(&self, bytes: &'a [u8]) -> Cursor<'a> {
        Cursor::with_decoder(*self, bytes)
    }
}

/// The value at `pos`, validated as a whole, its canonical bytes noted
/// ([`Decoder::with_canonical_check`]); where it ends, capped at the end of `data` (an
/// unpadded PackedByteArray's missing padding is not in it), is written to `end` (left alone
/// on error): [`Decoder::decode`] and [`Cursor::read`] with that option. The view is returned
/// alone so that it is built in the caller's return slot (moved out of a tuple, its fields'
/// narrow stores were read back with 16-byte loads: a failed store forward per value). Out
/// of line: inlined, its code made their plain path slower.
#[inline(never)]
pub(crate) fn read_noting_copy<'a>(
    dec: &Decoder,
    data: &'a [u8],
    pos: usize,
    end: &mut usize,
) -> Result<VariantRef<'a>> {
    let (value_end, canonical) = skip_noting_copy(dec, data, pos, 0, true)?;
    // The view's data ends where the value does, so that its bytes are known without
    // another pass (a canonical value has its full padding, so `value_end` is within `data`).
    let value = match data.get(..value_end) {
        Some(value_data) if canonical => {
            validated_view(dec, value_data, pos, value_end).map(|mut value| {
                value.note_canonical();
                value
            })
        }
        _ => validated_view(dec, data, pos, value_end),
    };
    if value.is_ok() {
        *end = value_end.min(data.len());
    }
    value
}

/// Decodes the first value in `bytes` with engine defaults; trailing bytes are ignored, as by
/// `bytes_to_var`. See [`Decoder`] for options.
///
/// ```
/// use gdwire::{from_bytes, Dialect};
/// let v = from_bytes(Dialect::GODOT_4, &[3, 0, 0, 0, 0, 0, 0, 0x3f])?; // 0.5
/// assert_eq!(v.as_float(), Some(0.5));
/// # Ok::<(), gdwire::Error>(())
/// ```
pub fn from_bytes(dialect: Dialect, bytes: &[u8]) -> Result<VariantRef<'_>> {
    Decoder::new(dialect).decode(bytes)
}

/// Decodes `bytes`, which must hold exactly one value (no trailing bytes).
///
/// ```
/// use gdwire::{from_bytes_exact, Dialect};
/// assert!(from_bytes_exact(Dialect::GODOT_4, &[0, 0, 0, 0]).is_ok());
/// assert!(from_bytes_exact(Dialect::GODOT_4, &[0, 0, 0, 0, 0]).is_err());
/// ```
pub fn from_bytes_exact(dialect: Dialect, bytes: &[u8]) -> Result<VariantRef<'_>> {
    Decoder::new(dialect).decode_exact(bytes)
}
