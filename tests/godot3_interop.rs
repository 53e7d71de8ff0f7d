//! Live interop with a real Godot 3.2.3 engine (`godot3-server`, see `tests/godot3/README.md`).
//!
//! Values written by this crate's [`Writer`] for [`Dialect::GODOT_3`] (every Godot 3 type and
//! the edge values) go into one file, each preceded by its `u32` LE length (the
//! `File.store_var` layout). `tests/godot3/interop.gd` runs in the engine, decodes each one
//! (allowing objects; decode errors are read from the engine's stderr like the fixture
//! generator does) and reports, per value, its own `var2bytes` of what it decoded, `var2str`
//! and the exact description (`describe()`, README "DESC"). For each value this test asserts
//! that
//!
//! * the engine decoded it without error;
//! * the engine's `var2bytes` of the decoded value equals the bytes we wrote, byte for byte,
//!   after zeroing the NodePath pad bytes on the engine side (3.2.3 leaves them
//!   uninitialised), with two mechanical substitutions where 3.2.3 itself cannot round-trip:
//!   an object id comes back as the id of the engine's `EncodedObjectAsID` wrapper (reported
//!   by the script and substituted into the expected bytes; the id the engine decoded is
//!   checked through its description), and a few documented cases where the engine
//!   normalises the value (`engine_writes`);
//! * the engine's description matches our own decoded view of the bytes (`support::check`).
//!
//! The `var2str` text of every value is stored in `<target>/tmp/godot3_interop.jsonl` next to
//! our hex (for the text-output comparison to come).
//!
//! Without `godot3-server` (or `GODOT3_SERVER=/path/to/binary`) the test checks the values
//! against our own reader only, prints why the engine part was skipped and passes; with
//! `GDWIRE_REQUIRE_ENGINE=1` (CI, `.ci/test`) a missing engine fails it.

mod support;

use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;

use gdwire::math::{
    Aabb, Basis, Color, Plane, Quaternion, Rect2, Transform2D, Transform3D, Vector2, Vector3,
};
use gdwire::write::Endian;
use gdwire::{Decoder, Dialect, ObjectRef, Precision, VariantRef, VariantType, Writer};
use serde_json::Value;
use support::{check, node_path_pads, Objects};

type W<'a> = Writer<&'a mut Vec<u8>>;
type Res = gdwire::Result<()>;

/// The engine run is killed after this long.
const ENGINE_TIMEOUT: Duration = Duration::from_secs(60);
const REPORT: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/godot3_interop.jsonl");

// ----- the values ----------------------------------------------------------------------------

/// What the Godot 3 test knows about a value beyond its bytes.
struct Notes {
    objects: Objects,
    /// What the engine's `var2bytes` gives instead of `bytes`, and why.
    engine_writes: Option<(Vec<u8>, &'static str)>,
}

impl Default for Notes {
    fn default() -> Self {
        Notes {
            objects: Objects::WireEqualsDesc,
            engine_writes: None,
        }
    }
}

type Case = support::cases::Case<Notes>;

impl Case {
    /// The engine legitimately re-encodes this value differently.
    fn engine_writes(&mut self, bytes: Vec<u8>, why: &'static str) -> &mut Case {
        self.notes.engine_writes = Some((bytes, why));
        self
    }

