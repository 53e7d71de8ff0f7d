//! String views and the engines' UTF-8 acceptance rules (docs/wire-format.md §5.3).

use core::fmt;

use crate::dialect::TextRules;
use crate::read::utf8::{zero_flags, BOM};

mod block;

#[cfg(feature = "serde")]
pub(crate) use block::string_block_checked;
pub(crate) use block::{string_block, string_block_trusted, StrRun};

/// The part of a string block the engine turns into text: a leading BOM is skipped and the
/// text stops at the first NUL byte.
#[inline]
pub(crate) fn visible_text(raw: &[u8]) -> &[u8] {
    let raw = raw.strip_prefix(BOM).unwrap_or(raw);
    match find_nul(raw) {
        Some(nul) => &raw[..nul],
        None => raw,
    }
}

/// The first NUL byte. Strings on the wire are often short (names, keys, chat lines), where
/// `memchr`'s call and dispatch cost more than the search: up to 16 bytes are tested as the
/// first and the last word of the text, which overlap (the classic has-zero-byte test, no
/// loop), longer texts up to [`LANE_SEARCH`] bytes 16 at a time.
#[inline]
fn find_nul(raw: &[u8]) -> Option<usize> {
    if raw.len() > 16 {
        return find_nul_long(raw);
    }
    // The lowest flagged byte of a word is exact; a NUL in the overlap of the two words is
    // found in the first.
    macro_rules! search {
        ($n:literal, $word:ty) => {
            if let (Some(head), Some(tail)) = (raw.first_chunk::<$n>(), raw.last_chunk::<$n>()) {
                let head = zero_flags!(<$word>::from_le_bytes(*head), $word);
                if head != 0 {
                    return Some(head.trailing_zeros() as usize / 8);
                }
                let tail = zero_flags!(<$word>::from_le_bytes(*tail), $word);
                return (tail != 0).then(|| raw.len() - $n + tail.trailing_zeros() as usize / 8);
            }
        };
    }
    search!(8, u64);
    search!(4, u32);
    raw.iter().position(|&b| b == 0)
}

/// Texts longer than 16 bytes and at most this long are searched for a NUL 16 bytes at a
/// time by [`find_nul_long`], longer ones by `memchr`.
const LANE_SEARCH: usize = 128;

/// [`find_nul`] for texts of more than 16 bytes. Up to [`LANE_SEARCH`] bytes, 16 at a time:
/// a compare of each lane with zero, then one test of the lot (the compiler makes these a
/// vector compare and a mask move: 0.56 to 0.95 of `memchr`'s time on such texts); the last
/// 16 bytes overlap the block before them, whose bytes held no NUL. Out of line, as the
/// `memchr` call was: inlined into every `bytes`, it made the callers' own code longer (the
/// benches' short-string walks ran 1 % more instructions and up to 7 % more time).
#[inline(never)]
fn find_nul_long(raw: &[u8]) -> Option<usize> {
    if raw.len() > LANE_SEARCH {
        return memchr::memchr(0, raw);
    }
    let zeros = crate::read::utf8::zero_lanes;
    let any = |z: &[u8; 16]| z.iter().fold(false, |any, &b| any | (b != 0));
    let first = |z: &[u8; 16]| u128::from_le_bytes(*z).trailing_zeros() as usize / 8;
    let mut base = 0;
    let mut blocks = raw.chunks_exact(16);
    for block in &mut blocks {
        if let Some(block) = block.first_chunk::<16>() {
            let z = zeros(block);
            if any(&z) {
                return Some(base + first(&z));
            }
        }
        base += 16;
    }
    let end = raw.len().checked_sub(16)?;
    let z = zeros(raw.get(end..)?.first_chunk::<16>()?);
    any(&z).then(|| end + first(&z))
}

/// True when the engine line's UTF-8 parser accepts `raw` (the string block's bytes).
#[inline]
pub(crate) fn is_valid(raw: &[u8], rules: TextRules) -> bool {
    // Fast path: when the whole block is strict UTF-8, so is the visible text (a NUL or a
    // BOM cannot sit inside a multi-byte sequence), and Godot 3 accepts every strict
    // sequence (its rejections are all overlong or malformed forms). This saves the BOM
    // and NUL search on the common case.
    utf8_ok(raw) || is_valid_slow(raw, rules)
}

