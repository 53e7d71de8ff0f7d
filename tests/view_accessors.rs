//! Every public accessor of every read view, on every value the real-engine fixtures decode to
//! (values, malformed inputs, differential mutants) in every dialect with objects allowed and
//! not, on every type of every dialect (written by the writer, both precisions), and on the
//! hostile shapes at the depth limit: nothing panics and the accessors agree with each other
//! and with an independent reading of the bytes (`support/touch.rs`).

mod support;

#[path = "support/shapes.rs"]
mod shapes;
#[path = "support/touch.rs"]
mod touch;

use gdwire::math::{
    Aabb, Basis, Color, Plane, Precision, Projection, Quaternion, Rect2, Rect2i, Transform2D,
    Transform3D, Vector2, Vector2i, Vector3, Vector3i, Vector4, Vector4i,
};
use gdwire::{ContainerTypeSpec, Decoder, Dialect, Error, VariantType, Writer};
use touch::{touch, touch_error, Touched};

type W = Writer<Vec<u8>>;
/// Writes one value.
type Write = Box<dyn Fn(&mut W) -> gdwire::Result<()>>;

/// Decodes `bytes` with `dec` and touches the value or the error; `true` when it decoded.
fn touch_bytes(dec: &Decoder, bytes: &[u8], seen: &mut Touched) -> bool {
    match dec.decode(bytes) {
        Ok(v) => {
            seen.add(&touch(&v));
            true
        }
        Err(e) => {
            touch_error(&e);
            false
        }
    }
}

#[test]
fn fixtures_in_every_dialect() {
    let fixtures: Vec<_> = support::values()
        .into_iter()
        .chain(support::malformed())
        .chain(support::differential())
        .collect();
    let mut seen = Touched::default();
    let mut decoded = 0;
    let mut failed = 0;
    for f in &fixtures {
        for dialect in Dialect::ALL {
            for objects in [false, true] {
                let dec = Decoder::new(dialect).with_allow_objects(objects);
                if touch_bytes(&dec, &f.bytes, &mut seen) {
                    decoded += 1;
                } else {
                    failed += 1;
                }
            }
        }
    }
    assert!(
        decoded > fixtures.len() && failed > 0,
        "{decoded} / {failed}"
    );
    // Every type Godot 3 has is among the engine's values.
    for ty in VariantType::ALL {
        if Dialect::GODOT_3.supports(ty) {
            assert!(seen.count(ty) > 0, "no {ty} in the Godot 3 fixtures");
        }
    }
    assert!(seen.nan, "the fixtures hold NaNs");
}

