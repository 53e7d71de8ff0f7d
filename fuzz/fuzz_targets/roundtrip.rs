//! decode → re-encode → decode: whatever decodes re-encodes (to_vec, to_slice, encoded_len
//! agree, with and without the decode's canonical check), the reader accepts what the writer wrote and sees the same value, and
//! re-encoding that is byte-stable; re-encoding into any other dialect gives bytes that
//! dialect's reader accepts, or an error.
#![no_main]

use gdwire::{encoded_len, to_slice, to_vec, Decoder, Dialect, ErrorKind};
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/support/events.rs"]
mod events;

fuzz_target!(|data: &[u8]| {
    for dialect in Dialect::ALL {
        for objects in [false, true] {
            let dec = Decoder::new(dialect).with_allow_objects(objects);
            // Noting canonical bytes while validating changes nothing but how re-encoding
            // gets its bytes.
            let noted = dec.with_canonical_check(true).decode(data);
            assert_eq!(noted.map(|_| ()), dec.decode(data).map(|_| ()));
            let Ok(v) = dec.decode(data) else { continue };
            let out = to_vec(dialect, &v).expect("a decoded value failed to re-encode");
            let noted = dec.with_canonical_check(true).decode(data).unwrap();
            assert_eq!(to_vec(dialect, &noted), Ok(out.clone()), "copy of noted bytes differs");
            assert_eq!(encoded_len(dialect, &v), Ok(out.len()));
            let mut buf = vec![0u8; out.len()];
            assert_eq!(to_slice(dialect, &v, &mut buf), Ok(out.len()));
            assert_eq!(buf, out);
            let mut short = vec![0u8; out.len() - 1];
            let err = to_slice(dialect, &v, &mut short).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::BufferFull { needed: out.len() });
            let v2 = dec
                .decode_exact(&out)
                .unwrap_or_else(|e| panic!("reader rejects writer output: {e}"));
            let (mut a, mut b) = (Vec::new(), Vec::new());
            events::view_events(v, true, &mut a).unwrap();
            events::view_events(v2, true, &mut b).unwrap();
            assert_eq!(events::normalized(a), events::normalized(b), "value changed");
            assert_eq!(to_vec(dialect, &v2).unwrap(), out, "re-encoding not stable");
            // Into every other dialect: refusing is fine (a type the target lacks, text it
            // cannot hold), writing bytes its reader rejects is not.
            for target in Dialect::ALL {
                if let Ok(out) = to_vec(target, &v) {
                    let r = Decoder::new(target).with_allow_objects(objects).decode_exact(&out);
                    assert!(r.is_ok(), "{target:?} rejects {out:02x?}: {r:?}");
                }
            }
        }
    }
});
