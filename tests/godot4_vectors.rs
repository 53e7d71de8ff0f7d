//! Godot 4.x reader vectors. No Godot 4 engine binary is available here, so the truth is the
//! wire format as the engine source has it (docs/wire-format.md): the engine's own unit-test
//! vectors, engine output reported in issue threads, and everything marked "derived from
//! spec", written by hand from those layouts and NOT engine-checked (docs/wire-format.md §7).

mod support;

use gdwire::header::ContainerKind;
use gdwire::math::{
    Aabb, Basis, Color, Plane, Precision, Projection, Quaternion, Rect2, Rect2i, Transform2D,
    Transform3D, Vector2i, Vector3i, Vector4i,
};
use gdwire::read::{ArrayKind, ObjectRef, PackedReals};
use gdwire::{
    from_bytes, from_bytes_exact, ContainerType, Decoder, Dialect, ErrorKind, Expected, VariantRef,
    VariantType,
};
use support::hex;
use support::vectors::{f32_run, f64_run, v2, v3, v4, walk, D, F};

const G4: Dialect = Dialect::GODOT_4;
/// Every Godot 4 dialect (4.0 … 4.4+).
const ALL_G4: [Dialect; 5] = [
    Dialect::GODOT_4_0,
    Dialect::GODOT_4_1,
    Dialect::GODOT_4_2,
    Dialect::GODOT_4_3,
    Dialect::GODOT_4_4,
];

/// The engine's `0x0f123456789abcdef` literal as the int64 stored in the Variant (docs/wire-format.md §7).
const BIG: i64 = 0xF123_4567_89AB_CDEF_u64 as i64;

/// Decodes with `dialect`, requires the value to use every byte (checked three ways:
/// `decode_prefix`, `validate`, a `Cursor`) and to walk without errors.
fn exact(dialect: Dialect, bytes: &[u8]) -> VariantRef<'_> {
    let dec = Decoder::new(dialect);
    let (value, used) = dec
        .decode_prefix(bytes)
        .unwrap_or_else(|e| panic!("{dialect}: {e} for {bytes:02x?}"));
    assert_eq!(used, bytes.len(), "{dialect}: consumed length");
    assert_eq!(dec.validate(bytes), Ok(bytes.len()), "{dialect}: validate");
    let mut cursor = dec.cursor(bytes);
    // Debug form, not `==`: NaN payloads must compare equal here.
    let same = |other: VariantRef<'_>| format!("{other:?}") == format!("{value:?}");
    assert!(same(cursor.read().unwrap()), "{dialect}: cursor");
    assert!(cursor.is_at_end());
    assert!(same(from_bytes_exact(dialect, bytes).unwrap()));
    walk(&value).unwrap_or_else(|e| panic!("{dialect}: walk failed: {e}"));
    value
}

fn g4(bytes: &[u8]) -> VariantRef<'_> {
    exact(G4, bytes)
}

// ---------------------------------------------------------------------------------------------
// §7: engine unit-test vectors (TESTS).
// ---------------------------------------------------------------------------------------------

#[test]
fn engine_nil() {
    let b = hex("00 00 00 00");
    for d in ALL_G4 {
        assert_eq!(exact(d, &b), VariantRef::Nil);
    }
}

#[test]
fn engine_int_32_bit() {
    let b = hex("02 00 00 00 78 56 34 12");
    for d in ALL_G4 {
        assert_eq!(exact(d, &b), VariantRef::Int(0x1234_5678));
    }
}

#[test]
fn engine_int_64_bit() {
    let b = hex("02 00 01 00 ef cd ab 89 67 45 23 f1");
    for d in ALL_G4 {
        let v = exact(d, &b);
        assert_eq!(v, VariantRef::Int(BIG));
        assert_eq!(v.as_int(), Some(-1_070_935_975_390_360_081));
    }
}

#[test]
fn engine_float_single() {
    let b = hex("03 00 00 00 00 00 20 3e");
    for d in ALL_G4 {
        assert_eq!(exact(d, &b), VariantRef::Float(0.15625));
    }
}

#[test]
fn engine_float_double() {
    let b = hex("03 00 01 00 55 55 55 55 55 55 d5 3f");
    for d in ALL_G4 {
        let v = exact(d, &b);
        assert_eq!(v.as_float().map(f64::to_bits), Some(0x3FD5_5555_5555_5555));
        assert_eq!(v, VariantRef::Float(1.0 / 3.0));
    }
}

const ENGINE_TYPED_ARRAY: &str =
    "1c 00 01 00  02 00 00 00  01 00 00 00  02 00 01 00 ef cd ab 89 67 45 23 f1";

#[test]
fn engine_typed_array_of_int() {
    let b = hex(ENGINE_TYPED_ARRAY);
    assert_eq!(b.len(), 24);
    for d in [Dialect::GODOT_4_3, Dialect::GODOT_4_4] {
        let a = exact(d, &b).as_array().unwrap();
        assert_eq!(a.kind(), ArrayKind::Array);
        assert_eq!(a.variant_type(), VariantType::Array);
        assert_eq!(
            a.element_type(),
            Some(ContainerType::Builtin(VariantType::Int))
        );
        assert_eq!(a.element_type().unwrap().kind(), ContainerKind::Builtin);
        assert_eq!(a.len(), 1);
        assert_eq!(a.get(0).unwrap(), VariantRef::Int(BIG));
    }
}

#[test]
fn engine_typed_array_misread_before_4_3() {
    // Spec §4.10: a 4.0–4.2 decoder ignores header bits 16–17 and reads the type id (2) as the
    // element count: element 0 = `01 00 00 00 | 02 00 01 00` (a BOOL, true), element 1 starts
    // at byte 16 with header `ef cd ab 89`: type 0xef, unknown.
    let b = hex(ENGINE_TYPED_ARRAY);
    for d in [Dialect::GODOT_4_0, Dialect::GODOT_4_1, Dialect::GODOT_4_2] {
        let err = from_bytes(d, &b).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnknownType { id: 0xef, max: 38 });
        assert_eq!(err.offset(), 16);
        assert_eq!(err.kind().engine_code(), Some(30));
    }
}

const ENGINE_TYPED_DICT: &str = "1b 00 05 00  02 00 00 00  02 00 00 00  01 00 00 00 \
     02 00 01 00 ef cd ab 89 67 45 23 f1  02 00 01 00 ef cd ab 89 67 45 23 f1";

#[test]
fn engine_typed_dictionary_int_to_int() {
    let b = hex(ENGINE_TYPED_DICT);
    assert_eq!(b.len(), 40);
    let d = g4(&b).as_dictionary().unwrap();
    assert_eq!(d.key_type(), Some(ContainerType::Builtin(VariantType::Int)));
    assert_eq!(
        d.value_type(),
        Some(ContainerType::Builtin(VariantType::Int))
    );
    assert_eq!(d.len(), 1);
    assert_eq!(d.get_by_int_key(BIG), Some(VariantRef::Int(BIG)));
    let (k, v) = d.iter().next().unwrap();
    assert_eq!((k, v), (VariantRef::Int(BIG), VariantRef::Int(BIG)));
}

