//! The real Godot 4.6 engine reads what gdwire writes (`tests/godot4/interop.gd`, one engine
//! run for all values). Values written by [`Writer`] for [`Dialect::GODOT_4`] (every type,
//! edge values, deep chains up to the depth limit, packed arrays of 1 MiB and more) are
//! decoded by the engine (`bytes_to_var`, or `bytes_to_var_with_objects` for full objects),
//! and for each value this test asserts that
//!
//! * the engine decoded it, and its `var_to_bytes` of the decoded value is our exact bytes;
//! * its `var_to_str` of the decoded value is our text form (`gdwire::text::to_text`, what
//!   `gdwire dump --format text` prints);
//! * `var_to_bytes(JSON.to_native(JSON.parse_string(our_json)))` is our exact bytes
//!   (`gdwire::json`), except where our JSON carries what the engine's JSON form drops
//!   (`JsonDrops`, docs/json.md): those values are listed and must differ, so the list
//!   stays honest.
//!
//! Skipped with a notice when the engine is not installed, unless GDWIRE_REQUIRE_ENGINE=1.
//!
//! The same values written in double precision are read the same way by a double-precision
//! 4.6.3 build when one is there (`tests/godot4/double/`; never built in CI).
#![cfg(feature = "json")] // the JSON form is part of what the engine reads back

mod support;

use std::time::Duration;

use gdwire::math::{
    Aabb, Basis, Color, Plane, Projection, Quaternion, Rect2, Rect2i, Transform2D, Transform3D,
    Vector2, Vector2i, Vector3, Vector3i, Vector4, Vector4i,
};
use gdwire::{ContainerTypeSpec, Decoder, Dialect, Precision, VariantType, Writer};
use support::godot4;

type W<'a> = Writer<&'a mut Vec<u8>>;
type Res = gdwire::Result<()>;

const G4: Dialect = Dialect::GODOT_4;

/// What the Godot 4 test knows about a value beyond its bytes.
#[derive(Default)]
struct Notes {
    /// Why the engine's JSON route cannot give our bytes back (our JSON holds more).
    json_drops: Option<&'static str>,
}

type Case = support::cases::Case<Notes>;
type Cases = support::cases::Cases<Notes>;

impl Case {
    fn json_drops(&mut self, why: &'static str) -> &mut Case {
        self.notes.json_drops = Some(why);
        self
    }
}

fn v2(x: f64, y: f64) -> Vector2 {
    Vector2 { x, y }
}
fn v3(x: f64, y: f64, z: f64) -> Vector3 {
    Vector3 { x, y, z }
}
fn v4(x: f64, y: f64, z: f64, w: f64) -> Vector4 {
    Vector4 { x, y, z, w }
}

/// 2^-149, the smallest f32 subnormal.
const F32_MIN_SUBNORMAL: f64 = 1.401298464324817e-45;
const FLOAT_EDGE: [f64; 12] = [
    0.0,
    -0.0,
    0.5,
    0.1,
    1e300,
    5e-324,
    F32_MIN_SUBNORMAL,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
    f32::MAX as f64,
    -123456.75,
];
const REAL_EDGE: [f64; 6] = [1.5, -0.0, 0.1, f64::INFINITY, F32_MIN_SUBNORMAL, -1e20];
const STR_EDGE: [&str; 9] = [
    "",
    "a",
    "ab",
    "abc",
    "abcd",
    "h\u{e9}llo",
    "中🎮",
    "tab\t\"q\"\\ \n",
    "\u{7f}\u{1}",
];

