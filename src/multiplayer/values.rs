//! The compressed Variant encoding of `MultiplayerAPI::encode_and_compress_variant`: a bool in
//! one byte, an int in 1/2/4/8 bytes, anything else as plain `encode_variant` output.

use crate::error::{Error, ErrorKind, Expected, PacketField, Result};
use crate::read::{Decoder, VariantRef};
use crate::variant_type::VariantType;

/// Bits 0–5 of a compressed value's first byte: the type.
pub(crate) const TYPE_MASK: u8 = 0x3F;
/// Bit 7: a bool's value.
pub(crate) const BOOL_TRUE: u8 = 0x80;
const BOOL_ID: u8 = 1;
const INT_ID: u8 = 2;

fn short(field: PacketField, at: usize) -> Error {
    Error::new(ErrorKind::Truncated(Expected::Packet(field)), at)
}

/// Checks the compressed value at `pos` (which must be `< end`) and returns where it ends.
/// `bytes` is the whole packet so that error offsets are packet offsets.
pub(crate) fn skip_one(dec: &Decoder, bytes: &[u8], pos: usize, end: usize) -> Result<usize> {
    let head = *bytes
        .get(..end)
        .and_then(|b| b.get(pos))
        .ok_or(short(PacketField::Value, pos))?;
    let max = dec.dialect().variant_max();
    let id = head & TYPE_MASK;
    if id >= max {
        return Err(Error::new(ErrorKind::UnknownType { id, max }, pos));
    }
    match id {
        BOOL_ID => Ok(pos + 1),
        INT_ID => {
            let after = pos + 1 + int_width(head);
            if after > end {
                let kind = ErrorKind::Truncated(Expected::Payload(VariantType::Int));
                return Err(Error::new(kind, pos + 1));
            }
            Ok(after)
        }
        // The engine hands the whole byte, mode bits included, to `decode_variant`.
        _ => {
            let used = dec
                .validate(&bytes[pos..end])
                .map_err(|e| e.offset_by(pos))?;
            Ok(pos + used)
        }
    }
}

/// Where the compressed value at `pos` ends, when [`skip_one`] accepted it before (the
/// packet was parsed): the same answer without checking the value again.
fn validated_end(dec: &Decoder, bytes: &[u8], pos: usize, end: usize) -> Result<usize> {
    let head = *bytes
        .get(..end)
        .and_then(|b| b.get(pos))
        .ok_or(short(PacketField::Value, pos))?;
    match head & TYPE_MASK {
        BOOL_ID => Ok(pos + 1),
        INT_ID => Ok(pos + 1 + int_width(head)),
        _ => Ok(pos + dec.validated_len(&bytes[pos..end])?),
    }
}

/// Reads the compressed value at `pos`, which [`skip_one`] accepted when the packet was
/// parsed, and writes where it ends to `after`; `None` where that parse would have failed.
/// Other types are read by the decoder without being validated again
/// (`Decoder::decode_validated_prefix`, which requires that parse: only [`Values`] made by
/// [`Values::check`] or [`Values::parsed`] call this). The view is returned alone, so that
/// the iterator hands it on as built (moved out of a tuple, it was copied with wider loads
/// than its fields were stored with).
pub(crate) fn read_one<'a>(
    dec: &Decoder,
    bytes: &'a [u8],
    pos: usize,
    end: usize,
    after: &mut usize,
) -> Option<VariantRef<'a>> {
    let head = *bytes.get(..end).and_then(|b| b.get(pos))?;
    match head & TYPE_MASK {
        BOOL_ID => {
            *after = pos + 1;
            Some(VariantRef::Bool(head & BOOL_TRUE != 0))
        }
        INT_ID => {
            *after = skip_one(dec, bytes, pos, end).ok()?;
            Some(VariantRef::Int(read_int(bytes.get(pos + 1..*after)?)))
        }
        id if id >= dec.dialect().variant_max() => None,
        _ => {
            let mut used = 0;
            let value = dec.decode_validated_prefix(bytes.get(pos..end)?, &mut used);
            *after = pos + used;
            value
        }
    }
}