#[test]
fn engine_typed_dictionary_misread_before_4_4() {
    // 4.3 and older ignore the dictionary kinds: count = the key type id word (2); key 0 =
    // Int(1) (the value type word is its payload), value 0 = Int(BIG), key 1 = Int(BIG), and
    // value 1 would start at byte 40, the end of the input.
    let b = hex(ENGINE_TYPED_DICT);
    for d in [
        Dialect::GODOT_4_0,
        Dialect::GODOT_4_1,
        Dialect::GODOT_4_2,
        Dialect::GODOT_4_3,
    ] {
        let err = from_bytes(d, &b).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Truncated(Expected::Header), "{d}");
        assert_eq!(err.offset(), 40, "{d}");
        assert_eq!(err.kind().engine_code(), Some(30));
    }
}

#[test]
fn engine_invalid_data() {
    for d in ALL_G4 {
        let err = from_bytes(d, &hex("00")).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Truncated(Expected::Header));
        assert_eq!(err.offset(), 0);
        assert_eq!(err.kind().engine_code(), Some(30));

        let err = from_bytes(d, &hex("ff 00 00 00")).unwrap_err();
        let max = d.variant_max();
        assert_eq!(err.kind(), ErrorKind::UnknownType { id: 0xff, max });
        assert_eq!(err.offset(), 0);
        assert_eq!(err.kind().engine_code(), Some(30));
    }
}

// ---------------------------------------------------------------------------------------------
// §7: engine-observed bytes from issue threads.
// ---------------------------------------------------------------------------------------------

#[test]
fn observed_rid_from_int64_13() {
    let b = hex("17 00 00 00 0d 00 00 00 00 00 00 00");
    for d in ALL_G4 {
        assert_eq!(exact(d, &b), VariantRef::Rid(Some(13)));
    }
}

#[test]
fn observed_callable_header_only() {
    let b = hex("19 00 00 00");
    for d in ALL_G4 {
        let v = exact(d, &b);
        assert_eq!(v, VariantRef::Callable);
        assert_eq!(v.variant_type(), VariantType::Callable);
    }
}

#[test]
fn observed_int_sizes_from_pr_22223() {
    // var2bytes(2^31-1).size() == 8, (2^31) == 12, (-2^31) == 8, (-2^31-1) == 12, (0) == 8.
    let cases = [
        ("02 00 00 00 ff ff ff 7f", 2_147_483_647_i64),
        ("02 00 01 00 00 00 00 80 00 00 00 00", 2_147_483_648),
        ("02 00 00 00 00 00 00 80", -2_147_483_648),
        ("02 00 01 00 ff ff ff 7f ff ff ff ff", -2_147_483_649),
        ("02 00 00 00 00 00 00 00", 0),
    ];
    for (h, want) in cases {
        let b = hex(h);
        assert_eq!(g4(&b), VariantRef::Int(want), "{h}");
    }
}

#[test]
fn observed_stream_peer_put_var_prefix() {
    // StreamPeerBuffer.put_var("Godot Rules!!!"): u32 length 24, then the String.
    let b =
        hex("18 00 00 00  04 00 00 00 0e 00 00 00 47 6f 64 6f 74 20 52 75 6c 65 73 21 21 21 00 00");
    assert_eq!(
        u32::from_le_bytes(b[..4].try_into().unwrap()) as usize,
        b.len() - 4
    );
    assert_eq!(g4(&b[4..]).as_str(), Some("Godot Rules!!!"));
    // Read without stripping the prefix, the length word 0x18 is an OBJECT header (full form).
    let err = from_bytes(G4, &b).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ObjectsNotAllowed);
}

// ---------------------------------------------------------------------------------------------
// §7: derived from the source (not engine-executed).
// ---------------------------------------------------------------------------------------------

#[test]
fn derived_6_3_scalars_and_strings() {
    let b = hex("04 00 00 00 03 00 00 00 61 73 64 00");
    for d in ALL_G4.into_iter().chain([Dialect::GODOT_3]) {
        let v = exact(d, &b);
        assert!(matches!(v, VariantRef::String(s) if s == "asd"));
    }
    let b = hex("15 00 00 00 03 00 00 00 61 62 63 00");
    let v = g4(&b);
    assert!(matches!(v, VariantRef::StringName(s) if s == "abc"));
    assert_eq!(v.as_str(), Some("abc"));
    assert_eq!(g4(&hex("01 00 00 00 01 00 00 00")), VariantRef::Bool(true));
    assert_eq!(g4(&hex("02 00 00 00 ff ff ff ff")), VariantRef::Int(-1));
    assert_eq!(
        g4(&hex("02 00 01 00 00 00 00 80 00 00 00 00")),
        VariantRef::Int(2_147_483_648)
    );
    assert_eq!(g4(&hex("03 00 00 00 00 00 00 3f")), VariantRef::Float(0.5));
    assert_eq!(
        g4(&hex("03 00 01 00 9a 99 99 99 99 99 b9 3f")),
        VariantRef::Float(0.1)
    );
}

#[test]
fn derived_6_3_math() {
    let b = hex("05 00 00 00 00 00 80 3f 00 00 00 40");
    for d in ALL_G4.into_iter().chain([Dialect::GODOT_3]) {
        expect_math!(exact(d, &b), Vector2, v2(1.0, 2.0), Precision::Single);
    }
    assert_eq!(
        g4(&hex("06 00 00 00 ff ff ff ff 02 00 00 00")),
        VariantRef::Vector2i(Vector2i { x: -1, y: 2 })
    );
    let color = Color {
        r: 1.0,
        g: 0.0,
        b: 0.0,
        a: 1.0,
    };
    assert_eq!(
        g4(&hex(
            "14 00 00 00 00 00 80 3f 00 00 00 00 00 00 00 00 00 00 80 3f"
        )),
        VariantRef::Color(color)
    );
}

#[test]
fn derived_6_3_node_path() {
    let b = hex(
        "16 00 00 00 02 00 00 80 01 00 00 00 01 00 00 00 04 00 00 00 72 6f 6f 74 \
         01 00 00 00 61 00 00 00 01 00 00 00 62 00 00 00",
    );
    let p = g4(&b).as_node_path().unwrap();
    assert!(p.is_absolute());
    assert!(!p.has_property_flag());
    assert_eq!(p.flags(), 1);
    assert_eq!((p.name_count(), p.subname_count()), (2, 1));
    assert!(p.names().eq(["root", "a"]));
    assert!(p.subnames().eq(["b"]));
}