/// One value of every type the dialect has (typed containers, full objects and duplicate keys
/// included), each written on its own.
fn every_type(dialect: Dialect, precision: Precision) -> Vec<Vec<u8>> {
    use ContainerTypeSpec as Spec;
    use VariantType as T;
    let v2 = Vector2 { x: 1.5, y: -2.0 };
    let v3 = Vector3 {
        x: 1.0,
        y: 2.0,
        z: 3.0,
    };
    let v4 = Vector4 {
        x: 1.0,
        y: 2.0,
        z: 3.0,
        w: f64::INFINITY,
    };
    let basis = Basis { rows: [v3; 3] };
    let writers: Vec<(T, Write)> = vec![
        (T::Nil, Box::new(|w| w.nil())),
        (T::Bool, Box::new(|w| w.bool(true))),
        (T::Int, Box::new(|w| w.int(-5))),
        (T::Int, Box::new(|w| w.int(1 << 40))),
        (T::Float, Box::new(|w| w.float(0.1))),
        (T::Float, Box::new(|w| w.float(f64::NAN))),
        (T::String, Box::new(|w| w.string("h\u{e9}llo \u{2713}"))),
        (T::String, Box::new(|w| w.string(""))),
        (T::Vector2, Box::new(move |w| w.vector2(v2))),
        (
            T::Vector2i,
            Box::new(|w| w.vector2i(Vector2i { x: 1, y: -1 })),
        ),
        (
            T::Rect2,
            Box::new(move |w| {
                w.rect2(Rect2 {
                    position: v2,
                    size: v2,
                })
            }),
        ),
        (T::Rect2i, Box::new(|w| w.rect2i(Rect2i::default()))),
        (T::Vector3, Box::new(move |w| w.vector3(v3))),
        (T::Vector3i, Box::new(|w| w.vector3i(Vector3i::default()))),
        (
            T::Transform2D,
            Box::new(move |w| {
                w.transform2d(Transform2D {
                    x: v2,
                    y: v2,
                    origin: v2,
                })
            }),
        ),
        (T::Vector4, Box::new(move |w| w.vector4(v4))),
        (T::Vector4i, Box::new(|w| w.vector4i(Vector4i::default()))),
        (
            T::Plane,
            Box::new(move |w| w.plane(Plane { normal: v3, d: 4.0 })),
        ),
        (
            T::Quaternion,
            Box::new(|w| w.quaternion(Quaternion::default())),
        ),
        (
            T::Aabb,
            Box::new(move |w| {
                w.aabb(Aabb {
                    position: v3,
                    size: v3,
                })
            }),
        ),
        (T::Basis, Box::new(move |w| w.basis(basis))),
        (
            T::Transform3D,
            Box::new(move |w| w.transform3d(Transform3D { basis, origin: v3 })),
        ),
        (
            T::Projection,
            Box::new(move |w| w.projection(Projection { columns: [v4; 4] })),
        ),
        (
            T::Color,
            Box::new(|w| {
                w.color(Color {
                    r: 0.5,
                    g: f32::NAN,
                    b: 0.0,
                    a: 1.0,
                })
            }),
        ),
        (T::StringName, Box::new(|w| w.string_name("pressed"))),
        (
            T::StringName,
            Box::new(|w| {
                // A String and a StringName key with the same text: one key to the lookup.
                w.begin_dictionary(2)?;
                w.string("k")?;
                w.int(1)?;
                w.string_name("k")?;
                w.int(2)
            }),
        ),
        (
            T::NodePath,
            Box::new(|w| w.node_path(&["root", "a"], &["b", "c"], true)),
        ),
        (
            T::NodePath,
            Box::new(|w| w.node_path::<&str, &str>(&[], &[], true)),
        ),
        (T::Rid, Box::new(|w| w.rid(7))),
        (T::Object, Box::new(|w| w.object_id(42))),
        (
            T::Object,
            Box::new(|w| {
                w.begin_object("Node", 2)?;
                w.property_name("name")?;
                w.string("n")?;
                w.property_name("owner")?; // not `script`: Godot 4.3+ wants nil or a path there
                w.begin_object("Resource", 0)
            }),
        ),
        (T::Callable, Box::new(|w| w.callable())),
        (T::Signal, Box::new(|w| w.signal("pressed", 9))),
        (
            T::Dictionary,
            Box::new(|w| {
                // Duplicate keys: lookups find the last.
                w.begin_dictionary(5)?;
                w.int(1)?;
                w.begin_array(1)?;
                w.string("x")?;
                w.string("k")?;
                w.begin_array(0)?;
                w.int(1)?;
                w.string("y")?;
                w.string("k")?;
                w.int(3)?;
                w.begin_dictionary(0)?;
                w.nil()
            }),
        ),
        (
            T::Dictionary,
            Box::new(|w| {
                w.begin_typed_dictionary(1, Spec::Builtin(T::String), Spec::ClassName("Node"))?;
                w.string("a")?;
                w.object_id(5)
            }),
        ),
        (
            T::Dictionary,
            Box::new(|w| {
                w.begin_typed_dictionary(0, Spec::Script("res://a.gd"), Spec::Builtin(T::Nil))
            }),
        ),
        (
            T::Array,
            Box::new(|w| {
                w.begin_array(3)?;
                w.int(1)?;
                w.begin_array(1)?;
                w.int(2)?;
                w.string("z")
            }),
        ),
        (
            T::Array,
            Box::new(|w| {
                w.begin_typed_array(2, Spec::Builtin(T::Int))?;
                w.int(1)?;
                w.int(2)
            }),
        ),
        (
            T::Array,
            Box::new(|w| {
                w.begin_typed_array(1, Spec::ClassName("Node"))?;
                w.object_id(3)
            }),
        ),
        (
            T::Array,
            Box::new(|w| w.begin_typed_array(0, Spec::Script("res://a.gd"))),
        ),
        (
            T::PackedTypedArray,
            Box::new(|w| {
                w.begin_packed_typed_array(2, Spec::Builtin(T::Float))?;
                w.float(1.0)?;
                w.float(2.0)
            }),
        ),
        (T::PackedByteArray, Box::new(|w| w.packed_bytes(&[1, 2, 3]))),
        (T::PackedByteArray, Box::new(|w| w.packed_bytes(&[]))),
        (
            T::PackedInt32Array,
            Box::new(|w| w.packed_i32([1, -2, i32::MIN])),
        ),
        (
            T::PackedInt64Array,
            Box::new(|w| w.packed_i64([1, -2, i64::MAX, 4])),
        ),
        (
            T::PackedFloat32Array,
            Box::new(|w| w.packed_f32([1.5, f32::NAN, -0.0])),
        ),
        (
            T::PackedFloat64Array,
            Box::new(|w| w.packed_f64([1.5, f64::NAN])),
        ),
        (
            T::PackedStringArray,
            Box::new(|w| w.packed_strings(["a", "", "\u{e9}t\u{e9}", "four"])),
        ),
        (
            T::PackedVector2Array,
            Box::new(|w| w.packed_vector2([[1.0f64, 2.0], [3.0, 4.0], [5.0, 6.0]])),
        ),
        (
            T::PackedVector3Array,
            Box::new(|w| w.packed_vector3([[1.0f32, 2.0, 3.0]])),
        ),
        (
            T::PackedVector4Array,
            Box::new(|w| w.packed_vector4([[1.0f64, 2.0, 3.0, 4.0], [0.0; 4]])),
        ),
        (
            T::PackedColorArray,
            Box::new(|w| w.packed_color([[0.0f32, 0.5, 1.0, 1.0], [1.0; 4]])),
        ),
        (
            T::PackedVector2iArray,
            Box::new(|w| w.packed_vector2i([[1, 2], [3, 4]])),
        ),
        (
            T::PackedVector3iArray,
            Box::new(|w| w.packed_vector3i([[1, 2, 3]])),
        ),
        (
            T::PackedVector4iArray,
            Box::new(|w| w.packed_vector4i([[1, 2, 3, 4], [5, 6, 7, 8]])),
        ),
    ];
    writers
        .iter()
        .filter(|(ty, _)| dialect.supports(*ty))
        .map(|(ty, write)| {
            let mut w = Writer::new(Vec::new(), dialect)
                .with_precision(precision)
                .with_full_objects(true);
            write(&mut w).unwrap_or_else(|e| panic!("{} {ty}: {e}", dialect.name()));
            w.finish().unwrap();
            w.into_sink()
        })
        .collect()
}