    /// The engine fills in the class's stored properties: compare the class only.
    fn class_only(&mut self) -> &mut Case {
        self.notes.objects = Objects::ClassOnly;
        self
    }
}

fn enc(full: bool, f: impl FnOnce(&mut W<'_>) -> Res) -> gdwire::Result<Vec<u8>> {
    support::written(Dialect::GODOT_3, full, f)
}

fn v2(x: f64, y: f64) -> Vector2 {
    Vector2 { x, y }
}

fn v3(x: f64, y: f64, z: f64) -> Vector3 {
    Vector3 { x, y, z }
}

fn color(r: f32, g: f32, b: f32, a: f32) -> Color {
    Color { r, g, b, a }
}

fn basis_1_to_9() -> Basis {
    Basis::from_columns(v3(1.0, 2.0, 3.0), v3(4.0, 5.0, 6.0), v3(7.0, 8.0, 9.0))
}

fn basis_frac() -> Basis {
    Basis::from_columns(
        v3(-0.5, 0.1, 2.0),
        v3(0.0, -1.0, 0.25),
        v3(3.5, -7.0, 0.125),
    )
}

/// 2^-149, the smallest f32 subnormal.
const F32_MIN_SUBNORMAL: f64 = 1.401298464324817e-45;

const BYTES_EDGE: [u8; 9] = [0, 255, 128, 1, 127, 254, 2, 3, 4];
const INT_EDGE: [i32; 5] = [0, -1, i32::MAX, i32::MIN, 65536];
const STR_EDGE: [&str; 5] = ["", "a", "ab", "abc", "中🎮"];

fn real_edge() -> [f32; 5] {
    [0.5, 0.1, -0.0, f32::INFINITY, f32::NAN]
}

fn v2_edge() -> [[f64; 2]; 5] {
    [
        [1.0, 2.0],
        [-0.5, 0.1],
        [f64::INFINITY, f64::NEG_INFINITY],
        [0.0, -0.0],
        [3.25, -1e20],
    ]
}

fn v3_edge() -> [[f64; 3]; 5] {
    [
        [1.0, 2.0, 3.0],
        [-0.5, 0.1, 0.0],
        [f64::INFINITY, f64::NEG_INFINITY, F32_MIN_SUBNORMAL],
        [f64::NAN, -0.0, 1e39],
        [4.0, 5.0, 6.0],
    ]
}

fn color_edge() -> [[f32; 4]; 5] {
    [
        [1.0, 0.0, 0.0, 1.0],
        [0.1, 0.2, 0.3, 0.4],
        [-1.0, 2.0, 0.5, 0.0],
        [f32::INFINITY, f32::NAN, -0.0, f32::MAX],
        [1.0, 1.0, 1.0, 1.0],
    ]
}

/// One of every Godot 3 type except Object, as array items.
fn every_type(w: &mut W<'_>) -> Res {
    w.nil()?;
    w.bool(true)?;
    w.int(-7)?;
    w.float(0.5)?;
    w.string("s")?;
    w.vector2(v2(1.0, 2.0))?;
    w.rect2(Rect2 {
        position: v2(1.0, 2.0),
        size: v2(3.0, 4.0),
    })?;
    w.vector3(v3(1.0, 2.0, 3.0))?;
    w.transform2d(Transform2D {
        x: v2(1.0, 2.0),
        y: v2(3.0, 4.0),
        origin: v2(5.0, 6.0),
    })?;
    w.plane(Plane {
        normal: v3(1.0, 2.0, 3.0),
        d: 4.0,
    })?;
    w.quaternion(Quaternion {
        x: 1.0,
        y: 2.0,
        z: 3.0,
        w: 4.0,
    })?;
    w.aabb(Aabb {
        position: v3(1.0, 2.0, 3.0),
        size: v3(4.0, 5.0, 6.0),
    })?;
    w.basis(basis_1_to_9())?;
    w.transform3d(Transform3D {
        basis: basis_1_to_9(),
        origin: v3(10.0, 11.0, 12.0),
    })?;
    w.color(color(0.1, 0.2, 0.3, 0.4))?;
    w.node_path_str("/root/a:b")?;
    w.rid(0)?;
    w.begin_dictionary(1)?;
    w.string("k")?;
    w.int(1)?;
    w.begin_array(1)?;
    w.int(1)?;
    w.packed_bytes(&[1, 2, 3])?;
    w.packed_i32([1, -2, 3])?;
    w.packed_f32([0.5f32, -0.0, 0.1])?;
    w.packed_strings(["a", "", "é"])?;
    w.packed_vector2([[1.0f64, 2.0], [3.0, 4.0]])?;
    w.packed_vector3([[1.0f64, 2.0, 3.0]])?;
    w.packed_color([[0.0f32, 0.5, 1.0, 1.0]])
}
const EVERY_TYPE_LEN: usize = 26;

/// Reference: its only stored property is `script` (null, written as Nil).
fn full_reference(w: &mut W<'_>) -> Res {
    w.begin_object("Reference", 1)?;
    w.property_name("script")?;
    w.nil()
}

fn cases() -> Vec<Case> {
    let mut c = support::cases::Cases::new(Dialect::GODOT_3);

    c.add("nil", |w| w.nil());
    c.add("bool_true", |w| w.bool(true));
    c.add("bool_false", |w| w.bool(false));

    let ints: [(&str, i64); 16] = [
        ("0", 0),
        ("1", 1),
        ("neg1", -1),
        ("255", 255),
        ("0x12345678", 0x1234_5678),
        ("i32_max", i32::MAX as i64),
        ("2p31", 1 << 31),
        ("i32_min", i32::MIN as i64),
        ("i32_min_minus1", i32::MIN as i64 - 1),
        ("2p32", 1 << 32),
        ("neg_2p32", -(1 << 32)),
        ("2p53_plus1", (1 << 53) + 1),
        ("i64_max", i64::MAX),
        ("i64_min", i64::MIN),
        ("i64_min_plus1", i64::MIN + 1),
        ("0xf123456789abcdef", 0xf123_4567_89ab_cdef_u64 as i64),
    ];
    for (name, v) in ints {
        c.add(format!("int_{name}"), |w| w.int(v));
    }

    let floats: [(&str, f64); 23] = [
        ("0", 0.0),
        ("neg0", -0.0),
        ("1", 1.0),
        ("0_5", 0.5),
        ("neg1_5", -1.5),
        ("0_1", 0.1),
        ("0_1_as_f32", 0.1f32 as f64),
        ("1_3", 1.0 / 3.0),
        ("inf", f64::INFINITY),
        ("neg_inf", f64::NEG_INFINITY),
        ("nan", f64::NAN),
        (
            "nan_negative_payload",
            f64::from_bits(0xfff8_0000_0000_0001),
        ),
        ("f32_min_subnormal", F32_MIN_SUBNORMAL),
        ("f32_min_normal", f32::MIN_POSITIVE as f64),
        ("f64_min_subnormal", f64::from_bits(1)),
        ("f64_min_normal", f64::MIN_POSITIVE),
        ("1e39", 1e39),
        ("f32_max", f32::MAX as f64),
        (
            "f32_max_next_double",
            f64::from_bits((f32::MAX as f64).to_bits() + 1),
        ),
        ("f64_max", f64::MAX),
        ("neg_f64_max", f64::MIN),
        ("2p24_plus1", 16_777_217.0),
        ("1e_45", 1e-45),
    ];
    for (name, v) in floats {
        c.add(format!("float_{name}"), |w| w.float(v));
    }

    for n in 0..=8 {
        let s = &"abcdefgh"[..n];
        c.add(format!("string_len{n}"), |w| w.string(s));
    }
    let strings: [(&str, String); 9] = [
        ("e_acute", "é".into()),
        ("zhong", "中".into()),
        ("gamepad_emoji", "🎮".into()),
        ("utf8_1_2_3_4", "aé中🎮".into()),
        ("utf8_mixed", "héllo 中文 🎮".into()),
        ("escapes", "line1\nline2\t\"quoted\" back\\slash".into()),
        ("control_chars", "a\u{1}\u{1f}\u{7f}z".into()),
        ("len370", "0123456789".repeat(37)),
        ("emoji_len4k", "🎮".repeat(1000)),
    ];
    for (name, s) in &strings {
        c.add(format!("string_{name}"), |w| w.string(s));
    }

    // math types, distinct components
    c.add("vector2_zero", |w| w.vector2(v2(0.0, 0.0)));
    c.add("vector2_1_5_neg2_25", |w| w.vector2(v2(1.5, -2.25)));
    c.add("vector2_frac_neg", |w| w.vector2(v2(-1.5, 0.1)));
    c.add("rect2_1_2_3_4", |w| {
        w.rect2(Rect2 {
            position: v2(1.0, 2.0),
            size: v2(3.0, 4.0),
        })
    });
    c.add("rect2_frac_neg", |w| {
        w.rect2(Rect2 {
            position: v2(-0.5, 2.25),
            size: v2(0.1, -100.0),
        })
    });
    c.add("vector3_1_2_3", |w| w.vector3(v3(1.0, 2.0, 3.0)));
    c.add("vector3_frac_neg", |w| w.vector3(v3(-0.5, 0.1, 1e10)));
    c.add("vector3_inf_nan", |w| {
        w.vector3(v3(f64::INFINITY, f64::NEG_INFINITY, f64::NAN))
    });
    c.add("vector3_neg0_subnormal_1e39", |w| {
        w.vector3(v3(-0.0, F32_MIN_SUBNORMAL, 1e39))
    });
    c.add("transform2d_1_to_6", |w| {
        w.transform2d(Transform2D {
            x: v2(1.0, 2.0),
            y: v2(3.0, 4.0),
            origin: v2(5.0, 6.0),
        })
    });
    c.add("transform2d_frac_neg", |w| {
        w.transform2d(Transform2D {
            x: v2(-0.5, 0.25),
            y: v2(0.1, -3.0),
            origin: v2(-7.75, 100.5),
        })
    });
    c.add("plane_1_2_3_4", |w| {
        w.plane(Plane {
            normal: v3(1.0, 2.0, 3.0),
            d: 4.0,
        })
    });
    c.add("plane_frac_neg", |w| {
        w.plane(Plane {
            normal: v3(0.0, -1.0, 0.5),
            d: -2.5,
        })
    });
    c.add("quat_1_2_3_4", |w| {
        w.quaternion(Quaternion {
            x: 1.0,
            y: 2.0,
            z: 3.0,
            w: 4.0,
        })
    });
    c.add("quat_frac_neg", |w| {
        w.quaternion(Quaternion {
            x: 0.1,
            y: -0.2,
            z: 0.3,
            w: -0.9,
        })
    });
    c.add("aabb_1_to_6", |w| {
        w.aabb(Aabb {
            position: v3(1.0, 2.0, 3.0),
            size: v3(4.0, 5.0, 6.0),
        })
    });
    c.add("aabb_frac_neg", |w| {
        w.aabb(Aabb {
            position: v3(-1.5, -2.5, 0.1),
            size: v3(0.5, 0.25, 1e-3),
        })
    });
    c.add("basis_columns_1_to_9", |w| w.basis(basis_1_to_9()));
    c.add("basis_identity", |w| {
        w.basis(Basis::from_columns(
            v3(1.0, 0.0, 0.0),
            v3(0.0, 1.0, 0.0),
            v3(0.0, 0.0, 1.0),
        ))
    });
    c.add("basis_frac_neg", |w| w.basis(basis_frac()));
    c.add("transform_1_to_12", |w| {
        w.transform3d(Transform3D {
            basis: basis_1_to_9(),
            origin: v3(10.0, 11.0, 12.0),
        })
    });
    c.add("transform_frac_neg", |w| {
        w.transform3d(Transform3D {
            basis: basis_frac(),
            origin: v3(-1.5, 0.1, 1000.0),
        })
    });
    c.add("color_0_1_to_0_4", |w| w.color(color(0.1, 0.2, 0.3, 0.4)));
    c.add("color_red", |w| w.color(color(1.0, 0.0, 0.0, 1.0)));
    c.add("color_out_of_range", |w| {
        w.color(color(-1.0, 2.5, 0.5, 0.0))
    });
    c.add("color_inf_nan", |w| {
        w.color(color(f32::INFINITY, f32::NAN, -0.0, f32::MAX))
    });

    // NodePaths, from text and from parts
    let paths: [(&str, &str); 9] = [
        ("empty", ""),
        ("a", "a"),
        ("root_a_b", "/root/a:b"),
        ("a_b_c_d", "a/b:c:d"),
        ("parent_x", "../x"),
        ("prop_only", ":prop"),
        ("dot", "."),
        ("len4_names", "abcd/efgh:ijkl"),
        ("utf8", "é/中:🎮"),
    ];
    for (name, p) in paths {
        c.add(format!("nodepath_str_{name}"), |w| w.node_path_str(p));
    }
    let empty: [&str; 0] = [];
    c.add("nodepath_parts_root_a_b", |w| {
        w.node_path(&["root", "a"], &["b"], true)
    });
    c.add("nodepath_parts_relative_subnames", |w| {
        w.node_path(&["a", "bcd", "efghi"], &["x", "yz"], false)
    });
    c.add("nodepath_parts_subnames_only", |w| {
        w.node_path(&empty, &["position", "x"], false)
    });
    c.add("nodepath_parts_absolute_long", |w| {
        w.node_path(&["root", "World", "Player", "Camera2D"], &empty, true)
    });
    // NodePath("/"): absolute with no names; the engine decodes it as relative.
    let relative_empty = enc(false, |w| w.node_path(&empty, &empty, false)).unwrap();
    c.add("nodepath_str_slash", |w| w.node_path_str("/"))
        .engine_writes(
            relative_empty.clone(),
            "a NodePath without names decodes as relative",
        );
    c.add("nodepath_parts_absolute_empty", |w| {
        w.node_path(&empty, &empty, true)
    })
    .engine_writes(
        relative_empty,
        "a NodePath without names decodes as relative",
    );

    // RID: a bare header in Godot 3 (the id is dropped)
    c.add("rid_0", |w| w.rid(0));
    c.add("rid_id_dropped", |w| w.rid(0x1234_5678_9abc));

    // objects by id
    for (name, id) in [
        ("1", 1u64),
        ("12345", 12345),
        ("2p32", 1 << 32),
        ("2p63", 1 << 63),
        ("u64_max", u64::MAX),
    ] {
        c.add(format!("object_id_{name}"), |w| w.object_id(id));
    }
    c.add("object_id_0_is_nil", |w| w.object_id(0));
    c.add("array_of_object_ids", |w| {
        w.begin_array(4)?;
        w.object_id(7)?;
        w.object_id(7)?;
        w.object_id(0)?;
        w.object_id(8)
    });
    c.add("dictionary_object_id_key_and_value", |w| {
        w.begin_dictionary(2)?;
        w.object_id(9)?;
        w.string("id key")?;
        w.string("id value")?;
        w.object_id(10)
    });

    // full objects
    c.add_full("object_full_reference", full_reference);
    let reference_bytes = enc(true, full_reference).unwrap();
    c.add_full("object_full_reference_no_props", |w| {
        w.begin_object("Reference", 0)
    })
    .class_only()
    .engine_writes(
        reference_bytes,
        "the engine writes every stored property of the object it made (here `script`)",
    );
    c.add_full("object_full_node", |w| {
        w.begin_object("Node", 5)?;
        w.property_name("_import_path")?;
        w.node_path_str("res/x:y")?;
        w.property_name("pause_mode")?;
        w.int(2)?;
        w.property_name("process_priority")?;
        w.int(-3)?;
        w.property_name("script")?;
        w.nil()?;
        w.property_name("__meta__")?;
        w.begin_dictionary(2)?;
        w.string("answer")?;
        w.int(42)?;
        w.string("label")?;
        w.string("hi")
    });
    c.add_full("object_full_gradient", |w| {
        w.begin_object("Gradient", 5)?;
        w.property_name("resource_local_to_scene")?;
        w.bool(true)?;
        w.property_name("resource_name")?;
        w.string("ramp")?;
        w.property_name("offsets")?;
        w.packed_f32([0.0f32, 0.25, 1.0])?;
        w.property_name("colors")?;
        w.packed_color([
            [1.0f32, 0.0, 0.0, 1.0],
            [0.0, 1.0, 0.0, 0.5],
            [0.0, 0.0, 1.0, 0.0],
        ])?;
        w.property_name("script")?;
        w.nil()
    });
    c.add_full("dictionary_object_full", |w| {
        w.begin_dictionary(2)?;
        w.string("ref")?;
        full_reference(w)?;
        w.string("n")?;
        w.int(1)
    });
    c.add_full("array_object_full", |w| {
        w.begin_array(3)?;
        full_reference(w)?;
        w.nil()?;
        full_reference(w)
    });

    // dictionaries
    c.add("dictionary_empty", |w| w.begin_dictionary(0));
    c.add("dictionary_a_1", |w| {
        w.begin_dictionary(1)?;
        w.string("a")?;
        w.int(1)
    });
    c.add("dictionary_insertion_order", |w| {
        w.begin_dictionary(3)?;
        for (i, k) in ["zebra", "apple", "mango"].iter().enumerate() {
            w.string(k)?;
            w.int(i as i64 + 1)?;
        }
        Ok(())
    });
    c.add("dictionary_mixed_keys", |w| {
        w.begin_dictionary(9)?;
        w.int(1)?;
        w.string("int one")?;
        w.string("1")?;
        w.string("string one")?;
        w.float(1.0)?;
        w.string("float one")?;
        w.float(1.5)?;
        w.string("float")?;
        w.vector2(v2(1.0, 2.0))?;
        w.string("vector2")?;
        w.nil()?;
        w.string("nil key")?;
        w.bool(true)?;
        w.bool(false)?;
        w.begin_array(2)?;
        w.int(1)?;
        w.int(2)?;
        w.string("array key")?;
        w.int(i64::MIN)?;
        w.string("int64 key")
    });
    c.add("dictionary_int_keys", |w| {
        w.begin_dictionary(3)?;
        w.int(0)?;
        w.string("zero")?;
        w.int(-1)?;
        w.string("minus one")?;
        w.int(1 << 31)?;
        w.string("big")
    });
    c.add("dictionary_nested", |w| {
        w.begin_dictionary(2)?;
        w.string("a")?;
        w.begin_dictionary(1)?;
        w.string("b")?;
        w.begin_dictionary(1)?;
        w.string("c")?;
        w.begin_array(3)?;
        w.int(1)?;
        w.int(2)?;
        w.begin_dictionary(1)?;
        w.string("d")?;
        w.nil()?;
        w.string("e")?;
        w.begin_array(0)
    });
    c.add("dictionary_of_empty_containers", |w| {
        w.begin_dictionary(3)?;
        w.string("d")?;
        w.begin_dictionary(0)?;
        w.string("a")?;
        w.begin_array(0)?;
        w.begin_dictionary(0)?; // an empty dictionary as a key
        w.begin_array(0)
    });
    c.add("dictionary_chain_200", |w| {
        for _ in 0..200 {
            w.begin_dictionary(1)?;
            w.string("k")?;
        }
        w.int(42)
    });

    // arrays
    c.add("array_empty", |w| w.begin_array(0));
    c.add("array_1_a", |w| {
        w.begin_array(2)?;
        w.int(1)?;
        w.string("a")
    });
    c.add("array_nested_3", |w| {
        w.begin_array(1)?;
        w.begin_array(1)?;
        w.begin_array(1)?;
        w.int(1)
    });
    c.add("array_nested_empty_4", |w| {
        w.begin_array(1)?;
        w.begin_array(1)?;
        w.begin_array(1)?;
        w.begin_array(0)
    });
    c.add("array_chain_300", |w| {
        for _ in 0..300 {
            w.begin_array(1)?;
        }
        w.string("leaf")
    });
    c.add("array_of_strings_pad", |w| {
        w.begin_array(5)?;
        for s in ["", "a", "ab", "abc", "abcd"] {
            w.string(s)?;
        }
        Ok(())
    });
    c.add("array_every_type", |w| {
        w.begin_array(EVERY_TYPE_LEN)?;
        every_type(w)
    });
    c.add("array_every_type_twice_nested", |w| {
        w.begin_array(2)?;
        w.begin_array(EVERY_TYPE_LEN)?;
        every_type(w)?;
        w.begin_dictionary(1)?;
        w.string("all")?;
        w.begin_array(EVERY_TYPE_LEN)?;
        every_type(w)
    });
    c.add("array_byte_arrays_of_every_pad", |w| {
        w.begin_array(5)?;
        for n in 0..4 {
            w.packed_bytes(&BYTES_EDGE[..n + 1])?;
        }
        w.int(5)
    });

    // packed arrays, lengths 0..5 (bytes 0..9)
    for n in 0..=BYTES_EDGE.len() {
        c.add(format!("pool_byte_array_len{n}"), |w| {
            w.packed_bytes(&BYTES_EDGE[..n])
        });
    }
    for n in 0..=5 {
        c.add(format!("pool_int_array_len{n}"), |w| {
            w.packed_i32(INT_EDGE.iter().take(n))
        });
        c.add(format!("pool_real_array_len{n}"), |w| {
            w.packed_f32(real_edge().into_iter().take(n))
        });
        c.add(format!("pool_string_array_len{n}"), |w| {
            w.packed_strings(STR_EDGE.iter().take(n))
        });
        c.add(format!("pool_vector2_array_len{n}"), |w| {
            w.packed_vector2(v2_edge().into_iter().take(n))
        });
        c.add(format!("pool_vector3_array_len{n}"), |w| {
            w.packed_vector3(v3_edge().into_iter().take(n))
        });
        c.add(format!("pool_color_array_len{n}"), |w| {
            w.packed_color(color_edge().into_iter().take(n))
        });
    }
    c.add("pool_real_array_f32_extremes", |w| {
        w.packed_f32([
            f32::NEG_INFINITY,
            f32::MAX,
            f32::MIN_POSITIVE,
            F32_MIN_SUBNORMAL as f32,
            16_777_216.0,
            -f32::MAX,
        ])
    });
    c.add("pool_real_array_nan_payloads", |w| {
        w.packed_f32([f32::from_bits(0x7fc0_0001), f32::from_bits(0xffc0_0000)])
    });
    c.add("pool_int_array_extremes", |w| {
        w.packed_i32([i32::MIN, i32::MIN + 1, -65536, i32::MAX - 1, i32::MAX])
    });
    c.add("pool_string_array_utf8_and_pads", |w| {
        w.packed_strings(["abcdefg", "abcdefgh", "é", "🎮🎮", "line\nbreak", "", ""])
    });
    c.add("pool_vector2_array_f64_input_rounded", |w| {
        w.packed_vector2([[0.1f64, 1.0 / 3.0], [1e-50, 1e50]])
    });

    // large
    c.add("pool_vector3_array_100k", |w| {
        w.packed_vector3((0..100_000).map(|i| {
            let a = i as f32 * 0.25;
            [a, (i % 7) as f32 * 0.375 - 1.0, -a * 0.5]
        }))
    });
    let blob: Vec<u8> = (0..100_003u32).map(|i| (i * 37 + 11) as u8).collect();
    c.add("pool_byte_array_100003", |w| w.packed_bytes(&blob));

    c.list
}

// ----- comparison ----------------------------------------------------------------------------

fn hex_str(b: &[u8]) -> String {
    b.iter().map(|b| format!("{b:02x}")).collect()
}

fn decoder() -> Decoder {
    Decoder::new(Dialect::GODOT_3).with_allow_objects(true)
}

/// Every type that occurs anywhere in `v` (keys, items, properties included).
fn types_in(v: VariantRef<'_>, out: &mut BTreeSet<&'static str>) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        out.insert(v.variant_type().name());
        match v {
            VariantRef::Array(a) => stack.extend(a.iter()),
            VariantRef::Dictionary(d) => {
                for e in d.iter() {
                    let (k, v) = e;
                    stack.extend([k, v]);
                }
            }
            VariantRef::Object(ObjectRef::Full(o)) => stack.extend(o.properties().map(|p| p.1)),
            _ => {}
        }
    }
}

