//! Decode with every dialect (objects allowed and not) and walk everything three ways: the
//! event `Walker`, the lazy views, and the views with walked children handed back. All three
//! must agree with each other and with `validate` (same verdict, same error, same length), and
//! a walk of validated data must never fail.
//! Run: `cargo +nightly fuzz run decode_walk` (seed corpus: `fuzz/seed.sh`).
#![no_main]

use gdwire::{Decoder, Dialect, VariantRef};
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/support/events.rs"]
mod events;

/// Touches what the views expose beyond the event stream.
fn leaf_accessors(v: &VariantRef<'_>) {
    match v {
        VariantRef::String(s) | VariantRef::StringName(s) => {
            let _ = s.code_points().count();
            let _ = s.as_str();
        }
        VariantRef::PackedStringArray(p) => p.iter().for_each(|s| {
            let _ = s.as_str();
        }),
        VariantRef::NodePath(p) => {
            p.names().for_each(drop);
            p.subnames().for_each(drop);
        }
        VariantRef::PackedInt32Array(p) => {
            let _ = (p.as_native_slice(), p.get(p.len().wrapping_sub(1)));
            let _ = p.iter().rev().count();
        }
        VariantRef::PackedVector3Array(p) => {
            let _ = (p.get(p.len().wrapping_sub(1)), p.iter().count());
        }
        VariantRef::PackedColorArray(p) => {
            let _ = (p.as_le_slice().len(), p.get(0));
        }
        _ => {}
    }
}

fuzz_target!(|data: &[u8]| {
    for dialect in Dialect::ALL {
        for objects in [false, true] {
            let dec = Decoder::new(dialect).with_allow_objects(objects);
            let verdict = dec.validate(data);
            let mut walker = dec.walk(data);
            let mut walked = Vec::new();
            let mut error = None;
            for event in walker.by_ref() {
                match event {
                    Ok(gdwire::read::Event::Value(v)) => {
                        leaf_accessors(&v);
                        walked.push(events::key(&gdwire::read::Event::Value(v)));
                    }
                    Ok(e) => walked.push(events::key(&e)),
                    Err(e) => error = Some(e),
                }
            }
            assert!(walker.is_done());
            match verdict {
                Ok(len) => {
                    assert_eq!(error, None, "walker failed on validated data");
                    assert_eq!(walker.position(), len);
                    assert_eq!(walker.open_containers(), 0);
                    let v = dec.decode(data).expect("validate ok, decode failed");
                    let mut plain = Vec::new();
                    events::view_events(v, false, &mut plain).expect("view walk failed");
                    assert_eq!(plain, walked, "walker and views disagree");
                    let mut resumed = Vec::new();
                    events::view_events(v, true, &mut resumed).expect("resumed walk failed");
                    assert_eq!(resumed, plain, "resumed walk differs");
                }
                Err(e) => {
                    assert_eq!(error, Some(e), "walker and validate disagree");
                    assert!(dec.decode(data).is_err());
                }
            }
        }
    }
});
