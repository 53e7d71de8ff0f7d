//! Features `glam` and `mint`: their math types are the exact Godot math types. The truth is
//! the Godot 4.6 engine: its fixtures (`tests/fixtures/godot4/values.jsonl`) were made by
//! `tests/godot4/generate.gd` from GDScript constructors such as
//! `Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9))` (columns); the same
//! construction in glam and mint must serialize to the engine's bytes, and the engine's
//! bytes deserialize to it. Godot 3.2.3's fixtures of the same types round-trip too.

mod support;

use gdwire::math::{AsGodot, Basis, Vector3};
use gdwire::serde::{from_bytes, to_vec, Godot};
use gdwire::Dialect;
use glam::{
    Affine2, Affine3A, IVec2, IVec3, IVec4, Mat3, Mat3A, Mat4, Quat, Vec2, Vec3, Vec3A, Vec4,
};
use serde::{Deserialize, Serialize};
use support::{hex_of, Fixture};

const G4: Dialect = Dialect::GODOT_4;
const G3: Dialect = Dialect::GODOT_3;

fn fixture(fixtures: &[Fixture], name: &str) -> Vec<u8> {
    fixtures
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no fixture {name}"))
        .bytes
        .clone()
}

/// `value` (as `Godot<T>`) writes the engine's bytes and the engine's bytes read as `value`.
fn engine_is<T>(d: Dialect, engine: &[u8], value: T)
where
    T: AsGodot + Copy + PartialEq + std::fmt::Debug,
    T::Godot: Serialize + for<'de> Deserialize<'de>,
{
    let ours = to_vec(d, &Godot(value)).unwrap();
    assert_eq!(hex_of(&ours), hex_of(engine), "{value:?}");
    let back: Godot<T> = from_bytes(d, engine).unwrap();
    assert_eq!(back.0, value);
}

#[test]
fn glam_constructions_are_the_engines_values() {
    let f = support::godot4_values();
    let v3 = Vec3::new;
    engine_is(G4, &fixture(&f, "vector2_1_2"), Vec2::new(1.0, 2.0));
    engine_is(G4, &fixture(&f, "vector3_1_2_3"), v3(1.0, 2.0, 3.0));
    engine_is(G4, &fixture(&f, "vector3_1_2_3"), Vec3A::new(1.0, 2.0, 3.0));
    engine_is(
        G4,
        &fixture(&f, "vector4_1_2_3_4"),
        Vec4::new(1.0, 2.0, 3.0, 4.0),
    );
    engine_is(G4, &fixture(&f, "vector2i_1_neg2"), IVec2::new(1, -2));
    engine_is(G4, &fixture(&f, "vector3i_1_2_3"), IVec3::new(1, 2, 3));
    engine_is(G4, &fixture(&f, "vector4i_1_2_3_4"), IVec4::new(1, 2, 3, 4));
    engine_is(
        G4,
        &fixture(&f, "quaternion_1_2_3_4"),
        Quat::from_xyzw(1.0, 2.0, 3.0, 4.0),
    );
    engine_is(G4, &fixture(&f, "quaternion_identity"), Quat::IDENTITY);
    // Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)): three columns.
    let cols = (v3(1.0, 2.0, 3.0), v3(4.0, 5.0, 6.0), v3(7.0, 8.0, 9.0));
    let m = Mat3::from_cols(cols.0, cols.1, cols.2);
    engine_is(G4, &fixture(&f, "basis_1_to_9"), m);
    engine_is(G4, &fixture(&f, "basis_1_to_9"), Mat3A::from(m));
    engine_is(G4, &fixture(&f, "basis_identity"), Mat3::IDENTITY);
    // Transform3D(that basis, Vector3(10, 11, 12)).
    let t = Affine3A::from_mat3_translation(m, v3(10.0, 11.0, 12.0));
    engine_is(G4, &fixture(&f, "transform3d_1_to_12"), t);
    engine_is(G4, &fixture(&f, "transform3d_identity"), Affine3A::IDENTITY);
    // Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6)): x, y, origin.
    let t2 = Affine2::from_cols(
        Vec2::new(1.0, 2.0),
        Vec2::new(3.0, 4.0),
        Vec2::new(5.0, 6.0),
    );
    engine_is(G4, &fixture(&f, "transform2d_1_to_6"), t2);
    engine_is(G4, &fixture(&f, "transform2d_identity"), Affine2::IDENTITY);
    // Projection(Vector4(1, 2, 3, 4), …): four columns.
    let p = Mat4::from_cols_array(&core::array::from_fn(|i| i as f32 + 1.0));
    engine_is(G4, &fixture(&f, "projection_1_to_16"), p);
    engine_is(G4, &fixture(&f, "projection_identity"), Mat4::IDENTITY);
    // GDScript's basis.x is glam's x_axis.
    let b: Basis = m.into();
    assert_eq!(
        b.x(),
        Vector3 {
            x: 1.0,
            y: 2.0,
            z: 3.0
        }
    );
}

