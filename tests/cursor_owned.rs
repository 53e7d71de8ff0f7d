//! `Cursor::read_owned` on the committed engine captures (`samples/godot3_capture.bin`,
//! written by Godot 3.2.3's `File.store_var`, and `samples/godot4_capture.bin`, by Godot
//! 4.6's `FileAccess.store_var`): every value comes back as an owned `Variant` whose text is
//! the engine's own (`samples/*_capture.txt`, `var2str` / `var_to_str` of each value) and
//! which re-encodes to the engine's bytes.
#![cfg(feature = "alloc")]

use gdwire::frame::Framing;
use gdwire::owned::Variant;
use gdwire::{Cursor, Decoder, Dialect, ErrorKind};

fn sample(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/samples/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn check_capture(dialect: Dialect, bin: &str, txt: &str) {
    let file = sample(bin);
    let engine_text = String::from_utf8(sample(txt)).unwrap();
    let payloads: Vec<&[u8]> = Framing::default()
        .frames(&file)
        .map(|f| f.unwrap().payload)
        .collect();
    assert_eq!(payloads.len(), 12);

    // The payloads back to back (what `var_to_bytes` outputs concatenated are): one cursor
    // reads them all, each value owned, with the cursor after it.
    let stream = payloads.concat();
    let mut cursor = Cursor::new(dialect, &stream);
    let mut values = Vec::new();
    let mut ends = Vec::new();
    while !cursor.is_at_end() {
        values.push(cursor.read_owned().unwrap());
        ends.push(cursor.position());
    }
    drop(stream); // nothing borrows from it
    let mut end = 0;
    let mut text = String::new();
    for ((value, payload), at) in values.iter().zip(&payloads).zip(&ends) {
        end += payload.len();
        assert_eq!(*at, end);
        assert_eq!(value.to_vec(dialect).unwrap(), *payload, "re-encoded");
        text += &value.display(dialect).to_string();
        text.push('\n');
    }
    assert_eq!(values.len(), 12);
    assert_eq!(text, engine_text);

    // One value per store_var frame: the same values.
    for (payload, value) in payloads.iter().zip(&values) {
        assert_eq!(Cursor::new(dialect, payload).read_owned().unwrap(), *value);
    }
}

#[test]
fn godot3_capture_reads_as_owned_values() {
    check_capture(Dialect::GODOT_3, "godot3_capture.bin", "godot3_capture.txt");
}

#[test]
fn godot4_capture_reads_as_owned_values() {
    check_capture(Dialect::GODOT_4, "godot4_capture.bin", "godot4_capture.txt");
}

#[test]
fn errors_leave_the_cursor_and_count_from_the_start() {
    // 7, then an Array of one value with an unknown type id.
    let bytes = [
        2, 0, 0, 0, 7, 0, 0, 0, 28, 0, 0, 0, 1, 0, 0, 0, 0xee, 0, 0, 0,
    ];
    let mut cursor = Cursor::with_decoder(Decoder::new(Dialect::GODOT_4), &bytes);
    assert_eq!(cursor.read_owned().unwrap(), Variant::Int(7));
    let err = cursor.read_owned().unwrap_err();
    assert!(matches!(
        err.kind(),
        ErrorKind::UnknownType { id: 0xee, .. }
    ));
    assert_eq!(err.offset(), 16);
    assert_eq!(cursor.position(), 8);
    // The view reader agrees.
    assert_eq!(cursor.read().unwrap_err(), err);
    // At the end: truncated, like `read`.
    let mut done = Cursor::new(Dialect::GODOT_4, &bytes[..8]);
    done.skip().unwrap();
    assert_eq!(done.read_owned().unwrap_err(), done.read().unwrap_err());
}

/// `Cursor::read` with and without the relay's canonical note
/// (`Decoder::with_canonical_check`) on the engine captures' payloads back to back, then a
/// truncated copy of the first: every view equal to its payload's read alone, the cursor at
/// the end of each `store_var` frame's payload after it, and at the truncated tail the same
/// error, the cursor not moved.
#[test]
fn views_read_with_the_canonical_note_stop_where_the_frames_end() {
    for (dialect, bin) in [
        (Dialect::GODOT_3, "godot3_capture.bin"),
        (Dialect::GODOT_4, "godot4_capture.bin"),
    ] {
        let file = sample(bin);
        let payloads: Vec<&[u8]> = Framing::default()
            .frames(&file)
            .map(|f| f.unwrap().payload)
            .collect();
        let mut stream = payloads.concat();
        let whole = stream.len();
        stream.extend_from_slice(&payloads[0][..payloads[0].len() - 4]);
        let mut errors = Vec::new();
        for noted in [false, true] {
            let dec = Decoder::new(dialect).with_canonical_check(noted);
            let mut cursor = Cursor::with_decoder(dec, &stream);
            let mut end = 0;
            for payload in &payloads {
                let view = cursor.read().unwrap();
                end += payload.len();
                assert_eq!(cursor.position(), end, "{bin}, noted {noted}");
                let alone = Variant::from(Cursor::new(dialect, payload).read().unwrap());
                assert_eq!(Variant::from(view), alone, "{bin}, noted {noted}");
            }
            let err = cursor.read().unwrap_err();
            assert_eq!(cursor.position(), whole, "{bin}, noted {noted}");
            errors.push(err);
        }
        assert_eq!(errors[0], errors[1], "{bin}");
    }
}
