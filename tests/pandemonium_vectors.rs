//! Pandemonium reader vectors, one generation at a time (docs/wire-format.md §2, §4.12): byte
//! strings derived from the spec by hand, for the corner cases the engine-made fixtures
//! (`tests/pandemonium_fixtures.rs`, `tests/pandemonium_differential.rs`) do not pin down.
//! The type-id tables are written out per generation (not taken from the crate) so that a
//! renumbering mistake in `src/dialect.rs` shows up.

mod support;

use gdwire::math::{
    Aabb, Basis, Color, Plane, Precision, Projection, Quaternion, Rect2, Rect2i, Transform2D,
    Transform3D, Vector2i, Vector3i, Vector4i,
};
use gdwire::read::{ArrayKind, ObjectRef};
use gdwire::{
    from_bytes, ContainerType, Decoder, Dialect, ErrorKind, Family, VariantRef, VariantType,
};
use support::hex;
use support::vectors::{f32_run, math, v2, v3, v4, walk, F};

use VariantType as T;

const PM35: Dialect = Dialect::PANDEMONIUM_3_5;
const PM38: Dialect = Dialect::PANDEMONIUM_3_8;
const PM5: Dialect = Dialect::PANDEMONIUM_5;

/// PM-A (v3.5.0 … v3.7.x), docs/wire-format.md §2.
const PM_A: [(u8, VariantType); 33] = [
    (0, T::Nil),
    (1, T::Bool),
    (2, T::Int),
    (3, T::Float),
    (4, T::String),
    (5, T::Vector2),
    (6, T::Vector2i),
    (7, T::Rect2),
    (8, T::Rect2i),
    (9, T::Vector3),
    (10, T::Vector3i),
    (11, T::Transform2D),
    (12, T::Plane),
    (13, T::Quaternion),
    (14, T::Aabb),
    (15, T::Basis),
    (16, T::Transform3D),
    (17, T::Color),
    (18, T::NodePath),
    (19, T::Rid),
    (20, T::Object),
    (21, T::StringName),
    (22, T::Dictionary),
    (23, T::Array),
    (24, T::PackedByteArray),
    (25, T::PackedInt32Array),
    (26, T::PackedFloat32Array),
    (27, T::PackedStringArray),
    (28, T::PackedVector2Array),
    (29, T::PackedVector2iArray),
    (30, T::PackedVector3Array),
    (31, T::PackedVector3iArray),
    (32, T::PackedColorArray),
];

/// PM-B (v3.8.0 … v4.9.x), docs/wire-format.md §2.
const PM_B: [(u8, VariantType); 38] = [
    (0, T::Nil),
    (1, T::Bool),
    (2, T::Int),
    (3, T::Float),
    (4, T::String),
    (5, T::Rect2),
    (6, T::Rect2i),
    (7, T::Vector2),
    (8, T::Vector2i),
    (9, T::Vector3),
    (10, T::Vector3i),
    (11, T::Vector4),
    (12, T::Vector4i),
    (13, T::Plane),
    (14, T::Quaternion),
    (15, T::Aabb),
    (16, T::Basis),
    (17, T::Transform3D),
    (18, T::Transform2D),
    (19, T::Projection),
    (20, T::Color),
    (21, T::NodePath),
    (22, T::Rid),
    (23, T::Object),
    (24, T::StringName),
    (25, T::Dictionary),
    (26, T::Array),
    (27, T::PackedByteArray),
    (28, T::PackedInt32Array),
    (29, T::PackedFloat32Array),
    (30, T::PackedStringArray),
    (31, T::PackedVector2Array),
    (32, T::PackedVector2iArray),
    (33, T::PackedVector3Array),
    (34, T::PackedVector3iArray),
    (35, T::PackedVector4Array),
    (36, T::PackedVector4iArray),
    (37, T::PackedColorArray),
];