#[test]
fn mint_constructions_are_the_engines_values() {
    use mint::{ColumnMatrix2x3, ColumnMatrix3, ColumnMatrix3x4, ColumnMatrix4, RowMatrix3};
    let f = support::godot4_values();
    let v2 = |x, y| mint::Vector2 { x, y };
    let v3 = |x, y, z| mint::Vector3 { x, y, z };
    engine_is(G4, &fixture(&f, "vector2_1_2"), v2(1.0f32, 2.0));
    engine_is(G4, &fixture(&f, "vector3_1_2_3"), v3(1.0f32, 2.0, 3.0));
    engine_is(
        G4,
        &fixture(&f, "vector3_1_2_3"),
        mint::Point3 {
            x: 1.0f32,
            y: 2.0,
            z: 3.0,
        },
    );
    engine_is(
        G4,
        &fixture(&f, "vector4_1_2_3_4"),
        mint::Vector4::from([1.0f32, 2.0, 3.0, 4.0]),
    );
    engine_is(
        G4,
        &fixture(&f, "vector2i_1_neg2"),
        mint::Vector2 { x: 1i32, y: -2 },
    );
    engine_is(
        G4,
        &fixture(&f, "vector3i_1_2_3"),
        mint::Vector3::from([1i32, 2, 3]),
    );
    engine_is(
        G4,
        &fixture(&f, "vector4i_1_2_3_4"),
        mint::Vector4::from([1i32, 2, 3, 4]),
    );
    let q = mint::Quaternion {
        v: v3(1.0f32, 2.0, 3.0),
        s: 4.0,
    };
    engine_is(G4, &fixture(&f, "quaternion_1_2_3_4"), q);
    let cols = ColumnMatrix3 {
        x: v3(1.0f32, 2.0, 3.0),
        y: v3(4.0, 5.0, 6.0),
        z: v3(7.0, 8.0, 9.0),
    };
    engine_is(G4, &fixture(&f, "basis_1_to_9"), cols);
    // The same matrix by rows.
    let rows = RowMatrix3 {
        x: v3(1.0f32, 4.0, 7.0),
        y: v3(2.0, 5.0, 8.0),
        z: v3(3.0, 6.0, 9.0),
    };
    engine_is(G4, &fixture(&f, "basis_1_to_9"), rows);
    let t = ColumnMatrix3x4 {
        x: cols.x,
        y: cols.y,
        z: cols.z,
        w: v3(10.0, 11.0, 12.0),
    };
    engine_is(G4, &fixture(&f, "transform3d_1_to_12"), t);
    let t2 = ColumnMatrix2x3 {
        x: v2(1.0f32, 2.0),
        y: v2(3.0, 4.0),
        z: v2(5.0, 6.0),
    };
    engine_is(G4, &fixture(&f, "transform2d_1_to_6"), t2);
    let p: ColumnMatrix4<f32> = ColumnMatrix4::from(core::array::from_fn::<_, 4, _>(|c| {
        core::array::from_fn(|r| (c * 4 + r) as f32 + 1.0)
    }));
    engine_is(G4, &fixture(&f, "projection_1_to_16"), p);
}

