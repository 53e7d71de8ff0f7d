//! Inputs the fuzz targets (fuzz/) found, kept as regression tests.

use gdwire::{to_vec, Decoder, Dialect, ErrorKind, VariantRef, Writer};

/// `writer` target: `Writer::string_bytes` wrote bytes that are not text (a lone `0xA3`), and
/// the reader, like the engine, rejected the output. Now the writer refuses them.
#[test]
fn writer_refuses_string_bytes_the_reader_would_reject() {
    for dialect in Dialect::ALL {
        let mut w = Writer::new(Vec::new(), dialect);
        let err = w.string_bytes(&[0xa3]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidText, "{dialect:?}");
        assert!(w.finish().is_err(), "a failed writer stays failed");
        // Valid UTF-8 (NUL included: the text stops there, as in the engine) is fine.
        let mut w = Writer::new(Vec::new(), dialect);
        w.string_bytes("é\0x".as_bytes()).unwrap();
        w.finish().unwrap();
        let out = w.into_sink();
        assert!(Decoder::new(dialect).decode_exact(&out).is_ok());
    }
    // Godot 3's parser accepts some non-UTF-8 (a 5-byte sequence); the writer allows exactly
    // what the dialect's reader accepts.
    let five = [0xf8, 0x88, 0x80, 0x80, 0x80];
    let mut w = Writer::new(Vec::new(), Dialect::GODOT_3);
    w.string_bytes(&five).unwrap();
    w.finish().unwrap();
    let out = w.into_sink();
    let v = Decoder::new(Dialect::GODOT_3).decode_exact(&out).unwrap();
    assert_eq!(v.as_string().unwrap().raw(), five);
    let mut w = Writer::new(Vec::new(), Dialect::GODOT_4);
    assert_eq!(
        w.string_bytes(&five).unwrap_err().kind(),
        ErrorKind::InvalidText
    );
}

/// `roundtrip` target: a NodePath whose flag word has bits the engine ignores
/// (`0xFFFFFFFC`: not absolute, no property flag) re-encodes with the canonical flag word;
/// what the path means is unchanged and the re-encoding is stable.
#[test]
fn node_path_garbage_flag_bits_reencode_canonically() {
    let bytes = [
        0x0f, 0, 0, 0, // NodePath (Godot 3)
        1, 0, 0, 0x80, // new format, 1 name
        0, 0, 0, 0, // 0 subnames
        0xfc, 0xff, 0xff, 0xff, // flags: garbage, bits 0 and 1 clear
        1, 0, 0, 0, b'a', 0, 0, 0, // "a"
    ];
    let dec = Decoder::new(Dialect::GODOT_3);
    let v = dec.decode_exact(&bytes).unwrap();
    let VariantRef::NodePath(p) = v else {
        panic!("{v:?}")
    };
    assert_eq!(p.flags(), 0xffff_fffc);
    assert!(!p.is_absolute() && !p.has_property_flag());
    let out = to_vec(Dialect::GODOT_3, &v).unwrap();
    let v2 = dec.decode_exact(&out).unwrap();
    let VariantRef::NodePath(q) = v2 else {
        panic!("{v2:?}")
    };
    assert_eq!(q.flags(), 0);
    assert!(q.names().eq(p.names()) && q.subnames().eq(p.subnames()));
    assert_eq!(q.is_absolute(), p.is_absolute());
    assert_eq!(to_vec(Dialect::GODOT_3, &v2).unwrap(), out);
}
