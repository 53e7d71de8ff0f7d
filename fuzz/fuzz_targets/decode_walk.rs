//! Decode with every dialect and walk everything the view exposes; skip with the cursor.
//! Run: `cargo +nightly fuzz run decode_walk` (seed corpus: `fuzz/seed.sh`).
#![no_main]

use gdwire::{Cursor, Decoder, Dialect, ObjectRef, VariantRef};
use libfuzzer_sys::fuzz_target;

fn walk(v: VariantRef<'_>, budget: &mut u32) {
    if *budget == 0 {
        return;
    }
    *budget -= 1;
    match v {
        VariantRef::Array(a) => a.iter().flatten().for_each(|x| walk(x, budget)),
        VariantRef::Dictionary(d) => d.iter().flatten().for_each(|(k, v)| {
            walk(k, budget);
            walk(v, budget);
        }),
        VariantRef::Object(ObjectRef::Full(o)) => {
            o.properties().flatten().for_each(|(_, v)| walk(v, budget))
        }
        VariantRef::String(s) | VariantRef::StringName(s) => {
            let _ = s.code_points().count();
        }
        VariantRef::PackedStringArray(p) => p.iter().for_each(|s| drop(s.as_str())),
        VariantRef::NodePath(p) => p.parts().iter().for_each(|s| drop(s.as_str())),
        _ => {}
    }
}

fuzz_target!(|data: &[u8]| {
    for dialect in Dialect::ALL {
        let decoder = Decoder::new(dialect).with_allow_objects(data.first() == Some(&0x11));
        if let Ok(v) = decoder.decode(data) {
            // Validation succeeded: walking must never fail.
            let mut budget = 100_000;
            walk(v, &mut budget);
        }
        let mut cursor = Cursor::with_decoder(decoder, data);
        while cursor.skip().is_ok() && !cursor.is_at_end() {}
    }
});