/// Every fixture of a glam-mapped type reads as the glam type and writes back the engine's
/// bytes (NaN payloads, infinities, extremes included), in Godot 4.6 and Godot 3.2.3.
#[test]
fn every_engine_value_of_these_types_round_trips_through_glam() {
    fn through<T>(d: Dialect, f: &Fixture) -> bool
    where
        T: AsGodot + std::fmt::Debug,
        T::Godot: Serialize + for<'de> Deserialize<'de>,
    {
        let v: Godot<T> = from_bytes(d, &f.bytes).unwrap_or_else(|e| panic!("{}: {e}", f.name));
        let ours = to_vec(d, &v).unwrap();
        assert_eq!(hex_of(&ours), hex_of(&f.bytes), "{d} {}: {:?}", f.name, v.0);
        true
    }
    for (d, fixtures, want) in [
        (G4, support::godot4_values(), 30),
        (G3, support::values(), 18),
    ] {
        let mut n = 0;
        for f in &fixtures {
            let family = f.name.split('_').next().unwrap();
            let done = match family {
                "vector2" => through::<Vec2>(d, f),
                "vector3" => through::<Vec3>(d, f),
                "vector4" => through::<Vec4>(d, f),
                "vector2i" => through::<IVec2>(d, f),
                "vector3i" => through::<IVec3>(d, f),
                "vector4i" => through::<IVec4>(d, f),
                "quat" | "quaternion" => through::<Quat>(d, f),
                "basis" => through::<Mat3>(d, f) && through::<mint::ColumnMatrix3<f32>>(d, f),
                "transform" | "transform3d" => {
                    through::<Affine3A>(d, f) && through::<mint::ColumnMatrix3x4<f32>>(d, f)
                }
                "transform2d" => {
                    through::<Affine2>(d, f) && through::<mint::ColumnMatrix2x3<f32>>(d, f)
                }
                "projection" => through::<Mat4>(d, f) && through::<mint::ColumnMatrix4<f32>>(d, f),
                _ => false,
            };
            n += done as usize;
        }
        assert_eq!(n, want, "{d}: fixtures checked");
    }
}

#[test]
fn with_module_and_other_formats() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Spawn {
        #[serde(with = "gdwire::serde::godot_math")]
        at: Vec3,
        #[serde(with = "gdwire::serde::godot_math")]
        turn: mint::Quaternion<f32>,
        path: Vec<Godot<IVec2>>,
    }
    let s = Spawn {
        at: Vec3::new(0.5, f32::NAN, -2.0),
        turn: mint::Quaternion {
            v: mint::Vector3 {
                x: 0.0,
                y: 0.0,
                z: 0.0,
            },
            s: 1.0,
        },
        path: vec![Godot(IVec2::new(1, 2))],
    };
    let bytes = to_vec(G4, &s).unwrap();
    let view = gdwire::from_bytes(G4, &bytes)
        .unwrap()
        .as_dictionary()
        .unwrap();
    let types: Vec<_> = view.iter().map(|(_, v)| v.variant_type()).collect();
    use gdwire::VariantType as T;
    assert_eq!(types, [T::Vector3, T::Quaternion, T::Array]);
    let back: Spawn = from_bytes(G4, &bytes).unwrap();
    assert_eq!(
        back.at.to_array().map(f32::to_bits),
        s.at.to_array().map(f32::to_bits)
    );
    assert_eq!((back.turn, &back.path), (s.turn, &s.path));
    // Other formats see the Godot type's components in wire order.
    let json =
        serde_json::to_string(&Godot(Mat3::from_cols(Vec3::X, Vec3::Y * 2.0, Vec3::Z))).unwrap();
    assert_eq!(json, "[1.0,0.0,0.0,0.0,2.0,0.0,0.0,0.0,1.0]");
    // A Vector4i in Godot 3 has no type: the writer says so.
    assert!(to_vec(G3, &Godot(IVec4::ONE)).is_err());
}
