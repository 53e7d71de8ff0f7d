//! `gdwire::text` for Godot 4 and Pandemonium, and robustness on hostile input.
//!
//! No Godot 4 or Pandemonium engine is available here, so the expected strings are
//! HAND-DERIVED from the engines' source (docs/text.md cites the files and commits):
//! Godot 4 `core/variant/variant_parser.cpp` `VariantWriter::write` (with `p_compat = true`,
//! as `var_to_str` calls it), `thirdparty/grisu2` for 4.4+ floats, and Pandemonium's
//! `core/variant/variant_parser.cpp`. The inputs are built with gdwire's writer, whose bytes
//! are checked elsewhere against spec vectors.

use gdwire::math::{Color, Projection, Rect2, Vector2, Vector2i, Vector3, Vector4};
use gdwire::text::{to_text, TextError};
use gdwire::{
    from_bytes, ContainerTypeSpec, Decoder, Dialect, ErrorKind, VariantType, Writer, MAX_DEPTH,
};

/// Bytes made by `build`, decoded, as text in `dialect`.
fn text(dialect: Dialect, build: impl FnOnce(&mut Writer<&mut Vec<u8>>)) -> String {
    let mut bytes = Vec::new();
    let mut w = Writer::new(&mut bytes, dialect).with_full_objects(true);
    build(&mut w);
    w.finish().unwrap();
    let value = Decoder::new(dialect)
        .with_allow_objects(true)
        .decode_exact(&bytes)
        .unwrap();
    to_text(dialect, &value).unwrap()
}

fn v2(x: f64, y: f64) -> Vector2 {
    Vector2 { x, y }
}

const G4: Dialect = Dialect::GODOT_4;
const G42: Dialect = Dialect::GODOT_4_2;

#[test]
fn godot4_scalars_and_floats() {
    let f = |d: Dialect, x: f64| text(d, |w| w.float(x).unwrap());
    assert_eq!(text(G4, |w| w.nil().unwrap()), "null");
    assert_eq!(text(G4, |w| w.int(-7).unwrap()), "-7");
    // 4.4+: shortest round-trip (Grisu2), of the f32 when the double is one; ".0" appended to
    // integral values; -inf stays "inf_neg" in compat mode.
    assert_eq!(f(G4, 1.0), "1.0");
    assert_eq!(f(G4, 0.1), "0.1");
    assert_eq!(f(G4, 1.0 / 3.0), "0.3333333333333333");
    assert_eq!(f(G4, 123456789.0), "123456789.0");
    assert_eq!(f(G4, 1e20), "1e+20");
    assert_eq!(f(G4, -0.0), "0.0");
    assert_eq!(f(G4, f64::INFINITY), "inf");
    assert_eq!(f(G4, f64::NEG_INFINITY), "inf_neg");
    assert_eq!(f(G4, f64::NAN), "nan");
    // 4.0 – 4.3: %lg (six significant digits).
    assert_eq!(f(G42, 1.0 / 3.0), "0.333333");
    assert_eq!(f(G42, 123456789.0), "1.23457e+08");
    assert_eq!(f(G42, 2.0), "2.0");
    assert_eq!(f(G42, f64::NEG_INFINITY), "inf_neg");
}