/// The object ids in `v`, depth first (the order `interop.gd` reports them in).
fn ids_in(v: &VariantRef<'_>, out: &mut Vec<u64>) {
    match v {
        VariantRef::Object(ObjectRef::Id(id)) => out.push(*id),
        VariantRef::Array(a) => a.iter().for_each(|item| ids_in(&item, out)),
        VariantRef::Dictionary(d) => {
            for entry in d.iter() {
                let (k, v) = entry;
                ids_in(&k, out);
                ids_in(&v, out);
            }
        }
        VariantRef::Object(ObjectRef::Full(o)) => o.properties().for_each(|p| ids_in(&p.1, out)),
        _ => {}
    }
}

/// Re-writes `v` with its object ids replaced, in order, by `ids`.
fn substitute_ids(w: &mut W<'_>, v: &VariantRef<'_>, ids: &mut impl Iterator<Item = u64>) -> Res {
    match v {
        VariantRef::Object(ObjectRef::Id(_)) => w.object_id(ids.next().unwrap()),
        VariantRef::Array(a) => {
            w.begin_array(a.len())?;
            for item in a.iter() {
                substitute_ids(w, &item, ids)?;
            }
            Ok(())
        }
        VariantRef::Dictionary(d) => {
            w.begin_dictionary(d.len())?;
            for entry in d.iter() {
                let (k, v) = entry;
                substitute_ids(w, &k, ids)?;
                substitute_ids(w, &v, ids)?;
            }
            Ok(())
        }
        // No value here has ids inside a full object: copied as it is.
        other => w.value(other),
    }
}

