//! Writer output checked against byte vectors (docs/wire-format.md §7: engine unit tests,
//! engine-observed bytes, bytes derived from the engine source) and the layout rules of
//! docs/wire-format.md; plus the writer's error behaviour.

use gdwire::math::{Color, Precision, Rect2i, Transform2D, Vector2, Vector2i, Vector3, Vector4};
use gdwire::write::Endian;
use gdwire::{
    from_bytes, to_slice, to_vec, ContainerTypeSpec, CountingSink, Dialect, ErrorKind, VariantType,
    Writer,
};

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.split_whitespace().collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// Runs `f` on a fresh Vec writer and returns the bytes.
fn enc(d: Dialect, f: impl FnOnce(&mut Writer<&mut Vec<u8>>) -> gdwire::Result<()>) -> Vec<u8> {
    enc_with(d, |w| w, f)
}

fn enc_with<'a>(
    d: Dialect,
    opts: impl FnOnce(Writer<&'a mut Vec<u8>>) -> Writer<&'a mut Vec<u8>>,
    f: impl FnOnce(&mut Writer<&'a mut Vec<u8>>) -> gdwire::Result<()>,
) -> Vec<u8> {
    let out: &'a mut Vec<u8> = Box::leak(Box::default());
    let mut w = opts(Writer::new(out, d));
    f(&mut w).unwrap();
    let n = w.finish().unwrap();
    let out = w.into_sink();
    assert_eq!(n, out.len());
    out.clone()
}

fn v2(x: f64, y: f64) -> Vector2 {
    Vector2 { x, y }
}

// ----- docs/wire-format.md §7 (engine unit tests) ----------------------------------------------------------

#[test]
fn spec_6_1_variants() {
    let g4 = Dialect::GODOT_4;
    assert_eq!(enc(g4, |w| w.nil()), hex("00 00 00 00"));
    assert_eq!(
        enc(g4, |w| w.int(0x12345678)),
        hex("02 00 00 00 78 56 34 12")
    );
    let big = 0x0f123456789abcdef_u64 as i64;
    assert_eq!(
        enc(g4, |w| w.int(big)),
        hex("02 00 01 00 ef cd ab 89 67 45 23 f1")
    );
    assert_eq!(
        enc(g4, |w| w.float(0.15625f32 as f64)),
        hex("03 00 00 00 00 00 20 3e")
    );
    assert_eq!(
        enc(g4, |w| w.float(0.333_333_333_333_333_3)),
        hex("03 00 01 00 55 55 55 55 55 55 d5 3f")
    );
}

#[test]
fn spec_6_1_typed_array_and_dictionary() {
    let big = 0x0f123456789abcdef_u64 as i64;
    let int = ContainerTypeSpec::Builtin(VariantType::Int);
    for d in [Dialect::GODOT_4_3, Dialect::GODOT_4_4] {
        let bytes = enc(d, |w| {
            w.begin_typed_array(1, int)?;
            w.int(big)
        });
        assert_eq!(
            bytes,
            hex("1c 00 01 00 02 00 00 00 01 00 00 00 02 00 01 00 ef cd ab 89 67 45 23 f1"),
            "{d}"
        );
    }
    let bytes = enc(Dialect::GODOT_4_4, |w| {
        w.begin_typed_dictionary(1, int, int)?;
        w.int(big)?;
        w.int(big)
    });
    assert_eq!(
        bytes,
        hex("1b 00 05 00 02 00 00 00 02 00 00 00 01 00 00 00
             02 00 01 00 ef cd ab 89 67 45 23 f1 02 00 01 00 ef cd ab 89 67 45 23 f1")
    );
}

#[test]
fn typed_containers_without_dialect_support_are_untyped() {
    let int = ContainerTypeSpec::Builtin(VariantType::Int);
    // Godot 4.2 has no typed arrays (written untyped, as the engine 4.0-4.2 does).
    let bytes = enc(Dialect::GODOT_4_2, |w| {
        w.begin_typed_array(1, int)?;
        w.int(7)
    });
    assert_eq!(
        bytes,
        hex("1c 00 00 00 01 00 00 00 02 00 00 00 07 00 00 00")
    );
    // Godot 4.3 has no typed dictionaries.
    let bytes = enc(Dialect::GODOT_4_3, |w| {
        w.begin_typed_dictionary(0, int, int)
    });
    assert_eq!(bytes, hex("1b 00 00 00 00 00 00 00"));
    // Godot 3: Array id 19.
    let bytes = enc(Dialect::GODOT_3, |w| w.begin_typed_array(0, int));
    assert_eq!(bytes, hex("13 00 00 00 00 00 00 00"));
    // Builtin(Nil) means untyped everywhere.
    let nil = ContainerTypeSpec::Builtin(VariantType::Nil);
    let bytes = enc(Dialect::GODOT_4_4, |w| w.begin_typed_array(0, nil));
    assert_eq!(bytes, hex("1c 00 00 00 00 00 00 00"));
    // Only the value side typed: key kind NONE, value kind BUILTIN (bits 18-19).
    let bytes = enc(Dialect::GODOT_4_4, |w| {
        w.begin_typed_dictionary(0, nil, int)
    });
    assert_eq!(bytes, hex("1b 00 04 00 02 00 00 00 00 00 00 00"));
}

#[test]
fn pandemonium_typed_arrays() {
    let d = Dialect::PANDEMONIUM_5;
    let int = ContainerTypeSpec::Builtin(VariantType::Int);
    // TypedArray = 27, element id INT = 2 (docs/wire-format.md §4.12).
    let bytes = enc(d, |w| {
        w.begin_typed_array(1, int)?;
        w.int(5)
    });
    assert_eq!(
        bytes,
        hex("1b 00 00 00 02 00 00 00 01 00 00 00 02 00 00 00 05 00 00 00")
    );
    // PackedTypedArray = 28.
    let bytes = enc(d, |w| w.begin_packed_typed_array(0, int));
    assert_eq!(bytes, hex("1c 00 00 00 02 00 00 00 00 00 00 00"));
    // Object elements without full objects: bit 16, OBJECT id 23, no class name.
    let node = ContainerTypeSpec::ClassName("Node");
    let bytes = enc(d, |w| w.begin_typed_array(0, node));
    assert_eq!(bytes, hex("1b 00 01 00 17 00 00 00 00 00 00 00"));
    // With full objects: the class as a StringName value (id 24).
    let bytes = enc_with(
        d,
        |w| w.with_full_objects(true),
        |w| w.begin_typed_array(0, node),
    );
    assert_eq!(
        bytes,
        hex("1b 00 00 00 17 00 00 00 18 00 00 00 04 00 00 00 4e 6f 64 65 00 00 00 00")
    );
    let v = gdwire::Decoder::new(d).decode_exact(&bytes).unwrap();
    let a = v.as_array().unwrap();
    assert_eq!(a.kind(), gdwire::read::ArrayKind::TypedArray);
    assert!(matches!(
        a.element_type(),
        Some(gdwire::ContainerType::ClassName(s)) if s == "Node"
    ));
}

// ----- docs/wire-format.md §7 / §7 -------------------------------------------------------------------------

#[test]
fn spec_6_3_godot4() {
    let g4 = Dialect::GODOT_4;
    let cases: Vec<(Vec<u8>, &str)> =
        vec![
        (enc(g4, |w| w.string("asd")), "04 00 00 00 03 00 00 00 61 73 64 00"),
        (enc(g4, |w| w.string_name("abc")), "15 00 00 00 03 00 00 00 61 62 63 00"),
        (enc(g4, |w| w.bool(true)), "01 00 00 00 01 00 00 00"),
        (enc(g4, |w| w.int(-1)), "02 00 00 00 ff ff ff ff"),
        (enc(g4, |w| w.int(2147483648)), "02 00 01 00 00 00 00 80 00 00 00 00"),
        (enc(g4, |w| w.float(0.5)), "03 00 00 00 00 00 00 3f"),
        (enc(g4, |w| w.float(0.1)), "03 00 01 00 9a 99 99 99 99 99 b9 3f"),
        (enc(g4, |w| w.vector2(v2(1.0, 2.0))), "05 00 00 00 00 00 80 3f 00 00 00 40"),
        (
            enc(g4, |w| w.vector2i(Vector2i { x: -1, y: 2 })),
            "06 00 00 00 ff ff ff ff 02 00 00 00",
        ),
        (
            enc(g4, |w| w.color(Color { r: 1.0, g: 0.0, b: 0.0, a: 1.0 })),
            "14 00 00 00 00 00 80 3f 00 00 00 00 00 00 00 00 00 00 80 3f",
        ),
        (
            enc(g4, |w| w.node_path_str("/root/a:b")),
            "16 00 00 00 02 00 00 80 01 00 00 00 01 00 00 00 04 00 00 00 72 6f 6f 74
             01 00 00 00 61 00 00 00 01 00 00 00 62 00 00 00",
        ),
        (
            enc(g4, |w| w.node_path(&["root", "a"], &["b"], true)),
            "16 00 00 00 02 00 00 80 01 00 00 00 01 00 00 00 04 00 00 00 72 6f 6f 74
             01 00 00 00 61 00 00 00 01 00 00 00 62 00 00 00",
        ),
        (
            enc(g4, |w| {
                w.begin_array(2)?;
                w.int(1)?;
                w.string("a")
            }),
            "1c 00 00 00 02 00 00 00 02 00 00 00 01 00 00 00 04 00 00 00 01 00 00 00 61 00 00 00",
        ),
        (
            enc(g4, |w| {
                w.begin_dictionary(1)?;
                w.string("a")?;
                w.int(1)
            }),
            "1b 00 00 00 01 00 00 00 04 00 00 00 01 00 00 00 61 00 00 00 02 00 00 00 01 00 00 00",
        ),
        (enc(g4, |w| w.packed_bytes(&[1, 2, 3])), "1d 00 00 00 03 00 00 00 01 02 03 00"),
        (
            enc(g4, |w| w.packed_strings(["ab"])),
            "22 00 00 00 01 00 00 00 03 00 00 00 61 62 00 00",
        ),
        // Empty Array[Node] without full objects (4.3+ after PR #94379).
        (
            enc(g4, |w| w.begin_typed_array(0, ContainerTypeSpec::ClassName("Node"))),
            "1c 00 02 00 11 00 00 00 45 6e 63 6f 64 65 64 4f 62 6a 65 63 74 41 73 49 44 00 00 00
             00 00 00 00",
        ),
        // §7: RID 13 in 4.4 (godot-docs #10662) and a Callable (godot-docs #12077).
        (enc(g4, |w| w.rid(13)), "17 00 00 00 0d 00 00 00 00 00 00 00"),
        (enc(g4, |w| w.callable()), "19 00 00 00"),
    ];
    for (i, (got, want)) in cases.iter().enumerate() {
        assert_eq!(got, &hex(want), "case {i}");
    }
}

#[test]
fn spec_6_3_godot3() {
    let g3 = Dialect::GODOT_3;
    assert_eq!(
        enc(g3, |w| w.string("asd")),
        hex("04 00 00 00 03 00 00 00 61 73 64 00")
    );
    assert_eq!(
        enc(g3, |w| w.vector2(v2(1.0, 2.0))),
        hex("05 00 00 00 00 00 80 3f 00 00 00 40")
    );
    assert_eq!(
        enc(g3, |w| {
            w.begin_array(2)?;
            w.int(1)?;
            w.string("a")
        }),
        hex("13 00 00 00 02 00 00 00 02 00 00 00 01 00 00 00 04 00 00 00 01 00 00 00 61 00 00 00")
    );
    // RID: header only in Godot 3 (id 16).
    assert_eq!(enc(g3, |w| w.rid(13)), hex("10 00 00 00"));
    // Godot 3 has no Callable / StringName.
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g3);
    let err = w.callable().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported(VariantType::Callable));
    let mut w = Writer::new(&mut out, g3);
    let err = w.string_name("a").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported(VariantType::StringName));
}

