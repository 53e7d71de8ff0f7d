//! Every error the reader reports points inside the input (or at its end): `offset() <=
//! len`, whatever the entry point, for truncations and mutations of the real engines'
//! fixtures (Godot 3.2.3 and Godot 4.6). An unpadded PackedByteArray moves the read position
//! up to three bytes past the end, as in the engine; the error met there must still name a
//! byte of the input.

mod support;

use gdwire::read::Walker;
use gdwire::{Decoder, Dialect};
use proptest::prelude::*;
use std::sync::OnceLock;
use support::hex;

/// The engines' own encodings (values and malformed inputs), each with whether it is read
/// in the Godot 4 dialects; `values` only: the well-formed ones.
fn corpus(values_only: bool) -> Vec<(&'static [u8], bool)> {
    static ALL: OnceLock<Vec<(Vec<u8>, bool, bool)>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        let mut out = Vec::new();
        let g3 = support::values().into_iter().map(|f| (f, true));
        let g3 = g3.chain(support::malformed().into_iter().map(|f| (f, false)));
        for (f, value) in g3 {
            out.push((f.bytes, false, value));
        }
        let g4 = support::godot4_values().into_iter().map(|f| (f, true));
        let g4 = g4.chain(support::godot4_malformed().into_iter().map(|f| (f, false)));
        for (f, value) in g4 {
            out.push((f.bytes, true, value));
        }
        out
    });
    all.iter()
        .filter(|(_, _, value)| *value || !values_only)
        .map(|(bytes, godot4, _)| (&bytes[..], *godot4))
        .collect()
}

fn dialects(godot4: bool) -> &'static [Dialect] {
    if godot4 {
        &[Dialect::GODOT_4, Dialect::GODOT_4_3]
    } else {
        &[Dialect::GODOT_3]
    }
}

/// Runs every read entry point over `bytes`; panics if an error points past the end.
fn check(bytes: &[u8], godot4: bool) {
    let len = bytes.len();
    for &d in dialects(godot4) {
        for allow in [false, true] {
            let dec = Decoder::new(d).with_allow_objects(allow);
            let at = |what: &str, e: gdwire::Error| {
                assert!(
                    e.offset() <= len,
                    "{d} {what}: {e} past the end ({len} bytes): {bytes:02x?}"
                );
            };
            if let Err(e) = gdwire::from_bytes(d, bytes) {
                at("from_bytes", e);
            }
            if let Err(e) = dec.decode_exact(bytes) {
                at("decode_exact", e);
            }
            if let Err(e) = dec.validate(bytes) {
                at("validate", e);
            }
            let mut cursor = dec.cursor(bytes);
            loop {
                match cursor.read() {
                    Ok(_) if !cursor.is_at_end() => {}
                    Ok(_) => break,
                    Err(e) => {
                        at("Cursor::read", e);
                        break;
                    }
                }
            }
            let mut cursor = dec.cursor(bytes);
            while !cursor.is_at_end() {
                if let Err(e) = cursor.skip() {
                    at("Cursor::skip", e);
                    break;
                }
            }
            for event in Walker::new(dec, bytes) {
                if let Err(e) = event {
                    at("Walker", e);
                }
            }
            #[cfg(feature = "alloc")]
            if let Err(e) = dec.decode_owned(bytes) {
                at("decode_owned", e);
            }
        }
    }
}

/// The case that was wrong: an array whose first item is a PackedByteArray of 3 bytes with
/// its padding cut off; the next item is read at byte 20 of 19.
#[test]
fn unpadded_byte_array_then_more_items() {
    for (godot4, array, pba) in [(true, "1c", "1d"), (false, "13", "14")] {
        let bytes = hex(&format!(
            "{array}000000 02000000 {pba}000000 03000000 010203"
        ));
        check(&bytes, godot4);
        let d = dialects(godot4)[0];
        let e = gdwire::from_bytes(d, &bytes).unwrap_err();
        assert_eq!(e.offset(), bytes.len(), "{d}");
    }
}

#[test]
fn every_truncation_of_every_value_fixture() {
    for (bytes, godot4) in corpus(true) {
        // Every cut of the shorter ones; 200 spread cuts and the last 16 of the longer.
        let n = bytes.len();
        let cuts: Vec<usize> = if n <= 512 {
            (0..n).collect()
        } else {
            (0..200).map(|i| i * n / 200).chain(n - 16..n).collect()
        };
        for len in cuts {
            check(&bytes[..len], godot4);
        }
    }
}

#[test]
fn every_malformed_fixture() {
    for (bytes, godot4) in corpus(false) {
        check(bytes, godot4);
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: if cfg!(miri) { 8 } else { 1000 },
        ..ProptestConfig::default()
    })]

    /// Mutations (byte changes, then a cut) of the fixtures.
    #[test]
    fn mutated_fixtures(
        pick in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..4),
        cut in any::<prop::sample::Index>(),
        extra in 0usize..8,
    ) {
        let corpus = corpus(false);
        let (bytes, godot4) = &corpus[pick.index(corpus.len())];
        let mut bytes = bytes.to_vec();
        if !bytes.is_empty() {
            for (at, b) in &edits {
                let i = at.index(bytes.len());
                bytes[i] = *b;
            }
        }
        // Cut anywhere, or keep a few bytes more than the whole (appending zeros).
        let len = cut.index(bytes.len() + 1);
        bytes.truncate(len);
        bytes.extend(core::iter::repeat_n(0, extra % 2 * extra));
        check(&bytes, *godot4);
    }
}