/// Strict UTF-8 validation of a whole block.
#[inline]
fn utf8_ok(raw: &[u8]) -> bool {
    crate::read::utf8::is_utf8(raw)
}

#[cold]
fn is_valid_slow(raw: &[u8], rules: TextRules) -> bool {
    let text = visible_text(raw);
    match rules {
        TextRules::Strict => core::str::from_utf8(text).is_ok(),
        TextRules::Godot3 => text.is_ascii() || godot3_accepts(text),
    }
}

/// Lead byte → sequence length in Godot 3's parser (up to 6), `None` for an invalid lead.
#[inline]
fn godot3_sequence_len(lead: u8) -> Option<usize> {
    Some(match lead {
        _ if lead & 0x80 == 0 => 1,
        _ if lead & 0xE0 == 0xC0 => 2,
        _ if lead & 0xF0 == 0xE0 => 3,
        _ if lead & 0xF8 == 0xF0 => 4,
        _ if lead & 0xFC == 0xF8 => 5,
        _ if lead & 0xFE == 0xFC => 6,
        _ => return None,
    })
}

/// Decodes one code point the way Godot 3's `String::parse_utf8` does (3.2 / 3.x
/// `core/ustring.cpp`), including its partial overlong check. Returns `(code point, length)`.
fn godot3_decode(text: &[u8]) -> Option<(u32, usize)> {
    let lead = *text.first()?;
    let len = godot3_sequence_len(lead)?;
    if len > text.len() {
        return None;
    }
    if len == 1 {
        return Some((lead as u32, 1));
    }
    if len == 2 && lead & 0x1E == 0 {
        return None; // C0 / C1: overlong two-byte form
    }
    let mut unichar = (0xFF_u32 >> (len + 1)) & lead as u32;
    for (i, &b) in text[1..len].iter().enumerate().map(|(i, b)| (i + 1, b)) {
        if b & 0xC0 != 0x80 {
            return None;
        }
        // The engine's only check for longer overlong forms, kept exactly as written.
        if unichar == 0 && i == 2 && ((b & 0x7F) >> (7 - len)) == 0 {
            return None;
        }
        unichar = (unichar << 6) | (b & 0x3F) as u32;
    }
    Some((unichar, len))
}

fn godot3_accepts(mut text: &[u8]) -> bool {
    while !text.is_empty() {
        // ASCII runs dominate real data; skip them without decoding.
        let ascii = text.iter().take_while(|b| b.is_ascii()).count();
        text = &text[ascii..];
        if text.is_empty() {
            break;
        }
        match godot3_decode(text) {
            Some((_, len)) => text = &text[len..],
            None => return false,
        }
    }
    true
}

/// A borrowed string from the input: String, StringName, NodePath parts, class and property
/// names, PackedStringArray elements.
///
/// The raw bytes of the block are always available ([`StrRef::raw`]); [`StrRef::bytes`] is the
/// text as the engine sees it (BOM skipped, stops at the first NUL), and [`StrRef::as_str`]
/// gives it as `&str` when it is strict UTF-8 (always, for Godot 4 and Pandemonium; Godot 3
/// also accepts surrogates and code points above U+10FFFF, which `&str` cannot hold).
///
/// ```
/// use gdwire::{from_bytes, Dialect, VariantRef};
/// let bytes = [4, 0, 0, 0, 3, 0, 0, 0, b'a', b's', b'd', 0];
/// let VariantRef::String(s) = from_bytes(Dialect::GODOT_4, &bytes)? else { panic!() };
/// assert_eq!(s.as_str(), Some("asd"));
/// assert_eq!(s, "asd");
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct StrRef<'a> {
    raw: &'a [u8],
    rules: TextRules,
    /// The visible text ([`StrRef::bytes`]) is strict UTF-8. Set only by
    /// [`StrRef::checked`] and [`StrRef::checked_block`] (`raw` as a whole passed the strict
    /// validator `utf8::is_utf8`, or `utf8::short_plain` / `utf8::short_plain_padded`:
    /// ASCII), by [`StrRef::note_validated`], or handed back by `StrRun::iter` (`block.rs`)
    /// to views of blocks that had it; [`StrRef::as_str`] relies on it.
    utf8: bool,
    /// The visible text is all of `raw`: no NUL byte, no leading BOM (`utf8::short_plain`:
    /// ASCII without a NUL, or `utf8::is_utf8_whole`). Set only with `utf8`.
    whole: bool,
}