#[test]
fn godot4_math_and_misc_types() {
    assert_eq!(
        text(G4, |w| w.vector2(v2(1.0, 2.5)).unwrap()),
        "Vector2(1, 2.5)"
    );
    assert_eq!(
        text(G4, |w| w.vector2i(Vector2i { x: 3, y: -4 }).unwrap()),
        "Vector2i(3, -4)"
    );
    assert_eq!(
        text(G4, |w| w
            .rect2(Rect2 {
                position: v2(0.0, 0.5),
                size: v2(0.1, 4.0)
            })
            .unwrap()),
        // 0.1 is sent as f32; the float32 "hack" prints its shortest f32 digits.
        "Rect2(0, 0.5, 0.1, 4)"
    );
    assert_eq!(
        text(G4, |w| w
            .vector3(Vector3 {
                x: 1.0,
                y: -0.0,
                z: f64::INFINITY
            })
            .unwrap()),
        "Vector3(1, 0, inf)"
    );
    assert_eq!(
        text(G4, |w| w
            .color(Color {
                r: 1.0,
                g: 0.5,
                b: 0.25,
                a: 1.0
            })
            .unwrap()),
        "Color(1, 0.5, 0.25, 1)"
    );
    let mut p = Projection::default();
    p.columns[0] = Vector4 {
        x: 1.0,
        y: 2.0,
        z: 3.0,
        w: 4.0,
    };
    assert_eq!(
        text(G4, |w| w.projection(p).unwrap()),
        "Projection(1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)"
    );
    assert_eq!(
        text(G4, |w| w.string_name("a\"b?").unwrap()),
        "&\"a\\\"b?\""
    );
    assert_eq!(text(G4, |w| w.string("a\"b\n").unwrap()), "\"a\\\"b\n\"");
    assert_eq!(
        text(G4, |w| w.node_path_str("/root/a:b").unwrap()),
        "NodePath(\"/root/a:b\")"
    );
    assert_eq!(text(G4, |w| w.rid(0).unwrap()), "RID()");
    assert_eq!(text(G4, |w| w.rid(42).unwrap()), "RID(42)");
    assert_eq!(text(G4, |w| w.callable().unwrap()), "Callable()");
    assert_eq!(text(G4, |w| w.signal("hit", 9).unwrap()), "Signal()");
    assert_eq!(
        text(G4, |w| w.object_id(5).unwrap()),
        "Object(EncodedObjectAsID,\"object_id\":5,\"script\":null)\n"
    );
    assert_eq!(
        text(G4, |w| {
            w.begin_object("Node", 1).unwrap();
            w.property_name("name").unwrap();
            w.string("n").unwrap();
        }),
        "Object(Node,\"name\":\"n\")\n"
    );
}

#[test]
fn godot4_containers() {
    assert_eq!(text(G4, |w| w.begin_array(0).unwrap()), "[]");
    assert_eq!(
        text(G4, |w| {
            w.begin_array(2).unwrap();
            w.int(1).unwrap();
            w.string("a").unwrap();
        }),
        "[1, \"a\"]"
    );
    assert_eq!(
        text(G4, |w| {
            w.begin_typed_array(2, ContainerTypeSpec::Builtin(VariantType::Int))
                .unwrap();
            w.int(1).unwrap();
            w.int(2).unwrap();
        }),
        "Array[int]([1, 2])"
    );
    assert_eq!(text(G4, |w| w.begin_dictionary(0).unwrap()), "{}");
    assert_eq!(
        text(G4, |w| {
            w.begin_dictionary(2).unwrap();
            w.string("b").unwrap();
            w.int(2).unwrap();
            w.string("a").unwrap();
            w.int(1).unwrap();
        }),
        "{\n\"a\": 1,\n\"b\": 2\n}"
    );
    assert_eq!(
        text(G4, |w| {
            w.begin_typed_dictionary(
                1,
                ContainerTypeSpec::Builtin(VariantType::String),
                ContainerTypeSpec::Builtin(VariantType::Nil),
            )
            .unwrap();
            w.string("k").unwrap();
            w.float(1.5).unwrap();
        }),
        "Dictionary[String, Variant]({\n\"k\": 1.5\n})"
    );
    // Keys: by Godot 4 type id first (int 2 < float 3 < String 4 < Vector2 5), then `<`.
    assert_eq!(
        text(G4, |w| {
            w.begin_dictionary(4).unwrap();
            w.vector2(v2(0.0, 0.0)).unwrap();
            w.nil().unwrap();
            w.string("s").unwrap();
            w.nil().unwrap();
            w.float(0.5).unwrap();
            w.nil().unwrap();
            w.int(9).unwrap();
            w.nil().unwrap();
        }),
        "{\n9: null,\n0.5: null,\n\"s\": null,\nVector2(0, 0): null\n}"
    );
    assert_eq!(
        text(G4, |w| w.packed_bytes(&[1, 255]).unwrap()),
        "PackedByteArray(1, 255)"
    );
    assert_eq!(
        text(G4, |w| w.packed_i64([-1i64, 2]).unwrap()),
        "PackedInt64Array(-1, 2)"
    );
    assert_eq!(
        text(G4, |w| w.packed_strings(["a'", ""]).unwrap()),
        "PackedStringArray(\"a\\'\", \"\")"
    );
    assert_eq!(
        text(G4, |w| w.packed_vector2([[1.0f32, 0.5]]).unwrap()),
        "PackedVector2Array(1, 0.5)"
    );
}