#[test]
fn derived_6_3_containers() {
    let b =
        hex("1c 00 00 00 02 00 00 00 02 00 00 00 01 00 00 00 04 00 00 00 01 00 00 00 61 00 00 00");
    let a = g4(&b).as_array().unwrap();
    assert_eq!(a.element_type(), None);
    let items: Vec<_> = a.iter().collect();
    assert_eq!(items[0], VariantRef::Int(1));
    assert_eq!(items[1].as_str(), Some("a"));
    // Godot 3: same bytes with first byte 0x13.
    let mut g3 = b.clone();
    g3[0] = 0x13;
    assert_eq!(exact(Dialect::GODOT_3, &g3).as_array().unwrap().len(), 2);

    let b =
        hex("1b 00 00 00 01 00 00 00 04 00 00 00 01 00 00 00 61 00 00 00 02 00 00 00 01 00 00 00");
    let d = g4(&b).as_dictionary().unwrap();
    assert_eq!((d.key_type(), d.value_type()), (None, None));
    assert_eq!(d.get("a"), Some(VariantRef::Int(1)));

    let b = hex("1d 00 00 00 03 00 00 00 01 02 03 00");
    let VariantRef::PackedByteArray(p) = g4(&b) else {
        panic!()
    };
    assert_eq!(p.as_bytes(), [1, 2, 3]);

    let b = hex("22 00 00 00 01 00 00 00 03 00 00 00 61 62 00 00");
    let VariantRef::PackedStringArray(s) = g4(&b) else {
        panic!()
    };
    assert_eq!(s.len(), 1);
    let ab = s.get(0).unwrap();
    assert_eq!(ab, "ab");
    assert_eq!(ab.raw(), b"ab\0"); // the NUL terminator is counted in the length
}

const EMPTY_ARRAY_OF_NODE: &str = "1c 00 02 00  11 00 00 00 45 6e 63 6f 64 65 64 4f 62 6a 65 63 74 41 73 49 44 00 00 00  00 00 00 00";

#[test]
fn derived_6_3_empty_array_of_node() {
    let b = hex(EMPTY_ARRAY_OF_NODE);
    for d in [Dialect::GODOT_4_3, Dialect::GODOT_4_4] {
        let a = exact(d, &b).as_array().unwrap();
        assert!(a.is_empty());
        match a.element_type() {
            Some(ContainerType::ClassName(name)) => assert_eq!(name, "EncodedObjectAsID"),
            other => panic!("{other:?}"),
        }
        assert_eq!(a.element_type().unwrap().kind(), ContainerKind::ClassName);
    }
    // 4.2 reads 0x11 = 17 as the count; element 0's header is "Enco": type 0x45, unknown.
    let err = from_bytes(Dialect::GODOT_4_2, &b).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnknownType { id: 0x45, max: 38 });
    assert_eq!(err.offset(), 8);
}

// ---------------------------------------------------------------------------------------------
// Hand-derived vectors for every Godot 4 type.
// ---------------------------------------------------------------------------------------------

#[test]
fn nil_and_bool_details() {
    // derived from docs/wire-format.md §3 / §4.2, not engine-checked: unused header bits are ignored, any
    // non-zero bool payload is true.
    assert_eq!(g4(&hex("00 ff 01 00")), VariantRef::Nil);
    assert_eq!(g4(&hex("01 00 00 00 00 00 00 00")), VariantRef::Bool(false));
    assert_eq!(g4(&hex("01 00 00 00 00 01 00 00")), VariantRef::Bool(true));
    assert_eq!(g4(&hex("02 7f 00 00 05 00 00 00")), VariantRef::Int(5));
    // derived from docs/wire-format.md §3.3: -0.0 and inf are 32-bit, NaN 64-bit.
    let b = hex("03 00 00 00 00 00 00 80");
    let v = g4(&b);
    assert_eq!(v.as_float().map(f64::to_bits), Some((-0.0f64).to_bits()));
    assert_eq!(
        g4(&hex("03 00 00 00 00 00 80 7f")),
        VariantRef::Float(f64::INFINITY)
    );
    assert!(g4(&hex("03 00 01 00 00 00 00 00 00 00 f8 7f"))
        .as_float()
        .unwrap()
        .is_nan());
}

#[test]
fn vector2_and_vector2i() {
    // derived from docs/wire-format.md §4.3, not engine-checked
    let b = f32_run("05000000", 3, 4);
    expect_math!(g4(&b), Vector2, v2(3.0, 4.0), Precision::Single);
    let b = hex("06 00 00 00 07 00 00 00 f9 ff ff ff");
    assert_eq!(g4(&b), VariantRef::Vector2i(Vector2i { x: 7, y: -7 }));
}

#[test]
fn rect2_and_rect2i() {
    // derived from docs/wire-format.md §4.3, not engine-checked
    let b = f32_run("07000000", 1, 4);
    let want = Rect2 {
        position: v2(1.0, 2.0),
        size: v2(3.0, 4.0),
    };
    expect_math!(g4(&b), Rect2, want, Precision::Single);
    let b = hex("08 00 00 00 01 00 00 00 fe ff ff ff 03 00 00 00 04 00 00 00");
    let want = Rect2i {
        position: Vector2i { x: 1, y: -2 },
        size: Vector2i { x: 3, y: 4 },
    };
    assert_eq!(g4(&b), VariantRef::Rect2i(want));
}

#[test]
fn vector3_and_vector3i() {
    // derived from docs/wire-format.md §4.3, not engine-checked
    let b = f32_run("09000000", 1, 3);
    expect_math!(g4(&b), Vector3, v3(1.0, 2.0, 3.0), Precision::Single);
    let b = hex("0a 00 00 00 01 00 00 00 fe ff ff ff 03 00 00 00");
    assert_eq!(g4(&b), VariantRef::Vector3i(Vector3i { x: 1, y: -2, z: 3 }));
}

#[test]
fn transform2d_columns() {
    // derived from docs/wire-format.md §4.3, not engine-checked: columns[0].x, .y, columns[1].x, .y, origin
    let b = f32_run("0b000000", 1, 6);
    let want = Transform2D {
        x: v2(1.0, 2.0),
        y: v2(3.0, 4.0),
        origin: v2(5.0, 6.0),
    };
    expect_math!(g4(&b), Transform2D, want, Precision::Single);
}