fn every_type(w: &mut W<'_>) -> Res {
    w.nil()?;
    w.bool(true)?;
    w.int(-7)?;
    w.float(0.25)?;
    w.string("s")?;
    w.vector2(v2(1.0, 2.0))?;
    w.vector2i(Vector2i { x: 1, y: -2 })?;
    w.rect2(Rect2 {
        position: v2(1.0, 2.0),
        size: v2(3.0, 4.0),
    })?;
    w.rect2i(Rect2i {
        position: Vector2i { x: -1, y: 2 },
        size: Vector2i { x: 3, y: 4 },
    })?;
    w.vector3(v3(1.0, 2.0, 3.0))?;
    w.vector3i(Vector3i {
        x: i32::MIN,
        y: 0,
        z: i32::MAX,
    })?;
    w.transform2d(Transform2D {
        x: v2(1.0, 2.0),
        y: v2(3.0, 4.0),
        origin: v2(5.0, 6.0),
    })?;
    w.vector4(v4(1.0, -2.0, 3.5, 4.0))?;
    w.vector4i(Vector4i {
        x: 1,
        y: 2,
        z: 3,
        w: 4,
    })?;
    w.plane(Plane {
        normal: v3(0.0, 1.0, 0.0),
        d: 5.0,
    })?;
    w.quaternion(Quaternion {
        x: 0.1,
        y: 0.2,
        z: 0.3,
        w: 0.9,
    })?;
    w.aabb(Aabb {
        position: v3(1.0, 2.0, 3.0),
        size: v3(4.0, 5.0, 6.0),
    })?;
    w.basis(Basis::from_columns(
        v3(1.0, 2.0, 3.0),
        v3(4.0, 5.0, 6.0),
        v3(7.0, 8.0, 9.0),
    ))?;
    w.transform3d(Transform3D {
        basis: Basis::from_columns(v3(1.0, 0.0, 0.0), v3(0.0, 0.5, 0.0), v3(0.0, 0.0, 2.0)),
        origin: v3(7.0, 8.0, 9.0),
    })?;
    w.projection(Projection {
        columns: [
            v4(1.0, 2.0, 3.0, 4.0),
            v4(5.0, 6.0, 7.0, 8.0),
            v4(9.0, 10.0, 11.0, 12.0),
            v4(13.0, 14.0, 15.0, 16.0),
        ],
    })?;
    w.color(Color {
        r: 0.25,
        g: 0.5,
        b: 1.0,
        a: 0.75,
    })?;
    w.string_name("sn")?;
    w.node_path_str("/root/a:b")?;
    w.callable()?;
    w.begin_dictionary(1)?;
    w.string("k")?;
    w.int(1)?;
    w.begin_array(1)?;
    w.int(2)?;
    w.packed_bytes(&[1, 2, 3])?;
    w.packed_i32([1, -2])?;
    w.packed_i64([i64::MAX])?;
    w.packed_f32([0.5f32])?;
    w.packed_f64([0.1])?;
    w.packed_strings(["a", ""])?;
    w.packed_vector2([[1.0f32, 2.0]])?;
    w.packed_vector3([[1.0f32, 2.0, 3.0]])?;
    w.packed_color([[0.1f32, 0.2, 0.3, 1.0]])?;
    w.packed_vector4([[1.0f32, 2.0, 3.0, 4.0]])
}

const EVERY_TYPE_LEN: usize = 36;