/// PM-C (v5.0.0 …), docs/wire-format.md §2.
const PM_C: [(u8, VariantType); 40] = [
    (0, T::Nil),
    (1, T::Bool),
    (2, T::Int),
    (3, T::Float),
    (4, T::String),
    (5, T::Rect2),
    (6, T::Rect2i),
    (7, T::Vector2),
    (8, T::Vector2i),
    (9, T::Vector3),
    (10, T::Vector3i),
    (11, T::Vector4),
    (12, T::Vector4i),
    (13, T::Plane),
    (14, T::Quaternion),
    (15, T::Aabb),
    (16, T::Basis),
    (17, T::Transform3D),
    (18, T::Transform2D),
    (19, T::Projection),
    (20, T::Color),
    (21, T::NodePath),
    (22, T::Rid),
    (23, T::Object),
    (24, T::StringName),
    (25, T::Dictionary),
    (26, T::Array),
    (27, T::TypedArray),
    (28, T::PackedTypedArray),
    (29, T::PackedByteArray),
    (30, T::PackedInt32Array),
    (31, T::PackedFloat32Array),
    (32, T::PackedStringArray),
    (33, T::PackedVector2Array),
    (34, T::PackedVector2iArray),
    (35, T::PackedVector3Array),
    (36, T::PackedVector3iArray),
    (37, T::PackedVector4Array),
    (38, T::PackedVector4iArray),
    (39, T::PackedColorArray),
];

fn generations() -> [(Dialect, &'static [(u8, VariantType)]); 3] {
    [(PM35, &PM_A), (PM38, &PM_B), (PM5, &PM_C)]
}

/// Decodes with `dialect`; the value must use every byte and walk without errors.
fn exact(dialect: Dialect, bytes: &[u8]) -> VariantRef<'_> {
    let dec = Decoder::new(dialect);
    let (value, used) = dec
        .decode_prefix(bytes)
        .unwrap_or_else(|e| panic!("{dialect}: {e} for {bytes:02x?}"));
    assert_eq!(
        used,
        bytes.len(),
        "{dialect}: consumed length of {bytes:02x?}"
    );
    assert_eq!(dec.validate(bytes), Ok(bytes.len()));
    walk(&value).unwrap_or_else(|e| panic!("{dialect}: walk failed: {e}"));
    value
}

fn basis_wire() -> String {
    [1, 4, 7, 2, 5, 8, 3, 6, 9].iter().map(|&i| F[i]).collect()
}

/// Header bits 8–31 and payload of the canonical vector for `ty` (derived from docs/wire-format.md §4 and
/// §4.12, not engine-checked). Only ids shared by every Pandemonium generation appear inside
/// payloads: NIL 0, BOOL 1, INT 2, STRING 4.
fn payload(ty: VariantType) -> (&'static str, String) {
    let f = |first: usize, last: usize| F[first..=last].concat();
    let plain = "000000";
    let p = match ty {
        T::Nil | T::Rid => String::new(),
        T::Bool => "01000000".into(),
        T::Int => "f9ffffff".into(),
        T::Float => "0000003f".into(),
        T::String => "03000000 61626300".into(),
        T::StringName => "03000000 78797a00".into(),
        T::Vector2 => f(1, 2),
        T::Vector2i => "01000000 feffffff".into(),
        T::Rect2 | T::Vector4 | T::Plane | T::Quaternion => f(1, 4),
        T::Rect2i | T::Vector4i => "01000000 02000000 03000000 04000000".into(),
        T::Vector3 => f(1, 3),
        T::Vector3i => "01000000 02000000 03000000".into(),
        T::Transform2D | T::Aabb => f(1, 6),
        T::Basis => basis_wire(),
        T::Transform3D => basis_wire() + &f(10, 12),
        T::Projection => f(1, 16),
        T::Color => [F[1], F[0], F[0], F[1]].concat(),
        T::NodePath => "01000080 00000000 01000000 01000000 61000000".into(),
        T::Object => return ("000100", "2a00000000000000".into()),
        T::Dictionary => "01000000 04000000 01000000 61000000 02000000 07000000".into(),
        T::Array => "02000000 02000000 05000000 01000000 01000000".into(),
        T::TypedArray | T::PackedTypedArray => "02000000 01000000 02000000 09000000".into(),
        T::PackedByteArray => "03000000 01020300".into(),
        T::PackedInt32Array => "02000000 01000000 feffffff".into(),
        T::PackedFloat32Array => "01000000 0000003f".into(),
        T::PackedStringArray => "01000000 03000000 61620000".into(),
        T::PackedVector2Array => format!("01000000 {}", f(1, 2)),
        T::PackedVector2iArray => "01000000 01000000 feffffff".into(),
        T::PackedVector3Array => format!("01000000 {}", f(1, 3)),
        T::PackedVector3iArray => "01000000 01000000 02000000 03000000".into(),
        T::PackedVector4Array => format!("01000000 {}", f(1, 4)),
        T::PackedVector4iArray => "01000000 01000000 02000000 03000000 04000000".into(),
        T::PackedColorArray => format!("01000000 {}{}{}{}", F[1], F[0], F[0], F[1]),
        other => panic!("no Pandemonium vector for {other:?}"),
    };
    (plain, p)
}

