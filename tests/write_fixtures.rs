//! Every value the real Godot 3.2.3 engine wrote (`tests/fixtures/godot3/values.jsonl`, see
//! `tests/godot3/README.md`) re-encodes byte for byte from its decoded view.
//!
//! The 3.2.3 NodePath encoder leaves the pad bytes after each name uninitialised (docs/wire-format.md §4.5);
//! this crate writes zeros. The expected bytes get those pads zeroed first, located by walking
//! the decoded structure (each NodePath view borrows its components from the fixture bytes).

mod support;

use gdwire::{to_vec, Decoder, Dialect};
use support::node_path_pads;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/godot3/values.jsonl"
);

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn godot3_engine_values_reencode_byte_for_byte() {
    let text = std::fs::read_to_string(FIXTURE).unwrap_or_else(|e| {
        panic!("missing real-engine fixture {FIXTURE}: {e} (see tests/godot3/README.md)")
    });
    let decoder = Decoder::new(Dialect::GODOT_3).with_allow_objects(true);
    let mut checked = 0;
    let mut with_pads = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let entry: serde_json::Value = serde_json::from_str(line).unwrap();
        let name = entry["name"].as_str().unwrap();
        let bytes = hex(entry["hex"].as_str().unwrap());
        let full_objects = entry["full_objects"].as_bool().unwrap();
        let value = decoder
            .decode_exact(&bytes)
            .unwrap_or_else(|e| panic!("{name}: engine bytes do not decode: {e}"));

        let mut pads = Vec::new();
        node_path_pads(&bytes, &value, &mut pads);
        let mut expected = bytes.clone();
        for &i in &pads {
            expected[i] = 0;
        }
        with_pads += (!pads.is_empty()) as usize;

        let got = to_vec(Dialect::GODOT_3, &value)
            .unwrap_or_else(|e| panic!("{name}: re-encoding failed: {e}"));
        assert_eq!(
            hex_str(&got),
            hex_str(&expected),
            "{name} (full_objects = {full_objects})"
        );

        // The streaming writer with the fixture's own options agrees.
        let mut out = Vec::new();
        let mut w = gdwire::Writer::new(&mut out, Dialect::GODOT_3).with_full_objects(full_objects);
        w.value(&value).unwrap();
        w.finish().unwrap();
        assert_eq!(out, expected, "{name}");
        assert_eq!(
            gdwire::encoded_len(Dialect::GODOT_3, &value).unwrap(),
            expected.len()
        );
        checked += 1;
    }
    assert!(checked >= 160, "only {checked} fixtures read");
    assert!(with_pads >= 5, "NodePath pad handling not exercised");
}

fn hex_str(b: &[u8]) -> String {
    b.iter().map(|b| format!("{b:02x}")).collect()
}