#[test]
fn length_prefixed_put_var() {
    // StreamPeerBuffer.put_var("Godot Rules!!!") (docs/wire-format.md §7).
    let bytes = enc_with(
        Dialect::GODOT_4,
        |w| w.with_length_prefix(Endian::Little),
        |w| w.string("Godot Rules!!!"),
    );
    assert_eq!(
        bytes,
        hex("18 00 00 00 04 00 00 00 0e 00 00 00 47 6f 64 6f 74 20 52 75 6c 65 73 21 21 21 00 00")
    );
    // Godot 3.0 put_var('asd') over a stream (docs/wire-format.md §7), with the 3.0.3+ zero pad.
    let bytes = enc_with(
        Dialect::GODOT_3,
        |w| w.with_length_prefix(Endian::Little),
        |w| w.string("asd"),
    );
    assert_eq!(
        bytes,
        hex("0c 00 00 00 04 00 00 00 03 00 00 00 61 73 64 00")
    );
    // Big-endian prefix (big_endian = true); the payload stays little-endian.
    let bytes = enc_with(
        Dialect::GODOT_3,
        |w| w.with_length_prefix(Endian::Big),
        |w| w.int(1),
    );
    assert_eq!(bytes, hex("00 00 00 08 02 00 00 00 01 00 00 00"));
    // Into a slice, prefix included in the returned length.
    let mut buf = [0xAAu8; 16];
    let mut w = Writer::new(&mut buf, Dialect::GODOT_4).with_length_prefix(Endian::Little);
    w.nil().unwrap();
    assert_eq!(w.finish().unwrap(), 8);
    assert_eq!(&buf[..8], &hex("04 00 00 00 00 00 00 00")[..]);
    assert!(buf[8..].iter().all(|&b| b == 0xAA));
}

