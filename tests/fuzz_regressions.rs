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

/// `writer` and `json` targets: a full-object class name that is empty *as text* ("\0\x01",
/// from `begin_object` or JSON `{"type":"\u0000\u0000","props":[]}`) was written with a
/// property count, but the reader, like the engine, reads such a class as a null object with
/// no count after it, and the output had trailing bytes. The writer now refuses it.
#[test]
fn writer_refuses_class_names_that_are_empty_as_text() {
    for class in ["", "\0", "\0\u{1}", "\u{FEFF}", "\u{FEFF}\0Node"] {
        for dialect in Dialect::ALL {
            let mut w = Writer::new(Vec::new(), dialect).with_full_objects(true);
            let err = w.begin_object(class, 0).unwrap_err();
            assert_eq!(
                err.kind(),
                ErrorKind::EmptyClassName,
                "{class:?} {dialect:?}"
            );
        }
    }
    let mut w = Writer::new(Vec::new(), Dialect::GODOT_4).with_full_objects(true);
    w.begin_object("Node\0junk", 0).unwrap();
    w.finish().unwrap();
    let out = w.into_sink();
    let v = Decoder::new(Dialect::GODOT_4)
        .with_allow_objects(true)
        .decode_exact(&out)
        .unwrap();
    assert!(!v.as_object().unwrap().is_null());
}

#[cfg(feature = "json")]
#[test]
fn json_class_name_empty_as_text_is_an_error() {
    let text = r#"{"type":"\u0000\u0000","props":[]}"#;
    assert!(gdwire::json::from_json_str(Dialect::PANDEMONIUM_3_8, text).is_err());
}

/// `frame` target (out of memory): with the maximum frame raised to the engine's limit, a
/// 4-byte prefix announcing ~2 GiB made `FrameBuffer` allocate the whole frame at once.
/// Memory now grows with the bytes that arrive (at most doubling).
#[test]
fn frame_buffer_grows_with_data_not_with_the_announced_size() {
    use gdwire::frame::{FrameBuffer, Framing};
    use gdwire::write::Endian;
    let framing = Framing::new(Endian::Little).with_max_frame(usize::MAX);
    let mut fb = FrameBuffer::new(framing).with_read_size(16);
    fb.push(&0x7979_7979u32.to_le_bytes()).unwrap();
    assert_eq!(fb.next_frame().unwrap(), None);
    assert!(fb.capacity() < 1024, "{}", fb.capacity());
    // A real frame still reassembles, however the bytes are cut.
    let payload: Vec<u8> = (0..100_000u32).map(|i| i as u8).collect();
    let mut stream = (payload.len() as u32).to_le_bytes().to_vec();
    stream.extend_from_slice(&payload);
    let mut fb = FrameBuffer::new(framing).with_read_size(16);
    let mut got = None;
    for chunk in stream.chunks(777) {
        let mut chunk = chunk;
        while !chunk.is_empty() {
            let n = fb.push(chunk).unwrap();
            chunk = &chunk[n..];
            assert!(
                fb.capacity() <= 2 * fb.buffered() + 1024,
                "{}",
                fb.capacity()
            );
            if let Some(f) = fb.next_frame().unwrap() {
                got = Some(f.to_vec());
            }
        }
    }
    assert_eq!(got.as_deref(), Some(&payload[..]));
    fb.finish().unwrap();
}

/// Re-encoding into another dialect: text Godot 3 accepts but Godot 4 does not (a 5-byte
/// sequence) must not be written as a Godot 4 string the reader then rejects.
#[test]
fn cross_dialect_reencoding_never_writes_what_the_target_rejects() {
    let bytes = [
        4, 0, 0, 0, 5, 0, 0, 0, 0xf8, 0x88, 0x80, 0x80, 0x80, 0, 0, 0,
    ];
    let v = Decoder::new(Dialect::GODOT_3).decode_exact(&bytes).unwrap();
    for target in Dialect::ALL {
        if let Ok(out) = to_vec(target, &v) {
            assert!(
                Decoder::new(target).decode_exact(&out).is_ok(),
                "{target:?} reader rejects {out:02x?}"
            );
        }
    }
}