/// What the engine's `var2bytes` of its decoded value should be (NodePath pads zero): our
/// bytes (or `engine_writes`), with each object id replaced by the id of the engine's
/// `EncodedObjectAsID` wrapper, after checking that the engine decoded the ids we wrote.
fn expected_engine_bytes(case: &Case, line: &Value) -> Result<Vec<u8>, String> {
    let base = match &case.notes.engine_writes {
        Some((bytes, _)) => bytes.clone(),
        None => case.bytes.clone(),
    };
    let reported: Vec<(i64, i64)> = line["object_ids"]
        .as_array()
        .ok_or("no object_ids")?
        .iter()
        .map(|p| {
            let n = |i: usize| p[i].as_str().unwrap().parse::<i64>().unwrap();
            (n(0), n(1))
        })
        .collect();
    let view = decoder().decode_exact(&base).map_err(|e| e.to_string())?;
    let mut written = Vec::new();
    ids_in(&view, &mut written);
    let decoded: Vec<u64> = reported.iter().map(|&(id, _)| id as u64).collect();
    if decoded != written {
        return Err(format!(
            "the engine decoded object ids {decoded:?}, we wrote {written:?}"
        ));
    }
    if written.is_empty() {
        return Ok(base);
    }
    let mut wrappers = reported.iter().map(|&(_, wrapper)| wrapper as u64);
    enc(case.full, |w| substitute_ids(w, &view, &mut wrappers)).map_err(|e| e.to_string())
}

