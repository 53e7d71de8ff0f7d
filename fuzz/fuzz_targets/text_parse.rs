//! Text input (`gdwire::text::parse`, the CLI's `encode --from text`): any text either fails
//! cleanly or gives bytes the reader accepts as exactly one value, in single and in double
//! precision alike. Reading is stable: the
//! text printed for what was read reads back to bytes whose text reads back to the same bytes
//! (one round may drop what the text form loses, e.g. Godot 3's six-digit floats), up to the
//! order of dictionary entries: keys whose engine order contradicts itself (Godot 3.2.3's
//! `Array <`, NaN) sort differently from a different starting order, in the engine too.
//! In Godot 4.4+ also up to the last digits of floats: the engine's `strtod` is not correctly
//! rounded (a power of ten above 10^22 is a product of inexact factors), so the shortest
//! digits of a value it read can read back as a neighbouring double, in the engine too.
//! Object property names holding `\\` or `"` are left out: the engines' writers print them
//! without escapes, so their text does not read back as written (in the engine too).
#![no_main]

use gdwire::{text, Decoder, Dialect, ObjectRef, Precision, VariantRef, Writer};
use libfuzzer_sys::fuzz_target;

fn print(dialect: Dialect, bytes: &[u8]) -> String {
    let v = Decoder::new(dialect)
        .with_allow_objects(true)
        .decode_exact(bytes)
        .unwrap_or_else(|e| panic!("reader rejects parse output {bytes:02x?}: {e}"));
    text::to_text(dialect, &v).expect("text of a decoded value")
}

/// The text's lines, sorted, without the separating commas: equal for texts that differ
/// only in the order of dictionary entries (one per line in every dialect).
fn lines(t: &str) -> Vec<&str> {
    let mut l: Vec<&str> = t.lines().map(|l| l.trim_end_matches(',')).collect();
    l.sort_unstable();
    l
}

/// The text with every run of digits and '.' replaced by `0` (a drifting float may gain or
/// lose a fraction: `2e+33` and `2.0000000000000002e+33`).
fn digits_masked(t: &str) -> String {
    let mut out = String::with_capacity(t.len());
    let mut in_digits = false;
    for c in t.chars() {
        if c.is_ascii_digit() || c == '.' {
            if !in_digits {
                out.push('0');
            }
            in_digits = true;
        } else {
            out.push(c);
            in_digits = false;
        }
    }
    out
}

/// True if a full object in the value has a property name the writers print unescaped
/// into text that reads back differently (`\\` or `"`).
fn has_unprintable_name(dialect: Dialect, bytes: &[u8]) -> bool {
    let Ok(v) = Decoder::new(dialect).with_allow_objects(true).decode_exact(bytes) else {
        return false;
    };
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            VariantRef::Array(a) => stack.extend(a.iter()),
            VariantRef::Dictionary(d) => {
                for (k, v) in d.iter() {
                    stack.push(k);
                    stack.push(v);
                }
            }
            VariantRef::Object(ObjectRef::Full(o)) => {
                for (name, v) in o.properties() {
                    if name.bytes().iter().any(|&b| b == b'\\' || b == b'"') {
                        return true;
                    }
                    stack.push(v);
                }
            }
            _ => {}
        }
    }
    false
}

/// `text::parse` as a double-precision build reads (real components as `double`).
fn parse_double(dialect: Dialect, input: &str) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, dialect)
        .with_full_objects(true)
        .with_heap_spill(true)
        .with_precision(Precision::Double);
    text::parse_into(&mut w, input).ok()?;
    w.finish().ok()?;
    Some(out)
}

fn reread(dialect: Dialect, bytes: &[u8]) -> Option<Vec<u8>> {
    let printed = print(dialect, bytes);
    match text::parse(dialect, &printed) {
        Ok(b) => Some(b),
        // What the printer writes for a value parse cannot give back (e.g. a node path
        // the engine's NodePath(String) refuses) may not read; it must not panic.
        Err(_) => None,
    }
}

fuzz_target!(|data: &[u8]| {
    let (&d, input) = data.split_first().unwrap_or((&0, &[]));
    let Ok(input) = std::str::from_utf8(input) else { return };
    let dialect = Dialect::ALL[d as usize % Dialect::ALL.len()];
    // Several values: each fails cleanly or reads.
    let _ = text::parse_many(dialect, input).take(64).count();
    let _ = text::parse_many(dialect, input)
        .with_precision(Precision::Double)
        .take(64)
        .count();
    // Read as a double-precision build reads: the same verdict, bytes the reader accepts,
    // and the very same bytes where the dialect has no 64-bit math.
    let single = text::parse(dialect, input);
    let double = parse_double(dialect, input);
    assert_eq!(single.is_ok(), double.is_some(), "precision changes the verdict: {input:?}");
    if let Some(b) = &double {
        let _ = print(dialect, b);
        if !dialect.math_follows_flag_64() {
            assert_eq!(single.as_ref().ok(), Some(b), "{input:?}");
        }
    }
    let Ok(bytes) = single else { return };
    let Some(once) = reread(dialect, &bytes) else { return };
    let Some(twice) = reread(dialect, &once) else {
        // Only a property name the printers write unescaped (as the engine does) may turn
        // the printed text into text that does not parse, or a string whose leading BOM the
        // decoder dropped (as the engine does: e.g. a node path name that becomes empty).
        assert!(
            has_unprintable_name(dialect, &once) || print(dialect, &bytes).contains('\u{feff}'),
            "printed text of parsed text reads back: {input:?}"
        );
        return;
    };
    if twice != once && !has_unprintable_name(dialect, &once) {
        // Decoding drops one leading BOM of each string, as the engine's parse_utf8 does, so
        // a text with several loses one per round: compare with BOMs left out.
        let without_bom = |t: String| t.replace('\u{feff}', "");
        let (a, b) = (print(dialect, &once), print(dialect, &twice));
        let (a, b) = (without_bom(a), without_bom(b));
        if dialect.has_typed_dictionaries() && lines(&a) != lines(&b) {
            let (a, b) = (digits_masked(&a), digits_masked(&b));
            assert_eq!(lines(&a), lines(&b), "text round trip is not stable for {input:?}");
        } else {
            assert_eq!(lines(&a), lines(&b), "text round trip is not stable for {input:?}");
        }
    }
});