#[test]
fn vector4_and_vector4i() {
    // derived from docs/wire-format.md §4.3, not engine-checked
    let b = f32_run("0c000000", 1, 4);
    expect_math!(g4(&b), Vector4, v4(1.0, 2.0, 3.0, 4.0), Precision::Single);
    let b = hex("0d 00 00 00 01 00 00 00 02 00 00 00 03 00 00 00 fc ff ff ff");
    let want = Vector4i {
        x: 1,
        y: 2,
        z: 3,
        w: -4,
    };
    assert_eq!(g4(&b), VariantRef::Vector4i(want));
    // 4.0–4.2 have Vector4 too (id 12, ENUM4).
    let b = f32_run("0c000000", 1, 4);
    assert_eq!(
        exact(Dialect::GODOT_4_0, &b).variant_type(),
        VariantType::Vector4
    );
}

#[test]
fn plane_quaternion_aabb() {
    // derived from docs/wire-format.md §4.3, not engine-checked
    let b = f32_run("0e000000", 1, 4);
    let want = Plane {
        normal: v3(1.0, 2.0, 3.0),
        d: 4.0,
    };
    expect_math!(g4(&b), Plane, want, Precision::Single);
    let b = f32_run("0f000000", 1, 4);
    let want = Quaternion {
        x: 1.0,
        y: 2.0,
        z: 3.0,
        w: 4.0,
    };
    expect_math!(g4(&b), Quaternion, want, Precision::Single);
    let b = f32_run("10000000", 1, 6);
    let want = Aabb {
        position: v3(1.0, 2.0, 3.0),
        size: v3(4.0, 5.0, 6.0),
    };
    expect_math!(g4(&b), Aabb, want, Precision::Single);
}

/// GDScript `Basis(Vector3(1,2,3), Vector3(4,5,6), Vector3(7,8,9))` on the wire: rows,
/// i.e. 1,4,7, 2,5,8, 3,6,9 (docs/wire-format.md §4.3).
const BASIS_WIRE: [usize; 9] = [1, 4, 7, 2, 5, 8, 3, 6, 9];

fn basis_123() -> Basis {
    Basis::from_columns(v3(1.0, 2.0, 3.0), v3(4.0, 5.0, 6.0), v3(7.0, 8.0, 9.0))
}

#[test]
fn basis_is_row_major_on_the_wire() {
    // derived from docs/wire-format.md §4.3, not engine-checked
    let mut s = String::from("11000000");
    for i in BASIS_WIRE {
        s.push_str(F[i]);
    }
    let b = hex(&s);
    let VariantRef::Basis(basis) = g4(&b) else {
        panic!()
    };
    assert_eq!(basis.precision(), Precision::Single);
    let basis = basis.get();
    assert_eq!(basis, basis_123());
    assert_eq!(basis.rows[0], v3(1.0, 4.0, 7.0));
    assert_eq!(basis.x(), v3(1.0, 2.0, 3.0));
    assert_eq!(basis.y(), v3(4.0, 5.0, 6.0));
    assert_eq!(basis.z(), v3(7.0, 8.0, 9.0));
}

#[test]
fn transform3d() {
    // derived from docs/wire-format.md §4.3, not engine-checked: basis rows (9) then origin (3)
    let mut s = String::from("12000000");
    for i in BASIS_WIRE.into_iter().chain([10, 11, 12]) {
        s.push_str(F[i]);
    }
    let b = hex(&s);
    let want = Transform3D {
        basis: basis_123(),
        origin: v3(10.0, 11.0, 12.0),
    };
    expect_math!(g4(&b), Transform3D, want, Precision::Single);
}

fn projection_1_to_16() -> Projection {
    Projection {
        columns: [
            v4(1.0, 2.0, 3.0, 4.0),
            v4(5.0, 6.0, 7.0, 8.0),
            v4(9.0, 10.0, 11.0, 12.0),
            v4(13.0, 14.0, 15.0, 16.0),
        ],
    }
}

#[test]
fn projection_is_column_major() {
    // derived from docs/wire-format.md §4.3, not engine-checked
    let b = f32_run("13000000", 1, 16);
    expect_math!(g4(&b), Projection, projection_1_to_16(), Precision::Single);
}

#[test]
fn color() {
    // derived from docs/wire-format.md §4.3, not engine-checked
    let b = hex(&format!("14000000 0000003f {} {} {}", F[1], F[0], F[1]));
    let want = Color {
        r: 0.5,
        g: 1.0,
        b: 0.0,
        a: 1.0,
    };
    assert_eq!(g4(&b), VariantRef::Color(want));
}

#[test]
fn string_and_string_name() {
    // derived from docs/wire-format.md §4.1/§4.1/§4.1, not engine-checked
    let b = hex("04 00 00 00 00 00 00 00");
    let v = g4(&b);
    assert!(matches!(v, VariantRef::String(s) if s.is_empty()));
    let b = hex("04 00 00 00 04 00 00 00 61 62 63 64");
    assert_eq!(g4(&b).as_str(), Some("abcd"));
    let b = hex("04 00 00 00 05 00 00 00 c3 a9 e4 b8 ad 00 00 00");
    assert_eq!(g4(&b).as_str(), Some("é中"));
    // Pad bytes are not checked.
    let b = hex("15 00 00 00 01 00 00 00 78 ae ae ae");
    let v = g4(&b);
    assert_eq!(v.variant_type(), VariantType::StringName);
    assert_eq!(v.as_str(), Some("x"));
    // Nor inside a container, where short texts are tested with their pad: ["x", "é"], both
    // padded with bytes above 0x7F.
    let b = hex(
        "1c 00 00 00 02 00 00 00 04 00 00 00 01 00 00 00 78 ae ae ae \
         04 00 00 00 02 00 00 00 c3 a9 ff ff",
    );
    let items: Vec<_> = g4(&b).as_array().unwrap().iter().collect();
    assert_eq!(
        items.iter().map(|v| v.as_str()).collect::<Vec<_>>(),
        [Some("x"), Some("é")]
    );
}

#[test]
fn node_path_property_flag_adds_a_subname() {
    // derived from docs/wire-format.md §4.5, not engine-checked: 1 name, 0 subnames, flags = 2 (obsolete
    // property) ⇒ one more subname is read.
    let b = hex("16 00 00 00  01 00 00 80  00 00 00 00  02 00 00 00 \
         01 00 00 00 61 00 00 00  01 00 00 00 62 00 00 00");
    let p = g4(&b).as_node_path().unwrap();
    assert!(!p.is_absolute());
    assert!(p.has_property_flag());
    assert_eq!((p.name_count(), p.subname_count()), (1, 1));
    assert!(p.names().eq(["a"]));
    assert!(p.subnames().eq(["b"]));

    // Absolute + property, with one explicit subname: 1 name + (1 + 1) subnames.
    let b = hex("16 00 00 00  01 00 00 80  01 00 00 00  03 00 00 00 \
         01 00 00 00 61 00 00 00  01 00 00 00 62 00 00 00  01 00 00 00 63 00 00 00");
    let p = g4(&b).as_node_path().unwrap();
    assert!(p.is_absolute() && p.has_property_flag());
    assert!(p.names().eq(["a"]));
    assert!(p.subnames().eq(["b", "c"]));
    // Without the third string the value is truncated.
    let err = from_bytes(G4, &b[..b.len() - 8]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Truncated(Expected::StringLength));
}