// ----- precision --------------------------------------------------------------------------------

fn f64s(vals: &[f64]) -> String {
    vals.iter()
        .flat_map(|v| v.to_le_bytes())
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn f32s(vals: &[f32]) -> String {
    vals.iter()
        .flat_map(|v| v.to_le_bytes())
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn double_precision_math_layout() {
    let dbl = |w: Writer<&'static mut Vec<u8>>| w.with_precision(Precision::Double);
    let g4 = Dialect::GODOT_4;
    // Vector2: flag + two f64 (docs/wire-format.md §3.4), even for float-representable values.
    let got = enc_with(g4, dbl, |w| w.vector2(v2(1.0, 2.0)));
    assert_eq!(got, hex(&format!("05 00 01 00 {}", f64s(&[1.0, 2.0]))));
    let got = enc_with(g4, dbl, |w| {
        w.vector3(Vector3 {
            x: 0.1,
            y: -2.0,
            z: 3.5,
        })
    });
    assert_eq!(
        got,
        hex(&format!("09 00 01 00 {}", f64s(&[0.1, -2.0, 3.5])))
    );
    let t = Transform2D {
        x: v2(1.0, 2.0),
        y: v2(3.0, 4.0),
        origin: v2(5.0, 6.0),
    };
    let got = enc_with(g4, dbl, |w| w.transform2d(t));
    let want = format!("0b 00 01 00 {}", f64s(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]));
    assert_eq!(got, hex(&want));
    let got = enc_with(g4, dbl, |w| {
        w.vector4(Vector4 {
            x: 1.0,
            y: 2.0,
            z: 3.0,
            w: 4.0,
        })
    });
    assert_eq!(
        got,
        hex(&format!("0c 00 01 00 {}", f64s(&[1.0, 2.0, 3.0, 4.0])))
    );
    // Packed vectors are flagged and widened too.
    let got = enc_with(g4, dbl, |w| w.packed_vector2([[1.0f32, 2.0]]));
    let want = format!("23 00 01 00 01 00 00 00 {}", f64s(&[1.0, 2.0]));
    assert_eq!(got, hex(&want));
    let got = enc_with(g4, dbl, |w| w.packed_vector3([[1.0f64, 2.0, 3.0]]));
    let want = format!("24 00 01 00 01 00 00 00 {}", f64s(&[1.0, 2.0, 3.0]));
    assert_eq!(got, hex(&want));
    // Never: Color, PackedColorArray, PackedFloat32Array, integer vectors.
    let red = Color {
        r: 1.0,
        g: 0.0,
        b: 0.0,
        a: 1.0,
    };
    let got = enc_with(g4, dbl, |w| w.color(red));
    assert_eq!(
        got,
        hex("14 00 00 00 00 00 80 3f 00 00 00 00 00 00 00 00 00 00 80 3f")
    );
    let got = enc_with(g4, dbl, |w| w.packed_color([[1.0, 0.0, 0.0, 1.0]]));
    let want = format!("25 00 00 00 01 00 00 00 {}", f32s(&[1.0, 0.0, 0.0, 1.0]));
    assert_eq!(got, hex(&want));
    let got = enc_with(g4, dbl, |w| w.packed_f32([0.5f32]));
    assert_eq!(got, hex("20 00 00 00 01 00 00 00 00 00 00 3f"));
    let got = enc_with(g4, dbl, |w| {
        w.rect2i(Rect2i {
            position: Vector2i { x: 1, y: 2 },
            size: Vector2i { x: 3, y: 4 },
        })
    });
    assert_eq!(
        got,
        hex("08 00 00 00 01 00 00 00 02 00 00 00 03 00 00 00 04 00 00 00")
    );
    // Godot 3 and Pandemonium ignore the setting: always f32, no flag.
    let got = enc_with(
        Dialect::GODOT_3,
        |w| w.with_precision(Precision::Double),
        |w| w.vector2(v2(1.0, 2.0)),
    );
    assert_eq!(got, hex("05 00 00 00 00 00 80 3f 00 00 00 40"));
    let got = enc_with(
        Dialect::PANDEMONIUM_3_8,
        |w| w.with_precision(Precision::Double),
        |w| w.vector2(v2(1.0, 2.0)),
    );
    assert_eq!(got, hex("07 00 00 00 00 00 80 3f 00 00 00 40"));
}

#[test]
fn double_precision_views_reencode_as_read() {
    // A view read from a double build keeps its precision when re-encoded.
    let bytes = hex(&format!("05 00 01 00 {}", f64s(&[0.1, 2.0])));
    let v = from_bytes(Dialect::GODOT_4, &bytes).unwrap();
    assert_eq!(to_vec(Dialect::GODOT_4, &v).unwrap(), bytes);
    // Transcoded to Godot 3 it becomes single precision.
    let got = to_vec(Dialect::GODOT_3, &v).unwrap();
    assert_eq!(got, hex(&format!("05 00 00 00 {}", f32s(&[0.1, 2.0]))));
}

// ----- int / float width boundaries (docs/wire-format.md §3.2, §3.3, §7) -------------------------------------

#[test]
fn int_width_boundaries() {
    for d in Dialect::ALL {
        let len = |v: i64| enc(d, |w| w.int(v)).len();
        assert_eq!(len(0), 8);
        assert_eq!(len(i32::MAX as i64), 8);
        assert_eq!(len(1 << 31), 12);
        assert_eq!(len(i32::MIN as i64), 8);
        assert_eq!(len(i32::MIN as i64 - 1), 12);
        assert_eq!(len(i64::MIN), 12);
    }
    assert_eq!(
        enc(Dialect::GODOT_3, |w| w.int(i32::MIN as i64 - 1)),
        hex("02 00 01 00 ff ff ff 7f ff ff ff ff")
    );
    assert_eq!(
        enc(Dialect::GODOT_3, |w| w.int(i32::MIN as i64)),
        hex("02 00 00 00 00 00 00 80")
    );
}

#[test]
fn float_width_boundaries() {
    let g4 = Dialect::GODOT_4;
    let narrow = |v: f64| hex(&format!("03 00 00 00 {}", f32s(&[v as f32])));
    let wide = |v: f64| hex(&format!("03 00 01 00 {}", f64s(&[v])));
    for v in [
        0.5,
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        1.0,
        -1.5,
        3.4028234663852886e38,
    ] {
        assert_eq!(enc(g4, |w| w.float(v)), narrow(v), "{v}");
    }
    // -0.0 keeps its sign.
    assert_eq!(enc(g4, |w| w.float(-0.0)), hex("03 00 00 00 00 00 00 80"));
    for v in [0.1, 1e39, -1e39, 1e-45, 1.0 / 3.0, 16777217.0, f64::MAX] {
        assert_eq!(enc(g4, |w| w.float(v)), wide(v), "{v}");
    }
    // NaN is always 64-bit, bits kept.
    let nan = f64::from_bits(0xfff8_0000_0000_0001);
    assert_eq!(enc(g4, |w| w.float(nan)), wide(nan));
    assert_eq!(enc(g4, |w| w.float(f64::NAN)).len(), 12);
    // Godot 3 REAL follows the same rule (id 3 too).
    assert_eq!(enc(Dialect::GODOT_3, |w| w.float(0.1)), wide(0.1));
}

// ----- objects, node paths --------------------------------------------------------------------

#[test]
fn objects() {
    let g4 = Dialect::GODOT_4;
    assert_eq!(
        enc(g4, |w| w.object_id(0x1234)),
        hex("18 00 01 00 34 12 00 00 00 00 00 00")
    );
    // Null object → Nil, in both modes.
    assert_eq!(enc(g4, |w| w.object_id(0)), hex("00 00 00 00"));
    assert_eq!(
        enc(Dialect::GODOT_3, |w| w.object_id(7)),
        hex("11 00 01 00 07 00 00 00 00 00 00 00")
    );
    // Full object: class, count, (name, value) pairs.
    let bytes = enc_with(
        g4,
        |w| w.with_full_objects(true),
        |w| {
            w.begin_object("Node", 1)?;
            w.property_name("a")?;
            w.int(1)
        },
    );
    assert_eq!(
        bytes,
        hex(
            "18 00 00 00 04 00 00 00 4e 6f 64 65 01 00 00 00 01 00 00 00 61 00 00 00
             02 00 00 00 01 00 00 00"
        )
    );
    // Full objects off: refused.
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g4);
    assert_eq!(
        w.begin_object("Node", 0).unwrap_err().kind(),
        ErrorKind::FullObjectsDisabled
    );
    // Property order errors.
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g4).with_full_objects(true);
    w.begin_object("Node", 1).unwrap();
    assert_eq!(
        w.int(1).unwrap_err().kind(),
        ErrorKind::PropertyNameExpected
    );
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g4).with_full_objects(true);
    w.begin_array(1).unwrap();
    assert_eq!(
        w.property_name("a").unwrap_err().kind(),
        ErrorKind::UnexpectedPropertyName
    );
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g4).with_full_objects(true);
    w.begin_object("Node", 1).unwrap();
    w.property_name("a").unwrap();
    assert_eq!(
        w.property_name("b").unwrap_err().kind(),
        ErrorKind::UnexpectedPropertyName
    );
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g4).with_full_objects(true);
    assert_eq!(
        w.begin_object("", 0).unwrap_err().kind(),
        ErrorKind::EmptyClassName
    );
}

