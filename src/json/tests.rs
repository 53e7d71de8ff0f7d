//! Edge cases of the JSON convention: each value is built with the streaming writer (or by
//! hand), decoded, written as JSON, read back, and must give the same canonical bytes.

use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use crate::json::{documents, from_json_str, to_json_string, JsonError};
use crate::math::{Precision, Vector2};
use crate::read::MathRef;
use crate::{to_vec, ContainerTypeSpec, Decoder, Dialect, VariantRef, VariantType, Writer};

fn build(dialect: Dialect, f: impl FnOnce(&mut Writer<&mut Vec<u8>>)) -> Vec<u8> {
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, dialect).with_full_objects(true);
    f(&mut w);
    w.finish().unwrap();
    out
}

/// JSON of `bytes`, after checking that it reads back to the canonical bytes.
fn json_of(dialect: Dialect, bytes: &[u8]) -> String {
    let v = Decoder::new(dialect)
        .with_allow_objects(true)
        .decode_exact(bytes)
        .unwrap();
    let text = to_json_string(dialect, &v).unwrap();
    let back = from_json_str(dialect, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(back, to_vec(dialect, &v).unwrap(), "{text}");
    text
}

#[test]
fn nan_payloads_and_signed_zero_survive() {
    let g4 = Dialect::GODOT_4;
    let nan = f64::from_bits(0xfff8_0000_0000_0001);
    let b = build(g4, |w| w.float(nan).unwrap());
    assert_eq!(json_of(g4, &b), "\"f:nan:0xfff8000000000001\"");
    let b = build(g4, |w| w.float(-0.0).unwrap());
    assert_eq!(json_of(g4, &b), "\"f:-0.0\"");
    // A signalling f32 NaN inside a packed array is kept bit for bit.
    let b = build(g4, |w| {
        w.packed_f32([f32::from_bits(0x7f80_0001), -0.0, f32::INFINITY])
            .unwrap()
    });
    let text = json_of(g4, &b);
    assert_eq!(
        text,
        r#"{"type":"PackedFloat32Array","args":["nan:0x7f800001",-0.0,"inf"]}"#
    );
    // NaN with a payload in a single-precision math value.
    let b = build(g4, |w| {
        // Widened bit for bit: an `as` cast leaves a NaN's payload unspecified (release
        // builds fold it to the canonical NaN).
        let x = crate::float_width::widen(f32::from_bits(0x7fc0_1234));
        w.vector2(Vector2 { x, y: 1.0 }).unwrap()
    });
    assert_eq!(
        json_of(g4, &b),
        r#"{"type":"Vector2","args":["nan:0x7fc01234",1.0]}"#
    );
}

#[test]
fn double_precision_math_is_marked_and_kept() {
    let g4 = Dialect::GODOT_4;
    let b = build(g4, |w| {
        w.begin_array(3).unwrap();
        let double = [0.1f64.to_le_bytes(), (1.0f64 / 3.0).to_le_bytes()].concat();
        let single = [0.5f32.to_le_bytes(), 2.0f32.to_le_bytes()].concat();
        for raw in [&double[..], &single[..]] {
            let v = MathRef::<Vector2>::from_wire(raw).unwrap();
            w.value(&VariantRef::Vector2(v)).unwrap();
        }
        let mut tmp = Vec::new();
        let mut t = Writer::new(&mut tmp, g4).with_precision(Precision::Double);
        t.packed_vector3::<f64, _>([[0.1, 0.2, 0.3]]).unwrap();
        t.finish().unwrap();
        w.raw(&tmp).unwrap();
    });
    let text = json_of(g4, &b);
    assert_eq!(
        text,
        concat!(
            r#"[{"type":"Vector2","precision":"double","args":[0.1,0.3333333333333333]},"#,
            r#"{"type":"Vector2","args":[0.5,2.0]},"#,
            r#"{"type":"PackedVector3Array","precision":"double","args":[0.1,0.2,0.3]}]"#
        )
    );
}

#[test]
fn godot3_text_that_is_not_utf8_is_hex() {
    let g3 = Dialect::GODOT_3;
    // A UTF-8-encoded surrogate: accepted by Godot 3, not UTF-8 for Rust.
    let b = build(g3, |w| w.string_bytes(&[0xed, 0xa0, 0x80]).unwrap());
    assert_eq!(json_of(g3, &b), r#"{"type":"String","hex":"eda080"}"#);
    let mut pool = vec![23, 0, 0, 0, 2, 0, 0, 0];
    pool.extend([4, 0, 0, 0, 0xed, 0xa0, 0x80, 0]);
    pool.extend([2, 0, 0, 0, b'a', 0, 0, 0]);
    assert_eq!(
        json_of(g3, &pool),
        r#"{"type":"PoolStringArray","args":[{"hex":"eda080"},"a"]}"#
    );
}

#[test]
fn node_paths_use_text_only_when_it_reads_back_the_same() {
    let g4 = Dialect::GODOT_4;
    let b = build(g4, |w| w.node_path(&["root", "a"], &["b"], true).unwrap());
    assert_eq!(json_of(g4, &b), r#""np:/root/a:b""#);
    let b = build(g4, |w| w.node_path::<&str, &str>(&[], &[], true).unwrap());
    assert_eq!(json_of(g4, &b), r#""np:/""#);
    let b = build(g4, |w| w.node_path(&["a:b", ""], &["c"], false).unwrap());
    assert_eq!(
        json_of(g4, &b),
        r#"{"type":"NodePath","absolute":false,"names":["a:b",""],"subnames":["c"]}"#
    );
}

#[test]
fn strings_keep_every_wire_byte() {
    let g4 = Dialect::GODOT_4;
    let b = build(g4, |w| w.string("a\0b\"\\\n\u{1}é").unwrap());
    assert_eq!(json_of(g4, &b), r#""s:a\u0000b\"\\\n\u0001é""#);
}

#[test]
fn ids_rid_signal_callable() {
    let g4 = Dialect::GODOT_4;
    let b = build(g4, |w| {
        w.begin_array(4).unwrap();
        w.rid(u64::MAX).unwrap();
        w.object_id(0x8000_0000_0000_0001).unwrap();
        w.signal("hit", 42).unwrap();
        w.callable().unwrap();
    });
    assert_eq!(
        json_of(g4, &b),
        concat!(
            r#"[{"type":"RID","id":"18446744073709551615"},"#,
            r#"{"type":"Object","id":"9223372036854775809"},"#,
            r#"{"type":"Signal","name":"hit","id":"42"},{"type":"Callable"}]"#
        )
    );
}

#[test]
fn typed_containers_and_objects() {
    let g4 = Dialect::GODOT_4;
    let b = build(g4, |w| {
        w.begin_array(3).unwrap();
        w.begin_typed_array(1, ContainerTypeSpec::Builtin(VariantType::Int))
            .unwrap();
        w.int(1).unwrap();
        w.begin_typed_dictionary(
            1,
            ContainerTypeSpec::ClassName("Node"),
            ContainerTypeSpec::Script("res://a.gd"),
        )
        .unwrap();
        w.string_name("k").unwrap();
        w.nil().unwrap();
        w.begin_object("Node", 1).unwrap();
        w.property_name("name").unwrap();
        w.string("n").unwrap();
    });
    assert_eq!(
        json_of(g4, &b),
        concat!(
            r#"[{"type":"Array","elem_type":"int","args":["i:1"]},"#,
            r#"{"type":"Dictionary","key_type":"Node","value_type":"res://a.gd","args":["sn:k",null]},"#,
            r#"{"type":"Node","props":["name","s:n"]}]"#
        )
    );
    // Godot 4 BUILTIN kind naming Object (the engine writes a class name instead).
    let hand = [0x1c, 0, 1, 0, 24, 0, 0, 0, 0, 0, 0, 0];
    assert_eq!(
        json_of(g4, &hand),
        r#"{"type":"Array","elem_type":{"builtin":"Object"},"args":[]}"#
    );
    // Pandemonium 5 typed array of objects sent as ids, and an unknown element id.
    let pm5 = Dialect::PANDEMONIUM_5;
    let flagged = [27, 0, 1, 0, 23, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0];
    assert_eq!(
        json_of(pm5, &flagged),
        r#"{"type":"TypedArray","elem_type":{"builtin":"Object"},"args":[null]}"#
    );
    let unknown = [28, 0, 0, 0, 77, 0, 0, 0, 0, 0, 0, 0];
    assert_eq!(
        json_of(pm5, &unknown),
        r#"{"type":"PackedTypedArray","elem_type":{"id":77},"args":[]}"#
    );
}

#[test]
fn dialect_type_names_and_godot4_aliases() {
    let g3 = Dialect::GODOT_3;
    let a = from_json_str(g3, r#"{"type":"Quat","args":[0,0,0,1]}"#).unwrap();
    let b = from_json_str(g3, r#"{"type":"Quaternion","args":[0,0,0,1.0]}"#).unwrap();
    assert_eq!(a, b);
    assert_eq!(a[0], 10); // Quat is id 10 in Godot 3
    let err = from_json_str(g3, r#"{"type":"Vector2i","args":[1,2]}"#).unwrap_err();
    assert_eq!(err.to_string(), "unknown type \"Vector2i\" for godot3 at $");
}

#[test]
fn errors_name_the_place() {
    let g4 = Dialect::GODOT_4;
    let e = from_json_str(
        g4,
        r#"["i:1", {"type":"Dictionary","args":["s:a", {"type":"Vector2","args":[1]}]}]"#,
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "Vector2 needs 2 args, got 1 at $[1].args[1]");
    let e = from_json_str(g4, r#"[1]"#).unwrap_err();
    assert!(e.to_string().ends_with("at $[0]"), "{e}");
    let e = from_json_str(g4, r#""x:1""#).unwrap_err();
    assert!(matches!(e, JsonError::Invalid { .. }), "{e}");
    let e = from_json_str(g4, r#"{"type":"Vector2","args":[1,2],"z":0}"#).unwrap_err();
    assert_eq!(e.to_string(), "unexpected key \"z\" at $");
    let e = from_json_str(g4, "[").unwrap_err();
    assert!(matches!(e, JsonError::Syntax { .. }), "{e}");
    let e = from_json_str(Dialect::GODOT_3, r#"{"type":"Node","props":[]}"#);
    assert!(e.is_ok(), "full objects are written as given");
}

#[test]
fn deep_nesting_is_written_and_read_without_recursion() {
    // 1024 nested arrays: the engine's limit.
    let depth = 1024;
    let mut b = Vec::new();
    for _ in 0..depth {
        b.extend([0x1c, 0, 0, 0, 1, 0, 0, 0]);
    }
    b.extend([0, 0, 0, 0]);
    let v = Decoder::new(Dialect::GODOT_4).decode_exact(&b).unwrap();
    let text = to_json_string(Dialect::GODOT_4, &v).unwrap();
    assert_eq!(text.len(), 2 * depth + 4);
    // Far deeper than serde_json's 128 levels: the parser keeps its own stack.
    assert_eq!(from_json_str(Dialect::GODOT_4, &text).unwrap(), b);
    // One level more than the engine's limit: the writer refuses it, by name.
    let deeper = format!("[{text}]");
    let e = from_json_str(Dialect::GODOT_4, &deeper).unwrap_err();
    assert!(e.to_string().contains("1024"), "{e}");
}

#[test]
fn nil_element_types() {
    // Pandemonium 5: a TypedArray / PackedTypedArray of element id 0 is its own wire form
    // (header id 27 / 28, element id, count; docs/wire-format.md §3), kept as such.
    let pm = Dialect::PANDEMONIUM_5;
    for (name, id) in [("TypedArray", 27), ("PackedTypedArray", 28)] {
        let text = format!(r#"{{"type":"{name}","elem_type":"Nil","args":["i:5"]}}"#);
        let b = from_json_str(pm, &text).unwrap();
        assert_eq!(
            b,
            [id, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0]
        );
        let v = Decoder::new(pm).decode_exact(&b).unwrap();
        assert_eq!(to_json_string(pm, &v).unwrap(), text);
    }
    // Godot 4: a Nil element type is untyped to the engine, written without a type block.
    let g4 = Dialect::GODOT_4;
    let text = r#"{"type":"Array","elem_type":"Nil","args":["i:5"]}"#;
    assert_eq!(
        from_json_str(g4, text).unwrap(),
        [0x1c, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0]
    );
}

#[test]
fn documents_report_their_lines_and_stop_after_a_syntax_error() {
    let g4 = Dialect::GODOT_4;
    let text = "\"i:1\"\n\n  \"i:2\" \"bad\"\n\"i:3\"\n[\n\"i:4\"\n]\n{\"x\" \n\"i:5\"";
    let mut docs = documents(g4, text);
    let mut seen = Vec::new();
    while let Some(doc) = docs.next() {
        seen.push((docs.line(), docs.offset(), doc.map_err(|e| e.to_string())));
    }
    let int = |i: u8| Ok(vec![2, 0, 0, 0, i, 0, 0, 0]);
    assert_eq!(
        seen,
        [
            (1, 0, int(1)),
            (3, 9, int(2)),
            (
                3,
                15,
                Err("string without a type prefix (i:, f:, s:, sn:, np:): \"bad\" at $".into())
            ),
            (4, 21, int(3)),
            (
                5,
                27,
                Ok(vec![0x1c, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0])
            ),
            (
                8,
                37,
                Err("invalid JSON: expected `:` at line 9 column 1".into())
            ),
        ]
    );
    // Fused, and the line is still that of the failed document.
    assert!(docs.next().is_none());
    assert_eq!(docs.line(), 8);
}

#[test]
fn engine_mode_reads_nan_as_null_like_the_engine() {
    use crate::json::{from_json_str_with, Options};
    let g4 = Dialect::GODOT_4;
    let engine = |t: &str| from_json_str_with(g4, t, Options::ENGINE);
    // The engine's to_native reads null in a float slot as 0 (Variant NIL to float).
    let zeros = |t: &str, want: Vec<u8>| {
        assert_eq!(engine(t).unwrap(), want, "{t}");
        assert!(from_json_str(g4, t).is_err(), "strict rejects {t}");
    };
    let v = |x: f64, y: f64| build(g4, |w| w.vector2(Vector2 { x, y }).unwrap());
    zeros(
        r#"{"type":"Vector2","args":[null,1e99999]}"#,
        v(0.0, f64::INFINITY),
    );
    let p32 = build(g4, |w| w.packed_f32([0.0, f32::NEG_INFINITY]).unwrap());
    zeros(
        r#"{"type":"PackedFloat32Array","args":[null,-1e99999]}"#,
        p32,
    );
    let p64 = build(g4, |w| w.packed_f64([0.0, 1.5]).unwrap());
    zeros(r#"{"type":"PackedFloat64Array","args":[null,1.5]}"#, p64);
    let dbl = r#"{"type":"Vector2","precision":"double","args":[null,-1e99999]}"#;
    let mut want = Vec::new();
    let mut w = Writer::new(&mut want, g4).with_precision(Precision::Double);
    w.vector2(Vector2 {
        x: 0.0,
        y: f64::NEG_INFINITY,
    })
    .unwrap();
    w.finish().unwrap();
    zeros(dbl, want);
    // Only float slots: null is still Nil elsewhere and an error in int slots.
    assert_eq!(
        engine("[null]").unwrap(),
        from_json_str(g4, "[null]").unwrap()
    );
    assert!(engine(r#"{"type":"Vector2i","args":[null,1]}"#).is_err());
    assert!(engine(r#"{"type":"PackedInt32Array","args":[null]}"#).is_err());
    // Raw control characters in strings, as JSON.stringify writes them.
    let s = build(g4, |w| w.string("a\u{1}\u{1f}z").unwrap());
    zeros("\"s:a\u{1}\u{1f}z\"", s);
}