fn encode(id: u8, ty: VariantType) -> Vec<u8> {
    let (rest, p) = payload(ty);
    hex(&format!("{id:02x}{rest} {p}"))
}

/// Asserts `v` is the math variant `$variant` holding `want`, sent in single precision.
macro_rules! expect_single {
    ($v:expr, $variant:ident, $want:expr) => {
        expect_math!($v, $variant, $want, Precision::Single)
    };
}

/// Checks the decoded canonical vector of `ty`.
fn check(ty: VariantType, v: &VariantRef<'_>) {
    let basis = Basis::from_columns(v3(1.0, 2.0, 3.0), v3(4.0, 5.0, 6.0), v3(7.0, 8.0, 9.0));
    let expected = match ty {
        T::Nil => Some(VariantRef::Nil),
        T::Bool => Some(VariantRef::Bool(true)),
        T::Int => Some(VariantRef::Int(-7)),
        T::Float => Some(VariantRef::Float(0.5)),
        T::Rid => Some(VariantRef::Rid(None)),
        T::Vector2 => return expect_single!(v, Vector2, v2(1.0, 2.0)),
        T::Vector2i => Some(VariantRef::Vector2i(Vector2i { x: 1, y: -2 })),
        T::Rect2 => {
            return expect_single!(
                v,
                Rect2,
                Rect2 {
                    position: v2(1.0, 2.0),
                    size: v2(3.0, 4.0),
                }
            )
        }
        T::Rect2i => Some(VariantRef::Rect2i(Rect2i {
            position: Vector2i { x: 1, y: 2 },
            size: Vector2i { x: 3, y: 4 },
        })),
        T::Vector3 => return expect_single!(v, Vector3, v3(1.0, 2.0, 3.0)),
        T::Vector3i => Some(VariantRef::Vector3i(Vector3i { x: 1, y: 2, z: 3 })),
        T::Transform2D => {
            return expect_single!(
                v,
                Transform2D,
                Transform2D {
                    x: v2(1.0, 2.0),
                    y: v2(3.0, 4.0),
                    origin: v2(5.0, 6.0),
                }
            )
        }
        T::Vector4 => return expect_single!(v, Vector4, v4(1.0, 2.0, 3.0, 4.0)),
        T::Vector4i => Some(VariantRef::Vector4i(Vector4i {
            x: 1,
            y: 2,
            z: 3,
            w: 4,
        })),
        T::Plane => {
            return expect_single!(
                v,
                Plane,
                Plane {
                    normal: v3(1.0, 2.0, 3.0),
                    d: 4.0,
                }
            )
        }
        T::Quaternion => {
            return expect_single!(
                v,
                Quaternion,
                Quaternion {
                    x: 1.0,
                    y: 2.0,
                    z: 3.0,
                    w: 4.0,
                }
            )
        }
        T::Aabb => {
            return expect_single!(
                v,
                Aabb,
                Aabb {
                    position: v3(1.0, 2.0, 3.0),
                    size: v3(4.0, 5.0, 6.0),
                }
            )
        }
        T::Basis => return expect_single!(v, Basis, basis),
        T::Transform3D => {
            return expect_single!(
                v,
                Transform3D,
                Transform3D {
                    basis,
                    origin: v3(10.0, 11.0, 12.0),
                }
            )
        }
        T::Projection => {
            return expect_single!(
                v,
                Projection,
                Projection {
                    columns: [
                        v4(1.0, 2.0, 3.0, 4.0),
                        v4(5.0, 6.0, 7.0, 8.0),
                        v4(9.0, 10.0, 11.0, 12.0),
                        v4(13.0, 14.0, 15.0, 16.0),
                    ],
                }
            )
        }
        T::Color => Some(VariantRef::Color(Color {
            r: 1.0,
            g: 0.0,
            b: 0.0,
            a: 1.0,
        })),
        T::Object => Some(VariantRef::Object(ObjectRef::Id(42))),
        _ => None,
    };
    if let Some(want) = expected {
        assert_eq!(*v, want, "{ty:?}");
        return;
    }
    match (ty, v) {
        (T::String, VariantRef::String(s)) => assert_eq!(*s, "abc"),
        (T::StringName, VariantRef::StringName(s)) => assert_eq!(*s, "xyz"),
        (T::NodePath, VariantRef::NodePath(p)) => {
            assert!(p.is_absolute());
            assert!(p.names().eq(["a"]));
            assert_eq!(p.subname_count(), 0);
        }
        (T::Dictionary, VariantRef::Dictionary(d)) => {
            assert_eq!(d.len(), 1);
            assert_eq!((d.key_type(), d.value_type()), (None, None));
            assert_eq!(d.get("a"), Some(VariantRef::Int(7)));
        }
        (T::Array, VariantRef::Array(a)) => {
            assert_eq!(a.kind(), ArrayKind::Array);
            assert_eq!(a.element_type(), None);
            let items: Vec<_> = a.iter().collect();
            assert_eq!(items, [VariantRef::Int(5), VariantRef::Bool(true)]);
        }
        (T::TypedArray | T::PackedTypedArray, VariantRef::Array(a)) => {
            let kind = if ty == T::TypedArray {
                ArrayKind::TypedArray
            } else {
                ArrayKind::PackedTypedArray
            };
            assert_eq!(a.kind(), kind);
            assert_eq!(a.element_type(), Some(ContainerType::Builtin(T::Int)));
            let items: Vec<_> = a.iter().collect();
            assert_eq!(items, [VariantRef::Int(9)]);
        }
        (T::PackedByteArray, VariantRef::PackedByteArray(p)) => assert_eq!(p.as_bytes(), [1, 2, 3]),
        (T::PackedInt32Array, VariantRef::PackedInt32Array(p)) => {
            assert_eq!(p.iter().collect::<Vec<_>>(), [1, -2])
        }
        (T::PackedFloat32Array, VariantRef::PackedFloat32Array(p)) => {
            assert_eq!(p.iter().collect::<Vec<_>>(), [0.5])
        }
        (T::PackedStringArray, VariantRef::PackedStringArray(p)) => {
            assert_eq!(p.len(), 1);
            assert_eq!(p.get(0).unwrap(), "ab");
            assert_eq!(p.get(0).unwrap().raw(), b"ab\0");
        }
        (T::PackedVector2Array, VariantRef::PackedVector2Array(p)) => {
            assert_eq!(p.precision(), Precision::Single);
            assert_eq!(p.iter().collect::<Vec<_>>(), [[1.0, 2.0]]);
        }
        (T::PackedVector3Array, VariantRef::PackedVector3Array(p)) => {
            assert_eq!(p.precision(), Precision::Single);
            assert_eq!(p.iter().collect::<Vec<_>>(), [[1.0, 2.0, 3.0]]);
        }
        (T::PackedVector4Array, VariantRef::PackedVector4Array(p)) => {
            assert_eq!(p.precision(), Precision::Single);
            // Read as written: the decoder's w-from-z-slot bug (docs/wire-format.md §4.12) is not copied.
            assert_eq!(p.iter().collect::<Vec<_>>(), [[1.0, 2.0, 3.0, 4.0]]);
        }
        (T::PackedVector2iArray, VariantRef::PackedVector2iArray(p)) => {
            assert_eq!(p.iter().collect::<Vec<_>>(), [[1, -2]])
        }
        (T::PackedVector3iArray, VariantRef::PackedVector3iArray(p)) => {
            assert_eq!(p.iter().collect::<Vec<_>>(), [[1, 2, 3]])
        }
        (T::PackedVector4iArray, VariantRef::PackedVector4iArray(p)) => {
            assert_eq!(p.iter().collect::<Vec<_>>(), [[1, 2, 3, 4]])
        }
        (T::PackedColorArray, VariantRef::PackedColorArray(p)) => {
            assert_eq!(p.iter().collect::<Vec<_>>(), [[1.0, 0.0, 0.0, 1.0]])
        }
        _ => panic!("{ty:?} decoded as {v:?}"),
    }
}