#[test]
fn signal() {
    let bytes = enc(Dialect::GODOT_4, |w| w.signal("hit", 9));
    assert_eq!(
        bytes,
        hex("1a 00 00 00 03 00 00 00 68 69 74 00 09 00 00 00 00 00 00 00")
    );
}

#[test]
fn node_path_string_parsing() {
    let parse = |s: &str| {
        let bytes = enc(Dialect::GODOT_4, |w| w.node_path_str(s));
        let v = from_bytes(Dialect::GODOT_4, &bytes).unwrap();
        let p = v.as_node_path().unwrap();
        let names: Vec<String> = p.names().map(|s| s.to_string()).collect();
        let subs: Vec<String> = p.subnames().map(|s| s.to_string()).collect();
        // The flags word as written (`is_absolute()` mirrors the engine's decoder, which
        // reads an absolute path without names as relative).
        (p.flags() & 1 != 0, names, subs)
    };
    let s = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(parse(""), (false, s(&[]), s(&[])));
    assert_eq!(parse("/"), (true, s(&[]), s(&[])));
    assert_eq!(parse("a"), (false, s(&["a"]), s(&[])));
    assert_eq!(parse("../x"), (false, s(&["..", "x"]), s(&[])));
    assert_eq!(parse("a/b:c:d"), (false, s(&["a", "b"]), s(&["c", "d"])));
    assert_eq!(parse(":prop"), (false, s(&[]), s(&["prop"])));
    assert_eq!(parse("/root//a/"), (true, s(&["root", "a"]), s(&[])));
    assert_eq!(parse("a:b:"), (false, s(&["a"]), s(&["b"])));
    assert_eq!(parse("a:"), (false, s(&["a"]), s(&[])));
    assert_eq!(parse("é/中:🎮"), (false, s(&["é", "中"]), s(&["🎮"])));
    // Byte-exact against the real Godot 3.2.3 fixture for NodePath(":prop").
    assert_eq!(
        enc(Dialect::GODOT_3, |w| w.node_path_str(":prop")),
        hex("0f000000 00000080 01000000 00000000 04000000 70726f70")
    );
    // NodePath("/") is absolute with no names (fixture `nodepath_slash`).
    assert_eq!(
        enc(Dialect::GODOT_3, |w| w.node_path_str("/")),
        hex("0f000000 00000080 00000000 01000000")
    );
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    assert_eq!(
        w.node_path_str("a::b").unwrap_err().kind(),
        ErrorKind::InvalidNodePath
    );
}