fn values(precision: Precision) -> Cases {
    let mut c = Cases::new(G4).with_precision(precision);
    c.add("nil", |w| w.nil());
    c.add("true", |w| w.bool(true));
    c.add("false", |w| w.bool(false));
    for i in [
        0,
        -1,
        i32::MAX as i64,
        i32::MIN as i64,
        i32::MAX as i64 + 1,
        i32::MIN as i64 - 1,
        i64::MAX,
        i64::MIN,
    ] {
        c.add(format!("int_{i}"), move |w| w.int(i));
    }
    for (k, f) in FLOAT_EDGE.into_iter().enumerate() {
        c.add(format!("float_{k}"), move |w| w.float(f));
    }
    for (k, s) in STR_EDGE.into_iter().enumerate() {
        c.add(format!("string_{k}"), move |w| w.string(s));
        c.add(format!("string_name_{k}"), move |w| w.string_name(s));
    }
    for (k, p) in [
        "",
        "a/b",
        "/root/x:pos:x",
        "../c",
        ":position",
        "a:b:c",
        "/",
    ]
    .into_iter()
    .enumerate()
    {
        c.add(format!("node_path_{k}"), move |w| w.node_path_str(p));
    }
    // Found by the random run below: 4.6 prints no `:` for a single empty subname (two print
    // `::`), and no Godot 4 escapes `?`.
    c.add("node_path_one_empty_subname", |w| {
        w.node_path(&["a"], &[""], false)
    })
    .json_drops(EMPTY_PART);
    c.add("node_path_two_empty_subnames", |w| {
        w.node_path(&["a"], &["", ""], true)
    })
    .json_drops(EMPTY_PART);
    c.add("node_path_question_marks", |w| {
        w.node_path(&["a?", "'b'"], &["c?"], true)
    });
    c.add("string_name_question_mark", |w| w.string_name("a?b'"));
    c.add("packed_strings_question_marks", |w| {
        w.packed_strings(["?", "a??'", ""])
    });
    for (k, r) in REAL_EDGE.into_iter().enumerate() {
        c.add(format!("vector2_{k}"), move |w| w.vector2(v2(r, -r)));
        c.add(format!("vector3_{k}"), move |w| w.vector3(v3(r, 1.0, -r)));
        c.add(format!("vector4_{k}"), move |w| {
            w.vector4(v4(r, 0.0, 2.0, r))
        });
        c.add(format!("quaternion_{k}"), move |w| {
            w.quaternion(Quaternion {
                x: r,
                y: 0.0,
                z: 0.0,
                w: 1.0,
            })
        });
        c.add(format!("plane_{k}"), move |w| {
            w.plane(Plane {
                normal: v3(r, 0.0, 1.0),
                d: -r,
            })
        });
    }
    for (k, i) in [0, 1, -1, i32::MAX, i32::MIN].into_iter().enumerate() {
        c.add(format!("vector2i_{k}"), move |w| {
            w.vector2i(Vector2i {
                x: i,
                y: i.wrapping_neg(),
            })
        });
        c.add(format!("vector3i_{k}"), move |w| {
            w.vector3i(Vector3i { x: i, y: 0, z: 7 })
        });
        c.add(format!("vector4i_{k}"), move |w| {
            w.vector4i(Vector4i {
                x: i,
                y: i,
                z: 0,
                w: -3,
            })
        });
        c.add(format!("rect2i_{k}"), move |w| {
            w.rect2i(Rect2i {
                position: Vector2i { x: i, y: 1 },
                size: Vector2i { x: 2, y: i },
            })
        });
    }
    for (k, col) in [
        [0.0f32, 0.0, 0.0, 0.0],
        [0.1, 0.2, 0.3, 0.4],
        [-1.0, 2.0, f32::INFINITY, f32::MAX],
    ]
    .into_iter()
    .enumerate()
    {
        c.add(format!("color_{k}"), move |w| {
            w.color(Color {
                r: col[0],
                g: col[1],
                b: col[2],
                a: col[3],
            })
        });
    }
    c.add("rid_13", |w| w.rid(13)).json_drops(RID_ID);
    c.add("rid_0", |w| w.rid(0));
    c.add("signal", |w| w.signal("pressed", 1234))
        .json_drops(SIGNAL);
    c.add("signal_empty", |w| w.signal("", 0));
    c.add("callable", |w| w.callable());
    c.add_full("object_refcounted", |w| {
        w.begin_object("RefCounted", 1)?;
        w.property_name("script")?;
        w.nil()
    });
    c.add_full("object_null", |w| w.nil());
    c.add("every_type", |w| {
        w.begin_array(EVERY_TYPE_LEN)?;
        every_type(w)
    });
    c.add("array_empty", |w| w.begin_array(0));
    c.add("dict_empty", |w| w.begin_dictionary(0));
    c.add("dict_keys", |w| {
        w.begin_dictionary(5)?;
        w.string("a")?;
        w.int(1)?;
        w.int(2)?;
        w.string("b")?;
        w.vector2(v2(1.0, 2.0))?;
        w.begin_array(0)?;
        w.nil()?;
        w.begin_dictionary(0)?;
        w.string_name("sn")?;
        w.float(-0.0)
    });
    c.add("array_typed_int", |w| {
        w.begin_typed_array(3, ContainerTypeSpec::Builtin(VariantType::Int))?;
        w.int(1)?;
        w.int(i64::MIN)?;
        w.int(3)
    });
    c.add("array_typed_string_empty", |w| {
        w.begin_typed_array(0, ContainerTypeSpec::Builtin(VariantType::String))
    });
    c.add("array_typed_vector3", |w| {
        w.begin_typed_array(1, ContainerTypeSpec::Builtin(VariantType::Vector3))?;
        w.vector3(v3(1.0, 2.0, 3.0))
    });
    c.add_full("array_typed_class", |w| {
        w.begin_typed_array(0, ContainerTypeSpec::ClassName("Node"))
    });
    c.add_full("array_typed_class_item", |w| {
        w.begin_typed_array(1, ContainerTypeSpec::ClassName("RefCounted"))?;
        w.begin_object("RefCounted", 1)?;
        w.property_name("script")?;
        w.nil()
    });
    c.add("array_typed_class_as_id", |w| {
        w.begin_typed_array(0, ContainerTypeSpec::ClassName("Node"))
    });
    c.add_full("array_typed_script", |w| {
        w.begin_typed_array(0, ContainerTypeSpec::Script("res://typed_item.gd"))
    });
    c.add("dict_typed", |w| {
        w.begin_typed_dictionary(
            2,
            ContainerTypeSpec::Builtin(VariantType::String),
            ContainerTypeSpec::Builtin(VariantType::Int),
        )?;
        w.string("a")?;
        w.int(1)?;
        w.string("b")?;
        w.int(2)
    });
    c.add("dict_typed_key", |w| {
        w.begin_typed_dictionary(
            1,
            ContainerTypeSpec::Builtin(VariantType::Int),
            ContainerTypeSpec::Builtin(VariantType::Nil),
        )?;
        w.int(1)?;
        w.string("x")
    });
    c.add_full("dict_typed_class", |w| {
        w.begin_typed_dictionary(
            0,
            ContainerTypeSpec::Builtin(VariantType::StringName),
            ContainerTypeSpec::ClassName("Node"),
        )
    });
    // Packed arrays of lengths 0-5 with edge values.
    for n in 0..=5usize {
        let bytes: Vec<u8> = (0..n).map(|i| [0, 255, 128, 1, 127][i % 5]).collect();
        let b2 = bytes.clone();
        c.add(format!("packed_byte_{n}"), move |w| w.packed_bytes(&b2));
        c.add(format!("packed_int32_{n}"), move |w| {
            w.packed_i32((0..n).map(|i| [0, -1, i32::MAX, i32::MIN, 65536][i % 5]))
        });
        c.add(format!("packed_int64_{n}"), move |w| {
            w.packed_i64((0..n).map(|i| [0, -1, i64::MAX, i64::MIN, 1 << 40][i % 5]))
        });
        c.add(format!("packed_float32_{n}"), move |w| {
            w.packed_f32(
                (0..n).map(|i| [0.5f32, 0.1, -0.0, f32::INFINITY, f32::MIN_POSITIVE][i % 5]),
            )
        });
        c.add(format!("packed_float64_{n}"), move |w| {
            w.packed_f64((0..n).map(|i| [0.1, 1e300, -0.0, f64::NEG_INFINITY, 5e-324][i % 5]))
        });
        c.add(format!("packed_string_{n}"), move |w| {
            w.packed_strings((0..n).map(|i| STR_EDGE[i % STR_EDGE.len()]))
        });
        c.add(format!("packed_vector2_{n}"), move |w| {
            w.packed_vector2((0..n).map(|i| [i as f32, -0.5]))
        });
        c.add(format!("packed_vector3_{n}"), move |w| {
            w.packed_vector3((0..n).map(|i| [i as f32, 0.1, f32::INFINITY]))
        });
        c.add(format!("packed_color_{n}"), move |w| {
            w.packed_color((0..n).map(|i| [0.1 * i as f32, 0.2, 0.3, 1.0]))
        });
        c.add(format!("packed_vector4_{n}"), move |w| {
            w.packed_vector4((0..n).map(|i| [i as f32, 2.0, 3.0, -4.0]))
        });
    }
    // Large packed arrays: 1 MiB and more each.
    c.add("large_packed_byte_1mib", |w| {
        w.packed_bytes(
            &(0..1 << 20)
                .map(|i| (i * 7 % 251) as u8)
                .collect::<Vec<_>>(),
        )
    });
    c.add("large_packed_int32", |w| {
        w.packed_i32((0..1 << 18).map(|i| i * 3 - 7))
    });
    c.add("large_packed_float64", |w| {
        w.packed_f64((0..1 << 17).map(|i| i as f64 * 0.1))
    });
    c.add("large_packed_vector3", |w| {
        w.packed_vector3((0..90_000).map(|i| [i as f32, 0.5, -(i as f32)]))
    });
    c.add("large_packed_string", |w| {
        w.packed_strings((0..60_000).map(|i| STR_EDGE[i % STR_EDGE.len()]))
    });
    // Deep chains at the engine's depth limit: the leaf is at depth 1024.
    c.add("array_chain_1024", |w| {
        for _ in 0..1024 {
            w.begin_array(1)?;
        }
        w.int(7)
    });
    c.add("dict_chain_1024", |w| {
        for _ in 0..1024 {
            w.begin_dictionary(1)?;
            w.string("k")?;
        }
        w.string("leaf")
    });
    c.add("array_chain_256", |w| {
        for _ in 0..256 {
            w.begin_array(1)?;
        }
        w.nil()
    });
    c
}