/// Bytes after the type byte of a compressed int (mode in bits 6–7).
pub(crate) const fn int_width(head: u8) -> usize {
    1 << (head >> 6)
}

fn read_int(b: &[u8]) -> i64 {
    match *b {
        [a] => a as i8 as i64,
        [a, b] => i16::from_le_bytes([a, b]) as i64,
        [a, b, c, d] => i32::from_le_bytes([a, b, c, d]) as i64,
        [a, b, c, d, e, f, g, h] => i64::from_le_bytes([a, b, c, d, e, f, g, h]),
        _ => 0, // unreachable: the width comes from the mode bits
    }
}

/// The compressed form of an int: type byte and the narrowest of i8/i16/i32/i64, as the
/// engine chooses. Returns the buffer and how many of its bytes are used.
pub(crate) fn int_bytes(v: i64) -> ([u8; 9], usize) {
    let mut out = [0u8; 9];
    let le = v.to_le_bytes();
    let (mode, width) = if i8::try_from(v).is_ok() {
        (0u8, 1)
    } else if i16::try_from(v).is_ok() {
        (1, 2)
    } else if i32::try_from(v).is_ok() {
        (2, 4)
    } else {
        (3, 8)
    };
    out[0] = INT_ID | mode << 6;
    out[1..1 + width].copy_from_slice(&le[..width]);
    (out, 1 + width)
}

/// The compressed form of a bool: `0x01` or `0x81`.
pub(crate) const fn bool_byte(v: bool) -> u8 {
    if v {
        BOOL_ID | BOOL_TRUE
    } else {
        BOOL_ID
    }
}

/// Compressed values in a packet: arguments of a remote call, a spawn state, the values of
/// a sync entry. The packet was validated when it was parsed, so iterating yields plain
/// views (nothing can fail) and reads each value without checking it again. The values of
/// a SYNC entry are counted (`len`, `size_hint`) by reading their headers when asked.
///
/// Bools and ints come back as [`VariantRef::Bool`] and [`VariantRef::Int`] whatever width
/// they were sent in; every other value is the crate's ordinary view of its
/// `encode_variant` bytes.
///
/// ```
/// use gdwire::multiplayer::Packet;
/// // Godot 4.6 spawning "Enemy" with the state [Vector2(1.5, -2), "boss", 100]; the int is
/// // compressed to two bytes, `0x02 0x64`.
/// let bytes = b"\x04\x00\x2e\x01\0\0\x01\0\0\0\x01\0\0\0\x06\0\0\0\x02\0\0\0Enemy\0\
///     \x05\0\0\0\0\0\xc0\x3f\0\0\0\xc0\x04\0\0\0\x04\0\0\0boss\x02\x64";
/// let Packet::Spawn(spawn) = Packet::parse(bytes)? else { panic!() };
/// let mut state = spawn.state;
/// assert_eq!(state.len(), 3);
/// assert_eq!(state.nth(2).and_then(|v| v.as_int()), Some(100));
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Values<'a> {
    dec: Decoder,
    bytes: &'a [u8],
    pos: usize,
    /// The values fill `pos..end` exactly.
    end: usize,
    /// How many are left, when known (a parsed SYNC entry's are counted only if asked).
    left: Option<u32>,
}

impl<'a> Values<'a> {
    /// Validates the compressed values in `bytes[pos..end]`: exactly `count` of them when
    /// `count` is given (the caller checks where they end), otherwise as many as fill the
    /// range. Returns them and where the last one ends. Inlined around the out-of-line
    /// [`Values::check_run`], so the view is built where the caller keeps it: returned
    /// through memory, it was copied on with wide loads from the narrow stores that wrote
    /// it, a stall on every remote call parsed.
    #[inline(always)]
    pub(crate) fn check(
        dec: Decoder,
        bytes: &'a [u8],
        pos: usize,
        end: usize,
        count: Option<u32>,
    ) -> Result<(Values<'a>, usize)> {
        let (n, at) = Values::check_run(&dec, bytes, pos, end, count)?;
        let values = Values {
            dec,
            bytes,
            pos,
            end: at,
            left: Some(n),
        };
        Ok((values, at))
    }