#[test]
fn id_tables_are_complete() {
    for (d, table) in generations() {
        assert_eq!(d.family(), Family::Pandemonium);
        assert_eq!(table.len(), d.variant_max() as usize, "{d}");
        for (i, &(id, ty)) in table.iter().enumerate() {
            assert_eq!(id as usize, i);
            assert_eq!(d.type_of(id), Some(ty), "{d} id {id}");
            assert_eq!(d.wire_id(ty), Some(id), "{d} {ty:?}");
        }
        // Pandemonium has no Callable / Signal (docs/wire-format.md §2).
        assert!(!d.supports(T::Callable) && !d.supports(T::Signal));
        assert!(!d.rid_has_payload());
        assert!(!d.math_follows_flag_64());
    }
}

fn every_type_of(d: Dialect, table: &[(u8, VariantType)]) {
    for &(id, ty) in table {
        let b = encode(id, ty);
        let v = exact(d, &b);
        assert_eq!(v.variant_type(), ty, "{d} id {id}");
        check(ty, &v);
        // The same vector inside an Array (id 23 in PM-A, 26 in PM-B/C) followed by Int(7):
        // checks the consumed length of every type.
        let array_id = d.wire_id(T::Array).unwrap();
        let mut nested = hex(&format!("{array_id:02x}000000 02000000"));
        nested.extend_from_slice(&b);
        nested.extend_from_slice(&hex("02000000 07000000"));
        let a = exact(d, &nested).as_array().unwrap();
        let items: Vec<_> = a.iter().collect();
        check(ty, &items[0]);
        assert_eq!(items[1], VariantRef::Int(7), "{d} after {ty:?}");
    }
}

