//! String blocks, the wire form of every string: `u32` length, the bytes, zero padding to a
//! multiple of four (docs/wire-format.md §5.3).

use crate::dialect::TextRules;
use crate::error::{Error, ErrorKind, Expected, Result};
use crate::read::input::{need_u32, pad4, take, u32_at};
use crate::read::str_ref::StrRef;

/// Reads a string block (`u32 len`, bytes, zero pad to 4) at `pos`; returns the view and the
/// position after the padding. The padding must be present, as in the engine.
// Always inlined when optimised (as a call, the PackedStringArray loop ran 6 % more
// instructions); only hinted in debug builds, where every forced inlining adds its own stack
// slots to the caller and the deepest values must still fit a small stack.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn string_block(
    data: &[u8],
    pos: usize,
    rules: TextRules,
    validate: bool,
) -> Result<(StrRef<'_>, usize)> {
    string_block_as::<true>(data, pos, rules, validate)
}

/// [`string_block`], whose text check (with `validate`) is [`StrRef::checked`] with `KEEP`
/// and [`StrRef::checked_verdict`] without it (the view is not kept, only its verdict).
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
fn string_block_as<const KEEP: bool>(
    data: &[u8],
    pos: usize,
    rules: TextRules,
    validate: bool,
) -> Result<(StrRef<'_>, usize)> {
    let Some((s, end)) = string_block_trusted(data, pos, rules, false) else {
        return Err(string_block_error(data, pos));
    };
    if !validate {
        return Ok((s, end));
    }
    let checked = if KEEP {
        s.checked()
    } else {
        s.checked_verdict()
    };
    match checked {
        Some(s) => Ok((s, end)),
        None => Err(Error::new(ErrorKind::InvalidText, pos + 4)),
    }
}

/// Why [`string_block_trusted`] found no block at `pos`.
#[cold]
fn string_block_error(data: &[u8], pos: usize) -> Error {
    match need_u32(data, pos, Expected::StringLength) {
        Ok(len) => Error::new(ErrorKind::StringLength { len: len as i32 }, pos),
        Err(e) => e,
    }
}

/// [`string_block`] for data already validated: no text check, and `None` instead of an
/// error. Building the error value (and converting it away) costs a store-forwarding stall
/// on the iterators' hot path, so they use this. `validated`: see
/// [`StrRef::note_validated`] (the view is built with it, not changed after: a change after
/// cost the lazy walk a copy of each view).
#[inline(always)]
pub(crate) fn string_block_trusted(
    data: &[u8],
    pos: usize,
    rules: TextRules,
    validated: bool,
) -> Option<(StrRef<'_>, usize)> {
    let len = usize::try_from(u32_at(data, pos)? as i32).ok()?;
    let padded = take(data, pos + 4, len + pad4(len))?;
    let mut s = StrRef::new(&padded[..len], rules);
    s.note_validated(validated);
    Some((s, pos + 4 + padded.len()))
}

/// [`string_block_trusted`] with the text checked as [`StrRef::checked`] does (`None` when
/// the engine refuses it, or the block runs past the input); short ASCII texts are checked
/// in one word test over the text and its padding.
// Its first two reads repeat `string_block_trusted`'s on purpose: through a shared helper
// the `Walker` ran 2 % more instructions on (g).
#[cfg(feature = "serde")]
#[inline(always)]
pub(crate) fn string_block_checked(
    data: &[u8],
    pos: usize,
    rules: TextRules,
) -> Option<(StrRef<'_>, usize)> {
    let len = usize::try_from(u32_at(data, pos)? as i32).ok()?;
    let padded = take(data, pos + 4, len + pad4(len))?;
    let s = StrRef::checked_block(padded, len, rules)?;
    Some((s, pos + 4 + padded.len()))
}

/// A run of `count` string blocks back to back: a PackedStringArray's elements, a NodePath's
/// parts. Read once in order (to find its end and, when asked, to check every text), then
/// re-read on demand by [`StrRun::iter`]. The run keeps whether every block was strict
/// UTF-8, so the views `iter` hands out carry that verdict and their [`StrRef::as_str`] is
/// free, as for the strings the [`Walker`] checks itself.
///
/// [`Walker`]: crate::read::Walker
#[derive(Clone, Copy)]
pub(crate) struct StrRun<'a> {
    /// From the first block's length word to the end of the last block.
    bytes: &'a [u8],
    count: usize,
    rules: TextRules,
    /// The visible text of every block of `bytes` is strict UTF-8: each got that verdict
    /// from [`StrRef::checked`] when [`StrRun::read_checked`] read it, or the run was noted
    /// as validated ([`StrRun::note_validated`]).
    utf8: bool,
}