#[test]
fn packed_arrays() {
    let g4 = Dialect::GODOT_4;
    assert_eq!(
        enc(g4, |w| w.packed_i32([1, -2])),
        hex("1e 00 00 00 02 00 00 00 01 00 00 00 fe ff ff ff")
    );
    assert_eq!(
        enc(g4, |w| w.packed_i64([1i64].iter())),
        hex("1f 00 00 00 01 00 00 00 01 00 00 00 00 00 00 00")
    );
    assert_eq!(
        enc(g4, |w| w.packed_f64(vec![0.5f64])),
        hex(&format!("21 00 00 00 01 00 00 00 {}", f64s(&[0.5])))
    );
    // Byte arrays: zero pad for every length mod 4; the iterator form matches.
    for n in 0..9u8 {
        let data: Vec<u8> = (1..=n).collect();
        let a = enc(g4, |w| w.packed_bytes(&data));
        let b = enc(g4, |w| w.packed_bytes_iter(data.iter()));
        assert_eq!(a, b);
        assert_eq!(a.len(), 8 + (n as usize).div_ceil(4) * 4);
        assert!(a[8 + n as usize..].iter().all(|&b| b == 0));
    }
    // Strings: NUL counted, zero pad.
    assert_eq!(
        enc(g4, |w| w.packed_strings(["", "abc"])),
        hex("22 00 00 00 02 00 00 00 01 00 00 00 00 00 00 00 04 00 00 00 61 62 63 00")
    );
    // A large array crosses the writer's internal chunking.
    let big: Vec<i32> = (0..10_000).collect();
    let bytes = enc(g4, |w| w.packed_i32(&big));
    let v = from_bytes(g4, &bytes).unwrap();
    let gdwire::VariantRef::PackedInt32Array(p) = v else {
        panic!()
    };
    assert!(p.iter().eq(big.iter().copied()));
    // Around the writer's buffer sizes (256 bytes for small arrays, 2 KiB chunks for the
    // rest): every length from 0 to 600 elements, against the layout written out by hand
    // (id, count, little-endian elements). Godot 4 ids: PackedInt32Array 30,
    // PackedVector3Array 36 (flag 1 << 16 for 64-bit components). Under Miri, the lengths
    // on either side of 256 bytes only.
    let lengths: Vec<u32> = if cfg!(miri) {
        vec![0, 1, 10, 11, 21, 22, 63, 64, 65]
    } else {
        (0..600).collect()
    };
    for n in lengths {
        let ints: Vec<i32> = (0..n as i32).map(|i| i * 7 - 300).collect();
        let mut want = hex("1e000000");
        want.extend_from_slice(&n.to_le_bytes());
        ints.iter()
            .for_each(|i| want.extend_from_slice(&i.to_le_bytes()));
        assert_eq!(enc(g4, |w| w.packed_i32(&ints)), want, "{n} ints");
        if n > 200 {
            continue;
        }
        let vectors: Vec<[f64; 3]> = (0..n).map(|i| [i as f64, 0.5, -(i as f64)]).collect();
        let (mut single, mut double) = (hex("24000000"), hex("24000100"));
        for out in [&mut single, &mut double] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        for v in &vectors {
            v.iter()
                .for_each(|&c| single.extend_from_slice(&(c as f32).to_le_bytes()));
            v.iter()
                .for_each(|&c| double.extend_from_slice(&c.to_le_bytes()));
        }
        let narrow: Vec<[f32; 3]> = vectors.iter().map(|v| v.map(|c| c as f32)).collect();
        assert_eq!(
            enc(g4, |w| w.packed_vector3(&narrow)),
            single,
            "{n} vectors"
        );
        let dbl = |w: Writer<&'static mut Vec<u8>>| w.with_precision(Precision::Double);
        assert_eq!(
            enc_with(g4, dbl, |w| w.packed_vector3(&vectors)),
            double,
            "{n}"
        );
    }
    // Pandemonium int vectors.
    let bytes = enc(Dialect::PANDEMONIUM_3_8, |w| w.packed_vector2i([[1, 2]]));
    assert_eq!(
        bytes,
        hex("20 00 00 00 01 00 00 00 01 00 00 00 02 00 00 00")
    );
    // PackedVector4Array is 4.3+ only.
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, Dialect::GODOT_4_2);
    assert_eq!(
        w.packed_vector4([[0.0f32; 4]]).unwrap_err().kind(),
        ErrorKind::Unsupported(VariantType::PackedVector4Array)
    );
}