#[test]
fn node_path_empty_and_garbage_padding() {
    // derived from docs/wire-format.md §4.5, not engine-checked
    let b = hex("16 00 00 00 00 00 00 80 00 00 00 00 00 00 00 00");
    let p = g4(&b).as_node_path().unwrap();
    assert_eq!((p.name_count(), p.subname_count()), (0, 0));
    assert!(!p.is_absolute());
    assert_eq!(p.names().count(), 0);
    // NodePath("/"): unlike Godot 3.2.3 (an empty, relative path), Godot 4.6 keeps the
    // absolute bit of a path with no names (engine-checked: tests/fixtures/godot4,
    // `nodepath_slash`, `nodepath_absolute_no_components`).
    let b = hex("16 00 00 00 00 00 00 80 00 00 00 00 01 00 00 00");
    let p = g4(&b).as_node_path().unwrap();
    assert!(p.is_absolute());
    assert_eq!(p.flags(), 1);
    let b = hex("0f 00 00 00 00 00 00 80 00 00 00 00 01 00 00 00");
    let p = from_bytes(Dialect::GODOT_3, &b)
        .unwrap()
        .as_node_path()
        .unwrap();
    assert!(!p.is_absolute());
    // Pad bytes were uninitialised before PR #116105: they must be ignored.
    let b = hex("16 00 00 00 01 00 00 80 00 00 00 00 00 00 00 00 01 00 00 00 61 de ad be");
    assert!(g4(&b).as_node_path().unwrap().names().eq(["a"]));
}

#[test]
fn rid_8_byte_id() {
    // derived from docs/wire-format.md §4.6, not engine-checked
    let b = hex("17 00 00 00 ef cd ab 89 67 45 23 f1");
    assert_eq!(g4(&b), VariantRef::Rid(Some(0xF123_4567_89AB_CDEF)));
    let err = from_bytes(G4, &b[..11]).unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::Truncated(Expected::Payload(VariantType::Rid))
    );
    assert_eq!(err.offset(), 4);
}

#[test]
fn object_id_mode() {
    // derived from docs/wire-format.md §4.7, not engine-checked: header 0x00010018 + u64 id; RefCounted ids
    // have bit 63 set.
    let b = hex("18 00 01 00 2a 00 00 00 00 00 00 80");
    for d in ALL_G4 {
        let v = exact(d, &b);
        assert_eq!(v, VariantRef::Object(ObjectRef::Id(0x8000_0000_0000_002a)));
        assert!(!v.as_object().unwrap().is_null());
    }
    // Id mode is accepted whether or not objects are allowed.
    let dec = Decoder::new(G4).with_allow_objects(true);
    assert_eq!(
        dec.decode_exact(&b).unwrap().variant_type(),
        VariantType::Object
    );
    let b = hex("18 00 01 00 00 00 00 00 00 00 00 00");
    assert!(g4(&b).as_object().unwrap().is_null());
}

/// A full `Node` object with `name = "abc"` and `visible = false` (docs/wire-format.md §4.7 full mode).
const FULL_OBJECT: &str = "18 00 00 00  04 00 00 00 4e 6f 64 65  02 00 00 00 \
     04 00 00 00 6e 61 6d 65  04 00 00 00 03 00 00 00 61 62 63 00 \
     07 00 00 00 76 69 73 69 62 6c 65 00  01 00 00 00 00 00 00 00";

#[test]
fn object_full_allowed_and_not() {
    // derived from docs/wire-format.md §4.7, not engine-checked
    let b = hex(FULL_OBJECT);
    let err = from_bytes(G4, &b).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ObjectsNotAllowed);
    assert_eq!(err.kind().engine_code(), Some(4));
    assert_eq!(err.offset(), 0);

    let dec = Decoder::new(G4).with_allow_objects(true);
    let (v, used) = dec.decode_prefix(&b).unwrap();
    assert_eq!(used, b.len());
    walk(&v).unwrap();
    let Some(ObjectRef::Full(o)) = v.as_object() else {
        panic!("{v:?}")
    };
    assert_eq!(o.class(), "Node");
    assert_eq!(o.len(), 2);
    let props: Vec<_> = o.properties().collect();
    assert_eq!(props[0].0, "name");
    assert_eq!(props[0].1.as_str(), Some("abc"));
    assert_eq!(props[1].0, "visible");
    assert_eq!(props[1].1, VariantRef::Bool(false));

    // Empty class name: a null object, no property count follows.
    let b = hex("18 00 00 00 00 00 00 00");
    let v = dec.decode_exact(&b).unwrap();
    assert_eq!(v, VariantRef::Object(ObjectRef::Null));
    assert!(v.as_object().unwrap().is_null());
    // Negative property count: no properties.
    let b = hex("18 00 00 00 04 00 00 00 4e 6f 64 65 ff ff ff ff");
    let Some(ObjectRef::Full(o)) = dec.decode_exact(&b).unwrap().as_object() else {
        panic!()
    };
    assert!(o.is_empty());
}

#[test]
fn signal_name_and_id() {
    // derived from docs/wire-format.md §4.8, not engine-checked
    let b = hex("1a 00 00 00  07 00 00 00 70 72 65 73 73 65 64 00  34 12 00 00 00 00 00 00");
    let VariantRef::Signal(s) = g4(&b) else {
        panic!()
    };
    assert_eq!(s.name(), "pressed");
    assert_eq!(s.object_id(), 0x1234);
    let err = from_bytes(G4, &b[..b.len() - 1]).unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::Truncated(Expected::Payload(VariantType::Signal))
    );
    assert_eq!(err.offset(), 16);
}

#[test]
fn dictionary_nested_and_duplicate_keys() {
    // derived from docs/wire-format.md §4.9, not engine-checked: {"a": [true], "a": {}} — duplicates are
    // kept in order; get_str returns the last.
    let b = hex("1b 00 00 00 02 00 00 00 \
         04 00 00 00 01 00 00 00 61 00 00 00  1c 00 00 00 01 00 00 00 01 00 00 00 01 00 00 00 \
         04 00 00 00 01 00 00 00 61 00 00 00  1b 00 00 00 00 00 00 00");
    let d = g4(&b).as_dictionary().unwrap();
    assert_eq!(d.len(), 2);
    let last = d.get("a").unwrap();
    assert!(last.as_dictionary().unwrap().is_empty());
    let (_, first) = d.iter().next().unwrap();
    let first = first.as_array().unwrap();
    assert_eq!(first.get(0).unwrap(), VariantRef::Bool(true));
}