#[test]
fn pandemonium_follows_its_writer() {
    let pm = Dialect::PANDEMONIUM_3_8;
    assert_eq!(text(pm, |w| w.begin_dictionary(0).unwrap()), "{\n}");
    assert_eq!(text(pm, |w| w.string_name("n").unwrap()), "@\"n\"");
    // Integer vectors go through rtos_fix (a double and %lg) in Pandemonium's writer.
    assert_eq!(
        text(pm, |w| w.vector2i(Vector2i { x: 1234567, y: 2 }).unwrap()),
        "Vector2i( 1.23457e+06, 2 )"
    );
    assert_eq!(text(pm, |w| w.float(f64::NEG_INFINITY).unwrap()), "inf_neg");
    assert_eq!(text(pm, |w| w.float(f64::NAN).unwrap()), "nan");
    assert_eq!(text(pm, |w| w.rid(0).unwrap()), "");
}

/// Nested one-element arrays around `nil`, in Godot 3 wire form.
fn nested_arrays(levels: usize) -> Vec<u8> {
    let mut bytes = Vec::new();
    for _ in 0..levels {
        bytes.extend_from_slice(&[0x13, 0, 0, 0, 1, 0, 0, 0]);
    }
    bytes.extend_from_slice(&[0, 0, 0, 0]);
    bytes
}

/// A thread stack far smaller than Rust's 2 MiB default: the writer keeps open containers on
/// the heap, so its stack use does not grow with nesting, even unoptimised.
const SMALL_STACK: usize = 256 << 10;

#[test]
fn deepest_decodable_value_writes_on_a_small_thread_stack() {
    // Find the deepest nesting the default decoder accepts, then write it on a small thread.
    let deepest = (0..=MAX_DEPTH as usize + 4)
        .rev()
        .find(|&n| from_bytes(Dialect::GODOT_3, &nested_arrays(n)).is_ok())
        .unwrap();
    assert!(deepest >= MAX_DEPTH as usize - 1, "deepest {deepest}");
    let handle = std::thread::Builder::new()
        .stack_size(SMALL_STACK)
        .spawn(move || {
            let bytes = nested_arrays(deepest);
            let mut results = Vec::new();
            for dialect in [Dialect::GODOT_3, Dialect::GODOT_4, Dialect::PANDEMONIUM_3_5] {
                let bytes = if dialect == Dialect::GODOT_4 {
                    bytes
                        .iter()
                        .map(|&b| if b == 0x13 { 0x1c } else { b })
                        .collect()
                } else {
                    bytes.clone()
                };
                let v = from_bytes(dialect, &bytes).unwrap();
                results.push(to_text(dialect, &v).unwrap());
            }
            // The same nesting as a dictionary key chain.
            let mut dict = Vec::new();
            for _ in 0..deepest {
                dict.extend_from_slice(&[0x12, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0]);
            }
            dict.extend_from_slice(&[0, 0, 0, 0]);
            let v = from_bytes(Dialect::GODOT_3, &dict).unwrap();
            results.push(to_text(Dialect::GODOT_3, &v).unwrap());
            results
        })
        .unwrap();
    let results = handle.join().expect("no stack overflow");
    let g3 = format!("{}null{}", "[ ".repeat(deepest), " ]".repeat(deepest));
    assert_eq!(results[0], g3);
    // Godot 4 writes 101 levels, then the array at depth 101 as `[]` (engine-checked cut).
    assert_eq!(
        results[1],
        format!("{}[]{}", "[".repeat(101), "]".repeat(101))
    );
    assert!(results[3].starts_with("{\n1: {\n1: "));
}