const EMPTY_PART: &str = "NodePath with an empty part: the engine's JSON form is its text, which \
     cannot hold one (gdwire writes its parts, docs/json.md)";
const RID_ID: &str = "RID: the engine's JSON form has no id (gdwire adds \"id\")";
const SIGNAL: &str = "Signal: the engine's JSON form has no name or object id (gdwire adds them)";

/// Values whose JSON (exact in gdwire) the engine's JSON route cannot bring back.
fn json_known(name: &str) -> Option<&'static str> {
    const NON_FINITE: &str = "inf/-inf/nan components: gdwire writes \"inf\" strings, the \
                              engine's to_native reads a string component as 0";
    const PARSE: &str = "the engine's JSON number parser is not correctly rounded (reads \
                         5e-324 as 0, 3.4028234663852886e38 and some 17-digit values one ulp off)";
    match name {
        "vector2_3" | "vector3_3" | "vector4_3" | "quaternion_3" | "plane_3" | "color_2"
        | "packed_float32_4" | "packed_float32_5" | "packed_float64_4" | "packed_float64_5" => {
            Some(NON_FINITE)
        }
        _ if name.starts_with("packed_vector3_") && name != "packed_vector3_0" => Some(NON_FINITE),
        "float_5" | "float_10" | "large_packed_float64" => Some(PARSE),
        "dict_chain_1024" => Some(
            "2048 JSON levels (a Dictionary is two): deeper than the engine's JSON parser takes",
        ),
        "array_typed_class_as_id" => Some(
            "a class-typed Array without full objects: the engine's to_native refuses it \
             (null) unless allow_objects",
        ),
        _ => None,
    }
}

/// [`json_known`] for the double-precision build, which is a native x86-64 one.
fn json_known_double(name: &str) -> Option<&'static str> {
    match name {
        "every_type" | "packed_int64_3" | "packed_int64_4" | "packed_int64_5" => Some(
            "i64::MAX inside a PackedInt64Array: this native build's JSON.to_native reads it \
             as i64::MIN (the web build reads it exactly; a plain int reads exactly in both)",
        ),
        _ => json_known(name),
    }
}