/// Checks one engine report against the case; returns the `var2str` text.
/// `later_classes`: the engine is a later 3.x than 3.2.3, whose classes may have more stored
/// properties (see [`properties_within`]).
fn compare(case: &Case, index: usize, line: &Value, later_classes: bool) -> Result<String, String> {
    if line["index"].as_u64() != Some(index as u64) {
        return Err(format!("report out of order: {line}"));
    }
    if line["ok"] != Value::Bool(true) {
        return Err(format!(
            "the engine could not decode our bytes (Godot error {}): {}",
            line["error"],
            hex_str(&case.bytes)
        ));
    }
    if line["full_objects"] != Value::Bool(case.full) {
        return Err(format!(
            "engine re-encoded with full_objects = {}, expected {}",
            line["full_objects"], case.full
        ));
    }

    // The engine's var2bytes, NodePath pads zeroed.
    let mut engine = support::hex(line["reencoded_hex"].as_str().ok_or("no reencoded_hex")?);
    let mut pads = Vec::new();
    let engine_view = decoder()
        .decode_exact(&engine)
        .map_err(|e| format!("we cannot decode the engine's var2bytes: {e}"))?;
    node_path_pads(&engine, &engine_view, &mut pads);
    for i in pads {
        engine[i] = 0;
    }
    let expected = expected_engine_bytes(case, line)?;
    // A later engine's extra properties: ours were checked in its bytes, so its description
    // is compared by class only.
    let more_properties =
        engine != expected && later_classes && properties_within(&expected, &engine);
    if engine != expected && !more_properties {
        let why = case
            .notes
            .engine_writes
            .as_ref()
            .map_or("", |(_, why)| *why);
        return Err(format!(
            "the engine's var2bytes differs from what we wrote ({why})\n  ours:   {}\n  engine: {}",
            hex_str(&expected),
            hex_str(&engine)
        ));
    }

    // The engine's description of what it decoded matches our decoded view of our bytes.
    let ours = decoder()
        .decode_exact(&case.bytes)
        .map_err(|e| format!("our own bytes do not decode: {e}"))?;
    let objects = match more_properties {
        true => Objects::ClassOnly,
        false => case.notes.objects,
    };
    check(&line["desc"], &ours, objects, &case.name)?;

    line["text"]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| "no var2str text".into())
}