#[test]
fn deeper_than_the_limit_is_an_error_not_a_crash() {
    let err = std::thread::Builder::new()
        .stack_size(SMALL_STACK)
        .spawn(|| {
            let bytes = nested_arrays(5000);
            let v = Decoder::new(Dialect::GODOT_3)
                .with_max_depth(10_000)
                .decode_exact(&bytes)
                .unwrap();
            to_text(Dialect::GODOT_3, &v).unwrap_err()
        })
        .unwrap()
        .join()
        .expect("no stack overflow");
    assert!(
        matches!(err, TextError::Decode(e) if matches!(e.kind(), ErrorKind::TooDeep { .. })),
        "{err:?}"
    );
}

#[test]
fn godot3_lenient_text_never_panics() {
    // A UTF-8-encoded surrogate and a code point above U+10FFFF: Godot 3 accepts both; they
    // print as U+FFFD (what the engine's JSON fixtures do too).
    let bytes = [
        4, 0, 0, 0, 8, 0, 0, 0, 0xED, 0xA0, 0x80, b'a', 0xF4, 0x90, 0x80, 0x80,
    ];
    let v = from_bytes(Dialect::GODOT_3, &bytes).unwrap();
    assert_eq!(
        to_text(Dialect::GODOT_3, &v).unwrap(),
        "\"\u{FFFD}a\u{FFFD}\""
    );
}

#[test]
fn big_packed_arrays_and_dictionaries() {
    let n = 200_000;
    let mut bytes = vec![0x16, 0, 0, 0];
    bytes.extend_from_slice(&(n as u32).to_le_bytes());
    for i in 0..n {
        bytes.extend_from_slice(&(i as f32).to_le_bytes());
    }
    let v = from_bytes(Dialect::GODOT_3, &bytes).unwrap();
    let t = to_text(Dialect::GODOT_3, &v).unwrap();
    assert!(t.starts_with("PoolRealArray( 0, 1, 2, ") && t.ends_with("199999 )"));
    // 50,000 equal-looking keys of a type without `<` (Color): merged and ordered in bounded time.
    let keys = 50_000u32;
    let mut d = vec![0x12, 0, 0, 0];
    d.extend_from_slice(&keys.to_le_bytes());
    for i in 0..keys {
        d.extend_from_slice(&[14, 0, 0, 0]);
        for c in [(i % 7) as f32, 0.0, 0.0, 1.0] {
            d.extend_from_slice(&c.to_le_bytes());
        }
        d.extend_from_slice(&[2, 0, 0, 0]);
        d.extend_from_slice(&i.to_le_bytes());
    }
    let v = from_bytes(Dialect::GODOT_3, &d).unwrap();
    let t = to_text(Dialect::GODOT_3, &v).unwrap();
    assert_eq!(t.matches("Color(").count(), 7);
}

#[test]
fn nested_array_keys_sort_in_linear_time() {
    // Godot 4's `Array <` asks `x < y`, then `y < x`, of each element pair. Two keys nested
    // 64 deep around colours (no `<`: neither is less) take 2^64 steps if each question
    // recurses on its own; the two keys stay in wire order (insertion sort, nothing less).
    let levels = 64;
    let mut d = vec![0x1b, 0, 0, 0, 2, 0, 0, 0];
    for i in 0..2u8 {
        for _ in 0..levels {
            d.extend_from_slice(&[0x1c, 0, 0, 0, 1, 0, 0, 0]);
        }
        d.extend_from_slice(&[20, 0, 0, 0]);
        for c in [f32::from(i), 0.0, 0.0, 1.0] {
            d.extend_from_slice(&c.to_le_bytes());
        }
        d.extend_from_slice(&[2, 0, 0, 0, i, 0, 0, 0]);
    }
    let v = from_bytes(Dialect::GODOT_4, &d).unwrap();
    let key = |c: &str| format!("{}{c}{}", "[".repeat(levels), "]".repeat(levels));
    assert_eq!(
        to_text(Dialect::GODOT_4, &v).unwrap(),
        format!(
            "{{\n{}: 0,\n{}: 1\n}}",
            key("Color(0, 0, 0, 1)"),
            key("Color(1, 0, 0, 1)")
        )
    );
}