#[test]
fn pandemonium_3_5_every_type() {
    every_type_of(PM35, &PM_A);
}

#[test]
fn pandemonium_3_8_every_type() {
    every_type_of(PM38, &PM_B);
}

#[test]
fn pandemonium_5_every_type() {
    every_type_of(PM5, &PM_C);
}

#[test]
fn renumbered_ids_decode_per_generation() {
    // derived from docs/wire-format.md §2, not engine-checked
    // id 5: Vector2 (12 bytes) in 3.5, Rect2 (20 bytes) in 3.8 and 5.
    let b = f32_run("05000000", 1, 4);
    let (v, used) = Decoder::new(PM35).decode_prefix(&b).unwrap();
    assert_eq!((v.variant_type(), used), (T::Vector2, 12));
    for d in [PM38, PM5] {
        let (v, used) = Decoder::new(d).decode_prefix(&b).unwrap();
        assert_eq!((v.variant_type(), used), (T::Rect2, 20), "{d}");
    }
    // id 11: Transform2D in 3.5, Vector4 in 3.8/5.
    let b = f32_run("0b000000", 1, 6);
    assert_eq!(exact(PM35, &b).variant_type(), T::Transform2D);
    let (v, used) = Decoder::new(PM38).decode_prefix(&b).unwrap();
    assert_eq!((v.variant_type(), used), (T::Vector4, 20));
    // id 17: Color in 3.5, Transform3D in 3.8/5 (needs 48 bytes).
    let b = f32_run("11000000", 1, 4);
    assert_eq!(exact(PM35, &b).variant_type(), T::Color);
    assert!(from_bytes(PM38, &b).is_err());
    // id 19: RID (no payload) in 3.5, Projection in 3.8.
    let b = hex("13000000");
    assert_eq!(exact(PM35, &b), VariantRef::Rid(None));
    assert!(from_bytes(PM38, &b).is_err());
    // id 21: StringName in 3.5, NodePath in 3.8/5; id 24: StringName in 3.8/5, PoolByteArray
    // in 3.5.
    let b = hex("15000000 01000000 61000000");
    assert_eq!(exact(PM35, &b).variant_type(), T::StringName);
    assert_eq!(
        from_bytes(PM38, &b).unwrap_err().kind(),
        ErrorKind::OldNodePath
    );
    let b = hex("18000000 01000000 61000000");
    assert_eq!(exact(PM35, &b).variant_type(), T::PackedByteArray);
    assert_eq!(exact(PM38, &b).variant_type(), T::StringName);
    assert_eq!(exact(PM5, &b).variant_type(), T::StringName);
    // id 23: Array in 3.5, Object in 3.8/5.
    let b = hex("17000000 00000000");
    assert_eq!(exact(PM35, &b).variant_type(), T::Array);
    assert_eq!(
        from_bytes(PM38, &b).unwrap_err().kind(),
        ErrorKind::ObjectsNotAllowed
    );
    // id 27: PoolStringArray in 3.5, PoolByteArray in 3.8, TypedArray in 5.
    let b = hex("1b000000 00000000");
    assert_eq!(exact(PM35, &b).variant_type(), T::PackedStringArray);
    assert_eq!(exact(PM38, &b).variant_type(), T::PackedByteArray);
    let b = hex("1b000000 02000000 00000000");
    assert_eq!(exact(PM5, &b).variant_type(), T::TypedArray);
    // id 29: PoolVector2iArray in 3.5, PoolRealArray in 3.8, PoolByteArray in 5.
    let b = hex("1d000000 01000000 01000000 02000000");
    assert_eq!(exact(PM35, &b).variant_type(), T::PackedVector2iArray);
    let (v, used) = Decoder::new(PM38).decode_prefix(&b).unwrap();
    assert_eq!((v.variant_type(), used), (T::PackedFloat32Array, 12));
    let (v, used) = Decoder::new(PM5).decode_prefix(&b).unwrap();
    assert_eq!((v.variant_type(), used), (T::PackedByteArray, 12));
    // id 32: PoolColorArray (last) in 3.5, PoolVector2iArray in 3.8, PoolStringArray in 5.
    assert_eq!(PM35.type_of(32), Some(T::PackedColorArray));
    assert_eq!(PM38.type_of(32), Some(T::PackedVector2iArray));
    assert_eq!(PM5.type_of(32), Some(T::PackedStringArray));
}