/// `roundtrip` target: a Godot 3 full object whose `script` property is itself an object (a
/// GDScript resource) was re-encoded into Godot 4.3+, whose reader (like the engine's) accepts
/// only nil or a `res://` path String there. The writer now refuses it with the reader's error
/// kind, in the streaming calls and in the re-encode of a view alike.
#[test]
fn writer_refuses_a_script_property_godot_4_3_would_reject() {
    let input = hex_bytes("11000000090000005265666572656e6365000000050000000600000073637269707400001100000008000000474453637269707403000000170000007265736f757263655f6c6f63616c5f746f5f7363656e650001000000000000000d0000007265736f757263655f6e616d6500000004000000000000000d0000007363726970742f736f757263650000000400000092000000657874656e6473205265666572656e63650a6578706f727420766172206870203d20350a6578706f727420766172207469746c65203d20226b6e69676874220a6578706f72742076617220706f73203d20566563746f723328312c20322c2033290a6578706f7274207661722074616773203d205b2261222c20315d0a766172206e6f745f6578706f72746564203d20390a00000200000068700000020000004d000000050000007469746c6500000004000000060000006b6e69676874000003000000706f7300070000000000803f0000004000004040040000007461677313000000020000000400000001000000620000000300000000002040");
    let v = Decoder::new(Dialect::GODOT_3)
        .with_allow_objects(true)
        .decode_exact(&input)
        .unwrap();
    let write = |dialect: Dialect| {
        let mut w = Writer::new(Vec::new(), dialect).with_full_objects(true);
        w.value(&v).and_then(|_| w.finish()).map(|_| w.into_sink())
    };
    for dialect in [Dialect::GODOT_4_3, Dialect::GODOT_4_4, Dialect::GODOT_4] {
        let err = write(dialect).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidScriptProperty, "{dialect:?}");
    }
    // Godot 4.2 does not check the property (the real 4.2 and 4.3 engines agree: the check
    // came in 4.3): the object is written and reads back.
    let out = write(Dialect::GODOT_4_2).unwrap();
    let back = Decoder::new(Dialect::GODOT_4_2)
        .with_allow_objects(true)
        .decode_exact(&out);
    assert!(back.is_ok());

    // The streaming calls: nil and a res:// path pass, anything else does not.
    type Call = dyn Fn(&mut Writer<Vec<u8>>) -> gdwire::Result<()>;
    let script_then = |dialect: Dialect, value: &Call| -> gdwire::Result<()> {
        let mut w = Writer::new(Vec::new(), dialect).with_full_objects(true);
        w.begin_object("Node", 2)?;
        w.property_name("script")?;
        value(&mut w)?;
        w.property_name("name")?;
        w.string("script")?; // only the property named `script` is checked
        w.finish()?;
        let out = w.into_sink();
        Decoder::new(dialect)
            .with_allow_objects(true)
            .decode_exact(&out)?;
        Ok(())
    };
    let bad: [&Call; 5] = [
        &|w| w.string("user://x.gd"),
        &|w| w.string_name("res://x.gd"),
        &|w| w.int(1),
        &|w| w.object_id(7),
        &|w| w.begin_array(0),
    ];
    for dialect in [Dialect::GODOT_4_3, Dialect::GODOT_4_4, Dialect::GODOT_4] {
        assert!(script_then(dialect, &|w| w.nil()).is_ok());
        assert!(script_then(dialect, &|w| w.string("res://player.gd")).is_ok());
        for call in bad {
            let err = script_then(dialect, call).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidScriptProperty, "{dialect:?}");
        }
    }
    for call in bad {
        assert!(script_then(Dialect::GODOT_4_2, call).is_ok());
    }
}

/// `roundtrip` target: a Godot 3 full object whose property is named `script\0\0\0\0` (the
/// name's block holds NULs after the text) with the String `)` as its value, re-encoded into
/// Godot 4.3+. Their reader cuts the name at the NUL, sees `script`, and rejects the value; the
/// writer compared the raw name and wrote it. It now compares the name and the path as the
/// reader sees them.
#[test]
fn writer_sees_a_script_property_name_as_the_reader_does() {
    let input = hex_bytes("1200000002000000040000000300000072656600110000000b0000005265666572656e6365000000010000000a0000007363726970740000000000000400000001000000296e0000000200000001000000");
    let v = Decoder::new(Dialect::GODOT_3)
        .with_allow_objects(true)
        .decode(&input)
        .unwrap();
    for dialect in [Dialect::GODOT_4_3, Dialect::GODOT_4_4, Dialect::GODOT_4] {
        let err = gdwire::to_vec(dialect, &v).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidScriptProperty, "{dialect:?}");
    }
    assert!(gdwire::to_vec(Dialect::GODOT_4_2, &v).is_ok());
    // The streaming calls: the same name, and a path with a BOM (which the reader skips).
    let write = |name: &str, path: &str| -> gdwire::Result<Vec<u8>> {
        let mut w = Writer::new(Vec::new(), Dialect::GODOT_4).with_full_objects(true);
        w.begin_object("Node", 1)?;
        w.property_name(name)?;
        w.string(path)?;
        w.finish()?;
        Ok(w.into_sink())
    };
    let err = write("script\0", "user://x.gd").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidScriptProperty);
    for (name, path) in [("script\0", "res://x.gd"), ("script", "\u{feff}res://x.gd")] {
        let out = write(name, path).unwrap();
        let back = Decoder::new(Dialect::GODOT_4)
            .with_allow_objects(true)
            .decode_exact(&out);
        assert!(back.is_ok(), "{name:?} {path:?}: {back:?}");
    }
}