#[test]
fn every_type_of_every_dialect() {
    let mut total = Touched::default();
    for dialect in Dialect::ALL {
        for precision in [Precision::Single, Precision::Double] {
            let values = every_type(dialect, precision);
            // The same values once more, as the elements of one array.
            let mut all = Vec::new();
            let array = dialect.wire_id(VariantType::Array).unwrap();
            all.extend_from_slice(&u32::from(array).to_le_bytes());
            all.extend_from_slice(&(values.len() as u32).to_le_bytes());
            values.iter().for_each(|v| all.extend_from_slice(v));
            let dec = Decoder::new(dialect).with_allow_objects(true);
            let mut seen = Touched::default();
            for bytes in values.iter().chain([&all]) {
                let v = dec.decode_exact(bytes).unwrap_or_else(|e| {
                    panic!("{} {precision:?} {bytes:02x?}: {e}", dialect.name())
                });
                seen.add(&touch(&v));
                // Without objects, full objects fail (and their errors are touched).
                touch_bytes(&Decoder::new(dialect), bytes, &mut Touched::default());
            }
            for ty in VariantType::ALL {
                if dialect.supports(ty) {
                    assert!(seen.count(ty) > 0, "{}: no {ty}", dialect.name());
                }
            }
            total.add(&seen);
        }
    }
    // Every type of every dialect.
    assert!(VariantType::ALL.iter().all(|&ty| total.count(ty) > 0));
}

#[test]
fn hostile_shapes_at_the_depth_limit() {
    const DEPTH: usize = 1024;
    let dec = Decoder::new(Dialect::GODOT_4);
    // (input, values it holds)
    // (input, values it holds, deepest level)
    let good = [
        (shapes::deep_chain(DEPTH), DEPTH + 1, DEPTH),
        (shapes::deep_with_siblings(DEPTH), 2 * DEPTH + 1, DEPTH),
        // `DEPTH` dictionaries, the innermost `{1: 1}`, the others' values.
        (shapes::deep_dict_keys(DEPTH), 2 * DEPTH + 1, DEPTH),
        (shapes::repeated_deep(64, 16), 1 + 16 * (2 * 64 + 1), 65),
        (shapes::many_nils(10_000), 10_001, 1),
        (shapes::many_short_strings(10_000), 10_001, 1),
    ];
    for (bytes, values, depth) in good {
        let seen = touch(&dec.decode_exact(&bytes).unwrap());
        assert_eq!((seen.values, seen.depth), (values as u64, depth));
    }
    let too_deep = shapes::deep_chain(DEPTH + 1);
    let bad = [
        too_deep.as_slice(),
        &shapes::huge_array_count(1000),
        &shapes::huge_packed_strings_count(1000),
    ];
    for bytes in bad {
        let e: Error = dec.decode(bytes).unwrap_err();
        touch_error(&e);
    }
}