#[test]
fn ids_at_or_above_variant_max_rejected() {
    for (d, max) in [(PM35, 33u8), (PM38, 38), (PM5, 40)] {
        assert_eq!(d.variant_max(), max);
        for id in [max, max + 1, 0xff] {
            let b = hex(&format!("{id:02x}000000 00000000 00000000"));
            let err = from_bytes(d, &b).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::UnknownType { id, max }, "{d}");
            assert_eq!(err.offset(), 0);
            assert_eq!(err.kind().engine_code(), Some(30));
        }
        // The last id is the colour array in every generation.
        let b = encode(max - 1, T::PackedColorArray);
        assert_eq!(exact(d, &b).variant_type(), T::PackedColorArray);
    }
}

#[test]
fn rid_has_no_payload() {
    // derived from docs/wire-format.md §4.6/§4.12, not engine-checked: [RID, 5]
    for (d, rid, array) in [(PM35, 0x13, 0x17), (PM38, 0x16, 0x1a), (PM5, 0x16, 0x1a)] {
        let b = hex(&format!(
            "{array:02x}000000 02000000 {rid:02x}000000 02000000 05000000"
        ));
        let a = exact(d, &b).as_array().unwrap();
        let items: Vec<_> = a.iter().collect();
        assert_eq!(items, [VariantRef::Rid(None), VariantRef::Int(5)], "{d}");
    }
}

#[test]
fn math_ignores_the_64_bit_flag() {
    // derived from docs/wire-format.md §3.4, not engine-checked: Pandemonium math is always f32; bit 16 is
    // ignored (a flag-following reader would need twice the bytes and fail).
    let real_math = [
        T::Vector2,
        T::Rect2,
        T::Vector3,
        T::Transform2D,
        T::Vector4,
        T::Plane,
        T::Quaternion,
        T::Aabb,
        T::Basis,
        T::Transform3D,
        T::Projection,
        T::Color,
        T::PackedVector2Array,
        T::PackedVector3Array,
        T::PackedVector4Array,
        T::PackedColorArray,
    ];
    for (d, table) in generations() {
        for &(id, ty) in table.iter().filter(|(_, ty)| real_math.contains(ty)) {
            let (_, p) = payload(ty);
            let b = hex(&format!("{id:02x}000100 {p}"));
            let v = exact(d, &b);
            assert_eq!(v.variant_type(), ty, "{d}");
            if ty != T::Color && ty != T::PackedColorArray {
                assert_eq!(v.precision(), Some(Precision::Single), "{d} {ty:?}");
            }
            check(ty, &v);
        }
    }
}

#[test]
fn int_and_float_follow_the_64_bit_flag() {
    // derived from docs/wire-format.md §3.2/§3.3, not engine-checked
    for d in [PM35, PM38, PM5] {
        let b = hex("02000100 ffffffff ffffff7f");
        assert_eq!(exact(d, &b), VariantRef::Int(i64::MAX));
        let b = hex("03000100 9a9999999999b93f");
        assert_eq!(exact(d, &b), VariantRef::Float(0.1));
    }
}