#[test]
fn array_untyped_ignores_unused_kind_bits() {
    // derived from docs/wire-format.md §3: arrays use only bits 16–17; bits 18–19 are dictionary-only.
    let b = hex("1c 00 0c 00 01 00 00 00 00 00 00 00");
    let a = g4(&b).as_array().unwrap();
    assert_eq!(a.element_type(), None);
    assert_eq!(a.get(0).unwrap(), VariantRef::Nil);
}

#[test]
fn typed_array_builtin_class_name_script() {
    // derived from docs/wire-format.md §4.10, not engine-checked
    // BUILTIN: Array[String] ["x"].
    let b = hex("1c 00 01 00  04 00 00 00  01 00 00 00  04 00 00 00 01 00 00 00 78 00 00 00");
    let a = g4(&b).as_array().unwrap();
    assert_eq!(
        a.element_type(),
        Some(ContainerType::Builtin(VariantType::String))
    );
    assert_eq!(a.get(0).unwrap().as_str(), Some("x"));
    // BUILTIN OBJECT (id 24) and PackedVector4Array (id 38, valid from 4.3).
    let b = hex("1c 00 01 00 18 00 00 00 00 00 00 00");
    assert_eq!(
        g4(&b).as_array().unwrap().element_type(),
        Some(ContainerType::Builtin(VariantType::Object))
    );
    let b = hex("1c 00 01 00 26 00 00 00 00 00 00 00");
    assert_eq!(
        exact(Dialect::GODOT_4_3, &b)
            .as_array()
            .unwrap()
            .element_type(),
        Some(ContainerType::Builtin(VariantType::PackedVector4Array))
    );

    // CLASS_NAME: Array[Node] with one object sent by id.
    let b = hex(
        "1c 00 02 00  04 00 00 00 4e 6f 64 65  01 00 00 00  18 00 01 00 2a 00 00 00 00 00 00 00",
    );
    let a = g4(&b).as_array().unwrap();
    let Some(ContainerType::ClassName(class)) = a.element_type() else {
        panic!()
    };
    assert_eq!(class, "Node");
    assert_eq!(a.get(0).unwrap(), VariantRef::Object(ObjectRef::Id(42)));

    // SCRIPT: res:// path (10 bytes + 2 pad), empty.
    let b = hex("1c 00 03 00  0a 00 00 00 72 65 73 3a 2f 2f 61 2e 67 64 00 00  00 00 00 00");
    for allow in [false, true] {
        let dec = Decoder::new(G4).with_allow_objects(allow);
        let a = dec.decode_exact(&b).unwrap().as_array().unwrap();
        let Some(ContainerType::Script(path)) = a.element_type() else {
            panic!()
        };
        assert_eq!(path, "res://a.gd");
        assert_eq!(a.element_type().unwrap().kind(), ContainerKind::Script);
    }
}

#[test]
fn typed_array_script_path_checked_only_with_objects() {
    // derived from docs/wire-format.md §4.10, not engine-checked: "user://a.gd" (11 bytes + 1 pad) and "".
    for path in [
        "0b 00 00 00 75 73 65 72 3a 2f 2f 61 2e 67 64 00",
        "00 00 00 00",
        // "res:/" is not a res:// path either
        "05 00 00 00 72 65 73 3a 2f 00 00 00",
    ] {
        let b = hex(&format!("1c 00 03 00 {path} 00 00 00 00"));
        let v = from_bytes_exact(G4, &b).unwrap();
        assert!(matches!(
            v.as_array().unwrap().element_type(),
            Some(ContainerType::Script(_))
        ));
        let err = Decoder::new(G4)
            .with_allow_objects(true)
            .decode(&b)
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidScriptPath, "{path}");
        assert_eq!(err.kind().engine_code(), Some(30));
        assert_eq!(err.offset(), 4);
    }
}

#[test]
fn typed_dictionary_mixed_kinds() {
    // derived from docs/wire-format.md §3/§4.9, not engine-checked
    // key BUILTIN String, value CLASS_NAME "Node": kinds 0b01 | 0b10 << 2 = 0x09.
    let b = hex(
        "1b 00 09 00  04 00 00 00  04 00 00 00 4e 6f 64 65  01 00 00 00 \
         04 00 00 00 01 00 00 00 61 00 00 00  18 00 01 00 2a 00 00 00 00 00 00 00",
    );
    let d = g4(&b).as_dictionary().unwrap();
    assert_eq!(
        d.key_type(),
        Some(ContainerType::Builtin(VariantType::String))
    );
    let Some(ContainerType::ClassName(c)) = d.value_type() else {
        panic!()
    };
    assert_eq!(c, "Node");
    assert_eq!(d.get("a"), Some(VariantRef::Object(ObjectRef::Id(42))));
    // 4.3 ignores the kinds: count = 4 (the key type word), key 0 = String with length
    // 0x65646f4e ("Node" read as a length) → ERR_FILE_EOF.
    let err = from_bytes(Dialect::GODOT_4_3, &b).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::StringLength { len: 0x6564_6f4e });
    assert_eq!(err.kind().engine_code(), Some(18));
    assert_eq!(err.offset(), 12);

    // key SCRIPT, value BUILTIN Float: 0b11 | 0b01 << 2 = 0x07; empty.
    let b = hex(
        "1b 00 07 00  0a 00 00 00 72 65 73 3a 2f 2f 61 2e 67 64 00 00  03 00 00 00  00 00 00 00",
    );
    let d = g4(&b).as_dictionary().unwrap();
    assert!(d.is_empty());
    assert!(matches!(d.key_type(), Some(ContainerType::Script(p)) if p == "res://a.gd"));
    assert_eq!(
        d.value_type(),
        Some(ContainerType::Builtin(VariantType::Float))
    );

    // key NONE, value BUILTIN Int: 0b01 << 2 = 0x04.
    let b = hex("1b 00 04 00  02 00 00 00  01 00 00 00 \
         04 00 00 00 01 00 00 00 61 00 00 00  02 00 00 00 07 00 00 00");
    let d = g4(&b).as_dictionary().unwrap();
    assert_eq!(d.key_type(), None);
    assert_eq!(
        d.value_type(),
        Some(ContainerType::Builtin(VariantType::Int))
    );
    assert_eq!(d.get("a"), Some(VariantRef::Int(7)));
}