// ----- errors: buffer full, counts, limits ------------------------------------------------------

#[test]
fn buffer_full_reports_needed_and_never_writes_past_the_end() {
    let g4 = Dialect::GODOT_4;
    let full = enc(g4, |w| {
        w.begin_array(3)?;
        w.string("hello world")?;
        w.packed_i32([1, 2, 3, 4, 5])?;
        w.int(1 << 40)
    });
    assert_eq!(full.len(), 8 + 20 + 28 + 12);
    for cut in 0..full.len() {
        let mut backing = vec![0xAAu8; full.len() + 16];
        let (buf, rest) = backing.split_at_mut(cut);
        let mut w = Writer::new(buf, g4);
        w.begin_array(3).unwrap();
        w.string("hello world").unwrap();
        w.packed_i32([1, 2, 3, 4, 5]).unwrap();
        w.int(1 << 40).unwrap();
        let stored = w.sink().written().len();
        assert!(w.sink().is_full());
        let err = w.finish().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::BufferFull { needed: full.len() });
        assert_eq!(err.offset(), stored);
        assert!(rest.iter().all(|&b| b == 0xAA), "cut {cut}");
        // What was stored is a prefix of the real output; nothing after it was touched.
        assert_eq!(&backing[..stored], &full[..stored]);
        assert!(backing[stored..].iter().all(|&b| b == 0xAA));
    }
    let mut buf = vec![0u8; full.len()];
    let v = from_bytes(g4, &full).unwrap();
    assert_eq!(to_slice(g4, &v, &mut buf).unwrap(), full.len());
    assert_eq!(buf, full);
    let err = to_slice(g4, &v, &mut buf[..10]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::BufferFull { needed: full.len() });
    // With a length prefix, `needed` includes it.
    let mut small = [0u8; 4];
    let mut w = Writer::new(&mut small, g4).with_length_prefix(Endian::Little);
    w.int(1).unwrap();
    assert_eq!(
        w.finish().unwrap_err().kind(),
        ErrorKind::BufferFull { needed: 12 }
    );
    // Counting sink agrees.
    let mut w = Writer::new(CountingSink::new(), g4);
    w.value(&v).unwrap();
    assert_eq!(w.finish().unwrap(), full.len());
    assert_eq!(gdwire::encoded_len(g4, &v).unwrap(), full.len());
}

#[test]
fn count_mismatches() {
    let g4 = Dialect::GODOT_4;
    // Too few.
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g4);
    w.begin_array(2).unwrap();
    w.int(1).unwrap();
    assert_eq!(
        w.finish().unwrap_err().kind(),
        ErrorKind::MissingItems { count: 1 }
    );
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g4);
    w.begin_dictionary(2).unwrap();
    w.int(1).unwrap();
    assert_eq!(
        w.finish().unwrap_err().kind(),
        ErrorKind::MissingItems { count: 3 }
    );
    // Nothing written at all.
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g4);
    assert_eq!(
        w.finish().unwrap_err().kind(),
        ErrorKind::MissingItems { count: 1 }
    );
    // Too many: after the array is complete, and after a nested container completes.
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g4);
    w.begin_array(1).unwrap();
    w.int(1).unwrap();
    let err = w.int(2).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TooManyItems);
    assert_eq!(err.offset(), 16);
    // Sticky: finish reports the same error.
    assert_eq!(w.finish().unwrap_err(), err);
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g4);
    w.begin_array(2).unwrap();
    w.begin_array(1).unwrap();
    w.nil().unwrap();
    w.nil().unwrap();
    assert_eq!(w.nil().unwrap_err().kind(), ErrorKind::TooManyItems);
    // Two top-level values.
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g4);
    w.nil().unwrap();
    assert_eq!(w.nil().unwrap_err().kind(), ErrorKind::TooManyItems);
    // Iterators that lie about their length.
    struct Liar(usize, usize);
    impl Iterator for Liar {
        type Item = i32;
        fn next(&mut self) -> Option<i32> {
            (self.1 > 0).then(|| {
                self.1 -= 1;
                0
            })
        }
    }
    impl ExactSizeIterator for Liar {
        fn len(&self) -> usize {
            self.0
        }
    }
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g4);
    assert_eq!(
        w.packed_i32(Liar(3, 1)).unwrap_err().kind(),
        ErrorKind::MissingItems { count: 2 }
    );
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g4);
    assert_eq!(
        w.packed_i32(Liar(1, 3)).unwrap_err().kind(),
        ErrorKind::TooManyItems
    );
}

