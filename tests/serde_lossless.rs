//! What serde used to lose, now kept byte for byte:
//!
//! - Pandemonium 5's TypedArray and PackedTypedArray (`TypedArray::kind`), even with
//!   element id 0;
//! - element type ids that are no type of the dialect (`ElementType::UnknownBuiltin`, `"#N"`);
//! - Godot 3 text that is not UTF-8 (NodePath names, Strings, property names) in the types
//!   that hold bytes (`GString`, `NodePath`, `Signal`, `ElementType`), while a Rust `String`
//!   refuses it and says why.
//!
//! The Pandemonium and Godot 3 NodePath / object bytes are written by hand from
//! docs/wire-format.md (§2 type ids, §4.1 string blocks, §4.5 NodePath, §4.7 Object, §4.12
//! Pandemonium typed arrays), not captured from this crate's writer; the Godot 3 Strings are
//! the engine's own (Godot 3.2.3, `tests/fixtures/godot3/cli.jsonl`).

use std::collections::BTreeMap;

use gdwire::owned::{ElementType, GString, NodePath, Signal};
use gdwire::read::ArrayKind;
use gdwire::serde::{ErrorCode, Object, ObjectId, Serializer, TypedArray};
use gdwire::{Decoder, Dialect, VariantType};
use serde::{Deserialize, Serialize};

const PM5: Dialect = Dialect::PANDEMONIUM_5;
const G3: Dialect = Dialect::GODOT_3;
const G4: Dialect = Dialect::GODOT_4;

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.split_whitespace().collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// Deserializes `bytes` as `T`, serializes it back and requires the same bytes.
fn round_trip<'a, T>(d: Dialect, bytes: &'a [u8], full_objects: bool) -> T
where
    T: Serialize + Deserialize<'a> + std::fmt::Debug,
{
    let dec = Decoder::new(d).with_allow_objects(full_objects);
    let value: T = gdwire::serde::from_bytes_with(dec, bytes).unwrap();
    let mut out = Vec::new();
    let mut ser = Serializer::new(&mut out, d).with_full_objects(full_objects);
    value.serialize(&mut ser).unwrap();
    ser.finish().unwrap();
    assert_eq!(out, bytes, "{d}: {value:?}");
    value
}

// --- 1. Pandemonium 5: TypedArray (27) and PackedTypedArray (28) -----------------------------

#[test]
fn pandemonium_typed_and_packed_typed_arrays_keep_their_kind() {
    // Type, element type 2 (int), count 2, then int 5 and int 6.
    for (ty, kind) in [
        ("1b", ArrayKind::TypedArray),
        ("1c", ArrayKind::PackedTypedArray),
    ] {
        let bytes = hex(&format!(
            "{ty}000000 02000000 02000000 02000000 05000000 02000000 06000000"
        ));
        let a: TypedArray<i32> = round_trip(PM5, &bytes, false);
        assert_eq!(a.kind, kind);
        assert_eq!(a.element, ElementType::Builtin(VariantType::Int));
        assert_eq!(a.items, [5, 6]);
        // Built by hand rather than read, it writes the same bytes.
        let built = TypedArray::with_kind(kind, VariantType::Int, vec![5i64, 6]);
        assert_eq!(gdwire::serde::to_vec(PM5, &built).unwrap(), bytes);
    }
}

#[test]
fn pandemonium_typed_arrays_of_element_id_0_stay_typed() {
    // Element type 0 (Variant), count 1, the String "a"; and the plain Array (26) ["a"].
    for (ty, kind) in [
        ("1a", ArrayKind::Array),
        ("1b", ArrayKind::TypedArray),
        ("1c", ArrayKind::PackedTypedArray),
    ] {
        let element = if ty == "1a" { "" } else { "00000000" };
        let bytes = hex(&format!(
            "{ty}000000 {element} 01000000 04000000 01000000 61000000"
        ));
        let a: TypedArray<String> = round_trip(PM5, &bytes, false);
        assert_eq!(
            (a.kind, &a.element),
            (kind, &ElementType::Builtin(VariantType::Nil))
        );
    }
    // `TypedArray::new` of Variant is still the plain Array.
    let plain = TypedArray::new(VariantType::Nil, vec!["a"]);
    assert_eq!(
        gdwire::serde::to_vec(PM5, &plain).unwrap(),
        hex("1a000000 01000000 04000000 01000000 61000000")
    );
}

