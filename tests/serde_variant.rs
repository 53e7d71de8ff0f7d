//! serde for the owned `Variant` against independent truth:
//!
//! - every value Godot 3.2.3, Godot 4.6 and the Pandemonium engines wrote (`tests/fixtures`),
//!   read with `gdwire::serde::from_bytes::<Variant>` and written back with the serializer,
//!   gives the engine's bytes; the value read equals the one the views convert
//!   (`Variant::from`);
//! - every byte vector of the Godot 4 / Pandemonium test files (64-bit math, Pandemonium's
//!   typed arrays, …) in every dialect that reads it gives what the owned encoder writes, and
//!   the engine's bytes where the owned encoder reproduces them;
//! - `Variant` fields (`Vec<Variant>`, `HashMap<String, Variant>`) in derived structs;
//! - plain values through `serde_json`, and the documented losses.

#![cfg(feature = "serde")]

mod support;

use std::collections::HashMap;

use gdwire::math::{Precision, Vector3};
use gdwire::owned::{Array, Dictionary, Variant};
use gdwire::serde::{from_bytes_with, from_variant_ref, Serializer};
use gdwire::{Decoder, Dialect, VariantRef};
use serde::{Deserialize, Serialize};
use support::{hex, hex_literals, hex_of, node_path_pads, Fixture};

/// The fixture bytes with the NodePath pad bytes zeroed: the 3.2.3 encoder leaves them
/// uninitialised, this crate writes zeros (`tests/write_fixtures.rs`).
fn zero_pads(bytes: &[u8], v: &VariantRef<'_>) -> Vec<u8> {
    let mut pads = Vec::new();
    node_path_pads(bytes, v, &mut pads);
    let mut out = bytes.to_vec();
    for i in pads {
        out[i] = 0;
    }
    out
}

/// `value` through `gdwire::serde`'s serializer (full objects on: the owned encoder's
/// `to_vec` writes them too).
fn ser<T: Serialize + ?Sized>(d: Dialect, value: &T) -> Result<Vec<u8>, gdwire::serde::Error> {
    let mut out = Vec::new();
    let mut s = Serializer::new(&mut out, d).with_full_objects(true);
    value.serialize(&mut s)?;
    s.finish()?;
    Ok(out)
}

/// Engine fixtures: serde reads them into `Variant`s equal to the views' conversion and
/// writes the engine's bytes back.
fn engine_round_trip(d: Dialect, fixtures: &[Fixture], min: usize) {
    let dec = Decoder::new(d).with_allow_objects(true);
    let mut checked = 0;
    for f in fixtures.iter().filter(|f| f.desc.is_some()) {
        let at = &f.name;
        let view = dec.decode_exact(&f.bytes).unwrap();
        let expected = zero_pads(&f.bytes, &view);
        let v: Variant = from_bytes_with(dec, &f.bytes).unwrap_or_else(|e| panic!("{at}: {e}"));
        // The views' conversion is an independent path (no serde): same value. Debug, as
        // NaN makes `==` false for a value equal to itself.
        let converted = Variant::from(view);
        assert_eq!(format!("{v:?}"), format!("{converted:?}"), "{at}");
        assert_eq!(v.variant_type(), converted.variant_type(), "{at}");
        assert_eq!(v.precision(), converted.precision(), "{at}");
        let bytes = ser(d, &v).unwrap_or_else(|e| panic!("{at}: {e}"));
        assert_eq!(hex_of(&bytes), hex_of(&expected), "{at}");
        // A view handed over whole reads the same.
        let again: Variant = from_variant_ref(view).unwrap();
        assert_eq!(format!("{again:?}"), format!("{v:?}"), "{at}");
        checked += 1;
    }
    assert!(checked >= min, "only {checked} fixtures");
}

#[test]
fn godot3_engine_values_round_trip_byte_for_byte() {
    engine_round_trip(Dialect::GODOT_3, &support::values(), 160);
}