/// The engine's bytes with the NodePath pad bytes zeroed: 4.6, like 3.2.3, leaves them
/// uninitialised.
/// (`support::node_path_pads` recurses: not for the deep chains, which hold no NodePath.)
fn zero_node_path_pads(bytes: &[u8], deep: bool) -> Vec<u8> {
    let mut out = bytes.to_vec();
    if deep {
        return out;
    }
    if let Ok(v) = Decoder::new(G4).with_allow_objects(true).decode(bytes) {
        let mut pads = Vec::new();
        support::node_path_pads(bytes, &v, &mut pads);
        for p in pads {
            out[p] = 0;
        }
    }
    out
}

const SCRIPT: &str = include_str!("godot4/interop.gd");
const ITEM: &[u8] = include_bytes!("godot4/typed_item.gd");

fn u32_at(b: &[u8], pos: &mut usize) -> u32 {
    let v = u32::from_le_bytes(b[*pos..*pos + 4].try_into().unwrap());
    *pos += 4;
    v
}

fn block<'a>(b: &'a [u8], pos: &mut usize) -> &'a [u8] {
    let n = u32_at(b, pos) as usize;
    let out = &b[*pos..*pos + n];
    *pos += n;
    out
}

#[test]
fn the_engine_reads_what_gdwire_writes() {
    let cases = values(Precision::Single);
    let (input, texts) = engine_input(&cases);
    let out = match godot4::run_gdscript_with(
        SCRIPT,
        &[("in.bin", &input), ("typed_item.gd", ITEM)],
        Duration::from_secs(180),
    ) {
        Ok(out) => out,
        Err(skip) => return skip.report("the_engine_reads_what_gdwire_writes"),
    };
    check_engine_output(&cases, &texts, &out, json_known);
}

/// The same values written in double precision (bit 16 and `f64` components on every real
/// math type and packed vector array), read by a double-precision 4.6.3 build
/// (tests/godot4/double/README.md). Skipped with a notice when that build is not there (CI
/// does not build it), whatever GDWIRE_REQUIRE_ENGINE says.
#[test]
fn a_double_precision_engine_reads_what_gdwire_writes_in_double_precision() {
    let engine = match godot4::double_engine() {
        Ok(engine) => engine,
        Err(skip) => {
            return skip
                .report("a_double_precision_engine_reads_what_gdwire_writes_in_double_precision")
        }
    };
    let cases = values(Precision::Double);
    let (input, texts) = engine_input(&cases);
    let out = godot4::run_native_with(
        &engine,
        SCRIPT,
        &[("in.bin", &input), ("typed_item.gd", ITEM)],
        Duration::from_secs(600),
    );
    check_engine_output(&cases, &texts, &out, json_known_double);
}

/// The same values in an older engine's dialect, read by that engine (`GODOT4_OLDER`,
/// tests/godot4/older/README.md; never built in CI, so skipped with a notice without it).
/// Each value is read from our 4.6 bytes and written again with `to_vec` for the engine's
/// version: typed containers become plain ones where the version has none, and values of
/// types it lacks (`PackedVector4Array` before 4.3) cannot be written and are left out. The
/// engine decodes every other one, re-encodes it to our exact bytes and prints our text form.
/// A double-precision build gets the values written in double precision.
#[test]
fn an_older_engine_reads_what_gdwire_writes_in_its_dialect() {
    let (engine, dialect, precision) = match godot4::older_engine() {
        Ok(engine) => engine,
        Err(skip) => return skip.report("an_older_engine_reads_what_gdwire_writes_in_its_dialect"),
    };
    let mut cases = Cases::new(dialect).with_precision(precision);
    let mut left_out = Vec::new();
    for case in values(precision).list {
        let value = Decoder::new(G4)
            .with_allow_objects(case.full)
            .decode_exact(&case.bytes)
            .unwrap();
        let mut bytes = Vec::new();
        let mut w = Writer::new(&mut bytes, dialect)
            .with_full_objects(case.full)
            .with_precision(precision);
        match w.value(&value).and_then(|()| w.finish()) {
            Ok(_) => cases.list.push(Case { bytes, ..case }),
            Err(_) => left_out.push(case.name),
        }
    }
    let (input, texts) = engine_input_in(dialect, &cases);
    let out = godot4::run_native_with(
        &engine,
        SCRIPT,
        &[("in.bin", &input), ("typed_item.gd", ITEM)],
        Duration::from_secs(600),
    );
    out.expect_success("tests/godot4/interop.gd");
    let back = &out.files["out.bin"];
    let mut pos = 0;
    let (mut failures, mut known) = (Vec::new(), 0);
    for (case, our_text) in cases.list.iter().zip(&texts) {
        let flags = u32_at(back, &mut pos);
        let deep = case.name.contains("chain");
        let reenc = zero_node_path_pads(block(back, &mut pos), deep);
        let text = block(back, &mut pos).to_vec();
        block(back, &mut pos); // the JSON route: none before 4.4
        if precision == Precision::Double
            && [Dialect::GODOT_4_0, Dialect::GODOT_4_1].contains(&dialect)
            && (case.name.starts_with("vector4_") || case.name.starts_with("projection"))
        {
            // These builds read our f64 components (bit 16 set) and write them back without
            // the bit (tests/godot4_double_fixtures.rs, `Engine::unreadable`).
            let mut want = case.bytes.clone();
            want[2] &= !1;
            if flags & 1 == 0 || reenc != want {
                failures.push(format!(
                    "{}: the engine re-encodes {}, not ours without bit 16",
                    case.name,
                    support::hex_of(&reenc)
                ));
            }
            known += 1;
            continue;
        }
        if let Some(why) = older_engine_changes(dialect, &case.name) {
            // The engine holds another value than the one sent: it must re-encode other bytes.
            if flags & 3 != 1 {
                failures.push(format!(
                    "{}: listed ({why}) but read back exactly",
                    case.name
                ));
            }
            known += 1;
            continue;
        }
        if flags & 1 == 0 {
            failures.push(format!(
                "{}: the engine could not decode our bytes",
                case.name
            ));
        } else if flags & 2 == 0 && reenc != case.bytes {
            failures.push(format!(
                "{}: the engine re-encodes {}, we wrote {}",
                case.name,
                support::hex_of(&reenc[..reenc.len().min(64)]),
                support::hex_of(&case.bytes[..case.bytes.len().min(64)])
            ));
        } else if flags & 4 == 0 && text != our_text.as_bytes() {
            failures.push(format!(
                "{}: var_to_str {:?}, ours {our_text:?}",
                case.name,
                String::from_utf8_lossy(&text)
            ));
        }
    }
    assert_eq!(pos, back.len(), "trailing output");
    support::assert_no_failures(&failures, "disagreements with the engine");
    eprintln!(
        "{} ({precision:?}): {} values read back exactly, {known} changed by the engine as \
         listed; left out (types it lacks): {left_out:?}",
        dialect.name(),
        cases.list.len() - known
    );
    assert!(cases.list.len() > 150, "{}", cases.list.len());
}