impl<'a> StrRef<'a> {
    /// A view of a block whose text is not checked here (the input was validated before, or
    /// the caller checks it).
    #[inline(always)]
    pub(crate) fn new(raw: &'a [u8], rules: TextRules) -> StrRef<'a> {
        StrRef {
            raw,
            rules,
            utf8: false,
            whole: false,
        }
    }

    /// Checks the text the way the engine line does (what [`is_valid`] answers); `None` when
    /// it refuses it. The strict UTF-8 check the validation starts with is recorded, so that
    /// [`StrRef::as_str`] of this view needs no second pass over the bytes. Inlined so the
    /// view stays in registers (returned through memory, its byte-wide flags were reloaded
    /// as one word: a store-forwarding stall per string).
    ///
    /// Whether the text is kept whole (no NUL, no leading BOM) is noted too (`whole`), found
    /// in the same pass ([`utf8::is_utf8_whole`](crate::read::utf8::is_utf8_whole)), so
    /// that [`StrRef::bytes`] of this view needs no NUL search either.
    #[inline(always)]
    pub(crate) fn checked(self) -> Option<StrRef<'a>> {
        self.checked_as::<true>()
    }

    /// [`StrRef::checked`] for a block whose view is not kept (only its verdict is): texts
    /// other than short ASCII ones are not tested for being whole (for a PackedStringArray's
    /// elements, whose views are re-read later, that test cost the validating skip of (c)
    /// 2.4 % more instructions).
    #[inline(always)]
    pub(crate) fn checked_verdict(self) -> Option<StrRef<'a>> {
        self.checked_as::<false>()
    }

    /// [`StrRef::checked`], noting whole texts past the short ASCII ones with `WHOLE`.
    #[inline(always)]
    fn checked_as<const WHOLE: bool>(self) -> Option<StrRef<'a>> {
        // Short ASCII names and keys, the commonest strings: two word tests also tell there
        // is no NUL (and, being ASCII, no BOM), so `bytes` needs no search either.
        if crate::read::utf8::short_plain(self.raw) {
            let (utf8, whole) = (true, true);
            return Some(StrRef {
                utf8,
                whole,
                ..self
            });
        }
        self.checked_past_short::<WHOLE>()
    }

    /// Takes in `validated`, the [`Decoder::text_validated`] of the decoder that read this
    /// block without checking it: true only when a validating pass with that decoder accepted
    /// the block under the strict rules (it is an item of a validated container), and that
    /// acceptance ([`is_valid`]) means the visible text is strict UTF-8, so
    /// [`StrRef::as_str`] needs no second pass.
    ///
    /// [`Decoder::text_validated`]: crate::read::Decoder
    #[inline(always)]
    pub(crate) fn note_validated(&mut self, validated: bool) {
        self.utf8 |= validated;
    }

    /// [`StrRef::checked_as`] past its short-ASCII test.
    #[inline(always)]
    fn checked_past_short<const WHOLE: bool>(self) -> Option<StrRef<'a>> {
        let (utf8, whole) = if WHOLE {
            crate::read::utf8::is_utf8_whole(self.raw)
        } else {
            (utf8_ok(self.raw), false)
        };
        if utf8 {
            Some(StrRef {
                utf8,
                whole,
                ..self
            })
        } else if is_valid_slow(self.raw, self.rules) {
            Some(self)
        } else {
            None
        }
    }

    /// [`StrRef::checked`] of the block whose text is the first `len` bytes of `padded` (the
    /// text and its padding, as read): ASCII texts of up to 8 bytes in one word test
    /// (`utf8::short_plain_padded`). `None` when `padded` is shorter than `len`.
    #[cfg(feature = "serde")]
    #[inline(always)]
    pub(crate) fn checked_block(
        padded: &'a [u8],
        len: usize,
        rules: TextRules,
    ) -> Option<StrRef<'a>> {
        let raw = padded.get(..len)?;
        let plain = if len <= 8 {
            crate::read::utf8::short_plain_padded(padded, len)
        } else {
            crate::read::utf8::short_plain(raw)
        };
        if plain {
            return Some(StrRef {
                raw,
                rules,
                utf8: true,
                whole: true,
            });
        }
        StrRef::new(raw, rules).checked_past_short::<true>()
    }

    /// The block's bytes exactly as on the wire (without length and padding).
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// // A String block holding "hi", a NUL and more bytes: the engine stops at the NUL.
    /// let bytes = [4, 0, 0, 0, 4, 0, 0, 0, b'h', b'i', 0, b'x'];
    /// let s = from_bytes(Dialect::GODOT_4, &bytes)?.as_string().unwrap();
    /// assert_eq!(s.raw(), b"hi\0x");
    /// assert_eq!(s.bytes(), b"hi");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn raw(&self) -> &'a [u8] {
        self.raw
    }

    /// The text bytes the engine keeps: leading BOM skipped, cut at the first NUL.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// // A leading BOM is skipped, as by the engine.
    /// let bytes = [4, 0, 0, 0, 5, 0, 0, 0, 0xEF, 0xBB, 0xBF, b'h', b'i', 0, 0, 0];
    /// let s = from_bytes(Dialect::GODOT_4, &bytes)?.as_string().unwrap();
    /// assert_eq!(s.bytes(), b"hi");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn bytes(&self) -> &'a [u8] {
        // Short ASCII text without a NUL is all visible. The views of a validated
        // container's items are not tested for it when read (most uses never ask), so the
        // two word tests come here, before the BOM and NUL search they make unneeded.
        if self.whole || crate::read::utf8::short_plain(self.raw) {
            return self.raw;
        }
        visible_text(self.raw)
    }

    /// The text as `&str`, or `None` if it is not strict UTF-8 (possible only in Godot 3).
    ///
    /// Free for strings the reader checked while handing them out (a [`Walker`]'s values,
    /// property names, and the elements of its PackedStringArrays and NodePaths) and, in the
    /// dialects whose strings are strict UTF-8 (Godot 4, Pandemonium), for the items of a
    /// validated container (the iterators of a `decode` or `Cursor::read` result): the
    /// verdict is kept in the view. Otherwise (Godot 3's looser rules, a top-level string)
    /// the text is checked once more, with the reader's own validator.
    ///
    /// [`Walker`]: crate::read::Walker
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// let surrogate = [4, 0, 0, 0, 3, 0, 0, 0, 0xED, 0xA0, 0x80, 0];
    /// let s = from_bytes(Dialect::GODOT_3, &surrogate)?.as_string().unwrap();
    /// assert_eq!(s.as_str(), None); // valid for Godot 3, not for `&str`
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    #[allow(unsafe_code)] // one of the crate's two `unsafe` blocks, see docs/hardening.md
    pub fn as_str(&self) -> Option<&'a str> {
        let text = if self.whole || crate::read::utf8::short_plain(self.raw) {
            // Short ASCII names and keys, the commonest strings: two word tests instead of a
            // NUL search (and, without the reader's verdict, the validator).
            self.raw
        } else if self.utf8 {
            visible_text(self.raw)
        } else {
            let text = visible_text(self.raw);
            if !utf8_ok(text) {
                return None;
            }
            text
        };
        {
            debug_assert!(core::str::from_utf8(text).is_ok(), "{text:02x?}");
            // SAFETY: `text` is strict UTF-8, by one of four proofs.
            // - `whole` is set only by `checked` and `checked_block`, with `utf8`, after
            //   `utf8::short_plain` / `utf8::short_plain_padded` accepted `raw` (as below), or
            //   `utf8::is_utf8_whole` found `raw` strict UTF-8, without a NUL byte and not
            //   starting with a BOM: `text` is `raw`.
            // - `utf8` is set only by `checked` and `checked_block`, after `utf8::is_utf8` or
            //   `utf8::short_plain` / `utf8::short_plain_padded` (all bytes of `raw` below
            //   0x80) accepted `raw`. `text` is `raw`, or `raw` minus a leading BOM (a whole
            //   character, U+FEFF) and cut before its first NUL byte (in UTF-8 always the
            //   character U+0000, never part of another character), so it is strict UTF-8 too.
            //   `StrRun::iter` (`block.rs`) sets it on the views it re-reads from the very
            //   blocks `StrRun::read` read and checked (same bytes, same order, through the
            //   same block reader) when every one of them got it there.
            //   Or `note_validated` set it, from `Decoder::text_validated` of the decoder that
            //   read the block: only the top-level read of a validated value and a validated
            //   container's run read with such a decoder (`Decoder::for_items`; the
            //   invariant is at `Items::checked`), in the
            //   strict-UTF-8 dialects only, whose acceptance (`is_valid`: `utf8_ok(raw)` or
            //   `from_utf8(visible_text(raw))`) means `visible_text(raw)` is strict UTF-8 (a
            //   strict `raw` has a strict visible text, as above); `text` is
            //   `visible_text(raw)`.
            // - Or `utf8::short_plain` accepted `raw` just now: every byte below 0x80 and none
            //   zero, so `text` is `raw` (no BOM to skip, no NUL to cut at), all ASCII.
            // - Or `utf8::is_utf8` accepted `text` itself just now.
            // `utf8::is_utf8` is a strict UTF-8 validator, exhaustively compared with
            // `core::str::from_utf8` in its tests, in both of its implementations.
            Some(unsafe { core::str::from_utf8_unchecked(text) })
        }
    }

    /// The code points as the engine decodes them (Godot 3 may yield surrogates and values
    /// above U+10FFFF). Stops early if the text is invalid, which cannot happen for a view
    /// obtained from a successful decode.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// let surrogate = [4, 0, 0, 0, 4, 0, 0, 0, b'a', 0xED, 0xA0, 0x80];
    /// let s = from_bytes(Dialect::GODOT_3, &surrogate)?.as_string().unwrap();
    /// assert_eq!(s.code_points().collect::<Vec<_>>(), [0x61, 0xD800]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn code_points(&self) -> impl Iterator<Item = u32> + 'a {
        let mut text = self.bytes();
        let rules = self.rules;
        core::iter::from_fn(move || {
            if text.is_empty() {
                return None;
            }
            let (c, len) = match rules {
                TextRules::Godot3 => godot3_decode(text)?,
                TextRules::Strict => {
                    let len = godot3_sequence_len(text[0])?.min(4);
                    let s = core::str::from_utf8(text.get(..len)?).ok()?;
                    (s.chars().next()? as u32, len)
                }
            };
            text = &text[len..];
            Some(c)
        })
    }

    /// True when the text is empty.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// let s = from_bytes(Dialect::GODOT_4, &[4, 0, 0, 0, 0, 0, 0, 0])?.as_string().unwrap();
    /// assert!(s.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.bytes().is_empty()
    }
}

