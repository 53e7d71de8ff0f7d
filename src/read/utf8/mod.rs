//! Strict UTF-8 validation: exactly what `core::str::from_utf8` accepts, faster on the short
//! mixed texts of game data (names, chat, localisation strings), where the branchy decoder
//! of `core::str` mispredicts on every multi-byte character.
//!
//! Two implementations of the same check, chosen by target: `lanes.rs` judges 16 bytes at a
//! time with plain operations on `[u8; 16]` that the compiler turns into SIMD on targets that
//! always have it (x86_64, aarch64, wasm32 with `simd128`); `dfa.rs`, a branch-free state
//! machine one byte at a time, everywhere else. Both are exhaustively compared with
//! `core::str::from_utf8` in the tests below, on every target.

/// The classic has-zero test on a `$word`: nonzero exactly when a byte of `$w` is zero, and
/// its lowest flag (a byte's high bit) marks the first zero byte exactly (borrows only run
/// upward; flags above it may be false).
macro_rules! zero_flags {
    ($w:expr, $word:ty) => {{
        const LO: $word = <$word>::MAX / 0xFF;
        const HI: $word = LO << 7;
        let w: $word = $w;
        w.wrapping_sub(LO) & !w & HI
    }};
}
pub(crate) use zero_flags;

mod dfa;
mod lanes;

pub(crate) use lanes::zeros as zero_lanes;

/// Whether this target has the vector units `lanes.rs` is written for.
const LANES: bool = cfg!(any(
    target_arch = "x86_64",
    target_arch = "aarch64",
    all(target_arch = "wasm32", target_feature = "simd128")
));

/// True when `bytes` is well-formed UTF-8 (exactly what `core::str::from_utf8` accepts).
#[inline]
pub(crate) fn is_utf8(bytes: &[u8]) -> bool {
    if LANES {
        lanes::is_utf8(bytes)
    } else {
        dfa::is_utf8(bytes)
    }
}

/// [`is_utf8`], and whether `bytes` are kept whole: no NUL byte and no leading BOM, so that
/// the text the engine keeps (a BOM skipped, cut at the first NUL) is all of them and a
/// view's visible text needs no search. `(utf8, whole)`; `whole` is found in the same pass
/// as the check (one lane test more per 16 bytes) on the targets of `lanes.rs`, at every
/// length, and is `false` on other targets.
#[inline]
pub(crate) fn is_utf8_whole(bytes: &[u8]) -> (bool, bool) {
    if LANES {
        lanes::is_utf8_whole(bytes)
    } else {
        (dfa::is_utf8(bytes), false)
    }
}

/// The byte order mark, which the engine skips at the start of a text.
pub(crate) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// True when the 16 bytes are all below 0x80.
#[inline(always)]
fn is_ascii16(bytes: &[u8; 16]) -> bool {
    u128::from_le_bytes(*bytes) & 0x8080_8080_8080_8080_8080_8080_8080_8080 == 0
}

/// True when `bytes` (at most 16 of them) are ASCII without a NUL: text the engine keeps
/// whole (no BOM to skip, nothing to cut).
#[inline(always)]
pub(crate) fn short_plain(bytes: &[u8]) -> bool {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    // Per word: a high bit set (non-ASCII) or a zero byte (the classic has-zero test, exact
    // for ASCII words).
    let bad = |w: u64| (w | w.wrapping_sub(LO)) & HI;
    if let (Some(head), Some(tail)) = (bytes.first_chunk::<8>(), bytes.last_chunk::<8>()) {
        return bytes.len() <= 16
            && bad(u64::from_le_bytes(*head)) | bad(u64::from_le_bytes(*tail)) == 0;
    }
    bytes.iter().all(|&b| b != 0 && b.is_ascii())
}

/// [`short_plain`] for the `len` text bytes at the start of `padded`, a string block's text
/// with its padding (at least `len` rounded up to four bytes): texts of at most 8 bytes,
/// most keys and names, in one word load with the bytes past `len` masked off, instead of
/// a loop over the bytes of those under 8. `false` for anything longer (or `padded` short).
#[cfg(feature = "serde")]
#[inline(always)]
pub(crate) fn short_plain_padded(padded: &[u8], len: usize) -> bool {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let word = match len {
        0 => return true,
        1..=4 => match padded.first_chunk::<4>() {
            Some(w) => u64::from(u32::from_le_bytes(*w)),
            None => return false,
        },
        5..=8 => match padded.first_chunk::<8>() {
            Some(w) => u64::from_le_bytes(*w),
            None => return false,
        },
        _ => return false,
    };
    // The text's bytes kept, every byte past them made 0x01 (ASCII, not NUL), then the
    // has-zero and high-bit test of `short_plain`.
    let keep = u64::MAX >> (64 - 8 * len);
    let w = (word & keep) | (LO & !keep);
    (w | w.wrapping_sub(LO)) & HI == 0
}