/// Seeded random values (`support::random_values`: every type the engine keeps as sent,
/// nested up to four containers deep, typed containers and edge values included), written by
/// gdwire (`Variant::to_vec`) and read by the engine: it must decode each one, re-encode it to
/// our exact bytes and print our text form. `GDWIRE_RANDOM_VALUES=COUNT[:SEED]` runs another
/// count or seed (a longer campaign).
#[test]
fn the_engine_reads_random_values_gdwire_writes() {
    let test = "the_engine_reads_random_values_gdwire_writes";
    random_values_read_back(Engine::Web, Precision::Single, test);
}

/// The text gdwire prints for seeded random values (as in
/// [`the_engine_reads_random_values_gdwire_writes`]), read back by the engine
/// (`tests/godot4/parse_back.gd`: `var_to_bytes(str_to_var(text))`) and by `text::parse`:
/// the same bytes (NodePath pads zeroed). The text loses what it cannot show (a Signal's name,
/// a NaN's payload, the parts of a NodePath whose names hold `/` or `:`); both readers must
/// lose it the same way. `GDWIRE_RANDOM_VALUES=COUNT[:SEED]` as there.
#[test]
fn the_engine_reads_the_text_of_random_values_as_gdwire_does() {
    let test = "the_engine_reads_the_text_of_random_values_as_gdwire_does";
    random_texts_read_back(Engine::Web, Precision::Single, test);
}

/// Both random runs with real math values of any `f64` components, written in double
/// precision (bit 16), read by a double-precision 4.6.3 build (tests/godot4/double/; skipped
/// with a notice when it is not built, as in CI).
#[test]
fn a_double_precision_engine_reads_random_values_as_gdwire_does() {
    let test = "a_double_precision_engine_reads_random_values_as_gdwire_does";
    let engine = match godot4::double_engine() {
        Ok(engine) => engine,
        Err(skip) => return skip.report(test),
    };
    random_values_read_back(Engine::Native(&engine), Precision::Double, test);
    random_texts_read_back(Engine::Native(&engine), Precision::Double, test);
}

/// Where a random run goes: the 4.6 web engine, or a native build.
#[derive(Clone, Copy)]
enum Engine<'a> {
    Web,
    Native(&'a std::path::Path),
}

/// Runs `script` with `files` in `engine`; `None` (the notice printed) when the web engine is
/// not there and not required.
fn run_random(
    engine: Engine<'_>,
    script: &str,
    files: &[(&str, &[u8])],
    test: &str,
) -> Option<godot4::Output> {
    let timeout = Duration::from_secs(1200);
    match engine {
        Engine::Native(path) => Some(godot4::run_native_with(path, script, files, timeout)),
        Engine::Web => match godot4::run_gdscript_with(script, files, timeout) {
            Ok(out) => Some(out),
            Err(skip) => {
                skip.report(test);
                None
            }
        },
    }
}

