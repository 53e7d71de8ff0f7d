//! The cursor: `skip`, `read`, `peek_type`, `decode_prefix`, `decode_exact` and `validate`
//! agree on every input (same verdict, same error, same end), and a cursor over a sequence
//! always makes progress or stops with an error.
#![no_main]

use gdwire::{Decoder, Dialect};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for dialect in Dialect::ALL {
        for objects in [false, true] {
            let dec = Decoder::new(dialect).with_allow_objects(objects);
            let validated = dec.validate(data);
            let prefix = dec.decode_prefix(data);
            let mut cursor = dec.cursor(data);
            let peek = cursor.peek_type();
            let skipped = cursor.skip();
            match validated {
                Ok(len) => {
                    let (v, used) = prefix.expect("validate ok, decode_prefix failed");
                    assert_eq!(used, len);
                    assert_eq!(cursor.position(), len);
                    assert_eq!(skipped, Ok(v.variant_type()));
                    assert_eq!(peek, Ok(v.variant_type()));
                    assert_eq!(dec.decode_exact(data).is_ok(), len == data.len());
                    assert!(len > 0 && len <= data.len());
                }
                Err(e) => {
                    assert!(e.offset() <= data.len(), "{e} past the end of {}", data.len());
                    assert_eq!(prefix.unwrap_err(), e);
                    assert_eq!(skipped, Err(e));
                    assert_eq!(cursor.position(), 0, "a failed skip moved the cursor");
                    assert!(peek.is_err() || e.offset() > 0 || data.len() >= 4);
                }
            }
            // A sequence of values: read and skip step in lockstep.
            let mut by_skip = dec.cursor(data);
            let mut by_read = dec.cursor(data);
            loop {
                let before = by_skip.position();
                let s = by_skip.skip();
                let r = by_read.read();
                assert_eq!(by_skip.position(), by_read.position());
                match (s, r) {
                    (Ok(t), Ok(v)) => {
                        assert_eq!(t, v.variant_type());
                        assert!(by_skip.position() > before, "no progress");
                    }
                    (Err(a), Err(b)) => {
                        assert_eq!(a, b);
                        assert_eq!(by_skip.position(), before);
                        break;
                    }
                    other => panic!("skip and read disagree: {other:?}"),
                }
                if by_skip.is_at_end() {
                    break;
                }
            }
        }
    }
});