#[test]
fn engine_limits() {
    let g4 = Dialect::GODOT_4;
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g4);
    assert_eq!(
        w.begin_array(1 << 31).unwrap_err().kind(),
        ErrorKind::TooLong { len: 1 << 31 }
    );
    // count * element size above i32::MAX, rejected before anything is written.
    struct Huge;
    impl Iterator for Huge {
        type Item = i32;
        fn next(&mut self) -> Option<i32> {
            Some(0)
        }
    }
    impl ExactSizeIterator for Huge {
        fn len(&self) -> usize {
            1 << 29
        }
    }
    let mut out = Vec::new();
    {
        let mut w = Writer::new(&mut out, g4);
        let err = w.packed_i32(Huge).unwrap_err();
        assert_eq!(
            err.kind(),
            ErrorKind::SizeOverflow {
                count: 1 << 29,
                size: 4
            }
        );
    }
    assert!(out.is_empty());
    // Depth: 1024 nested arrays plus a leaf at depth 1024 are fine; one more level is not.
    for (levels, ok) in [(1024, true), (1025, false)] {
        let mut out = Vec::new();
        let mut w = Writer::new(&mut out, g4);
        let mut result = Ok(());
        for _ in 0..levels {
            result = result.and_then(|_| w.begin_array(1));
        }
        result = result.and_then(|_| w.nil());
        assert_eq!(result.is_ok(), ok, "{levels}");
        if !ok {
            assert_eq!(
                result.unwrap_err().kind(),
                ErrorKind::TooDeep { limit: 1024 }
            );
        } else {
            w.finish().unwrap();
            // The reader accepts it, and value() re-encodes it identically.
            let v = from_bytes(g4, &out).unwrap();
            assert_eq!(to_vec(g4, &v).unwrap(), out);
        }
    }
    // Open containers with pending items are bounded by MAX_OPEN_CONTAINERS.
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g4);
    let mut result = Ok(());
    for _ in 0..=gdwire::write::MAX_OPEN_CONTAINERS {
        result = result.and_then(|_| w.begin_array(2));
    }
    assert_eq!(
        result.unwrap_err().kind(),
        ErrorKind::TooManyOpenContainers { limit: 64 }
    );
}

#[test]
fn open_container_slots_exactly() {
    let g4 = Dialect::GODOT_4;
    let max = gdwire::write::MAX_OPEN_CONTAINERS;
    // Exactly MAX_OPEN_CONTAINERS containers owing items are fine; one more is refused.
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g4);
    for i in 0..max {
        w.begin_array(2)
            .unwrap_or_else(|e| panic!("container {i}: {e}"));
    }
    assert_eq!(
        w.begin_array(2).unwrap_err().kind(),
        ErrorKind::TooManyOpenContainers { limit: 64 }
    );
    // A chain of single-item containers uses one slot: max - 1 containers owing a second
    // item, then 200 nested one-item arrays, then every item; the reader sees 263 levels.
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g4);
    for _ in 0..max - 1 {
        w.begin_array(2).unwrap();
    }
    for _ in 0..200 {
        w.begin_array(1).unwrap();
    }
    w.int(7).unwrap();
    for _ in 0..max - 1 {
        w.nil().unwrap();
    }
    assert_eq!(w.nil().unwrap_err().kind(), ErrorKind::TooManyItems);
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g4);
    for _ in 0..max - 1 {
        w.begin_array(2).unwrap();
    }
    for _ in 0..200 {
        w.begin_array(1).unwrap();
    }
    w.int(7).unwrap();
    for _ in 0..max - 1 {
        w.nil().unwrap();
    }
    let len = w.finish().unwrap();
    assert_eq!(len, (max - 1) * 8 + 200 * 8 + 8 + (max - 1) * 4);
    let mut v = from_bytes(g4, &out).unwrap();
    let mut depth = 0;
    while let Some(a) = v.as_array() {
        v = a.iter().next().unwrap();
        depth += 1;
    }
    assert_eq!((depth, v.as_int()), (max - 1 + 200, Some(7)));
}

#[test]
fn builtin_nil_element_types_reencode_untyped() {
    // A type block naming Nil means untyped to the engine: its decoder skips `set_typed` for
    // NIL and its encoder then writes no type block (docs/wire-format.md §4.9, §4.10).
    let g4 = Dialect::GODOT_4;
    for (wire, canonical) in [
        // Array[Nil] holding 5.
        (
            "1c000100 00000000 01000000 02000000 05000000",
            "1c000000 01000000 02000000 05000000",
        ),
        // Dictionary[Nil, Variant] {1: 2}.
        (
            "1b000100 00000000 01000000 02000000 01000000 02000000 02000000",
            "1b000000 01000000 02000000 01000000 02000000 02000000",
        ),
        // Dictionary[Nil, int] {1: 2}: the value side stays typed.
        (
            "1b000500 00000000 02000000 01000000 02000000 01000000 02000000 02000000",
            "1b000400 02000000 01000000 02000000 01000000 02000000 02000000",
        ),
    ] {
        let bytes = hex(wire);
        let v = from_bytes(g4, &bytes).unwrap();
        assert_eq!(to_vec(g4, &v).unwrap(), hex(canonical), "{wire}");
    }
    // The streaming calls agree: `Builtin(Nil)` is untyped.
    let out = enc(g4, |w| {
        w.begin_typed_array(1, ContainerTypeSpec::Builtin(VariantType::Nil))?;
        w.int(5)
    });
    assert_eq!(out, hex("1c000000 01000000 02000000 05000000"));
}