impl PartialEq<str> for StrRef<'_> {
    fn eq(&self, other: &str) -> bool {
        self.bytes() == other.as_bytes()
    }
}

impl PartialEq<&str> for StrRef<'_> {
    fn eq(&self, other: &&str) -> bool {
        self.bytes() == other.as_bytes()
    }
}

impl PartialEq for StrRef<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.bytes() == other.bytes()
    }
}

impl fmt::Debug for StrRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.as_str() {
            Some(s) => fmt::Debug::fmt(s, f),
            None => write!(f, "StrRef({:02x?})", self.bytes()),
        }
    }
}

impl fmt::Display for StrRef<'_> {
    /// Writes the text; code points `char` cannot hold are written as U+FFFD.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(s) = self.as_str() {
            return f.write_str(s);
        }
        for c in self.code_points() {
            fmt::Write::write_char(f, char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_nul_matches_a_plain_search() {
        // Past `LANE_SEARCH`: the lanes and `memchr`.
        let mut buf = [b'a'; 160];
        // Under Miri (minutes per thousand searches), the short forms, the first lane
        // blocks and the edges of `LANE_SEARCH` only.
        let lengths = (0..buf.len()).filter(|&len| !cfg!(miri) || len <= 33 || len % 64 <= 1);
        for len in lengths {
            assert_eq!(find_nul(&buf[..len]), None);
            for at in 0..len {
                for other in [0x01, 0x80, 0xFF] {
                    buf[..len].fill(other);
                    buf[at] = 0;
                    if at + 1 < len {
                        buf[at + 1] = 0;
                    }
                    assert_eq!(find_nul(&buf[..len]), Some(at), "{len} {at}");
                }
                buf.fill(b'a');
            }
        }
    }

    #[test]
    fn bom_and_nul() {
        assert_eq!(visible_text(b"\xEF\xBB\xBFab\0cd"), b"ab");
        assert_eq!(visible_text(b"\xEF\xBB"), b"\xEF\xBB");
    }

    #[test]
    fn godot3_rules() {
        let ok = |b: &[u8]| is_valid(b, TextRules::Godot3);
        assert!(ok("é中🎮".as_bytes()));
        assert!(ok(b"\xED\xA0\x80")); // surrogate
        assert!(ok(b"\xF4\x90\x80\x80")); // 0x110000
        assert!(ok(b"\xF8\x88\x80\x80\x80")); // 5-byte
        assert!(!ok(b"\xC0\x80")); // overlong 2-byte
        assert!(!ok(b"\xE0\x80\x80")); // overlong 3-byte caught by the engine
        assert!(ok(b"\xE0\x80\xBF")); // overlong 3-byte the engine misses
        assert!(!ok(b"\xE9")); // truncated
        assert!(!ok(b"\x80")); // lone continuation
        assert!(!ok(b"\xFF"));
        assert!(!ok(b"\xC3\x28")); // bad continuation
        assert!(ok(b"a\0\xFF")); // stops at NUL
    }

    /// Strict UTF-8 is a subset of what Godot 3 accepts, as the fast path of `is_valid`
    /// assumes (a block that is strict UTF-8 passes without the Godot 3 check): Godot 3's own
    /// check accepts every block strict rules accept. Every 1- and 2-byte block, and random
    /// blocks of lead, continuation and ASCII bytes.
    #[test]
    fn strict_text_is_godot3_text() {
        let mut strict = 0;
        let mut implies = |raw: &[u8]| {
            if is_valid(raw, TextRules::Strict) {
                assert!(is_valid_slow(raw, TextRules::Godot3), "{raw:02x?}");
                strict += usize::from(!raw.is_ascii());
            }
        };
        // Under Miri, the 2-byte blocks of a few leads only.
        let leads = if cfg!(miri) { 0xC2..=0xC3 } else { 0..=255u8 };
        for a in leads {
            implies(&[a]);
            for b in 0..=255u8 {
                implies(&[a, b]);
            }
        }
        let mut rand = crate::test_rand::xorshift(0x57_1C7);
        let alphabet: [u8; 20] = [
            0x00, 0x41, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBB, 0xBF, 0xC2, 0xDF, 0xE0, 0xED, 0xEF,
            0xF0, 0xF4, 0xF5, 0xF8, 0xFC, 0xFE,
        ];
        let blocks = if cfg!(miri) { 200 } else { 200_000 };
        for _ in 0..blocks {
            let len = 1 + (rand() % 9) as usize;
            let raw: Vec<u8> = (0..len)
                .map(|_| match rand() % 4 {
                    0 => rand() as u8,
                    _ => alphabet[(rand() % alphabet.len() as u64) as usize],
                })
                .collect();
            implies(&raw);
        }
        // Not only ASCII: multi-byte sequences of every length are met (11,659 of them).
        assert!(cfg!(miri) || strict > 10_000, "{strict}");
    }

    #[test]
    fn strict_rules() {
        let ok = |b: &[u8]| is_valid(b, TextRules::Strict);
        assert!(ok("é中🎮".as_bytes()));
        assert!(!ok(b"\xED\xA0\x80"));
        assert!(!ok(b"\xF4\x90\x80\x80"));
        assert!(!ok(b"\xE0\x80\xBF"));
        assert!(ok(b"\xEF\xBB\xBFa"));
    }

    /// `checked` (and `checked_verdict`) agrees with `is_valid`, and `bytes` and `as_str` of a
    /// checked view (the unchecked conversion) with those of the unchecked view and
    /// `core::str::from_utf8`, on text with BOMs, NULs, surrogates and every kind of broken
    /// sequence, short and long (a filler before or after: the validator's windows and the
    /// 16-byte NUL search).
    #[test]
    fn checked_views_give_the_same_str() {
        let pieces: [&[u8]; 12] = [
            b"ab",
            b"\xEF\xBB\xBF",
            b"\0",
            "é".as_bytes(),
            "中".as_bytes(),
            "🎮".as_bytes(),
            b"\xED\xA0\x80",
            b"\xF4\x90\x80\x80",
            b"\xC0\x80",
            b"\xE9",
            b"\x80",
            b"\xF8\x88\x80\x80\x80",
        ];
        let n = pieces.len();
        let rounds = if cfg!(miri) { 3 * n } else { n * n * n };
        let filler: &[u8] = b"0123456789abcdefghij";
        // The engine's rule spelled out: a leading BOM skipped, the text cut at the first NUL.
        let visible = |raw: &[u8]| -> std::vec::Vec<u8> {
            let text = raw.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(raw);
            let end = text.iter().position(|&b| b == 0).unwrap_or(text.len());
            text[..end].to_vec()
        };
        for i in 0..rounds {
            let three = [pieces[i % n], pieces[i / n % n], pieces[i / (n * n) % n]].concat();
            let long = [[filler, &three].concat(), [&three, filler, filler].concat()];
            for raw in [&three, &long[0], &long[1]] {
                for rules in [TextRules::Strict, TextRules::Godot3] {
                    let plain = StrRef::new(raw, rules);
                    let checked = plain.checked();
                    assert_eq!(checked.is_some(), is_valid(raw, rules), "{raw:02x?}");
                    let verdict = plain.checked_verdict();
                    assert_eq!(verdict.map(|s| s.utf8), checked.map(|s| s.utf8));
                    if let Some(s) = verdict {
                        assert_eq!(s.bytes(), plain.bytes(), "{raw:02x?}");
                        assert_eq!(s.as_str(), plain.as_str(), "{raw:02x?}");
                    }
                    assert_eq!(plain.bytes(), visible(raw), "{raw:02x?}");
                    if let Some(s) = checked {
                        assert_eq!(s.bytes(), plain.bytes(), "{raw:02x?}");
                        assert_eq!(s.as_str(), plain.as_str(), "{raw:02x?}");
                        assert_eq!(s.as_str(), core::str::from_utf8(s.bytes()).ok());
                    }
                    #[cfg(feature = "serde")]
                    {
                        let mut padded = raw.to_vec();
                        padded.resize(raw.len() + crate::read::input::pad4(raw.len()), 0);
                        let block = StrRef::checked_block(&padded, raw.len(), rules);
                        assert_eq!(block.is_some(), checked.is_some(), "{raw:02x?}");
                        if let Some(s) = block {
                            assert_eq!(s.bytes(), plain.bytes(), "{raw:02x?}");
                            assert_eq!(s.as_str(), plain.as_str(), "{raw:02x?}");
                        }
                    }
                }
            }
        }
    }

    /// The strings of a validated container's items and of a decoded top-level value (a
    /// String, the elements of a PackedStringArray, a dictionary's key) carry the
    /// validation's verdict in the strict dialect only, and give the `as_str` that
    /// `core::str` gives for their visible text; those of a walker's `Begin` view, not
    /// validated yet, carry none (and a text the walk would refuse gives `None`, not an
    /// unchecked `&str`).
    #[test]
    fn items_of_validated_containers_carry_the_verdict() {
        use crate::read::{Decoder, Event, VariantRef};
        use crate::Dialect;
        let pieces: [&[u8]; 8] = [
            b"ab",
            b"\xEF\xBB\xBF",
            b"\0",
            "\u{e9}".as_bytes(),
            b"\xED\xA0\x80",
            b"\xC0\x80",
            b"\xE9",
            b"\xFF",
        ];
        let block = |out: &mut Vec<u8>, raw: &[u8]| {
            out.extend_from_slice(&(raw.len() as u32).to_le_bytes());
            out.extend_from_slice(raw);
            out.resize(out.len() + (4 - raw.len() % 4) % 4, 0);
        };
        fn strings(v: VariantRef<'_>) -> Vec<StrRef<'_>> {
            match v {
                VariantRef::String(s) => vec![s],
                VariantRef::PackedStringArray(p) => p.iter().collect(),
                VariantRef::Dictionary(d) => d.iter().flat_map(|(k, _)| k.as_string()).collect(),
                other => panic!("{other:?}"),
            }
        }
        let n = pieces.len();
        for i in 0..n * n {
            let raw = [pieces[i % n], pieces[i / n]].concat();
            let want = core::str::from_utf8(visible_text(&raw)).ok();
            // The engine's rule spelled out: a leading BOM skipped, the text cut at the
            // first NUL.
            let text = raw.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&raw);
            let visible = &text[..text.iter().position(|&b| b == 0).unwrap_or(text.len())];
            // [raw, PackedStringArray([raw]), {raw: null}] in Godot 4 and Godot 3 ids.
            for (dialect, rules, [array, psa, dict]) in [
                (Dialect::GODOT_4, TextRules::Strict, [28u32, 34, 27]),
                (Dialect::GODOT_3, TextRules::Godot3, [19, 23, 18]),
            ] {
                let forms = |raw: &[u8]| {
                    let mut items = [4u32.to_le_bytes().to_vec(), Vec::new(), Vec::new()];
                    block(&mut items[0], raw);
                    items[1].extend_from_slice(&psa.to_le_bytes());
                    items[1].extend_from_slice(&1u32.to_le_bytes());
                    block(&mut items[1], raw);
                    for word in [dict, 1, 4] {
                        items[2].extend_from_slice(&word.to_le_bytes());
                    }
                    block(&mut items[2], raw);
                    items[2].extend_from_slice(&0u32.to_le_bytes());
                    items
                };
                let items = forms(&raw);
                let mut b = [array.to_le_bytes(), 3u32.to_le_bytes()].concat();
                b.extend(items.concat());
                let dec = Decoder::new(dialect);
                // Each as a top-level value, from `decode` and `Cursor::read`.
                for item in &items {
                    let decoded = dec.decode(item).ok().into_iter();
                    let read = dec.cursor(item).read().ok().into_iter();
                    for v in decoded.chain(read) {
                        for s in strings(v) {
                            assert_eq!(s.utf8, rules == TextRules::Strict, "{raw:02x?}");
                            assert_eq!(s.as_str(), want, "{raw:02x?}");
                            assert_eq!(s.bytes(), visible, "{raw:02x?}");
                        }
                    }
                }
                let Some(Ok(Event::Begin(unvalidated))) = dec.walk(&b).next() else {
                    panic!("{raw:02x?}");
                };
                for item in unvalidated.as_array().unwrap().iter() {
                    for s in strings(item) {
                        assert!(!s.utf8, "{raw:02x?}");
                        assert_eq!(s.as_str(), want, "{raw:02x?}");
                        assert_eq!(s.bytes(), visible, "{raw:02x?}");
                    }
                }
                let Ok(v) = dec.decode(&b) else {
                    assert!(!is_valid(&raw, rules), "{raw:02x?}");
                    continue;
                };
                assert!(is_valid(&raw, rules), "{raw:02x?}");
                for item in v.as_array().unwrap().iter() {
                    for s in strings(item) {
                        assert_eq!(s.utf8, rules == TextRules::Strict, "{raw:02x?}");
                        assert_eq!(s.as_str(), want, "{raw:02x?}");
                        assert_eq!(s.bytes(), visible, "{raw:02x?}");
                    }
                }
                // Beside a string only Godot 3 accepts (a surrogate, in any of the three
                // forms), no string carries a verdict and each converts as `core::str` does.
                if dialect == Dialect::GODOT_3 {
                    for surrogate in forms(b"\xED\xA0\x80") {
                        let mut mixed = [array.to_le_bytes(), 4u32.to_le_bytes()].concat();
                        mixed.extend(items.concat());
                        mixed.extend(surrogate);
                        let v = dec.decode(&mixed).unwrap();
                        let mut seen = 0;
                        for item in v.as_array().unwrap().iter() {
                            for s in strings(item) {
                                assert!(!s.utf8, "{raw:02x?}");
                                let want = core::str::from_utf8(visible_text(s.raw)).ok();
                                assert_eq!(s.as_str(), want, "{raw:02x?}");
                                seen += 1;
                            }
                        }
                        assert_eq!(seen, 4, "{raw:02x?}");
                    }
                }
            }
        }
    }

    #[test]
    fn code_points_follow_rules() {
        let s = StrRef::new(b"a\xED\xA0\x80", TextRules::Godot3);
        assert_eq!(s.code_points().collect::<Vec<_>>(), [0x61, 0xD800]);
        assert_eq!(s.as_str(), None);
        let s = StrRef::new("é🎮".as_bytes(), TextRules::Strict);
        assert_eq!(s.code_points().collect::<Vec<_>>(), [0xE9, 0x1F3AE]);
    }
}