    /// [`Values::check`] without the view: how many values there are and where the last
    /// one ends, for a caller that needs only that (a parse that reads the values again
    /// when they are iterated).
    pub(crate) fn check_run(
        dec: &Decoder,
        bytes: &[u8],
        pos: usize,
        end: usize,
        count: Option<u32>,
    ) -> Result<(u32, usize)> {
        let mut at = pos;
        let mut n = 0u32;
        loop {
            match count {
                Some(c) if n == c => break,
                None if at >= end => break,
                _ => {}
            }
            at = skip_one(dec, bytes, at, end)?;
            n += 1;
        }
        Ok((n, at))
    }

    /// The values filling `bytes[pos..end]`, which [`Values::check`] accepted before with
    /// `dec` (the packet was parsed; required: their views are read as validated, see
    /// [`read_one`]): nothing is read until they are iterated or counted.
    pub(crate) fn parsed(dec: Decoder, bytes: &'a [u8], pos: usize, end: usize) -> Values<'a> {
        Values {
            dec,
            bytes,
            pos,
            end,
            left: None,
        }
    }

    /// How many values are left: known from parsing, or counted now (without checking the
    /// values again).
    fn count_left(&self) -> usize {
        if let Some(n) = self.left {
            return n as usize;
        }
        let (mut at, mut n) = (self.pos, 0);
        while at < self.end {
            match validated_end(&self.dec, self.bytes, at, self.end) {
                Ok(after) => at = after,
                Err(_) => break, // not on a parsed packet
            }
            n += 1;
        }
        n
    }

    /// The encoded bytes of the values not read yet.
    ///
    /// ```
    /// # use gdwire::multiplayer::Packet;
    /// # let bytes = b"\x04\x00\x2e\x01\0\0\x01\0\0\0\x01\0\0\0\x06\0\0\0\x02\0\0\0Enemy\0\
    /// #     \x05\0\0\0\0\0\xc0\x3f\0\0\0\xc0\x04\0\0\0\x04\0\0\0boss\x02\x64";
    /// # let Packet::Spawn(spawn) = Packet::parse(bytes)? else { panic!() };
    /// // `spawn`: Godot 4.6 spawning "Enemy" with the state [Vector2(1.5, -2), "boss", 100].
    /// let mut state = spawn.state;
    /// state.nth(1); // skip the Vector2 and the String
    /// assert_eq!(state.as_bytes(), [0x02, 0x64]);
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes.get(self.pos..self.end).unwrap_or_default()
    }

    /// Packet offset of the next value.
    ///
    /// ```
    /// # use gdwire::multiplayer::Packet;
    /// # let bytes = b"\x04\x00\x2e\x01\0\0\x01\0\0\0\x01\0\0\0\x06\0\0\0\x02\0\0\0Enemy\0\
    /// #     \x05\0\0\0\0\0\xc0\x3f\0\0\0\xc0\x04\0\0\0\x04\0\0\0boss\x02\x64";
    /// # let Packet::Spawn(spawn) = Packet::parse(bytes)? else { panic!() };
    /// // `spawn`: Godot 4.6 spawning "Enemy" with the state [Vector2(1.5, -2), "boss", 100].
    /// let mut state = spawn.state;
    /// assert_eq!(state.position(), 28); // after the 18-byte header, one id and "Enemy\0"
    /// state.next();
    /// assert_eq!(state.position(), 40); // a Vector2 is 12 bytes
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn position(&self) -> usize {
        self.pos
    }
}

impl<'a> Iterator for Values<'a> {
    type Item = VariantRef<'a>;

    fn next(&mut self) -> Option<VariantRef<'a>> {
        if self.pos >= self.end {
            return None;
        }
        let mut after = self.pos;
        let value = read_one(&self.dec, self.bytes, self.pos, self.end, &mut after);
        if value.is_some() {
            self.pos = after;
            if let Some(n) = &mut self.left {
                *n = n.saturating_sub(1);
            }
        } else {
            // Parsing validated every value, so this cannot happen; it ends the values.
            (self.pos, self.left) = (self.end, Some(0));
        }
        value
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count_left();
        (n, Some(n))
    }
}

impl ExactSizeIterator for Values<'_> {}