#[test]
fn pandemonium_engine_values_round_trip_byte_for_byte() {
    // The PoolVector4iArray encoder bug (docs/wire-format.md §4.12) is in the bytes already:
    // what is read is what was written.
    engine_round_trip(
        Dialect::PANDEMONIUM_5,
        &support::pandemonium_values("5"),
        80,
    );
    engine_round_trip(
        Dialect::PANDEMONIUM_3_8,
        &support::pandemonium_values("3.8"),
        70,
    );
    engine_round_trip(
        Dialect::PANDEMONIUM_3_5,
        &support::pandemonium_values("3.5"),
        60,
    );
}

#[test]
fn godot4_engine_values_round_trip_byte_for_byte() {
    engine_round_trip(Dialect::GODOT_4, &support::godot4_values(), 100);
    // A double-precision build's values keep their 64-bit math through serde.
    engine_round_trip(Dialect::GODOT_4, &support::godot4_double_values(), 100);
}

/// The values of the older Godot 4 engines (tests/godot4/older/), single and double
/// precision, each in its version's dialect. Godot 4.0 and 4.1 double builds write six values
/// they cannot read back themselves (Vector4 and Projection without bit 16: docs/wire-format.md
/// §3.4); those are left out, and counted.
#[test]
fn older_godot4_engine_values_round_trip_byte_for_byte() {
    for (version, d) in support::GODOT4_OLDER {
        for double in [false, true] {
            let dir = if double {
                format!("{version}-double")
            } else {
                version.to_string()
            };
            let dec = Decoder::new(d).with_allow_objects(true);
            let (readable, unreadable): (Vec<_>, Vec<_>) =
                support::godot4_older(&dir, "values.jsonl")
                    .into_iter()
                    .partition(|f| dec.decode_exact(&f.bytes).is_ok());
            let expected = if double && ["4.0", "4.1"].contains(&version) {
                6
            } else {
                0
            };
            assert_eq!(unreadable.len(), expected, "{dir}");
            engine_round_trip(d, &readable, 200);
        }
    }
}

#[test]
fn every_vector_of_the_test_files_in_every_dialect_writes_what_the_owned_encoder_writes() {
    let (mut read, mut exact, mut pandemonium) = (0, 0, 0);
    for file in [
        "godot4_vectors.rs",
        "pandemonium_vectors.rs",
        "write_vectors.rs",
        "write_roundtrip.rs",
        "malformed.rs",
    ] {
        for bytes in hex_literals(file) {
            for d in Dialect::ALL {
                let dec = Decoder::new(d).with_allow_objects(true);
                let Ok(view) = dec.decode_exact(&bytes) else {
                    // serde reads one value and leaves what follows (as `decode` does).
                    assert_eq!(
                        from_bytes_with::<Variant>(dec, &bytes).is_ok(),
                        dec.decode(&bytes).is_ok(),
                        "{file} {d} {}",
                        hex_of(&bytes)
                    );
                    continue;
                };
                let at = format!("{file} {d} {}", hex_of(&bytes));
                let v: Variant =
                    from_bytes_with(dec, &bytes).unwrap_or_else(|e| panic!("{at}: {e}"));
                let converted = Variant::from(view);
                assert_eq!(format!("{v:?}"), format!("{converted:?}"), "{at}");
                read += 1;
                let owned = converted.to_vec(d).map_err(|e| e.kind());
                let mine = ser(d, &v);
                match &owned {
                    Ok(o) => assert_eq!(
                        hex_of(mine.as_ref().unwrap_or_else(|e| panic!("{at}: {e}"))),
                        hex_of(o),
                        "{at}"
                    ),
                    Err(_) => assert!(mine.is_err(), "{at}: the owned encoder refuses it"),
                }
                if owned.as_deref() == Ok(&zero_pads(&bytes, &view)[..]) {
                    exact += 1;
                    pandemonium += usize::from(d.family() == gdwire::Family::Pandemonium);
                }
            }
        }
    }
    assert!(
        read > 400 && exact > 300 && pandemonium > 20,
        "{read} read, {exact} exact, {pandemonium} Pandemonium"
    );
}

/// A value sent by a Godot 4 double-precision build (docs/wire-format.md §3.4: header bit
/// 16, then `f64` components; §4.11 for packed vector arrays), components that no `f32`
/// holds.
fn double(id: u8, count: Option<u32>, n: usize) -> Vec<u8> {
    let mut b = vec![id, 0, 1, 0];
    if let Some(c) = count {
        b.extend(c.to_le_bytes());
    }
    b.extend((0..n).flat_map(|i| (0.1 + i as f64).to_le_bytes()));
    b
}