/// [`the_engine_reads_random_values_gdwire_writes`] in `engine`.
fn random_values_read_back(engine: Engine<'_>, precision: Precision, test: &str) {
    let (seed, values) = support::random_values::values(G4, precision);
    let mut input = Vec::new();
    let mut ours = Vec::new();
    for v in &values {
        let bytes = v.to_vec(G4).unwrap();
        let text = v.to_text(G4).unwrap();
        // Mode 0 (no objects); no JSON (an empty text: the engine's JSON route is not compared).
        input.push(0);
        for block in [&bytes[..], b"", text.as_bytes()] {
            input.extend((block.len() as u32).to_le_bytes());
            input.extend(block);
        }
        ours.push((bytes, text));
    }
    let files: &[(&str, &[u8])] = &[("in.bin", &input), ("typed_item.gd", ITEM)];
    let Some(out) = run_random(engine, SCRIPT, files, test) else {
        return;
    };
    out.expect_success("tests/godot4/interop.gd");
    let back = &out.files["out.bin"];
    let mut pos = 0;
    let mut failures = Vec::new();
    for (i, (bytes, text)) in ours.iter().enumerate() {
        let flags = u32_at(back, &mut pos);
        let reenc = zero_node_path_pads(block(back, &mut pos), false);
        let engine_text = String::from_utf8_lossy(block(back, &mut pos)).into_owned();
        block(back, &mut pos);
        let at = format!("value {i} (seed {seed}) {}", support::hex_of(bytes));
        if flags & 1 == 0 {
            failures.push(format!("{at}: the engine could not decode our bytes"));
        } else if flags & 2 == 0 && reenc != *bytes {
            failures.push(format!(
                "{at}: the engine re-encodes {}",
                support::hex_of(&reenc)
            ));
        } else if flags & 4 == 0 {
            failures.push(format!(
                "{at}: var_to_str {engine_text:?}, gdwire text {text:?}"
            ));
        }
    }
    assert_eq!(pos, back.len(), "trailing output");
    support::assert_no_failures(&failures, "disagreements with the engine");
    let size: usize = ours.iter().map(|(b, _)| b.len()).sum();
    eprintln!(
        "{} random values ({precision:?}, seed {seed}, {size} bytes) read back exactly",
        values.len()
    );
}

/// [`the_engine_reads_the_text_of_random_values_as_gdwire_does`] in `engine`.
fn random_texts_read_back(engine: Engine<'_>, precision: Precision, test: &str) {
    let (seed, values) = support::random_values::values(G4, precision);
    let mut input = Vec::new();
    let mut ours = Vec::new();
    for v in &values {
        let text = v.to_text(G4).unwrap();
        input.extend((text.len() as u32).to_le_bytes());
        input.extend(text.as_bytes());
        let parsed = support::random_values::parse(G4, precision, &text);
        ours.push((text, parsed));
    }
    let script = include_str!("godot4/parse_back.gd");
    let Some(out) = run_random(engine, script, &[("in.bin", &input)], test) else {
        return;
    };
    out.expect_success("tests/godot4/parse_back.gd");
    let done = format!("GDWIRE-PARSE-BACK-OK {}", values.len());
    assert!(out.stdout.lines().any(|l| l == done));
    let back = &out.files["out.bin"];
    let mut pos = 0;
    let mut failures = Vec::new();
    for (i, (text, parsed)) in ours.iter().enumerate() {
        let engine = zero_node_path_pads(block(back, &mut pos), false);
        let at = format!("value {i} (seed {seed}) {text:?}");
        match parsed {
            Ok(parsed) if *parsed == engine => {}
            Ok(parsed) => failures.push(format!(
                "{at}: the engine reads {}, gdwire {}",
                support::hex_of(&engine),
                support::hex_of(parsed)
            )),
            Err(e) => failures.push(format!(
                "{at}: gdwire cannot read it ({e}), the engine reads {}",
                support::hex_of(&engine)
            )),
        }
    }
    assert_eq!(pos, back.len(), "trailing output");
    support::assert_no_failures(&failures, "disagreements with the engine");
    eprintln!(
        "{} random values' text ({precision:?}, seed {seed}) read back as the engine reads it",
        values.len()
    );
}

/// Values an older engine reads as another value (so its bytes differ from ours), and why.
fn older_engine_changes(dialect: Dialect, name: &str) -> Option<&'static str> {
    match name {
        "node_path_6" if !dialect.keeps_empty_absolute_node_path() => {
            Some("NodePath(\"/\") reads as the empty path before 4.3")
        }
        "dict_keys" if !dialect.has_typed_dictionaries() => {
            Some("a StringName key is stored as a String before 4.4")
        }
        _ => None,
    }
}

/// interop.gd's input for `cases`, and gdwire's text form of each.
fn engine_input(cases: &Cases) -> (Vec<u8>, Vec<String>) {
    engine_input_in(G4, cases)
}

