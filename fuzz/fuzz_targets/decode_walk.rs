//! Decode with every dialect (objects allowed and not) and walk everything three ways: the
//! event `Walker`, the lazy views, and the views with walked children handed back. All three
//! must agree with each other and with `validate` (same verdict, same error, same length), and
//! a walk of validated data must never fail. Every decoded value (and every leaf the walker
//! hands out) goes through `touch`, which calls every accessor of every view and checks they
//! agree; every error through `touch_error`.
//! Run: `cargo +nightly fuzz run decode_walk` (seed corpus: `fuzz/seed.sh`).
#![no_main]

use gdwire::{Decoder, Dialect, ObjectRef, VariantRef};
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/support/events.rs"]
mod events;
#[path = "../../tests/support/touch.rs"]
mod touch;

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
                        // The walker's leaves are its own views (containers come as `Begin`);
                        // `events::key` formats them.
                        let container = matches!(
                            v,
                            VariantRef::Array(_)
                                | VariantRef::Dictionary(_)
                                | VariantRef::Object(ObjectRef::Full(_))
                        );
                        if !container {
                            touch::accessors(&v);
                        }
                        walked.push(events::key(&gdwire::read::Event::Value(v)));
                    }
                    Ok(e) => walked.push(events::key(&e)),
                    Err(e) => {
                        touch::touch_error(&e);
                        error = Some(e);
                    }
                }
            }
            assert!(walker.is_done());
            match verdict {
                Ok(len) => {
                    assert_eq!(error, None, "walker failed on validated data");
                    assert_eq!(walker.offset(), len);
                    assert_eq!(walker.open_containers(), 0);
                    let v = dec.decode(data).expect("validate ok, decode failed");
                    touch::touch(&v);
                    let mut plain = Vec::new();
                    events::view_events(v, false, &mut plain).expect("view walk failed");
                    assert_eq!(plain, walked, "walker and views disagree");
                    let mut resumed = Vec::new();
                    events::view_events(v, true, &mut resumed).expect("resumed walk failed");
                    assert_eq!(resumed, plain, "resumed walk differs");
                }
                Err(e) => {
                    assert!(e.offset() <= data.len(), "{e} past the end of {}", data.len());
                    assert_eq!(error, Some(e), "walker and validate disagree");
                    assert_eq!(dec.decode(data), Err(e));
                    touch::touch_error(&e);
                }
            }
        }
    }
});
