//! Writes JSON seeds for the `json` fuzz target: every real-engine fixture value as JSON in
//! every dialect it decodes in (first byte: dialect index, as the target reads it).
//! Run by `fuzz/seed.sh`.
use std::io::Write;

use gdwire::{json, Decoder, Dialect};

fn main() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    std::fs::create_dir_all(format!("{root}/fuzz/corpus/json")).unwrap();
    let mut n = 0;
    for file in ["values.jsonl", "malformed.jsonl"] {
        let text = std::fs::read_to_string(format!("{root}/tests/fixtures/godot3/{file}")).unwrap();
        for line in text.lines() {
            let hex = line.split("\"hex\": \"").nth(1).and_then(|s| s.split('"').next());
            let Some(hex) = hex else { continue };
            let bytes: Vec<u8> = (0..hex.len() / 2)
                .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
                .collect();
            for (i, d) in Dialect::ALL.iter().enumerate() {
                let dec = Decoder::new(*d).with_allow_objects(true);
                let Ok(v) = dec.decode(&bytes) else { continue };
                let Ok(text) = json::to_json_string(*d, &v) else { continue };
                let mut seed = vec![i as u8];
                seed.extend_from_slice(text.as_bytes());
                let name = format!("{root}/fuzz/corpus/json/seed_{n:05}");
                std::fs::File::create(name).unwrap().write_all(&seed).unwrap();
                n += 1;
            }
        }
    }
    println!("corpus/json/ {n} seeds");
}
