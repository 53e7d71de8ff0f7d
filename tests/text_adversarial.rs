//! `gdwire::text` on hostile dictionary keys: as deep as the decoder allows, compared and
//! merged on a small thread stack (no recursion anywhere), and wide dictionaries of alike keys.
//!
//! Expected texts are built here from the engines' rules (docs/text.md): Godot 4 orders arrays
//! lexicographically and merges keys equal by content (dictionaries included); Godot 3 merges
//! equal arrays and never merges dictionaries (compared by identity); a merged key keeps its
//! first position and takes the last value. Cost is measured by `benches/adversarial.rs`.

use gdwire::text::to_text;
use gdwire::{Decoder, Dialect, VariantType, MAX_DEPTH};

/// Far smaller than Rust's 2 MiB default; the tests run unoptimised.
const SMALL_STACK: usize = 256 << 10;

fn u32s(out: &mut Vec<u8>, words: &[u32]) {
    for w in words {
        out.extend_from_slice(&w.to_le_bytes());
    }
}

#[derive(Clone, Copy)]
enum Nest {
    /// `[[…[x]…]]`
    Arrays,
    /// `{{…{x: 0}…: 0}: 0}`: nested through keys.
    DictKeys,
}

/// The 3.x text and key rules (Godot 3, Pandemonium).
fn godot3(dialect: Dialect) -> bool {
    dialect == Dialect::GODOT_3 || dialect == Dialect::PANDEMONIUM_3_5
}

/// The wire id of `t` in `dialect`.
fn wire(dialect: Dialect, t: VariantType) -> u32 {
    (0..=255u8)
        .find(|&i| dialect.type_of(i) == Some(t))
        .unwrap()
        .into()
}

/// Wire ids of Array, Dictionary and Int in `dialect`.
fn ids(dialect: Dialect) -> (u32, u32, u32) {
    let id = |t| wire(dialect, t);
    (
        id(VariantType::Array),
        id(VariantType::Dictionary),
        id(VariantType::Int),
    )
}

/// `levels` containers around the int `x`.
fn nest(out: &mut Vec<u8>, dialect: Dialect, how: Nest, levels: usize, x: u32) {
    let (array, dict, int) = ids(dialect);
    for _ in 0..levels {
        match how {
            Nest::Arrays => u32s(out, &[array, 1]),
            Nest::DictKeys => u32s(out, &[dict, 1]),
        }
    }
    u32s(out, &[int, x]);
    if let Nest::DictKeys = how {
        for _ in 0..levels {
            u32s(out, &[int, 0]);
        }
    }
}

/// A dictionary whose keys are `levels`-deep nests around each of `inner`; key `i` has the
/// value `i`.
fn dict_of_deep_keys(dialect: Dialect, how: Nest, levels: usize, inner: &[u32]) -> Vec<u8> {
    let (_, dict, int) = ids(dialect);
    let mut out = Vec::new();
    u32s(&mut out, &[dict, inner.len() as u32]);
    for (i, &x) in inner.iter().enumerate() {
        nest(&mut out, dialect, how, levels, x);
        u32s(&mut out, &[int, i as u32]);
    }
    out
}

/// The text of a nest around `x`.
fn nest_text(dialect: Dialect, how: Nest, levels: usize, x: u32) -> String {
    let g3 = godot3(dialect);
    // The nest is a dictionary key (at depth 1): Godot 4 writes its containers at depths
    // 1..=100 and the one at depth 101 empty (engine-checked cut, docs/text.md).
    if !g3 && levels > 100 {
        return match how {
            Nest::Arrays => format!("{}[]{}", "[".repeat(100), "]".repeat(100)),
            Nest::DictKeys => format!("{}{{}}{}", "{\n".repeat(100), ": 0\n}".repeat(100)),
        };
    }
    match how {
        Nest::Arrays if g3 => format!("{}{x}{}", "[ ".repeat(levels), " ]".repeat(levels)),
        Nest::Arrays => format!("{}{x}{}", "[".repeat(levels), "]".repeat(levels)),
        Nest::DictKeys => format!("{}{x}{}", "{\n".repeat(levels), ": 0\n}".repeat(levels)),
    }
}

/// `{\n k: v,\n … \n}`
fn dict_text(entries: &[(String, u32)]) -> String {
    let body: Vec<String> = entries.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    format!("{{\n{}\n}}", body.join(",\n"))
}

fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(SMALL_STACK)
        .spawn(f)
        .unwrap()
        .join()
        .expect("no stack overflow")
}

fn print(dialect: Dialect, bytes: &[u8]) -> String {
    let v = Decoder::new(dialect).decode_exact(bytes).unwrap();
    to_text(dialect, &v).unwrap()
}