/// [`engine_input`] for bytes in `dialect`.
fn engine_input_in(dialect: Dialect, cases: &Cases) -> (Vec<u8>, Vec<String>) {
    let mut input = Vec::new();
    let mut texts = Vec::new();
    for case in &cases.list {
        let value = Decoder::new(dialect)
            .with_allow_objects(case.full)
            .decode_exact(&case.bytes)
            .unwrap_or_else(|e| panic!("{}: our own bytes do not decode: {e}", case.name));
        let json = gdwire::json::to_json_string(dialect, &value).unwrap();
        texts.push(gdwire::text::to_text(dialect, &value).unwrap());
        input.push(case.full as u8);
        input.extend((case.bytes.len() as u32).to_le_bytes());
        input.extend(&case.bytes);
        input.extend((json.len() as u32).to_le_bytes());
        input.extend(json.as_bytes());
        let text = texts.last().unwrap();
        input.extend((text.len() as u32).to_le_bytes());
        input.extend(text.as_bytes());
    }
    (input, texts)
}

/// Checks interop.gd's report on `cases` (see the module comment); `json_known` lists the
/// values whose JSON the engine's JSON route cannot bring back.
fn check_engine_output(
    cases: &Cases,
    texts: &[String],
    out: &godot4::Output,
    json_known: fn(&str) -> Option<&'static str>,
) {
    out.expect_success("tests/godot4/interop.gd");
    eprintln!("engine run: {:?}", out.elapsed);
    let expect_line = format!("GDWIRE-INTEROP-OK {}", cases.list.len());
    assert!(
        out.stdout.lines().any(|l| l == expect_line),
        "{}",
        out.stdout
    );
    let back = &out.files["out.bin"];
    let mut pos = 0;
    let mut failures = Vec::new();
    let (mut bytes_ok, mut text_ok, mut json_ok, mut json_dropped) = (0, 0, 0, 0);
    for (case, our_text) in cases.list.iter().zip(texts) {
        let flags = u32_at(back, &mut pos);
        // Each block is empty when the engine found it equal to ours (flag bits 1-3).
        let deep = case.name.contains("chain");
        let same = |bit: u32| flags & (2 << bit) != 0;
        let reenc = &if same(0) {
            case.bytes.clone()
        } else {
            zero_node_path_pads(block(back, &mut pos), deep)
        };
        if same(0) {
            block(back, &mut pos);
        }
        let text = if same(1) {
            block(back, &mut pos);
            our_text.as_str()
        } else {
            std::str::from_utf8(block(back, &mut pos)).unwrap()
        };
        let jreenc = &if same(2) {
            block(back, &mut pos);
            case.bytes.clone()
        } else {
            zero_node_path_pads(block(back, &mut pos), deep)
        };
        let name = &case.name;
        if flags & 1 == 0 {
            failures.push(format!("{name}: the engine could not decode our bytes"));
            continue;
        }
        if *reenc == case.bytes {
            bytes_ok += 1;
        } else {
            failures.push(format!(
                "{name}: engine re-encodes {} bytes {}..., we wrote {} bytes {}...",
                reenc.len(),
                support::hex_of(&reenc[..reenc.len().min(64)]),
                case.bytes.len(),
                support::hex_of(&case.bytes[..case.bytes.len().min(64)])
            ));
        }
        if text == our_text {
            text_ok += 1;
        } else {
            let at = text
                .bytes()
                .zip(our_text.bytes())
                .take_while(|(a, b)| a == b)
                .count();
            let from = at.saturating_sub(40);
            let cut = |s: &str| {
                String::from_utf8_lossy(&s.as_bytes()[from.min(s.len())..(at + 60).min(s.len())])
                    .into_owned()
            };
            failures.push(format!(
                "{name}: var_to_str ({} bytes) differs at byte {at}: ...{:?}, gdwire text ({} bytes) ...{:?}",
                text.len(),
                cut(text),
                our_text.len(),
                cut(our_text)
            ));
        }
        match (
            *jreenc == case.bytes,
            case.notes.json_drops.or(json_known(name)),
        ) {
            (true, None) => json_ok += 1,
            (false, Some(_)) => json_dropped += 1,
            (same, drops) => failures.push(format!(
                "{name}: JSON route gives {} ({}), expected {} (known: {drops:?})",
                if same { "our bytes" } else { "other bytes" },
                {
                    let at = jreenc
                        .iter()
                        .zip(&case.bytes)
                        .take_while(|(a, b)| a == b)
                        .count();
                    format!(
                        "differs at {at}: {} vs ours {}",
                        support::hex_of(&jreenc[at.saturating_sub(8)..(at + 16).min(jreenc.len())]),
                        support::hex_of(
                            &case.bytes[at.saturating_sub(8)..(at + 16).min(case.bytes.len())]
                        )
                    )
                },
                if same { "other bytes" } else { "our bytes" },
            )),
        }
    }
    assert_eq!(pos, back.len(), "trailing output");
    support::assert_no_failures(&failures, "disagreements with the engine");
    eprintln!(
        "{} values: bytes {bytes_ok}, text {text_ok}, \
         JSON {json_ok} (+{json_dropped} the engine's JSON route cannot bring back)",
        cases.list.len()
    );
}