#[test]
fn double_precision_math_and_packed_vectors_round_trip_byte_for_byte() {
    // Vector2, Rect2, Vector3, Transform2D, Vector4, Plane, Quaternion, AABB, Basis,
    // Transform3D, Projection; PackedVector2/3/4Array with two elements.
    let reals = [
        (0x05, 2),
        (0x07, 4),
        (0x09, 3),
        (0x0b, 6),
        (0x0c, 4),
        (0x0e, 4),
        (0x0f, 4),
        (0x10, 6),
        (0x11, 9),
        (0x12, 12),
        (0x13, 16),
    ];
    let packed = [(0x23, 2), (0x24, 3), (0x26, 4)];
    let values: Vec<Vec<u8>> = reals
        .iter()
        .map(|&(id, n)| double(id, None, n))
        .chain(packed.iter().map(|&(id, n)| double(id, Some(2), 2 * n)))
        .collect();
    for d in [Dialect::GODOT_4_3, Dialect::GODOT_4] {
        // Each alone, then all in one Array with a single-precision Vector3 between them:
        // a serializer set to either precision keeps each value's own.
        let mut array = vec![0x1c, 0, 0, 0];
        array.extend((2 * values.len() as u32).to_le_bytes());
        for b in &values {
            let v: Variant = gdwire::serde::from_bytes(d, b).unwrap();
            assert_eq!(v.precision(), Some(Precision::Double), "{}", hex_of(b));
            assert_eq!(hex_of(&ser(d, &v).unwrap()), hex_of(b));
            array.extend(b);
            array.extend(hex("09 00 00 00 00 00 80 3f 00 00 00 40 00 00 40 40"));
            // (1, 2, 3)
        }
        let v: Variant = gdwire::serde::from_bytes(d, &array).unwrap();
        assert_eq!(ser(d, &v).unwrap(), array);
        for p in [Precision::Single, Precision::Double] {
            let mut out = Vec::new();
            let mut s = Serializer::new(&mut out, d).with_precision(p);
            v.serialize(&mut s).unwrap();
            s.finish().unwrap();
            assert_eq!(out, array, "{p:?}");
        }
    }
}

#[test]
fn leaves_handed_over_from_views_equal_the_views_conversion() {
    // Leaves of packed arrays and top-level leaves have no bytes of their own in hand.
    let mut checked = 0;
    for (d, fixtures) in [
        (Dialect::GODOT_3, support::values()),
        (Dialect::GODOT_4, support::godot4_values()),
    ] {
        let dec = Decoder::new(d).with_allow_objects(true);
        for f in fixtures.iter().filter(|f| f.desc.is_some()) {
            let view = dec.decode_exact(&f.bytes).unwrap();
            let elements: Vec<Variant> = match from_variant_ref(view) {
                Ok(e) => e,
                Err(_) => continue, // not a sequence
            };
            let converted = Variant::from(view);
            let expected: Vec<String> = match (&converted, view) {
                (Variant::Array(a), _) => a.iter().map(|x| format!("{x:?}")).collect(),
                // Packed arrays: their elements' own types.
                (_, v) => match v {
                    VariantRef::PackedVector3Array(p) => p
                        .iter()
                        .map(|x| {
                            format!(
                                "{:?}",
                                Variant::Vector3(
                                    Vector3 {
                                        x: x[0],
                                        y: x[1],
                                        z: x[2]
                                    },
                                    p.precision()
                                )
                            )
                        })
                        .collect(),
                    _ => continue,
                },
            };
            let got: Vec<String> = elements.iter().map(|x| format!("{x:?}")).collect();
            assert_eq!(got, expected, "{}", f.name);
            checked += 1;
        }
    }
    assert!(checked > 20, "{checked}");
}