/// [`short_ascii`] of a string block's `text`, given with `padded`, the text and its padding
/// (at least the text's length rounded up to four bytes): a text under 4 bytes (many keys)
/// is tested in one word load with its padding, which the engine writes as zeros, instead
/// of byte by byte. Padding with a high bit set makes the answer `false`, as for text that
/// is not ASCII: the caller's full check decides.
#[inline(always)]
pub(crate) fn short_ascii_padded(text: &[u8], padded: &[u8]) -> bool {
    short_ascii_or(text, |text| {
        let word = padded.first_chunk::<4>().map(|w| u32::from_le_bytes(*w));
        text.is_empty() || word.is_some_and(|w| w & 0x8080_8080 == 0)
    })
}

/// True when `bytes` are at most 16 bytes, all ASCII.
#[inline(always)]
pub(crate) fn short_ascii(bytes: &[u8]) -> bool {
    short_ascii_or(bytes, |bytes| bytes.iter().all(u8::is_ascii))
}

/// [`short_ascii`] with `under_4` answering for texts under 4 bytes.
#[inline(always)]
fn short_ascii_or(bytes: &[u8], under_4: impl FnOnce(&[u8]) -> bool) -> bool {
    if bytes.len() > 16 {
        return false;
    }
    const HI: u64 = 0x8080_8080_8080_8080;
    let word = |b: &[u8; 8]| u64::from_le_bytes(*b);
    if let (Some(head), Some(tail)) = (bytes.first_chunk::<8>(), bytes.last_chunk::<8>()) {
        return (word(head) | word(tail)) & HI == 0;
    }
    if let (Some(head), Some(tail)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        return (u32::from_le_bytes(*head) | u32::from_le_bytes(*tail)) & 0x8080_8080 == 0;
    }
    under_4(bytes)
}

