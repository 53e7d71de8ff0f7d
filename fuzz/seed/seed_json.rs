//! Writes JSON seeds for the `json` fuzz target: every real-engine fixture value and every
//! spec-vector literal of the tests as JSON in every dialect it decodes in (first byte: dialect
//! index, as the target reads it).
//! Run by `fuzz/seed.sh`.
use std::io::Write;

use gdwire::{json, Decoder, Dialect};

fn main() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    std::fs::create_dir_all(format!("{root}/fuzz/corpus/json")).unwrap();
    let mut values = Vec::new();
    for file in ["values.jsonl", "malformed.jsonl"] {
        let text = std::fs::read_to_string(format!("{root}/tests/fixtures/godot3/{file}")).unwrap();
        for line in text.lines() {
            let hex = line
                .split("\"hex\": \"")
                .nth(1)
                .and_then(|s| s.split('"').next());
            values.extend(hex.map(unhex));
        }
    }
    // Godot 4 and Pandemonium values (typed containers, 64-bit math, ...): the hex string
    // literals of the spec-vector tests, as fuzz/seed.sh takes them.
    for file in [
        "godot4_vectors.rs",
        "pandemonium_vectors.rs",
        "write_vectors.rs",
    ] {
        let src = std::fs::read_to_string(format!("{root}/tests/{file}")).unwrap();
        for (i, chunk) in src.split('"').enumerate() {
            let digits: String = chunk.replace("\\\n", " ").split_whitespace().collect();
            let hex = digits.bytes().all(|b| b.is_ascii_hexdigit());
            if i % 2 == 1 && hex && digits.len() >= 8 && digits.len() % 2 == 0 {
                values.push(unhex(&digits));
            }
        }
    }
    let mut n = 0;
    for bytes in &values {
        for (i, d) in Dialect::ALL.iter().enumerate() {
            let dec = Decoder::new(*d).with_allow_objects(true);
            let Ok(v) = dec.decode(bytes) else { continue };
            let Ok(text) = json::to_json_string(*d, &v) else {
                continue;
            };
            let mut seed = vec![i as u8];
            seed.extend_from_slice(text.as_bytes());
            let name = format!("{root}/fuzz/corpus/json/seed_{n:05}");
            std::fs::File::create(name)
                .unwrap()
                .write_all(&seed)
                .unwrap();
            n += 1;
        }
    }
    println!("corpus/json/ {n} seeds");
}

fn unhex(hex: &str) -> Vec<u8> {
    (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}
