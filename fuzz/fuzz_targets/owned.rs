//! decode into owned values against the views: `decode_owned` accepts and rejects exactly
//! what `decode` does (same error), the owned value prints as the view does (`Debug`),
//! re-encodes to the view's bytes in every dialect (or fails the same way), and its clone
//! is the same value.
#![no_main]

use gdwire::{to_vec, Decoder, Dialect};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for dialect in Dialect::ALL {
        for objects in [false, true] {
            let dec = Decoder::new(dialect).with_allow_objects(objects);
            let view = dec.decode_prefix(data);
            let owned = dec.decode_owned_prefix(data);
            let (v, o) = match (view, owned) {
                (Ok((v, used)), Ok((o, used_owned))) => {
                    assert_eq!(used, used_owned);
                    (v, o)
                }
                (Err(a), Err(b)) => {
                    assert_eq!(a, b, "different errors");
                    continue;
                }
                (a, b) => panic!(
                    "decode {a:?} vs decode_owned {:?}",
                    b.map(|(o, n)| (format!("{o:?}"), n))
                ),
            };
            assert_eq!(format!("{o:?}"), format!("{v:?}"));
            let copy = o.clone();
            assert_eq!(format!("{copy:?}"), format!("{o:?}"));
            assert_eq!(format!("{:?}", v.to_owned()), format!("{o:?}"));
            for target in Dialect::ALL {
                let mine = o.to_vec(target).map_err(|e| e.kind());
                let views = to_vec(target, &v).map_err(|e| e.kind());
                assert_eq!(mine, views, "{target:?}");
            }
        }
    }
});