#[test]
fn packed_fixed_arrays() {
    // derived from docs/wire-format.md §4.11, not engine-checked
    let b = hex("1e 00 00 00 02 00 00 00 01 00 00 00 fe ff ff ff");
    let VariantRef::PackedInt32Array(p) = g4(&b) else {
        panic!()
    };
    assert_eq!(p.iter().collect::<Vec<_>>(), [1, -2]);

    let b = hex("1f 00 00 00 02 00 00 00 00 00 00 00 00 01 00 00 ff ff ff ff ff ff ff ff");
    let VariantRef::PackedInt64Array(p) = g4(&b) else {
        panic!()
    };
    assert_eq!(p.iter().collect::<Vec<_>>(), [1_i64 << 40, -1]);

    let b = hex("20 00 00 00 02 00 00 00 00 00 00 3f 00 00 80 bf");
    let VariantRef::PackedFloat32Array(p) = g4(&b) else {
        panic!()
    };
    assert_eq!(p.iter().collect::<Vec<_>>(), [0.5_f32, -1.0]);

    let b = hex("21 00 00 00 02 00 00 00 9a 99 99 99 99 99 b9 3f 9c 75 00 88 3c e4 37 7e");
    let VariantRef::PackedFloat64Array(p) = g4(&b) else {
        panic!()
    };
    assert_eq!(p.iter().collect::<Vec<_>>(), [0.1, 1e300]);

    let b = hex("1d 00 00 00 05 00 00 00 01 02 03 04 05 00 00 00");
    let VariantRef::PackedByteArray(p) = g4(&b) else {
        panic!()
    };
    assert_eq!(p.as_bytes(), [1, 2, 3, 4, 5]);
    let b = hex("1d 00 00 00 00 00 00 00");
    assert!(matches!(g4(&b), VariantRef::PackedByteArray(p) if p.is_empty()));
}

#[test]
fn packed_string_array_nul_terminators() {
    // derived from docs/wire-format.md §4.11, not engine-checked: ["ab", "", "xyz"], each length counting the
    // NUL terminator the encoder writes.
    let b = hex(
        "22 00 00 00 03 00 00 00  03 00 00 00 61 62 00 00  01 00 00 00 00 00 00 00 \
         04 00 00 00 78 79 7a 00",
    );
    let VariantRef::PackedStringArray(s) = g4(&b) else {
        panic!()
    };
    assert_eq!(s.len(), 3);
    let items: Vec<_> = s.iter().collect();
    assert_eq!(items[0], "ab");
    assert_eq!(items[1], "");
    assert_eq!(items[2], "xyz");
    assert_eq!(items[0].raw(), b"ab\0");
    assert_eq!(items[1].raw(), b"\0");
    assert_eq!(items[2].raw(), b"xyz\0");
    // Elements without the terminator decode the same.
    let b = hex("22 00 00 00 01 00 00 00 02 00 00 00 61 62 00 00");
    let VariantRef::PackedStringArray(s) = g4(&b) else {
        panic!()
    };
    assert_eq!(s.get(0).unwrap(), "ab");
    assert_eq!(s.get(0).unwrap().raw(), b"ab");
}

#[test]
fn packed_vector_and_color_arrays() {
    // derived from docs/wire-format.md §4.11, not engine-checked
    let b = f32_run("23000000 02000000", 1, 4);
    let VariantRef::PackedVector2Array(p) = g4(&b) else {
        panic!()
    };
    assert_eq!(p.precision(), Precision::Single);
    assert_eq!(p.iter().collect::<Vec<_>>(), [[1.0, 2.0], [3.0, 4.0]]);
    assert!(matches!(p, PackedReals::Single(s) if s.get(1) == Some([3.0, 4.0])));

    let b = f32_run("24000000 02000000", 1, 6);
    let VariantRef::PackedVector3Array(p) = g4(&b) else {
        panic!()
    };
    assert_eq!(p.get(1), Some([4.0, 5.0, 6.0]));

    let b = hex(&format!(
        "25000000 01000000 {}{}{}{}",
        F[1], F[0], F[0], F[1]
    ));
    let VariantRef::PackedColorArray(p) = g4(&b) else {
        panic!()
    };
    assert_eq!(p.get(0), Some([1.0, 0.0, 0.0, 1.0]));
}

#[test]
fn packed_vector4_array_is_4_3_plus() {
    // derived from docs/wire-format.md §2/§4.11, not engine-checked
    let b = f32_run("26000000 01000000", 1, 4);
    for d in [Dialect::GODOT_4_3, Dialect::GODOT_4_4] {
        let VariantRef::PackedVector4Array(p) = exact(d, &b) else {
            panic!()
        };
        assert_eq!(p.get(0), Some([1.0, 2.0, 3.0, 4.0]));
    }
    for d in [Dialect::GODOT_4_0, Dialect::GODOT_4_1, Dialect::GODOT_4_2] {
        let err = from_bytes(d, &b).unwrap_err();
        assert_eq!(
            err.kind(),
            ErrorKind::UnknownType { id: 38, max: 38 },
            "{d}"
        );
        assert_eq!(err.offset(), 0);
    }
}

// ---------------------------------------------------------------------------------------------
// Double-precision builds: header bit 16 on math types (docs/wire-format.md §3.4).
// ---------------------------------------------------------------------------------------------

#[test]
fn double_flag_on_every_real_math_type() {
    // derived from docs/wire-format.md §3.4, not engine-checked: each flagged type reads f64 components and
    // equals the same value sent as f32.
    let types = [
        ("05", 2),
        ("07", 4),
        ("09", 3),
        ("0b", 6),
        ("0c", 4),
        ("0e", 4),
        ("0f", 4),
        ("10", 6),
        ("11", 9),
        ("12", 12),
        ("13", 16),
    ];
    for d in ALL_G4 {
        for (id, n) in types {
            let single = f32_run(&format!("{id}000000"), 1, n);
            let double = f64_run(&format!("{id}000100"), 1, n);
            assert_eq!(double.len(), 4 + 8 * n);
            let s = exact(d, &single);
            let w = exact(d, &double);
            assert_eq!(s.precision(), Some(Precision::Single), "{d} {id}");
            assert_eq!(w.precision(), Some(Precision::Double), "{d} {id}");
            assert_eq!(s.variant_type(), w.variant_type());
            // Same components: compare the Debug form minus the precision tag.
            let strip =
                |v: &VariantRef| format!("{v:?}").replace("Single", "").replace("Double", "");
            assert_eq!(strip(&s), strip(&w), "{d} {id}");
        }
    }
}

#[test]
fn double_vector2_vector3_keep_f64_bits() {
    // derived from docs/wire-format.md §3.4, not engine-checked: 0.1 is not a float32 value.
    let b = hex(&format!("05 00 01 00 9a 99 99 99 99 99 b9 3f {}", D[2]));
    expect_math!(g4(&b), Vector2, v2(0.1, 2.0), Precision::Double);
    let b = f64_run("09000100", 1, 3);
    expect_math!(g4(&b), Vector3, v3(1.0, 2.0, 3.0), Precision::Double);
}