#[test]
fn vector4_reads_16_bytes_inside_containers() {
    // derived from docs/wire-format.md §4.12/§4.12, not engine-checked. The engine decoder advances only 12
    // bytes after a Vector4/Vector4i and would read the next element 4 bytes early; the bytes
    // its encoder writes are [Vector4(1,2,3,4), 7], which is what must come out.
    for d in [PM38, PM5] {
        let b = hex(&format!(
            "1a000000 02000000 0b000000 {} 02000000 07000000",
            F[1..=4].concat()
        ));
        let a = exact(d, &b).as_array().unwrap();
        let items: Vec<_> = a.iter().collect();
        assert_eq!(
            items,
            [
                VariantRef::Vector4(math(v4(1.0, 2.0, 3.0, 4.0), Precision::Single)),
                VariantRef::Int(7)
            ]
        );
        let b =
            hex("1a000000 02000000 0c000000 01000000 02000000 03000000 04000000 02000000 07000000");
        let a = exact(d, &b).as_array().unwrap();
        let items: Vec<_> = a.iter().collect();
        assert_eq!(items[1], VariantRef::Int(7), "{d}");
        // As a dictionary key: {Vector4i(1,2,3,4): 7}.
        let b =
            hex("19000000 01000000 0c000000 01000000 02000000 03000000 04000000 02000000 07000000");
        let dict = exact(d, &b).as_dictionary().unwrap();
        let (k, v) = dict.iter().next().unwrap();
        assert_eq!(
            k,
            VariantRef::Vector4i(Vector4i {
                x: 1,
                y: 2,
                z: 3,
                w: 4
            })
        );
        assert_eq!(v, VariantRef::Int(7));
    }
}

#[test]
fn projection_needs_only_its_64_bytes() {
    // derived from docs/wire-format.md §4.12, not engine-checked: the engine's length check wants 248 bytes
    // (typo for 16 floats); a 68-byte Projection value is what its encoder writes.
    let b = f32_run("13000000", 1, 16);
    assert_eq!(b.len(), 68);
    for d in [PM38, PM5] {
        assert_eq!(exact(d, &b).variant_type(), T::Projection);
    }
}

#[test]
fn pool_vector_int_arrays() {
    // derived from docs/wire-format.md §4.12, not engine-checked
    for (d, v2i, v3i, v4i) in [
        (PM35, Some(0x1d), 0x1f, None),
        (PM38, Some(0x20), 0x22, Some(0x24)),
        (PM5, Some(0x22), 0x24, Some(0x26)),
    ] {
        let b = hex(&format!(
            "{:02x}000000 02000000 01000000 02000000 fdffffff 04000000",
            v2i.unwrap()
        ));
        let VariantRef::PackedVector2iArray(p) = exact(d, &b) else {
            panic!("{d}")
        };
        assert_eq!(p.iter().collect::<Vec<_>>(), [[1, 2], [-3, 4]]);
        let b = hex(&format!(
            "{v3i:02x}000000 01000000 01000000 02000000 03000000"
        ));
        let VariantRef::PackedVector3iArray(p) = exact(d, &b) else {
            panic!("{d}")
        };
        assert_eq!(p.get(0), Some([1, 2, 3]));
        if let Some(id) = v4i {
            // Encoder bug (docs/wire-format.md §4.12): it writes z in the w slot, so real data has w == z;
            // the reader returns the four words as sent.
            let b = hex(&format!(
                "{id:02x}000000 01000000 01000000 02000000 03000000 03000000"
            ));
            let VariantRef::PackedVector4iArray(p) = exact(d, &b) else {
                panic!("{d}")
            };
            assert_eq!(p.get(0), Some([1, 2, 3, 3]));
        } else {
            assert!(!d.supports(T::PackedVector4iArray));
            assert!(!d.supports(T::Vector4));
            assert!(!d.supports(T::Projection));
        }
        // Truncated element data.
        let b = hex(&format!(
            "{v3i:02x}000000 02000000 01000000 02000000 03000000"
        ));
        let err = from_bytes(d, &b).unwrap_err();
        assert_eq!(err.kind().engine_code(), Some(30));
        assert_eq!(err.offset(), 4);
    }
}

#[test]
fn typed_array_builtin_element() {
    // derived from docs/wire-format.md §4.12, not engine-checked (PM-C: TypedArray 27, PackedTypedArray 28)
    for (id, kind) in [
        (0x1b, ArrayKind::TypedArray),
        (0x1c, ArrayKind::PackedTypedArray),
    ] {
        let b = hex(&format!(
            "{id:02x}000000 02000000 02000000 02000000 05000000 02000000 06000000"
        ));
        let a = exact(PM5, &b).as_array().unwrap();
        assert_eq!(a.kind(), kind);
        assert_eq!(a.element_type(), Some(ContainerType::Builtin(T::Int)));
        assert_eq!(
            a.element_type().unwrap().kind(),
            gdwire::header::ContainerKind::Builtin
        );
        let items: Vec<_> = a.iter().collect();
        assert_eq!(items, [VariantRef::Int(5), VariantRef::Int(6)]);

        // Element type word and count are masked with 0x7FFFFFFF.
        let b = hex(&format!(
            "{id:02x}000000 02000080 01000080 02000000 05000000"
        ));
        let a = exact(PM5, &b).as_array().unwrap();
        assert_eq!(a.element_type(), Some(ContainerType::Builtin(T::Int)));
        assert_eq!(a.len(), 1);

        // The element type is not range-checked by the engine.
        let b = hex(&format!("{id:02x}000000 63000000 00000000"));
        let a = exact(PM5, &b).as_array().unwrap();
        assert_eq!(a.element_type(), Some(ContainerType::UnknownBuiltin(99)));
    }
}