fn hex_bytes(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// `roundtrip` target: a script-typed array whose path is not `res://`, read with objects off
/// (the engine then types it `EncodedObjectAsID` without loading anything), failed to
/// re-encode: the writer refused the path. Element types read from the wire are written back
/// as sent, like every other part of a view; only a script the caller names
/// (`ContainerTypeSpec::Script`) must be a `res://` path, as the engine loads it.
#[test]
fn script_element_types_read_with_objects_off_reencode_as_sent() {
    let input = hex_bytes("1c0003000a000000653a2f72732f612e6764000000000000");
    for dialect in [Dialect::GODOT_4_3, Dialect::GODOT_4_4, Dialect::GODOT_4] {
        let v = Decoder::new(dialect).decode(&input).unwrap();
        let out = to_vec(dialect, &v).unwrap();
        assert_eq!(out, &input[..out.len()], "{dialect:?}");
        assert!(Decoder::new(dialect).decode_exact(&out).is_ok());
        // With objects on, the engine and the reader load the script: not from this path.
        let err = Decoder::new(dialect)
            .with_allow_objects(true)
            .decode(&input)
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidScriptPath);

        let mut w = Writer::new(Vec::new(), dialect).with_full_objects(true);
        let err = w
            .begin_typed_array(0, gdwire::ContainerTypeSpec::Script("e:/rs/a.gd"))
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidScriptPath);
        let mut w = Writer::new(Vec::new(), dialect).with_full_objects(true);
        let spec = gdwire::ContainerTypeSpec::Script("e:/rs/a.gd");
        let err = w.begin_typed_dictionary(0, spec, spec).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidScriptPath);
    }
}

/// `owned` target: a Godot 3 object whose `script` property holds an object decoded into an
/// owned `Variant` and written for Godot 4.4: the views' writer refused it (in 4.4+ a
/// `script` value must be nil or a `res://` path, or the engine rejects the object) but the
/// owned value's writer wrote it. Both refuse it now, and agree on what they accept.
#[test]
fn owned_writer_checks_the_script_property_as_the_views_writer_does() {
    // Godot 3, objects allowed: Object "Reference" { script: Object "GDScript" {}, hp: 5 }.
    let mut g3 = Vec::new();
    let mut w = Writer::new(&mut g3, Dialect::GODOT_3).with_full_objects(true);
    w.begin_object("Reference", 2).unwrap();
    w.property_name("script").unwrap();
    w.begin_object("GDScript", 0).unwrap();
    w.property_name("hp").unwrap();
    w.int(5).unwrap();
    w.finish().unwrap();
    let dec = Decoder::new(Dialect::GODOT_3).with_allow_objects(true);
    let view = dec.decode_exact(&g3).unwrap();
    let owned = dec.decode_owned(&g3).unwrap();
    for target in Dialect::ALL {
        let from_view = to_vec(target, &view).map_err(|e| e.kind());
        let from_owned = owned.to_vec(target).map_err(|e| e.kind());
        assert_eq!(from_owned, from_view, "{target:?}");
        if target == Dialect::GODOT_4_4 {
            assert_eq!(
                from_owned,
                Err(ErrorKind::InvalidScriptProperty),
                "{target:?}"
            );
        }
    }
    // A `res://` path is fine everywhere that checks.
    let mut g4 = Vec::new();
    let mut w = Writer::new(&mut g4, Dialect::GODOT_4).with_full_objects(true);
    w.begin_object("Node", 1).unwrap();
    w.property_name("script").unwrap();
    w.string("res://a.gd").unwrap();
    w.finish().unwrap();
    let dec = Decoder::new(Dialect::GODOT_4_3).with_allow_objects(true);
    let owned = dec.decode_owned(&g4).unwrap();
    assert_eq!(owned.to_vec(Dialect::GODOT_4).unwrap(), g4);
}