/// Both are one full object of the same class, and the properties of `ours` are those of
/// `engine` without the ones `ours` does not name, in the same order and equal. A 3.4+
/// engine instantiates the class and re-encodes every stored property it has (3.6: Node adds
/// `physics_interpolation_mode` and `unique_name_in_owner`, Gradient `interpolation_mode`).
fn properties_within(ours: &[u8], engine: &[u8]) -> bool {
    let full = |bytes| match decoder().decode_exact(bytes) {
        Ok(VariantRef::Object(ObjectRef::Full(o))) => Some(o),
        _ => None,
    };
    let (Some(ours), Some(engine)) = (full(ours), full(engine)) else {
        return false;
    };
    let named: Vec<_> = ours.properties().collect();
    let kept: Vec<_> = engine
        .properties()
        .filter(|(name, _)| named.iter().any(|(n, _)| n == name))
        .collect();
    ours.class() == engine.class() && kept == named
}

// ----- running the engine --------------------------------------------------------------------

/// Runs `interop.gd` on `input`; returns the report lines.
fn run_engine(godot: &str, dir: &Path, input: &[u8]) -> Vec<Value> {
    run_engine_for(godot, dir, input, ENGINE_TIMEOUT)
}

/// [`run_engine`], killed after `timeout`.
fn run_engine_for(godot: &str, dir: &Path, input: &[u8], timeout: Duration) -> Vec<Value> {
    let in_path = dir.join("in.bin");
    let out_path = dir.join("out.jsonl");
    let stderr_path = dir.join("interop.gd.stderr");
    std::fs::write(&in_path, input).unwrap();
    support::engine::run_script(
        godot,
        "interop.gd",
        &[
            ("GDWIRE_INTEROP_IN", in_path.as_os_str()),
            ("GDWIRE_INTEROP_OUT", out_path.as_os_str()),
            // interop.gd reads decode errors back from its own stderr
            ("GDWIRE_STDERR_LOG", stderr_path.as_os_str()),
        ],
        dir,
        timeout,
        "GDWIRE-INTEROP-OK",
    );
    std::fs::read_to_string(&out_path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad report line ({e}): {l}")))
        .collect()
}

#[test]
fn godot3_engine_decodes_what_we_write() {
    let cases = cases();

    // Our own reader accepts every value, and every Godot 3 type occurs.
    let mut types = BTreeSet::new();
    for case in &cases {
        let v = decoder()
            .decode_exact(&case.bytes)
            .unwrap_or_else(|e| panic!("{}: our bytes do not decode: {e}", case.name));
        types_in(v, &mut types);
    }
    let godot3_types: BTreeSet<&str> = VariantType::ALL
        .iter()
        .filter(|t| Dialect::GODOT_3.supports(**t))
        .map(|t| t.name())
        .collect();
    assert_eq!(types, godot3_types, "not every Godot 3 type is covered");

    // The input file: each value with a u32 LE length prefix (File.store_var layout),
    // written again from its decoded view through a length-prefixing writer.
    let mut input = Vec::new();
    for case in &cases {
        let start = input.len();
        let v = decoder().decode_exact(&case.bytes).unwrap();
        let mut w = Writer::new(&mut input, Dialect::GODOT_3)
            .with_full_objects(true)
            .with_length_prefix(Endian::Little);
        w.value(&v).unwrap();
        w.finish().unwrap();
        let mut framed = (case.bytes.len() as u32).to_le_bytes().to_vec();
        framed.extend_from_slice(&case.bytes);
        assert_eq!(input[start..], framed[..], "{}: framing", case.name);
    }

    let Some(godot) = support::engine::binary_or_skip("godot3_engine_decodes_what_we_write") else {
        return; // the values were checked against our own reader above
    };
    let version = support::engine::version(&godot);
    let later_classes = !version.starts_with("3.2.3");
    let dir = support::engine::TempDir::new("interop");
    let report = run_engine(&godot, &dir.0, &input);
    assert_eq!(
        report.len(),
        cases.len(),
        "the engine reported {} values, we wrote {}",
        report.len(),
        cases.len()
    );

    let mut failures = Vec::new();
    let mut stored = String::new();
    for (i, (case, line)) in cases.iter().zip(&report).enumerate() {
        match compare(case, i, line, later_classes) {
            Ok(text) => {
                let row = serde_json::json!({
                    "name": case.name,
                    "hex": hex_str(&case.bytes),
                    "text": text,
                });
                stored.push_str(&row.to_string());
                stored.push('\n');
            }
            Err(msg) => failures.push(format!("{}: {msg}", case.name)),
        }
    }
    std::fs::write(REPORT, stored).unwrap();
    assert!(
        failures.is_empty(),
        "{} of {} values disagree with Godot {version}:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );

    // A few var2str spot checks (the text is kept in REPORT for later comparisons).
    let text_of = |name: &str| {
        let i = cases.iter().position(|c| c.name == name).unwrap();
        report[i]["text"].as_str().unwrap().to_owned()
    };
    assert_eq!(text_of("nil"), "null");
    assert_eq!(text_of("int_i64_min"), "-9223372036854775808");
    assert_eq!(text_of("string_len3"), "\"abc\"");
    assert_eq!(text_of("vector2_1_5_neg2_25"), "Vector2( 1.5, -2.25 )");
    assert_eq!(text_of("rid_id_dropped"), "");
}

/// Seeded random values (`support::random_values`: every Godot 3 type the engine keeps as
/// sent but objects, nested up to four containers deep, dictionaries with keys of mixed types,
/// strings with quotes, backslashes, control, multi-byte and astral characters, reals from
/// random bits), written by gdwire: the engine decodes each one and re-encodes it to our exact
/// bytes (NodePath pads zeroed), and 3.2.3 prints our text form (`var2str`; a later engine's
/// text differs by design, docs/engine-parity.md, so only its bytes are compared).
/// `GDWIRE_RANDOM_VALUES=COUNT[:SEED]` runs another count or seed.
#[test]
fn godot3_engine_reads_random_values_we_write() {
    let (seed, values) = support::random_values::values(Dialect::GODOT_3, Precision::Single);
    let count = values.len();
    let mut input = Vec::new();
    let mut ours = Vec::new();
    for v in &values {
        let bytes = v.to_vec(Dialect::GODOT_3).unwrap();
        input.extend((bytes.len() as u32).to_le_bytes());
        input.extend(&bytes);
        ours.push((bytes, v.to_text(Dialect::GODOT_3).unwrap()));
    }
    let Some(godot) = support::engine::binary_or_skip("godot3_engine_reads_random_values_we_write")
    else {
        return;
    };
    let text_checked = support::engine::version(&godot).starts_with("3.2.3");
    let dir = support::engine::TempDir::new("interop_random");
    let report = run_engine_for(
        &godot,
        &dir.0,
        &input,
        ENGINE_TIMEOUT * (1 + count as u32 / 2000),
    );
    assert_eq!(
        report.len(),
        ours.len(),
        "the engine reported another count"
    );
    let mut failures = Vec::new();
    for (i, ((bytes, text), line)) in ours.iter().zip(&report).enumerate() {
        let at = format!("value {i} (seed {seed}) {}", hex_str(bytes));
        if line["ok"] != Value::Bool(true) {
            failures.push(format!("{at}: not decoded (Godot error {})", line["error"]));
            continue;
        }
        let mut engine = support::hex(line["reencoded_hex"].as_str().unwrap());
        let mut pads = Vec::new();
        match decoder().decode_exact(&engine) {
            Ok(view) => node_path_pads(&engine, &view, &mut pads),
            Err(e) => failures.push(format!("{at}: we cannot decode the engine's bytes: {e}")),
        }
        for p in pads {
            engine[p] = 0;
        }
        if engine != *bytes {
            failures.push(format!("{at}: the engine re-encodes {}", hex_str(&engine)));
        } else if text_checked && line["text"].as_str() != Some(text.as_str()) {
            failures.push(format!(
                "{at}: var2str {}, gdwire text {text:?}",
                line["text"]
            ));
        }
    }
    support::assert_no_failures(&failures, "disagreements with the engine");
    let size: usize = ours.iter().map(|(b, _)| b.len()).sum();
    eprintln!("{count} random values (seed {seed}, {size} bytes) read back exactly");
}

/// The text gdwire prints for seeded random values (as in
/// [`godot3_engine_reads_random_values_we_write`]), read back by the engine
/// (`tests/godot3/parse_back.gd`: `var2bytes(str2var(text))`) and by `text::parse`: the same
/// bytes (NodePath pads zeroed), or both refuse it (3.2.3's writer prints `inf` and `nan`
/// inside constructors and `-inf.0`, which its parser cannot read: `str2var` then returns the
/// text as a String). The text loses what it cannot show (reals print with six digits, NaN
/// payloads, the parts of a NodePath whose names hold `/` or `:`); both readers must lose it
/// the same way. Only 3.2.3: later engines print other text. `GDWIRE_RANDOM_VALUES=COUNT[:SEED]`
/// as there.
#[test]
fn godot3_engine_reads_the_text_of_random_values_as_we_do() {
    let (seed, values) = support::random_values::values(Dialect::GODOT_3, Precision::Single);
    let count = values.len();
    let mut input = Vec::new();
    let mut ours = Vec::new();
    for v in &values {
        let text = v.to_text(Dialect::GODOT_3).unwrap();
        input.extend((text.len() as u32).to_le_bytes());
        input.extend(text.as_bytes());
        let parsed = support::random_values::parse(Dialect::GODOT_3, Precision::Single, &text);
        ours.push((text, parsed));
    }
    let test = "godot3_engine_reads_the_text_of_random_values_as_we_do";
    let Some(godot) = support::engine::binary_or_skip(test) else {
        return;
    };
    if !support::engine::version(&godot).starts_with("3.2.3") {
        return eprintln!("notice: {test}: only for 3.2.3, whose text gdwire prints");
    }
    let dir = support::engine::TempDir::new("parse_back_random");
    let (in_path, out_path) = (dir.0.join("in.bin"), dir.0.join("out.bin"));
    std::fs::write(&in_path, &input).unwrap();
    support::engine::run_script(
        &godot,
        "parse_back.gd",
        &[
            ("GDWIRE_PARSE_IN", in_path.as_os_str()),
            ("GDWIRE_PARSE_OUT", out_path.as_os_str()),
        ],
        &dir.0,
        ENGINE_TIMEOUT * (1 + count as u32 / 2000),
        "GDWIRE-PARSE-BACK-OK",
    );
    let back = std::fs::read(&out_path).unwrap();
    let mut pos = 0;
    let mut failures = Vec::new();
    let (mut same, mut both_refuse, mut on_purpose) = (0, 0, 0);
    for (i, (text, parsed)) in ours.iter().enumerate() {
        let n = u32::from_le_bytes(back[pos..pos + 4].try_into().unwrap()) as usize;
        let mut engine = back[pos + 4..pos + 4 + n].to_vec();
        pos += 4 + n;
        let mut pads = Vec::new();
        if let Ok(view) = decoder().decode_exact(&engine) {
            node_path_pads(&engine, &view, &mut pads);
        }
        for p in pads {
            engine[p] = 0;
        }
        let at = format!("value {i} (seed {seed}) {text:?}");
        // A text str2var cannot read comes back as itself, a String.
        let refused = matches!(decoder().decode_exact(&engine),
            Ok(VariantRef::String(s)) if s.bytes() == text.as_bytes());
        match parsed {
            Ok(parsed) if !refused && *parsed == engine => same += 1,
            Ok(parsed) => failures.push(format!(
                "{at}: the engine reads {} (refused: {refused}), gdwire {}",
                hex_str(&engine),
                hex_str(parsed)
            )),
            Err(_) if refused => both_refuse += 1,
            // How 3.2.3 prints -inf and a negative NaN: it reads the '-' as the int 0 and
            // ignores the rest; `parse` refuses text after a value (docs/text.md).
            Err(_) if ["-inf.0", "-nan.0"].contains(&text.as_str()) => on_purpose += 1,
            Err(e) => failures.push(format!(
                "{at}: gdwire cannot read it ({e}), the engine reads {}",
                hex_str(&engine)
            )),
        }
    }
    assert_eq!(pos, back.len(), "trailing output");
    support::assert_no_failures(&failures, "disagreements with the engine");
    eprintln!(
        "{count} random values' text (seed {seed}) read as the engine reads it: the same \
         bytes {same}, both refuse {both_refuse}, refused on purpose {on_purpose}"
    );
    assert!(same > count / 2, "{same} of {count}");
}