#[test]
fn keys_as_deep_as_the_decoder_allows_compare_and_merge_on_a_small_stack() {
    // The dictionary is at depth 0, its keys at 1: the deepest key holds MAX_DEPTH - 1
    // containers (its innermost int sits at MAX_DEPTH); one more level is refused.
    let levels = MAX_DEPTH as usize - 1;
    for dialect in [Dialect::GODOT_3, Dialect::GODOT_4] {
        for how in [Nest::Arrays, Nest::DictKeys] {
            let too_deep = dict_of_deep_keys(dialect, how, levels + 1, &[1]);
            assert!(Decoder::new(dialect).decode_exact(&too_deep).is_err());
        }
    }
    let results = on_small_stack(move || {
        let mut results = Vec::new();
        for dialect in [Dialect::GODOT_3, Dialect::PANDEMONIUM_3_5, Dialect::GODOT_4] {
            for how in [Nest::Arrays, Nest::DictKeys] {
                // Equal keys (compared to the bottom, then merged where the engine merges)
                // and keys that differ only at the bottom.
                for inner in [&[1, 1][..], &[1, 0][..], &[0, 1, 0][..]] {
                    let bytes = dict_of_deep_keys(dialect, how, levels, inner);
                    results.push((dialect, how, inner.to_vec(), print(dialect, &bytes)));
                }
            }
        }
        results
    });
    for (dialect, how, inner, text) in results {
        let key = |x: u32| nest_text(dialect, how, levels, x);
        let g3 = godot3(dialect);
        let context = format!("{dialect:?}, {inner:?}");
        match (g3, how, inner.as_slice()) {
            // Godot 3 never merges dictionaries, and has no `<` for them: wire order.
            (true, Nest::DictKeys, _) => {
                let want: Vec<(String, u32)> =
                    (0..).zip(&inner).map(|(i, &x)| (key(x), i)).collect();
                assert_eq!(text, dict_text(&want), "{context}");
            }
            // Equal keys merge: first position, last value.
            (_, _, [1, 1]) => assert_eq!(text, dict_text(&[(key(1), 1)]), "{context}"),
            (_, _, [0, 1, 0]) if !g3 => {
                assert_eq!(text, dict_text(&[(key(0), 2), (key(1), 1)]), "{context}")
            }
            // Godot 4: arrays in lexicographic order; dictionaries have no `<` (wire order).
            (false, Nest::Arrays, [1, 0]) => {
                assert_eq!(text, dict_text(&[(key(0), 1), (key(1), 0)]), "{context}")
            }
            (false, Nest::DictKeys, [1, 0]) => {
                assert_eq!(text, dict_text(&[(key(1), 0), (key(0), 1)]), "{context}")
            }
            // Godot 3's array `<` (engine-checked on shallow keys) decides the order of
            // different arrays by the parity of the depth where they differ: check that both
            // keys are there, merged where equal.
            (true, Nest::Arrays, [1, 0]) => {
                let a = dict_text(&[(key(1), 0), (key(0), 1)]);
                let b = dict_text(&[(key(0), 1), (key(1), 0)]);
                assert!(text == a || text == b, "{context}");
            }
            (true, Nest::Arrays, [0, 1, 0]) => {
                let a = dict_text(&[(key(0), 2), (key(1), 1)]);
                let b = dict_text(&[(key(1), 1), (key(0), 2)]);
                assert!(text == a || text == b, "{context}");
            }
            _ => unreachable!("{context}"),
        }
    }
}

#[test]
fn wide_dictionaries_of_alike_keys_merge_exactly() {
    // 20,000 different one-entry dictionaries as keys (one type, one length), then the first
    // 100 again with new values. Godot 4 merges equal dictionaries: 20,000 entries, the
    // repeated keys with their last value. Godot 3 compares dictionaries by identity: 20,100.
    let n = 20_000u32;
    let build = |dialect: Dialect| {
        let (_, dict, int) = ids(dialect);
        let mut out = Vec::new();
        u32s(&mut out, &[dict, n + 100]);
        for (j, i) in (0..n).chain(0..100).enumerate() {
            let value = if j >= n as usize { 100_000 + i } else { i };
            u32s(&mut out, &[dict, 1, int, i, int, 0, int, value]);
        }
        out
    };
    let entry = |i: u32, v: u32| format!("{{\n{i}: 0\n}}: {v}");
    // An entry is followed by ",\n" or by the closing "\n}".
    let has = |text: &str, i: u32, v: u32| {
        text.contains(&format!("{},", entry(i, v)))
            || text.ends_with(&format!("{}\n}}", entry(i, v)))
    };
    let text = print(Dialect::GODOT_4, &build(Dialect::GODOT_4));
    assert_eq!(text.matches(": 0\n}: ").count(), n as usize);
    for i in [0, 1, 50, 99] {
        assert!(has(&text, i, 100_000 + i), "{i}");
        assert!(!has(&text, i, i), "{i}");
    }
    for i in [100, 5_000, n - 1] {
        assert!(has(&text, i, i), "{i}");
    }
    let text = print(Dialect::GODOT_3, &build(Dialect::GODOT_3));
    assert_eq!(text.matches(": 0\n}: ").count(), n as usize + 100);
    assert!(has(&text, 7, 7) && has(&text, 7, 100_007));
}

#[test]
fn keys_that_equal_nothing_are_never_merged() {
    // Godot 3 compares packed float elements with `==`: an array holding NaN equals no key,
    // not even one with the same bytes. Godot 4 takes NaN as equal to NaN there.
    let n = 5_000u32;
    let build = |dialect: Dialect| {
        let (_, dict, int) = ids(dialect);
        let pool_real = wire(dialect, VariantType::PackedFloat32Array);
        let mut out = Vec::new();
        u32s(&mut out, &[dict, n]);
        for i in 0..n {
            u32s(&mut out, &[pool_real, 1, f32::NAN.to_bits(), int, i]);
        }
        out
    };
    let g3 = print(Dialect::GODOT_3, &build(Dialect::GODOT_3));
    assert_eq!(g3.matches("PoolRealArray( nan )").count(), n as usize);
    let g4 = print(Dialect::GODOT_4, &build(Dialect::GODOT_4));
    assert_eq!(g4, format!("{{\nPackedFloat32Array(nan): {}\n}}", n - 1));
}