/// True when `bytes`, at most 16 of them, hold no zero byte: their first and their last
/// word, which overlap, through the has-zero test.
#[inline(always)]
pub(crate) fn short_no_nul(bytes: &[u8]) -> bool {
    debug_assert!(bytes.len() <= 16);
    macro_rules! test {
        ($n:literal, $word:ty) => {
            if let (Some(head), Some(tail)) = (bytes.first_chunk::<$n>(), bytes.last_chunk::<$n>())
            {
                let head = <$word>::from_le_bytes(*head);
                let tail = <$word>::from_le_bytes(*tail);
                return zero_flags!(head, $word) | zero_flags!(tail, $word) == 0;
            }
        };
    }
    test!(8, u64);
    test!(4, u32);
    bytes.iter().all(|&b| b != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both implementations (whichever this target uses) give `core::str`'s verdict.
    fn agrees(bytes: &[u8]) {
        let want = core::str::from_utf8(bytes).is_ok();
        assert_eq!(dfa::is_utf8(bytes), want, "dfa {bytes:02x?}");
        assert_eq!(lanes::is_utf8(bytes), want, "lanes {bytes:02x?}");
        assert_eq!(is_utf8(bytes), want, "{bytes:02x?}");
        let (utf8, whole) = is_utf8_whole(bytes);
        assert_eq!(utf8, want, "{bytes:02x?}");
        assert_eq!(whole, whole_as_promised(bytes), "{bytes:02x?}");
    }

    /// What [`is_utf8_whole`] answers as `whole`: strict UTF-8 without a NUL byte and without
    /// a leading BOM (on other targets never).
    fn whole_as_promised(bytes: &[u8]) -> bool {
        LANES
            && core::str::from_utf8(bytes).is_ok()
            && !bytes.contains(&0)
            && !bytes.starts_with(BOM)
    }

    /// A NUL or a byte above 0x7F at every position of ASCII texts of every length up to
    /// 160, and a NUL or a BOM inserted at every character boundary of mixed texts of every
    /// length up to 160 (around the 16-byte windows, the last one overlapping the one before
    /// it, and the 64- and 128-byte switches of the checker): `whole` exactly as promised,
    /// and the UTF-8 verdict `core::str`'s.
    #[test]
    fn whole_is_utf8_without_nul_or_leading_bom_at_every_length() {
        let mut buf = [b'a'; 160];
        // Under Miri, the lengths at the edges, and every fifth position.
        let (lens, step) = if cfg!(miri) {
            (std::vec![0, 3, 16, 17, 18, 33, 64, 127, 128, 150], 5)
        } else {
            ((0..=buf.len()).collect(), 1)
        };
        for &len in &lens {
            agrees(&buf[..len]);
            for at in (0..len).step_by(step) {
                for b in [0u8, 1, 0x7F, 0x80, 0xC3, 0xFF] {
                    buf[at] = b;
                    agrees(&buf[..len]);
                    buf[at] = b'a';
                }
            }
        }
        let mixed = "aé中🎮ж€b".repeat(12);
        for &len in &lens {
            let end = (0..=len)
                .rev()
                .find(|&i| mixed.is_char_boundary(i))
                .unwrap_or(0);
            let mut text = mixed.as_bytes()[..end].to_vec();
            agrees(&text);
            let boundaries: std::vec::Vec<usize> =
                (0..=end).filter(|&i| mixed.is_char_boundary(i)).collect();
            for &at in boundaries.iter().step_by(step) {
                for insert in [&[0u8][..], BOM] {
                    text.splice(at..at, insert.iter().copied());
                    agrees(&text);
                    text.drain(at..at + insert.len());
                }
            }
        }
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "exhaustive native check; Miri covers this code through the fixture tests"
    )]
    fn every_sequence_up_to_three_bytes() {
        agrees(&[]);
        for a in 0..=255u8 {
            agrees(&[a]);
            for b in 0..=255u8 {
                agrees(&[a, b]);
                if a >= 0xC0 {
                    for c in 0..=255u8 {
                        agrees(&[a, b, c]);
                    }
                }
            }
        }
    }

    #[test]
    fn short_plain_is_ascii_without_nul() {
        let mut buf = [b'a'; 20];
        for len in 0..=buf.len() {
            for at in 0..len {
                for b in [0u8, 1, 0x7F, 0x80, 0xC3, 0xFF] {
                    buf[at] = b;
                    let s = &buf[..len];
                    let want = len <= 16 && s.iter().all(|&c| c != 0 && c.is_ascii());
                    assert_eq!(short_plain(s), want, "{s:02x?}");
                    buf[at] = b'a';
                }
            }
            assert_eq!(short_plain(&buf[..len]), len <= 16);
        }
    }

    #[test]
    fn short_ascii_is_ascii_up_to_16_bytes() {
        let mut buf = [b'a'; 20];
        for len in 0..=buf.len() {
            for at in 0..len {
                for b in [0u8, 0x7F, 0x80, 0xC3, 0xFF] {
                    buf[at] = b;
                    let s = &buf[..len];
                    assert_eq!(short_ascii(s), len <= 16 && s.is_ascii(), "{s:02x?}");
                    buf[at] = b'a';
                }
            }
        }
    }

    #[test]
    fn short_ascii_padded_is_short_ascii_with_zero_padding_and_never_wrong() {
        // With the engine's zero padding the answer is `short_ascii`'s; with any padding a
        // `true` is never wrong (a padding byte above 0x7F may only turn it to `false`).
        let values = [0u8, 1, b'a', 0x7F, 0x80, 0xC3, 0xFF];
        for len in 0..=20usize {
            let padded_len = len + (4 - len % 4) % 4;
            for at in 0..padded_len.max(1) {
                for &b in &values {
                    for &pad in &values {
                        let mut buf = [pad; 20];
                        buf[..len].fill(b'a');
                        if at < padded_len {
                            buf[at] = b;
                        }
                        let (text, padded) = (&buf[..len], &buf[..padded_len]);
                        let got = short_ascii_padded(text, padded);
                        if padded[len..].iter().all(|&p| p == 0) {
                            assert_eq!(got, short_ascii(text), "{len} {padded:02x?}");
                        }
                        assert!(
                            !got || (len <= 16 && text.is_ascii()),
                            "{len} {padded:02x?}"
                        );
                    }
                }
            }
        }
        // Too few padded bytes: `false`, never a read past them.
        assert!(!short_ascii_padded(b"abc", b"abc"));
    }

    #[test]
    #[cfg(feature = "serde")]
    fn short_plain_padded_is_ascii_without_nul_in_the_text_only() {
        // Text bytes judged as by the byte-wise rule; padding bytes (any value) ignored.
        let values = [0u8, 1, b'a', 0x7F, 0x80, 0xC3, 0xFF];
        for len in 0..=12usize {
            let padded_len = len + (4 - len % 4) % 4;
            for at in 0..padded_len.max(1) {
                for &b in &values {
                    for &pad in &values {
                        let mut buf = [pad; 12];
                        buf[..len].fill(b'a');
                        if at < padded_len {
                            buf[at] = b;
                        }
                        let text = &buf[..len];
                        let want = len <= 8 && text.iter().all(|&c| c != 0 && c.is_ascii());
                        let got = short_plain_padded(&buf[..padded_len], len);
                        assert_eq!(got, want, "{len} {:02x?}", &buf[..padded_len]);
                    }
                }
            }
        }
        // Too few padded bytes: refused, never read past.
        assert!(!short_plain_padded(b"abc", 3));
        assert!(!short_plain_padded(b"abcdefg", 5));
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "exhaustive native check; Miri covers this code through the fixture tests"
    )]
    fn four_byte_sequences_and_positions() {
        // Every lead F0..F7 with every second byte and a spread of third and fourth bytes.
        for a in 0xF0..=0xF7u8 {
            for b in 0..=255u8 {
                for c in [0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF] {
                    for d in [0x00, 0x41, 0x80, 0xBF, 0xC0, 0xFF] {
                        agrees(&[a, b, c, d]);
                    }
                }
            }
        }
        // Multi-byte characters across the 16-byte ASCII-skip boundaries, valid and cut.
        let text = "0123456789abcdé中🎮xyz0123456789abcdef🎮";
        for start in 0..text.len() {
            for end in start..=text.len() {
                agrees(&text.as_bytes()[start..end]);
            }
        }
        let mut bad = text.as_bytes().to_vec();
        for i in 0..bad.len() {
            let keep = bad[i];
            for v in [0x80, 0xC0, 0xED, 0xFF] {
                bad[i] = v;
                agrees(&bad);
            }
            bad[i] = keep;
        }
    }

    /// Every lead or continuation byte, then a spread of second and third bytes (each side of
    /// every range boundary), at positions around the 16-byte windows, the 64-byte switch
    /// between the two window loops and the 128-byte end of the whole-text ASCII test, in
    /// ASCII text, whole and cut right after each of the three bytes.
    #[test]
    #[cfg_attr(
        miri,
        ignore = "exhaustive native check; Miri covers this code through the fixture tests"
    )]
    fn every_lead_at_every_window_position() {
        let tail = b"0123456789abcdefghij";
        let mut text = std::vec::Vec::new();
        for at in [
            1usize, 2, 13, 14, 15, 16, 17, 30, 47, 61, 62, 63, 64, 78, 79, 110, 111, 125, 126, 127,
            128, 142, 143,
        ] {
            for a in 0x80..=0xFFu8 {
                for b in [
                    0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
                    0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF,
                ] {
                    for c in [0x41, 0x80, 0x8F, 0x90, 0xA0, 0xBF, 0xC2] {
                        text.clear();
                        text.resize(at, b'a');
                        text.extend_from_slice(&[a, b, c]);
                        text.extend_from_slice(tail);
                        for end in [at + 1, at + 2, at + 3, text.len()] {
                            agrees(&text[..end]);
                        }
                    }
                }
            }
        }
    }

    /// Random text built from valid characters of every width, whole, cut, or with a bad or
    /// stray byte anywhere, against `core::str::from_utf8`.
    #[test]
    fn agrees_on_random_mixed_text() {
        let mut rand = crate::test_rand::xorshift(0x0DD_5EED_u64);
        let pieces = [
            "a",
            "Z",
            "é",
            "ß",
            "ж",
            "中",
            "€",
            "\u{FFFD}",
            "🎮",
            "\u{10FFFF}",
            " ",
            "\0",
            "\u{FEFF}",
        ];
        let rounds = if cfg!(miri) { 200 } else { 200_000 };
        let mut text = std::vec::Vec::new();
        for _ in 0..rounds {
            text.clear();
            let want = 16 + (rand() % 200) as usize;
            while text.len() < want {
                let piece = pieces[(rand() % pieces.len() as u64) as usize];
                text.extend_from_slice(piece.as_bytes());
            }
            match rand() % 4 {
                0 => {}
                1 => text.truncate(want),
                _ => {
                    let at = (rand() % text.len() as u64) as usize;
                    let byte = [
                        0x80, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF, 0x41,
                    ];
                    if let Some(b) = text.get_mut(at) {
                        *b = byte[(rand() % byte.len() as u64) as usize];
                    }
                }
            }
            agrees(&text);
        }
    }
}