#[test]
fn pandemonium_packed_typed_arrays_of_objects() {
    // Bit 16 set: the element class is sent as the Object id (23) alone; no elements.
    let by_id = hex("1c000100 17000000 00000000");
    let a: TypedArray<ObjectId> = round_trip(PM5, &by_id, false);
    assert_eq!(a.kind, ArrayKind::PackedTypedArray);
    // Bit 16 clear: the class as a StringName value (24), `&"Node"`; needs full objects, as
    // in the engine.
    let by_name = hex("1c000000 17000000 18000000 04000000 4e6f6465 00000000");
    let a: TypedArray<ObjectId> = round_trip(PM5, &by_name, true);
    assert_eq!(
        (a.kind, a.element),
        (
            ArrayKind::PackedTypedArray,
            ElementType::ClassName("Node".into())
        )
    );
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Inventory {
    packed: TypedArray<i32>,
    typed: TypedArray<String>,
}

#[test]
fn pandemonium_struct_with_both_kinds_round_trips() {
    // {"packed": PackedTypedArray[int](1), "typed": TypedArray[String]("x")}: a Dictionary
    // (25) of two entries.
    let bytes = hex(
        "19000000 02000000
         04000000 06000000 7061636b 65640000  1c000000 02000000 01000000 02000000 01000000
         04000000 05000000 74797065 64000000  1b000000 04000000 01000000 04000000 01000000 78000000",
    );
    let inv: Inventory = round_trip(PM5, &bytes, false);
    assert_eq!(inv.packed.kind, ArrayKind::PackedTypedArray);
    assert_eq!(inv.typed.kind, ArrayKind::TypedArray);
}

#[test]
fn pandemonium_packed_typed_array_from_a_view_too() {
    // The view's kind reaches serde the same way.
    let bytes = hex("1c000000 02000000 01000000 02000000 05000000");
    let view = gdwire::from_bytes(PM5, &bytes).unwrap();
    let a: TypedArray<i32> = gdwire::serde::from_variant_ref(view).unwrap();
    assert_eq!(a.kind, ArrayKind::PackedTypedArray);
    assert_eq!(gdwire::serde::to_vec(PM5, &a).unwrap(), bytes);
}

#[test]
fn dialects_without_the_kind_write_their_own_typed_array() {
    // Godot 4.6's var_to_bytes(Array[int]([1, -2, 2147483648])) (fixture typed_array_int):
    // a PackedTypedArray is a typed Array there, as the writer's `begin_packed_typed_array`.
    let engine = hex(
        "1c000100 02000000 03000000 02000000 01000000 02000000 feffffff 02000100 00000080 00000000",
    );
    for kind in [ArrayKind::TypedArray, ArrayKind::PackedTypedArray] {
        let a = TypedArray::with_kind(kind, VariantType::Int, vec![1i64, -2, 2147483648]);
        assert_eq!(gdwire::serde::to_vec(G4, &a).unwrap(), engine, "{kind:?}");
    }
    // Godot 3 has no typed arrays at all: an Array (19) of ints.
    let a = TypedArray::with_kind(ArrayKind::PackedTypedArray, VariantType::Int, vec![5]);
    assert_eq!(
        gdwire::serde::to_vec(G3, &a).unwrap(),
        hex("13000000 01000000 02000000 05000000")
    );
}

#[test]
fn other_formats_keep_element_items_and_kind() {
    for (kind, name) in [
        (ArrayKind::Array, "Array"),
        (ArrayKind::TypedArray, "TypedArray"),
        (ArrayKind::PackedTypedArray, "PackedTypedArray"),
    ] {
        let a = TypedArray::with_kind(kind, VariantType::Int, vec![5, 6]);
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(json, format!(r#"["int",[5,6],"{name}"]"#));
        let back: TypedArray<i32> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, a);
        let bytes = postcard::to_allocvec(&a).unwrap();
        let back: TypedArray<i32> = postcard::from_bytes(&bytes).unwrap();
        assert_eq!(back, a);
        // And from there back to the engine's bytes of that kind.
        assert_eq!(
            gdwire::serde::to_vec(PM5, &back).unwrap(),
            gdwire::serde::to_vec(PM5, &a).unwrap()
        );
    }
    // The kind is required and must be one of the three names.
    for json in [
        r#"["int",[5]]"#,
        r#"["int",[5],"Pool"]"#,
        r#"["int",[5],"Array",1]"#,
    ] {
        assert!(
            serde_json::from_str::<TypedArray<i32>>(json).is_err(),
            "{json}"
        );
    }
}

// --- 2. Element type ids that are no type of the dialect ---------------------------------------

#[test]
fn unknown_element_ids_are_written_as_read() {
    // The engine does not range-check the element id: 99 (0x63).
    for ty in ["1b", "1c"] {
        let empty = hex(&format!("{ty}000000 63000000 00000000"));
        let a: TypedArray<i64> = round_trip(PM5, &empty, false);
        assert_eq!(a.element, ElementType::UnknownBuiltin(99));
        let one = hex(&format!("{ty}000000 63000000 01000000 02000000 05000000"));
        let a: TypedArray<i64> = round_trip(PM5, &one, false);
        assert_eq!(
            (a.element, a.items),
            (ElementType::UnknownBuiltin(99), vec![5])
        );
    }
    // Through another format and back: the id and the kind survive.
    let engine = hex("1c000000 63000000 01000000 02000000 05000000");
    let a: TypedArray<i64> = gdwire::serde::from_bytes(PM5, &engine).unwrap();
    let json = serde_json::to_string(&a).unwrap();
    assert_eq!(json, r##"["#99",[5],"PackedTypedArray"]"##);
    let back: TypedArray<i64> = serde_json::from_str(&json).unwrap();
    assert_eq!(gdwire::serde::to_vec(PM5, &back).unwrap(), engine);
}

#[test]
fn unknown_element_ids_a_dialect_cannot_carry_are_refused() {
    // Godot 4's type blocks must name a type of the dialect (39 of them in 4.3+).
    let a = TypedArray::new(ElementType::UnknownBuiltin(99), vec![5]);
    let err = gdwire::serde::to_vec(G4, &a).unwrap_err();
    assert!(matches!(err.code(), ErrorCode::Write(_)), "{err}");
}

// --- 3. Godot 3 text that is not UTF-8 -----------------------------------------------------------

/// NodePath (15) `/a/<U+D800>x:b`: two names, one subname, absolute; the second name is a
/// lone surrogate then `x` (ED A0 80 78), which Godot 3 reads and `str` cannot hold.
fn surrogate_path() -> Vec<u8> {
    hex("0f000000 02000080 01000000 01000000
         01000000 61000000  04000000 eda08078  01000000 62000000")
}

#[test]
fn godot3_node_path_names_that_are_not_utf8_round_trip() {
    let bytes = surrogate_path();
    let p: NodePath = round_trip(G3, &bytes, false);
    assert!(p.names()[1].code_points().eq([0xD800, 0x78]));
    assert_eq!(p.subnames()[0], "b");
    // Through JSON (the text as bytes) and back to the same wire bytes.
    let json = serde_json::to_string(&p).unwrap();
    let back: NodePath = serde_json::from_str(&json).unwrap();
    assert_eq!(back, p);
    assert_eq!(gdwire::serde::to_vec(G3, &back).unwrap(), bytes);
    // A compact binary format reads text with its `str` rule: what is not UTF-8 does not
    // come back, and is refused rather than altered.
    let compact = postcard::to_allocvec(&p).unwrap();
    assert!(postcard::from_bytes::<NodePath>(&compact).is_err());
    let plain = NodePath::parse("/a:b").unwrap();
    let compact = postcard::to_allocvec(&plain).unwrap();
    assert_eq!(postcard::from_bytes::<NodePath>(&compact).unwrap(), plain);
    // Godot 4 reads strict UTF-8 only: writing it there is refused, not mangled.
    let err = gdwire::serde::to_vec(G4, &p).unwrap_err();
    assert!(matches!(err.code(), ErrorCode::Write(_)), "{err}");
}

#[test]
fn godot3_node_path_that_is_not_utf8_into_string_is_an_error_that_says_so() {
    let bytes = surrogate_path();
    let err = gdwire::serde::from_bytes::<String>(G3, &bytes).unwrap_err();
    assert!(err.to_string().contains("not UTF-8"), "{err}");
    assert_eq!(err.offset(), Some(0));
    // A byte buffer takes the path's text as it is.
    let text: serde_bytes::ByteBuf = gdwire::serde::from_bytes(G3, &bytes).unwrap();
    assert_eq!(text.as_slice(), b"/a/\xed\xa0\x80x:b");
}

fn godot3_engine_rows() -> Vec<serde_json::Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/godot3/cli.jsonl"
    );
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn engine_bytes(rows: &[serde_json::Value], name: &str) -> Vec<u8> {
    let row = rows.iter().find(|r| r["name"] == name).unwrap();
    hex(row["hex"].as_str().unwrap())
}

#[test]
fn godot3_engine_strings_that_are_not_utf8_round_trip_as_gstring() {
    let rows = godot3_engine_rows();
    for name in [
        "string_lone_high_surrogate",
        "string_lone_low_surrogate",
        "string_surrogate_pair_cesu8",
        "string_above_u10ffff",
        "string_surrogate_escaped_neighbours",
    ] {
        let bytes = engine_bytes(&rows, name);
        let s: GString = round_trip(G3, &bytes, false);
        assert_eq!(s.as_str(), None, "{name}");
        let err = gdwire::serde::from_bytes::<String>(G3, &bytes).unwrap_err();
        assert!(err.to_string().contains("not UTF-8"), "{name}: {err}");
        // Borrowed bytes take the text as it is (after the 8-byte header and length).
        let raw: &[u8] = gdwire::serde::from_bytes(G3, &bytes).unwrap();
        assert_eq!(raw, s.raw(), "{name}");
        assert_eq!(raw, &bytes[8..8 + raw.len()], "{name}");
    }
    let a: Vec<GString> = round_trip(G3, &engine_bytes(&rows, "array_with_surrogate"), false);
    assert!(a[0].code_points().eq([0xD800]));
    let d: BTreeMap<GString, i64> =
        round_trip(G3, &engine_bytes(&rows, "dictionary_key_surrogate"), false);
    assert_eq!(d.values().copied().collect::<Vec<_>>(), [7]);

    #[derive(Serialize, Deserialize, Debug)]
    struct Pool(#[serde(with = "gdwire::serde::packed")] Vec<GString>);
    let p: Pool = round_trip(
        G3,
        &engine_bytes(&rows, "pool_string_array_surrogate"),
        false,
    );
    assert!(p.0[0].code_points().eq([0xD800]));
}

#[derive(Serialize, Deserialize, Debug)]
struct Scene {
    path: NodePath,
    name: GString,
}

#[test]
fn godot3_struct_with_bytes_in_a_path_and_a_string_round_trips() {
    // A Dictionary (18): {"path": <the path above>, "name": "<U+D800>"}.
    let bytes = [
        hex("12000000 02000000 04000000 04000000 70617468"),
        surrogate_path(),
        hex("04000000 04000000 6e616d65 04000000 03000000 eda08000"),
    ]
    .concat();
    let s: Scene = round_trip(G3, &bytes, false);
    assert!(s.name.code_points().eq([0xD800]));
}

#[test]
fn godot3_object_property_names_that_are_not_utf8() {
    // A full Object (17) of class "Node" with one property named <U+D800> (a bare string
    // block), holding int 7.
    let bytes = hex("11000000 04000000 4e6f6465 01000000 03000000 eda08000 02000000 07000000");
    let o: Object<BTreeMap<GString, i64>> = round_trip(G3, &bytes, true);
    assert_eq!(o.properties.values().copied().collect::<Vec<_>>(), [7]);
    let dec = Decoder::new(G3).with_allow_objects(true);
    let err =
        gdwire::serde::from_bytes_with::<Object<BTreeMap<String, i64>>>(dec, &bytes).unwrap_err();
    assert!(err.to_string().contains("not UTF-8"), "{err}");
    // The class is a `String`: a class name that is not UTF-8 is refused with the reason.
    let odd_class = hex("11000000 04000000 4eeda080 00000000");
    let err = gdwire::serde::from_bytes_with::<Object<BTreeMap<GString, i64>>>(dec, &odd_class)
        .unwrap_err();
    assert!(err.to_string().contains("not UTF-8"), "{err}");
}

#[test]
fn signal_names_and_element_types_that_are_not_utf8_survive_other_formats() {
    let odd = GString::from_raw(b"N\xed\xa0\x80".to_vec()).unwrap();
    let s = Signal {
        name: odd.clone(),
        object_id: 7,
    };
    let back: Signal = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
    assert_eq!(back, s);
    assert!(back.name.code_points().eq([0x4E, 0xD800]));
    // A Signal is Godot 4's, whose text is strict UTF-8: refused, not mangled.
    assert!(gdwire::serde::to_vec(G4, &s).is_err());

    let script = GString::from_raw(b"res://\xed\xa0\x80.gd".to_vec()).unwrap();
    for e in [ElementType::ClassName(odd), ElementType::Script(script)] {
        let json = serde_json::to_string(&e).unwrap();
        assert!(json.starts_with('['), "bytes: {json}");
        assert_eq!(serde_json::from_str::<ElementType>(&json).unwrap(), e);
    }
}

#[test]
fn bytes_no_godot_reads_as_text_are_refused() {
    // 0xFF is never text: a GString cannot hold it, so reading it from another format fails.
    let err = serde_json::from_str::<GString>("[255]").unwrap_err();
    assert!(err.to_string().contains("no Godot version"), "{err}");
    assert!(serde_json::from_str::<NodePath>("[47, 255]").is_err());
}

// --- properties: serde writes what the owned encoder writes for the same Godot 3 text ------

mod props {
    use super::*;
    use gdwire::owned::Variant;
    use proptest::prelude::*;

    /// Godot 3 text: ASCII, UTF-8, and the forms only Godot 3 reads (an encoded surrogate,
    /// a code point above U+10FFFF), never `/` or `:` (NodePath separators).
    fn text() -> impl Strategy<Value = Vec<u8>> {
        let piece = prop_oneof![
            "[a-zA-Z0-9_. é中]".prop_map(String::into_bytes),
            Just(b"\xed\xa0\x80".to_vec()),
            Just(b"\xed\xbf\xbf".to_vec()),
            Just(b"\xf4\x90\x80\x80".to_vec()),
        ];
        proptest::collection::vec(piece, 1..4).prop_map(|p| p.concat())
    }

    fn gstring(b: Vec<u8>) -> GString {
        GString::from_raw(b).unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn godot3_node_paths_match_the_owned_encoder(
            names in proptest::collection::vec(text(), 0..4),
            subnames in proptest::collection::vec(text(), 0..3),
            absolute: bool,
        ) {
            let utf8 = names.iter().chain(&subnames).all(|b| std::str::from_utf8(b).is_ok());
            let p = NodePath::new(
                names.into_iter().map(gstring),
                subnames.into_iter().map(gstring),
                absolute,
            );
            let engine = Variant::NodePath(p.clone()).to_vec(G3).unwrap();
            let back: NodePath = gdwire::serde::from_bytes(G3, &engine).unwrap();
            prop_assert_eq!(&back, &p);
            prop_assert_eq!(gdwire::serde::to_vec(G3, &back).unwrap(), engine.clone());
            let text = gdwire::serde::from_bytes::<String>(G3, &engine);
            prop_assert_eq!(text.is_ok(), utf8);
        }

        #[test]
        fn godot3_strings_match_the_owned_encoder(s in text()) {
            let utf8 = std::str::from_utf8(&s).is_ok();
            let engine = Variant::String(gstring(s)).to_vec(G3).unwrap();
            let back: GString = gdwire::serde::from_bytes(G3, &engine).unwrap();
            prop_assert_eq!(gdwire::serde::to_vec(G3, &back).unwrap(), engine.clone());
            prop_assert_eq!(gdwire::serde::from_bytes::<String>(G3, &engine).is_ok(), utf8);
        }
    }
}