#[test]
fn heap_spill_lifts_the_open_container_limit() {
    let g4 = Dialect::GODOT_4;
    // `[[[…[1], 1]…, 1], 1]` at the engine's depth limit: every level owes its sibling while
    // the deeper ones are written, 1024 containers at once. Expected bytes by hand.
    let depth = 1024;
    let mut want = Vec::new();
    for _ in 0..depth {
        want.extend(hex("1c000000 02000000"));
    }
    for _ in 0..=depth {
        want.extend(hex("02000000 01000000"));
    }
    fn write<S: gdwire::Sink>(w: &mut Writer<S>, depth: usize) -> gdwire::Result<usize> {
        for _ in 0..depth {
            w.begin_array(2)?;
        }
        for _ in 0..=depth {
            w.int(1)?;
        }
        w.finish()
    }
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g4).with_heap_spill(true);
    assert_eq!(write(&mut w, depth), Ok(want.len()));
    drop(w);
    assert!(out == want);
    // Without it, the documented limit.
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g4);
    assert_eq!(
        write(&mut w, depth).unwrap_err().kind(),
        ErrorKind::TooManyOpenContainers { limit: 64 }
    );
    // Item accounting stays exact across the fixed slots and the heap: one item short
    // and one too many are still caught.
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g4).with_heap_spill(true);
    for _ in 0..depth {
        w.begin_array(2).unwrap();
    }
    for _ in 0..depth {
        w.int(1).unwrap();
    }
    assert_eq!(
        w.finish().unwrap_err().kind(),
        ErrorKind::MissingItems { count: 1 }
    );
    w.int(1).unwrap();
    assert_eq!(w.int(1).unwrap_err().kind(), ErrorKind::TooManyItems);
}

#[test]
fn property_names_only_where_a_value_is_owed() {
    let g4 = Dialect::GODOT_4;
    // After the top-level object is complete.
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g4).with_full_objects(true);
    w.begin_object("Node", 1).unwrap();
    w.property_name("a").unwrap();
    w.int(1).unwrap();
    assert_eq!(
        w.property_name("b").unwrap_err().kind(),
        ErrorKind::UnexpectedPropertyName
    );
    // After a nested object is complete, inside an array.
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g4).with_full_objects(true);
    w.begin_array(2).unwrap();
    w.begin_object("Node", 1).unwrap();
    w.property_name("a").unwrap();
    w.int(1).unwrap();
    assert_eq!(
        w.property_name("b").unwrap_err().kind(),
        ErrorKind::UnexpectedPropertyName
    );
    // An object inside an object: names go to the innermost one, then the outer one.
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g4).with_full_objects(true);
    w.begin_object("Outer", 2).unwrap();
    w.property_name("inner").unwrap();
    w.begin_object("Inner", 1).unwrap();
    assert_eq!(
        w.int(0).unwrap_err().kind(),
        ErrorKind::PropertyNameExpected
    );
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g4).with_full_objects(true);
    w.begin_object("Outer", 2).unwrap();
    w.property_name("inner").unwrap();
    w.begin_object("Inner", 1).unwrap();
    w.property_name("x").unwrap();
    w.int(1).unwrap();
    assert_eq!(
        w.int(2).unwrap_err().kind(),
        ErrorKind::PropertyNameExpected
    );
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g4).with_full_objects(true);
    w.begin_object("Outer", 2).unwrap();
    w.property_name("inner").unwrap();
    w.begin_object("Inner", 1).unwrap();
    w.property_name("x").unwrap();
    w.int(1).unwrap();
    w.property_name("y").unwrap();
    w.int(2).unwrap();
    w.finish().unwrap();
    let dec = gdwire::Decoder::new(g4).with_allow_objects(true);
    let obj = dec.decode_exact(&out).unwrap();
    let gdwire::ObjectRef::Full(outer) = obj.as_object().unwrap() else {
        panic!("not a full object")
    };
    let names: Vec<String> = outer.properties().map(|p| p.0.to_string()).collect();
    assert_eq!(names, ["inner", "y"]);
}

#[test]
fn raw_pass_through() {
    let g4 = Dialect::GODOT_4;
    let item = hex("04 00 00 00 03 00 00 00 61 73 64 00");
    let bytes = enc(g4, |w| {
        w.begin_array(2)?;
        w.raw(&item)?;
        w.int(1)
    });
    assert_eq!(
        bytes,
        hex("1c 00 00 00 02 00 00 00 04 00 00 00 03 00 00 00 61 73 64 00 02 00 00 00 01 00 00 00")
    );
    // Invalid and trailing data are refused.
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g4);
    assert!(matches!(
        w.raw(&hex("ff 00 00 00")).unwrap_err().kind(),
        ErrorKind::UnknownType { .. }
    ));
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, g4);
    assert_eq!(
        w.raw(&hex("00 00 00 00 00")).unwrap_err().kind(),
        ErrorKind::TrailingBytes { count: 1 }
    );
    // An unpadded PackedByteArray at the end gets its padding.
    let bytes = enc(g4, |w| w.raw(&hex("1d 00 00 00 01 00 00 00 07")));
    assert_eq!(bytes, hex("1d 00 00 00 01 00 00 00 07 00 00 00"));
}