#[test]
fn a_double_precision_packed_vector3_array_element_keeps_its_precision() {
    // PackedVector3Array([Vector3(0.1, 2, 3)]) from a Godot 4 double-precision build
    // (docs/wire-format.md §4.10: header bit 16, f64 components).
    let mut bytes = vec![0x24, 0, 1, 0, 1, 0, 0, 0];
    for c in [0.1f64, 2.0, 3.0] {
        bytes.extend(c.to_le_bytes());
    }
    let view = gdwire::from_bytes(Dialect::GODOT_4, &bytes).unwrap();
    let items: Vec<Variant> = from_variant_ref(view).unwrap();
    assert_eq!(
        items,
        [Variant::Vector3(
            Vector3 {
                x: 0.1,
                y: 2.0,
                z: 3.0
            },
            Precision::Double
        )]
    );
    let whole: Variant = gdwire::serde::from_bytes(Dialect::GODOT_4, &bytes).unwrap();
    assert_eq!(ser(Dialect::GODOT_4, &whole).unwrap(), bytes);
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Rpc {
    method: String,
    args: Vec<Variant>,
    extra: HashMap<String, Variant>,
}

#[test]
fn structs_with_variant_fields_round_trip() {
    let d = Dialect::GODOT_4;
    let dec = Decoder::new(d);
    // Every Godot 4.6 value that needs no full objects, as arguments and extras.
    let values: Vec<(String, Vec<u8>)> = support::godot4_values()
        .into_iter()
        .filter(|f| f.desc.is_some() && dec.decode_exact(&f.bytes).is_ok())
        .map(|f| (f.name, f.bytes))
        .collect();
    assert!(values.len() > 50, "{}", values.len());
    let owned: Vec<Variant> = values
        .iter()
        .map(|(_, b)| Variant::from_bytes(d, b).unwrap())
        .collect();
    let rpc = Rpc {
        method: "spawn".into(),
        args: owned.clone(),
        extra: values
            .iter()
            .zip(&owned)
            .map(|((n, _), v)| (n.clone(), v.clone()))
            .collect(),
    };
    let bytes = ser(d, &rpc).unwrap();
    // Each field holds the engine's bytes: look at them with views.
    let dict = gdwire::from_bytes(d, &bytes)
        .unwrap()
        .as_dictionary()
        .unwrap();
    let args = dict.get("args").unwrap().as_array().unwrap();
    for (item, (name, engine)) in args.iter().zip(&values) {
        assert_eq!(
            hex_of(&gdwire::to_vec(d, &item).unwrap()),
            hex_of(engine),
            "{name}"
        );
    }
    let extra = dict.get("extra").unwrap().as_dictionary().unwrap();
    for (name, engine) in &values {
        let item = extra.get(name.as_str()).unwrap();
        assert_eq!(
            hex_of(&gdwire::to_vec(d, &item).unwrap()),
            hex_of(engine),
            "{name}"
        );
    }
    let back: Rpc = gdwire::serde::from_bytes(d, &bytes).unwrap();
    assert_eq!(back.method, rpc.method);
    assert_eq!(format!("{:?}", back.args), format!("{:?}", rpc.args));
    assert_eq!(back.extra.len(), rpc.extra.len());
    for (k, v) in &rpc.extra {
        assert_eq!(format!("{:?}", back.extra[k]), format!("{v:?}"), "{k}");
    }
    // (`HashMap` order differs between two maps: compare the `Vec` alone.)
    assert_eq!(ser(d, &back.args).unwrap(), ser(d, &rpc.args).unwrap());
}

#[test]
fn option_and_nested_variants_read_whole() {
    #[derive(Serialize, Deserialize, Debug)]
    struct S {
        a: Option<Variant>,
        b: Option<Variant>,
        c: Array,
        d: Dictionary,
    }
    let v = Variant::from_bytes(
        Dialect::GODOT_4,
        &hex("1c 00 01 00 02 00 00 00 02 00 00 00 02 00 00 00 07 00 00 00 02 00 00 00 08 00 00 00"),
    )
    .unwrap(); // Array[int]([7, 8])
    let Variant::Array(typed) = v.clone() else {
        panic!()
    };
    let mut d = Dictionary::new();
    d.push(1, "x");
    d.push(1, "y"); // duplicate keys are kept
    let s = S {
        a: Some(v.clone()),
        b: None,
        c: typed,
        d,
    };
    let bytes = gdwire::serde::to_vec(Dialect::GODOT_4, &s).unwrap();
    let back: S = gdwire::serde::from_bytes(Dialect::GODOT_4, &bytes).unwrap();
    assert_eq!(back.a, Some(v));
    assert_eq!(back.b, None);
    assert_eq!(format!("{:?}", back.c), format!("{:?}", s.c));
    assert_eq!(back.d.len(), 2);
    // A Dictionary field refuses an Array.
    #[derive(Deserialize, Debug)]
    struct OnlyDict {
        #[allow(dead_code)]
        c: Dictionary,
    }
    assert!(gdwire::serde::from_bytes::<OnlyDict>(Dialect::GODOT_4, &bytes).is_err());
}

#[test]
fn json_round_trip_of_plain_values() {
    let text = r#"{"name":"Ann","hp":100,"speed":1.5,"alive":true,"bag":[1,"two",null,[]],"pos":{"x":-2.25}}"#;
    let v: Variant = serde_json::from_str(text).unwrap();
    assert_eq!(v.get("name"), Some(&Variant::from("Ann")));
    assert_eq!(v.get("hp"), Some(&Variant::Int(100)));
    assert_eq!(v.get("speed"), Some(&Variant::Float(1.5)));
    assert_eq!(v.get("alive"), Some(&Variant::Bool(true)));
    let bag = v.get("bag").and_then(Variant::as_array).unwrap();
    assert_eq!(bag[2], Variant::Nil);
    assert_eq!(serde_json::to_string(&v).unwrap(), text);
    // Through gdwire and back to JSON.
    let bytes = gdwire::serde::to_vec(Dialect::GODOT_4, &v).unwrap();
    let back: Variant = gdwire::serde::from_bytes(Dialect::GODOT_4, &bytes).unwrap();
    assert_eq!(back, v);
    assert_eq!(serde_json::to_string(&back).unwrap(), text);
    // A JSON integer beyond i64 is no Godot int.
    assert!(serde_json::from_str::<Variant>("18446744073709551615").is_err());
}

#[test]
fn other_formats_see_plain_data_and_godot_types_come_back_plain() {
    let mut d = Dictionary::new();
    d.insert(
        "pos",
        Variant::Vector3(
            Vector3 {
                x: 1.0,
                y: 2.0,
                z: 3.0,
            },
            Precision::Double,
        ),
    );
    d.insert("name", Variant::StringName("hero".into()));
    d.insert("ids", vec![1i32, 2]); // PackedInt32Array
    let v = Variant::from(d);
    let json = serde_json::to_string(&v).unwrap();
    assert_eq!(json, r#"{"pos":[1.0,2.0,3.0],"name":"hero","ids":[1,2]}"#);
    let back: Variant = serde_json::from_str(&json).unwrap();
    // The Godot types are gone: a Vector3 is an Array, a StringName a String.
    assert_eq!(
        back.get("pos"),
        Some(&Variant::from(vec![
            Variant::Float(1.0),
            Variant::Float(2.0),
            Variant::Float(3.0)
        ]))
    );
    assert_eq!(back.get("name"), Some(&Variant::String("hero".into())));
    assert!(matches!(back.get("ids"), Some(Variant::Array(_))));
}

#[test]
fn values_deeper_than_serde_reads_are_refused_not_a_stack_overflow() {
    // An owned value may be 1024 levels deep (the engine's limit); serde recurses per level.
    for (depth, dictionaries) in [1usize, 127, 128, 129, 1024]
        .into_iter()
        .flat_map(|d| [(d, false), (d, true)])
    {
        // Arrays only, or dictionaries and arrays alternating (a dictionary outermost).
        let mut v = Variant::Nil;
        for level in (0..depth).rev() {
            v = if dictionaries && level % 2 == 0 {
                let mut d = Dictionary::new();
                d.insert("child", v);
                Variant::from(d)
            } else {
                Variant::from(vec![v])
            };
        }
        let engine = v.to_vec(Dialect::GODOT_4).unwrap();
        let readable = gdwire::serde::from_bytes::<Variant>(Dialect::GODOT_4, &engine).is_ok();
        assert_eq!(depth <= 128, readable, "{depth}");
        // Written exactly when it can be read back.
        match ser(Dialect::GODOT_4, &v) {
            Ok(bytes) => assert!(readable && bytes == engine, "{depth}"),
            Err(e) => assert!(
                !readable && e.to_string().contains("nested"),
                "{depth}: {e}"
            ),
        }
        assert_eq!(serde_json::to_string(&v).is_ok(), readable, "{depth}");
        // The containers themselves check as the `Variant` does.
        match v {
            Variant::Array(a) => assert_eq!(serde_json::to_string(&a).is_ok(), readable),
            Variant::Dictionary(d) => assert_eq!(serde_json::to_string(&d).is_ok(), readable),
            _ => panic!("{depth}"),
        }
    }
}

#[test]
fn full_objects_follow_the_decoder_and_serializer_options() {
    // Godot 4.6's var_to_bytes_with_objects of a full object, from the fixtures.
    let f = support::godot4_values()
        .into_iter()
        .find(|f| f.allow_objects && Decoder::new(Dialect::GODOT_4).decode(&f.bytes).is_err())
        .expect("a fixture that needs full objects");
    let d = Dialect::GODOT_4;
    // Refused where the decoder refuses objects, as the views are.
    assert!(gdwire::serde::from_bytes::<Variant>(d, &f.bytes).is_err());
    let v: Variant = from_bytes_with(Decoder::new(d).with_allow_objects(true), &f.bytes).unwrap();
    // Written only with full objects on, as the engine does.
    assert!(gdwire::serde::to_vec(d, &v).is_err(), "{}", f.name);
    assert_eq!(ser(d, &v).unwrap(), f.bytes, "{}", f.name);
}

#[test]
fn message_pack_round_trips_plain_values() {
    // Another self-describing format (binary): bytes stay a PackedByteArray there.
    let mut d = Dictionary::new();
    d.insert("n", -7);
    d.insert("f", 0.25);
    d.insert("s", "text");
    d.insert("b", Variant::PackedByteArray(vec![0, 1, 255]));
    d.insert("a", vec![Variant::Nil, Variant::Bool(false)]);
    let v = Variant::from(d);
    let bytes = rmp_serde::to_vec(&v).unwrap();
    let back: Variant = rmp_serde::from_slice(&bytes).unwrap();
    assert_eq!(back, v);
}

#[test]
fn json_forms_of_the_godot_types_are_the_documented_ones() {
    // docs/serde.md, Owned Variant: what other formats see.
    let v = |hex_bytes: &str| Variant::from_bytes(Dialect::GODOT_4, &hex(hex_bytes)).unwrap();
    let json = |x: &Variant| serde_json::to_string(x).unwrap();
    // var_to_bytes(NodePath("/root/a:b")) in Godot 4.6 (the NodePath rustdoc's bytes).
    let path = v(
        "16 00 00 00 02 00 00 80 01 00 00 00 01 00 00 00 04 00 00 00 72 6f 6f 74 \
                  01 00 00 00 61 00 00 00 01 00 00 00 62 00 00 00",
    );
    assert_eq!(json(&path), r#""/root/a:b""#);
    assert_eq!(json(&Variant::Rid(Some(13))), "13");
    assert_eq!(json(&Variant::Callable), "null");
    // Array[int]([7]) (the owned Array rustdoc's bytes).
    let typed = v("1c 00 01 00 02 00 00 00 01 00 00 00 02 00 00 00 07 00 00 00");
    assert_eq!(json(&typed), r#"["int",[7],"Array"]"#);
    // A Pandemonium 5 PackedTypedArray of int (docs/wire-format.md §4.12) keeps its kind, in
    // the form `gdwire::serde::TypedArray` reads.
    let packed = Variant::from_bytes(
        Dialect::PANDEMONIUM_5,
        &hex("1c 00 00 00 02 00 00 00 01 00 00 00 02 00 00 00 07 00 00 00"),
    )
    .unwrap();
    assert_eq!(json(&packed), r#"["int",[7],"PackedTypedArray"]"#);
    let typed: gdwire::serde::TypedArray<i64> = serde_json::from_str(&json(&packed)).unwrap();
    assert_eq!(typed.kind, gdwire::read::ArrayKind::PackedTypedArray);
    assert_eq!(json(&Variant::PackedByteArray(vec![1, 2])), "[1,2]");
    assert_eq!(
        json(&Variant::PackedColorArray(vec![[1.0, 0.5, 0.0, 1.0]])),
        "[[1.0,0.5,0.0,1.0]]"
    );
    let back: Variant = serde_json::from_str("[1e3, 2, -0.5]").unwrap();
    assert_eq!(
        back,
        Variant::from(vec![
            Variant::Float(1000.0),
            Variant::Int(2),
            Variant::Float(-0.5)
        ])
    );
}

#[test]
fn flattened_variants_come_back_as_plain_data() {
    #[derive(Serialize, Deserialize)]
    struct Outer {
        id: i32,
        #[serde(flatten)]
        rest: HashMap<String, Variant>,
    }
    let at = Variant::Vector3(
        Vector3 {
            x: 1.0,
            y: 2.0,
            z: 3.0,
        },
        Precision::Single,
    );
    let o = Outer {
        id: 1,
        rest: HashMap::from([("at".to_string(), at.clone())]),
    };
    let bytes = gdwire::serde::to_vec(Dialect::GODOT_4, &o).unwrap();
    // Written exactly (a Vector3 on the wire)...
    let dict = gdwire::from_bytes(Dialect::GODOT_4, &bytes)
        .unwrap()
        .as_dictionary()
        .unwrap();
    assert!(matches!(dict.get("at"), Some(VariantRef::Vector3(_))));
    // ...but serde buffers flattened fields as plain data before the Variant sees them.
    let back: Outer = gdwire::serde::from_bytes(Dialect::GODOT_4, &bytes).unwrap();
    assert_eq!(
        back.rest["at"],
        Variant::from(vec![
            Variant::Float(1.0),
            Variant::Float(2.0),
            Variant::Float(3.0)
        ])
    );
}

#[test]
fn godot3_text_that_is_not_utf8_is_kept_alone_and_in_packed_arrays() {
    // A Godot 3 String holding a lone surrogate (U+D800 as ED A0 80), as Godot 3.2.3 writes
    // it (the GString rustdoc's bytes), and a PoolStringArray of it and "a"
    // (docs/wire-format.md §2: id 23; §4.11: count, then blocks whose length counts the
    // NUL).
    let g3 = Dialect::GODOT_3;
    let string = hex("04 00 00 00 03 00 00 00 ed a0 80 00");
    let pool = hex("17 00 00 00 02 00 00 00 04 00 00 00 ed a0 80 00 02 00 00 00 61 00 00 00");
    for bytes in [&string, &pool] {
        let v: Variant = gdwire::serde::from_bytes(g3, bytes).unwrap();
        assert_eq!(ser(g3, &v).unwrap(), *bytes);
        // Godot 4 reads strict UTF-8 only: refused there, as by the owned encoder.
        assert!(ser(Dialect::GODOT_4, &v).is_err());
        assert!(v.to_vec(Dialect::GODOT_4).is_err());
    }
    let view = gdwire::from_bytes(g3, &string).unwrap();
    let alone: Variant = from_variant_ref(view).unwrap();
    assert_eq!(alone, Variant::from(view));
    let view = gdwire::from_bytes(g3, &pool).unwrap();
    let items: Vec<Variant> = from_variant_ref(view).unwrap();
    let Variant::PackedStringArray(strings) = Variant::from(view) else {
        panic!()
    };
    assert_eq!(items.len(), 2);
    for (item, s) in items.iter().zip(&strings) {
        assert_eq!(item.as_string().unwrap().raw(), s.raw());
    }
    assert_eq!(strings[0].bytes(), [0xed, 0xa0, 0x80]);
}

#[test]
fn variants_back_to_back_in_store_var_frames() {
    // The last three `store_var` frames of a file Godot 4.6 wrote (the crate's sample, as in
    // the `Deserializer::framed` rustdoc).
    let file = include_bytes!("../samples/godot4_capture.bin");
    let decoder = Decoder::new(Dialect::GODOT_4);
    let mut de = gdwire::serde::Deserializer::framed(Default::default(), decoder, &file[2116..]);
    let mut got = Vec::new();
    while let Some(v) = de.next_value::<Variant>() {
        got.push(v.unwrap());
    }
    assert_eq!(
        got,
        [
            Variant::from("gg wp 🎮"),
            Variant::Int(1234567890123),
            Variant::Nil
        ]
    );
    assert!(de.is_at_end());
}