#[test]
fn typed_array_of_objects() {
    // derived from docs/wire-format.md §4.12, not engine-checked. OBJECT = 23 (0x17), STRING_NAME = 24 (0x18).
    for id in [0x1b, 0x1c] {
        // Bit 16 clear: a full StringName value names the class.
        let b = hex(&format!(
            "{id:02x}000000 17000000 18000000 04000000 4e6f6465 01000000 17000100 2a00000000000000"
        ));
        let a = exact(PM5, &b).as_array().unwrap();
        let Some(ContainerType::ClassName(class)) = a.element_type() else {
            panic!("{:?}", a.element_type())
        };
        assert_eq!(class, "Node");
        assert_eq!(a.get(0).unwrap(), VariantRef::Object(ObjectRef::Id(42)));
        // A String value (id 4) is refused, as the engine refuses it (ERR_INVALID_DATA).
        let b = hex(&format!(
            "{id:02x}000000 17000000 04000000 04000000 4e6f6465 00000000"
        ));
        let err = from_bytes(PM5, &b).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidClassName);
        assert_eq!(err.offset(), 8);
        // Bit 16 set (objects as ids): no class name.
        let b = hex(&format!(
            "{id:02x}000100 17000000 01000000 17000100 2a00000000000000"
        ));
        let a = exact(PM5, &b).as_array().unwrap();
        assert_eq!(a.element_type(), Some(ContainerType::Builtin(T::Object)));
        assert_eq!(a.get(0).unwrap(), VariantRef::Object(ObjectRef::Id(42)));
        // Bit 16 on a non-object element type changes nothing.
        let b = hex(&format!("{id:02x}000100 02000000 00000000"));
        let a = exact(PM5, &b).as_array().unwrap();
        assert_eq!(a.element_type(), Some(ContainerType::Builtin(T::Int)));
        // A class-name value that is not a string: rejected (documented deviation).
        let b = hex(&format!(
            "{id:02x}000000 17000000 02000000 05000000 00000000"
        ));
        let err = from_bytes(PM5, &b).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidClassName);
        assert_eq!(err.offset(), 8);
        // Missing count after the class name.
        let b = hex(&format!(
            "{id:02x}000000 17000000 18000000 04000000 4e6f6465"
        ));
        let err = from_bytes(PM5, &b).unwrap_err();
        assert_eq!(err.offset(), 20);
        assert_eq!(err.kind().engine_code(), Some(30));
    }
}

#[test]
fn typed_arrays_only_in_pandemonium_5() {
    for d in [PM35, PM38] {
        assert!(!d.supports(T::TypedArray) && !d.supports(T::PackedTypedArray));
        assert!(!d.has_typed_arrays() && !d.has_typed_dictionaries());
    }
    // Godot 4.3-style typed array header bits are ignored by Pandemonium arrays.
    let b = hex("1a000100 01000000 02000000 05000000");
    let a = exact(PM38, &b).as_array().unwrap();
    assert_eq!(a.element_type(), None);
    assert_eq!(a.get(0).unwrap(), VariantRef::Int(5));
}

#[test]
fn objects_and_text() {
    // derived from docs/wire-format.md §4.7/§5.3, not engine-checked
    for (d, obj) in [(PM35, 0x14), (PM38, 0x17), (PM5, 0x17)] {
        let b = hex(&format!("{obj:02x}000000 04000000 4e6f6465 00000000"));
        let err = from_bytes(d, &b).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ErrorKind::ObjectsNotAllowed, 0)
        );
        assert_eq!(err.kind().engine_code(), Some(4));
        let v = Decoder::new(d)
            .with_allow_objects(true)
            .decode_exact(&b)
            .unwrap();
        let Some(ObjectRef::Full(o)) = v.as_object() else {
            panic!()
        };
        assert_eq!(o.class(), "Node");
        // Strict UTF-8 (parse_utf8 returns an error for surrogates).
        let err = from_bytes(d, &hex("04000000 03000000 eda08000")).unwrap_err();
        assert_eq!((err.kind(), err.offset()), (ErrorKind::InvalidText, 8));
    }
}
