//! JSON input (feature `json`, the CLI's `encode --from json`): any text either fails cleanly
//! or gives bytes the reader accepts as exactly one value, whose JSON reads back to the same
//! bytes. Engine-compatible reading (`json::Options::ENGINE`) gives the same bytes wherever
//! strict reading succeeds. gdwire's own (strict) parser agrees with serde_json's wherever
//! serde_json can judge (up to its 128 levels; gdwire refuses repeated keys where serde_json
//! keeps the last).
#![no_main]

use gdwire::{json, Decoder, Dialect};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (&d, text) = data.split_first().unwrap_or((&0, &[]));
    let Ok(text) = std::str::from_utf8(text) else { return };
    let dialect = Dialect::ALL[d as usize % Dialect::ALL.len()];
    let ours = json::from_json_str(dialect, text);
    differential(dialect, text, &ours);
    // Engine-compatible reading extends strict reading: the same bytes wherever strict
    // reading succeeds; its own output must decode too.
    let engine = json::from_json_str_with(dialect, text, json::Options::ENGINE);
    match (&ours, &engine) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "engine mode differs on strict JSON {text:?}"),
        (Ok(_), Err(e)) => panic!("engine mode rejects strict JSON {text:?}: {e}"),
        (Err(_), Ok(b)) => {
            let dec = Decoder::new(dialect).with_allow_objects(true);
            dec.decode_exact(b)
                .unwrap_or_else(|e| panic!("reader rejects engine-mode output {b:02x?}: {e}"));
        }
        (Err(_), Err(_)) => {}
    }
    let Ok(bytes) = ours else { return };
    let dec = Decoder::new(dialect).with_allow_objects(true);
    let v = dec
        .decode_exact(&bytes)
        .unwrap_or_else(|e| panic!("reader rejects JSON output {bytes:02x?}: {e}"));
    let again = json::to_json_string(dialect, &v).expect("JSON of a decoded value");
    let bytes2 = json::from_json_str(dialect, &again).expect("our own JSON reads back");
    assert_eq!(bytes2, bytes, "JSON round trip changed the bytes: {again}");
});

/// The same verdict and bytes as parsing with serde_json and encoding its `Value`.
fn differential(dialect: Dialect, text: &str, ours: &Result<Vec<u8>, json::JsonError>) {
    let duplicate = matches!(ours, Err(json::JsonError::Syntax { message, .. })
        if message.starts_with("duplicate key"));
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(v) => {
            let theirs = json::from_json_value(dialect, &v);
            match (ours, &theirs) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "parsers disagree on {text:?}"),
                (Err(_), Err(_)) => {}
                _ if duplicate => {}
                _ => panic!("parsers disagree on {text:?}: ours {ours:?}, serde_json {theirs:?}"),
            }
        }
        Err(e) if e.to_string().starts_with("recursion limit exceeded") => {}
        Err(e) => assert!(ours.is_err(), "serde_json rejects {text:?} ({e}), we accept it"),
    }
}