impl<'a> StrRun<'a> {
    /// The `count` string blocks starting at `start` in `data`, and where they end. With
    /// `validate`, each text is checked as the engine checks it ([`StrRef::checked`]).
    #[inline(always)]
    pub(crate) fn read(
        data: &'a [u8],
        start: usize,
        count: usize,
        rules: TextRules,
        validate: bool,
    ) -> Result<(StrRun<'a>, usize)> {
        if validate {
            return StrRun::read_checked(data, start, count, rules);
        }
        let mut end = start;
        for _ in 0..count {
            end = string_block(data, end, rules, false)?.1;
        }
        Ok((StrRun::new(data, start..end, count, rules, false), end))
    }

    /// [`StrRun::read`] with every text checked, keeping the strict UTF-8 verdicts. Its own
    /// function: inlined into the caller, the checking loop ran 0.5–3 % more instructions on
    /// (c) (the validator was not inlined into it any more).
    fn read_checked(
        data: &'a [u8],
        start: usize,
        count: usize,
        rules: TextRules,
    ) -> Result<(StrRun<'a>, usize)> {
        let mut end = start;
        let mut utf8 = true;
        for _ in 0..count {
            let (s, next) = string_block_as::<false>(data, end, rules, true)?;
            utf8 &= s.utf8;
            end = next;
        }
        Ok((StrRun::new(data, start..end, count, rules, utf8), end))
    }

    #[inline(always)]
    fn new(
        data: &'a [u8],
        blocks: core::ops::Range<usize>,
        count: usize,
        rules: TextRules,
        utf8: bool,
    ) -> StrRun<'a> {
        StrRun {
            bytes: data.get(blocks).unwrap_or_default(),
            count,
            rules,
            utf8,
        }
    }

    /// [`StrRef::note_validated`] for every block of the run.
    #[inline(always)]
    pub(crate) fn note_validated(&mut self, validated: bool) {
        self.utf8 |= validated;
    }

    /// Number of blocks.
    pub(crate) fn len(&self) -> usize {
        self.count
    }

    /// The blocks' wire bytes (each with its length word and padding).
    pub(crate) fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The blocks' views, in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = StrRef<'a>> + 'a {
        let StrRun {
            bytes,
            mut count,
            rules,
            utf8,
        } = *self;
        let mut pos = 0;
        core::iter::from_fn(move || {
            if count == 0 {
                return None;
            }
            count -= 1;
            // Read before, a failure here is impossible, so just stop.
            let (s, end) = string_block_trusted(bytes, pos, rules, false)?;
            pos = end;
            // `read` read these very blocks (`string_block` reads through
            // `string_block_trusted`), from `bytes`' start, in this order: this is the view
            // of the block whose verdict `read` folded into `utf8`, or one of the blocks a
            // validating pass accepted (`note_validated`; see `StrRef::as_str`).
            Some(StrRef {
                utf8: s.utf8 | utf8,
                ..s
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::str_ref::is_valid;

    /// Runs of three string blocks mixing strict, Godot-3-only and refused texts: `read`
    /// accepts what `is_valid` accepts and keeps the strict verdict exactly when every text
    /// is strict UTF-8, and every view `iter` gives back (with the verdict or without) has
    /// the block's bytes and the `as_str` that `core::str` gives.
    #[test]
    fn views_keep_the_verdicts_of_their_run() {
        let pieces: [&[u8]; 8] = [
            b"",
            b"ab\0",
            "é中🎮".as_bytes(),
            b"\xEF\xBB\xBFx",
            b"\xED\xA0\x80",     // surrogate: Godot 3 only
            b"\xF4\x90\x80\x80", // above U+10FFFF: Godot 3 only
            b"\xC0\x80",         // refused by both
            b"abcdefghijklmnopqrstu\xC3\xA9",
        ];
        let n = pieces.len();
        let rounds = if cfg!(miri) { 3 * n } else { n * n * n };
        for i in 0..rounds {
            let texts = [pieces[i % n], pieces[i / n % n], pieces[i / (n * n) % n]];
            let mut data = alloc::vec![0xAA; 3]; // the run starts at an odd offset
            for text in texts {
                data.extend_from_slice(&(text.len() as u32).to_le_bytes());
                data.extend_from_slice(text);
                data.resize(data.len() + pad4(text.len()), 0);
            }
            let strict = texts.iter().all(|t| core::str::from_utf8(t).is_ok());
            for rules in [TextRules::Strict, TextRules::Godot3] {
                let accepted = texts.iter().all(|t| is_valid(t, rules));
                for validate in [true, false] {
                    let read = StrRun::read(&data, 3, 3, rules, validate);
                    if validate && !accepted {
                        assert!(read.is_err(), "{texts:02x?}");
                        continue;
                    }
                    let (run, end) = read.unwrap();
                    assert_eq!(end, data.len());
                    assert_eq!(run.utf8, validate && strict, "{texts:02x?}");
                    let views: alloc::vec::Vec<_> = run.iter().collect();
                    assert_eq!(views.len(), 3);
                    for (s, text) in views.iter().zip(texts) {
                        assert_eq!(s.raw(), text);
                        assert_eq!(s.as_str(), core::str::from_utf8(s.bytes()).ok());
                    }
                }
            }
        }
    }
}
