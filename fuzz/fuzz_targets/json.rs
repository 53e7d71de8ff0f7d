//! JSON input (feature `json`, the CLI's `encode --from json`): any text either fails cleanly
//! or gives bytes the reader accepts as exactly one value, whose JSON reads back to the same
//! bytes.
#![no_main]

use gdwire::{json, Decoder, Dialect};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (&d, text) = data.split_first().unwrap_or((&0, &[]));
    let Ok(text) = std::str::from_utf8(text) else { return };
    let dialect = Dialect::ALL[d as usize % Dialect::ALL.len()];
    let Ok(bytes) = json::from_json_str(dialect, text) else { return };
    let dec = Decoder::new(dialect).with_allow_objects(true);
    let v = dec
        .decode_exact(&bytes)
        .unwrap_or_else(|e| panic!("reader rejects JSON output {bytes:02x?}: {e}"));
    let again = json::to_json_string(dialect, &v).expect("JSON of a decoded value");
    let bytes2 = json::from_json_str(dialect, &again).expect("our own JSON reads back");
    assert_eq!(bytes2, bytes, "JSON round trip changed the bytes: {again}");
});