#[test]
fn double_transform3d_and_projection() {
    // derived from docs/wire-format.md §3.4/§4.3, not engine-checked
    let mut s = String::from("12000100");
    for i in BASIS_WIRE.into_iter().chain([10, 11, 12]) {
        s.push_str(D[i]);
    }
    let b = hex(&s);
    assert_eq!(b.len(), 4 + 96);
    let want = Transform3D {
        basis: basis_123(),
        origin: v3(10.0, 11.0, 12.0),
    };
    expect_math!(g4(&b), Transform3D, want, Precision::Double);

    let b = f64_run("13000100", 1, 16);
    assert_eq!(b.len(), 4 + 128);
    expect_math!(g4(&b), Projection, projection_1_to_16(), Precision::Double);
}

#[test]
fn double_packed_vector_arrays() {
    // derived from docs/wire-format.md §3.4/§4.11, not engine-checked
    let b = f64_run("23000100 02000000", 1, 4);
    let VariantRef::PackedVector2Array(p) = g4(&b) else {
        panic!()
    };
    assert_eq!(p.precision(), Precision::Double);
    assert!(matches!(p, PackedReals::Double(_)));
    assert_eq!(p.iter().collect::<Vec<_>>(), [[1.0, 2.0], [3.0, 4.0]]);
    assert_eq!(p.as_bytes().len(), 32);

    let b = f64_run("24000100 01000000", 1, 3);
    let VariantRef::PackedVector3Array(p) = g4(&b) else {
        panic!()
    };
    assert_eq!(p.precision(), Precision::Double);
    assert_eq!(p.get(0), Some([1.0, 2.0, 3.0]));

    let b = f64_run("26000100 01000000", 1, 4);
    let VariantRef::PackedVector4Array(p) = g4(&b) else {
        panic!()
    };
    assert_eq!(p.precision(), Precision::Double);
    assert_eq!(p.get(0), Some([1.0, 2.0, 3.0, 4.0]));
}

#[test]
fn flag_ignored_by_color_integer_vectors_and_other_packed_arrays() {
    // derived from docs/wire-format.md §3.4/§4.11, not engine-checked
    let b = hex(&format!("14 00 01 00 {}{}{}{}", F[1], F[0], F[0], F[1]));
    let want = Color {
        r: 1.0,
        g: 0.0,
        b: 0.0,
        a: 1.0,
    };
    assert_eq!(g4(&b), VariantRef::Color(want)); // 20 bytes, not 36
    let b = hex(&format!(
        "25 00 01 00 01 00 00 00 {}{}{}{}",
        F[1], F[0], F[0], F[1]
    ));
    let VariantRef::PackedColorArray(p) = g4(&b) else {
        panic!()
    };
    assert_eq!(p.get(0), Some([1.0, 0.0, 0.0, 1.0]));
    assert_eq!(
        g4(&hex("06 00 01 00 ff ff ff ff 02 00 00 00")),
        VariantRef::Vector2i(Vector2i { x: -1, y: 2 })
    );
    let b = hex("0d 00 01 00 01 00 00 00 02 00 00 00 03 00 00 00 04 00 00 00");
    assert_eq!(g4(&b).variant_type(), VariantType::Vector4i);
    let b = hex("20 00 01 00 01 00 00 00 00 00 00 3f");
    assert!(matches!(g4(&b), VariantRef::PackedFloat32Array(p) if p.get(0) == Some(0.5)));
    let b = hex("1e 00 01 00 01 00 00 00 05 00 00 00");
    assert!(matches!(g4(&b), VariantRef::PackedInt32Array(p) if p.get(0) == Some(5)));
}

// ---------------------------------------------------------------------------------------------
// UTF-8 (docs/wire-format.md §5.3, Godot 4 `parse_utf8`).
// ---------------------------------------------------------------------------------------------

#[test]
fn utf8_surrogate_and_above_max_rejected() {
    // derived from docs/wire-format.md §5.3, not engine-checked
    for text in [
        "03 00 00 00 ed a0 80 00",
        "04 00 00 00 f4 90 80 80",
        "02 00 00 00 c0 80 00 00",
    ] {
        for id in ["04", "15"] {
            let b = hex(&format!("{id} 00 00 00 {text}"));
            for d in ALL_G4 {
                let err = from_bytes(d, &b).unwrap_err();
                assert_eq!(err.kind(), ErrorKind::InvalidText, "{d} {text}");
                assert_eq!(err.kind().engine_code(), Some(30));
                assert_eq!(err.offset(), 8);
            }
        }
    }
    // Godot 3 accepts the surrogate and 0x110000 (docs/wire-format.md §5.3); not the overlong C0 80.
    assert!(from_bytes(
        Dialect::GODOT_3,
        &hex("04 00 00 00 03 00 00 00 ed a0 80 00")
    )
    .is_ok());
    assert!(from_bytes(
        Dialect::GODOT_3,
        &hex("04 00 00 00 04 00 00 00 f4 90 80 80")
    )
    .is_ok());
    // Inside containers and names the same rule applies.
    let in_array = hex("1c 00 00 00 01 00 00 00 04 00 00 00 03 00 00 00 ed a0 80 00");
    let err = from_bytes(G4, &in_array).unwrap_err();
    assert_eq!((err.kind(), err.offset()), (ErrorKind::InvalidText, 16));
    let in_psa = hex("22 00 00 00 01 00 00 00 04 00 00 00 ed a0 80 00");
    assert_eq!(
        from_bytes(G4, &in_psa).unwrap_err().kind(),
        ErrorKind::InvalidText
    );
    let in_path = hex("16 00 00 00 01 00 00 80 00 00 00 00 00 00 00 00 03 00 00 00 ed a0 80 00");
    assert_eq!(
        from_bytes(G4, &in_path).unwrap_err().kind(),
        ErrorKind::InvalidText
    );
}

#[test]
fn utf8_bom_stripped_and_nul_stops_text() {
    // derived from docs/wire-format.md §5.3, not engine-checked
    let b = hex("04 00 00 00 04 00 00 00 ef bb bf 61");
    let VariantRef::String(s) = g4(&b) else {
        panic!()
    };
    assert_eq!(s.as_str(), Some("a"));
    assert_eq!(s.raw(), b"\xEF\xBB\xBFa");

    let b = hex("04 00 00 00 03 00 00 00 61 00 62 00");
    let VariantRef::String(s) = g4(&b) else {
        panic!()
    };
    assert_eq!(s, "a");
    assert_eq!(s.bytes(), b"a");
    assert_eq!(s.raw(), b"a\0b");

    // Invalid bytes after the NUL are never parsed.
    let b = hex("04 00 00 00 03 00 00 00 61 00 ff 00");
    let VariantRef::String(s) = g4(&b) else {
        panic!()
    };
    assert_eq!(s.as_str(), Some("a"));
    assert_eq!(s.raw(), b"a\0\xff");
}
