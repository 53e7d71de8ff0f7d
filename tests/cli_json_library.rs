//! `gdwire::json` round trips over independent truth: every value the real Godot 3.2.3 engine
//! wrote (`tests/fixtures/godot3/values.jsonl`) and every hex vector of the Godot 4 and
//! Pandemonium spec-vector tests. For each value: decode, write JSON, parse the JSON back into
//! wire bytes, and require the canonical bytes (the engine's own bytes for the fixtures,
//! NodePath pad garbage zeroed; `to_vec` of the view for the vectors).

#![cfg(feature = "json")]

mod support;

use gdwire::{json, to_vec, Decoder, Dialect};
use support::{hex, node_path_pads};

fn round_trip(dialect: Dialect, bytes: &[u8]) -> Result<(String, Vec<u8>), json::JsonError> {
    let value = Decoder::new(dialect)
        .with_allow_objects(true)
        .decode_exact(bytes)?;
    let text = json::to_json_string(dialect, &value)?;
    assert!(!text.contains('\n'), "one line per value: {text}");
    let back = json::from_json_str(dialect, &text)?;
    Ok((text, back))
}

#[test]
fn godot3_engine_values_round_trip_through_json() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/godot3/values.jsonl"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let entry: serde_json::Value = serde_json::from_str(line).unwrap();
        let name = entry["name"].as_str().unwrap();
        let bytes = hex(entry["hex"].as_str().unwrap());
        let value = Decoder::new(Dialect::GODOT_3)
            .with_allow_objects(true)
            .decode_exact(&bytes)
            .unwrap();
        let mut pads = Vec::new();
        node_path_pads(&bytes, &value, &mut pads);
        let mut expected = bytes.clone();
        for i in pads {
            expected[i] = 0;
        }
        let (json_text, back) =
            round_trip(Dialect::GODOT_3, &bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(back, expected, "{name}: {json_text}");
        n += 1;
    }
    assert_eq!(n, 167);
}

/// Every hex string literal of at least 4 bytes in the vector test sources.
fn vector_literals(file: &str) -> Vec<Vec<u8>> {
    let src =
        std::fs::read_to_string(format!("{}/tests/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let mut out = Vec::new();
    for (i, chunk) in src.split('"').enumerate() {
        if i % 2 == 0 {
            continue; // outside a literal
        }
        let body = chunk.replace("\\\n", " ");
        let ok = body
            .chars()
            .all(|c| c.is_ascii_hexdigit() || c.is_ascii_whitespace());
        let digits = body.chars().filter(|c| c.is_ascii_hexdigit()).count();
        if ok && digits >= 8 && digits % 2 == 0 {
            out.push(hex(&body));
        }
    }
    out
}

#[test]
fn godot4_and_pandemonium_vectors_round_trip_through_json() {
    let mut checked = 0;
    for file in [
        "godot4_vectors.rs",
        "pandemonium_vectors.rs",
        "write_vectors.rs",
    ] {
        for bytes in vector_literals(file) {
            for dialect in Dialect::ALL {
                let Ok(value) = Decoder::new(dialect)
                    .with_allow_objects(true)
                    .decode_exact(&bytes)
                else {
                    continue;
                };
                let Ok(canonical) = to_vec(dialect, &value) else {
                    continue;
                };
                let (text, back) = round_trip(dialect, &bytes)
                    .unwrap_or_else(|e| panic!("{dialect} {bytes:02x?}: {e}"));
                assert_eq!(back, canonical, "{dialect} {bytes:02x?}: {text}");
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "only {checked} vector decodes checked");
}
