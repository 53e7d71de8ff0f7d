//! Property tests: generated structs round-trip through `gdwire::serde` in every dialect, and
//! what the serializer writes is canonical (the crate's Writer re-encodes the decoded view to
//! the very same bytes).

use std::collections::BTreeMap;

use gdwire::math::{Color, Quaternion, Rect2, Transform3D, Vector2, Vector3};
use gdwire::serde::{from_bytes, to_vec};
use gdwire::Dialect;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
enum Action {
    Idle,
    Walk(Vector2),
    Cast { spell: String, power: f32 },
    Trade(i64, Option<String>),
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Unit {
    id: u32,
    big: i64,
    hp: f64,
    speed: f32,
    name: String,
    alive: bool,
    pos: Vector3,
    rot: Quaternion,
    tint: Color,
    bounds: Rect2,
    xform: Transform3D,
    plain: [f32; 3],
    tag: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    maybe: Option<i32>,
    #[serde(with = "gdwire::serde::packed")]
    ids: Vec<i32>,
    #[serde(with = "gdwire::serde::packed")]
    weights: Vec<f32>,
    #[serde(with = "gdwire::serde::packed")]
    labels: Vec<String>,
    #[serde(with = "gdwire::serde::packed")]
    path: Vec<Vector3>,
    #[serde(with = "serde_bytes")]
    blob: Vec<u8>,
    stats: BTreeMap<String, i64>,
    actions: Vec<Action>,
    pairs: Vec<(i16, bool)>,
    unit: (),
}

fn f32_any() -> impl Strategy<Value = f32> {
    prop_oneof![
        any::<f32>().prop_filter("not NaN", |f| !f.is_nan()),
        Just(0.0f32),
        Just(-0.0f32),
        -1000.0f32..1000.0,
    ]
}

fn real() -> impl Strategy<Value = f64> {
    // Single-precision math types hold what an f32 holds.
    f32_any().prop_map(f64::from)
}

fn text() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 éß中🎮\\-_]{0,12}"
}

fn v2() -> impl Strategy<Value = Vector2> {
    (real(), real()).prop_map(|(x, y)| Vector2 { x, y })
}

fn v3() -> impl Strategy<Value = Vector3> {
    (real(), real(), real()).prop_map(|(x, y, z)| Vector3 { x, y, z })
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        Just(Action::Idle),
        v2().prop_map(Action::Walk),
        (text(), f32_any()).prop_map(|(spell, power)| Action::Cast { spell, power }),
        (any::<i64>(), proptest::option::of(text())).prop_map(|(a, b)| Action::Trade(a, b)),
    ]
}

prop_compose! {
    fn unit()(
        (id, big, hp, speed, name, alive) in (any::<u32>(), any::<i64>(),
            any::<f64>().prop_filter("not NaN", |f| !f.is_nan()), f32_any(), text(), any::<bool>()),
        (pos, rot, tint, bounds) in (v3(), (real(), real(), real(), real()),
            (f32_any(), f32_any(), f32_any(), f32_any()), (v2(), v2())),
        (basis, origin, plain) in (proptest::array::uniform3(v3()), v3(), proptest::array::uniform3(f32_any())),
        (tag, maybe) in (proptest::option::of(text()), proptest::option::of(any::<i32>())),
        (ids, weights, labels, path, blob) in (
            proptest::collection::vec(any::<i32>(), 0..8),
            proptest::collection::vec(f32_any(), 0..8),
            proptest::collection::vec(text(), 0..5),
            proptest::collection::vec(v3(), 0..5),
            proptest::collection::vec(any::<u8>(), 0..11)),
        (stats, actions, pairs) in (
            proptest::collection::btree_map(text(), any::<i64>(), 0..5),
            proptest::collection::vec(action(), 0..5),
            proptest::collection::vec((any::<i16>(), any::<bool>()), 0..4)),
    ) -> Unit {
        Unit {
            id, big, hp, speed, name, alive, pos,
            rot: Quaternion { x: rot.0, y: rot.1, z: rot.2, w: rot.3 },
            tint: Color { r: tint.0, g: tint.1, b: tint.2, a: tint.3 },
            bounds: Rect2 { position: bounds.0, size: bounds.1 },
            xform: Transform3D { basis: gdwire::math::Basis { rows: basis }, origin },
            plain, tag, maybe, ids, weights, labels, path, blob, stats, actions, pairs, unit: (),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn structs_round_trip_in_every_dialect(u in unit()) {
        for dialect in Dialect::ALL {
            let bytes = to_vec(dialect, &u).unwrap();
            let back: Unit = from_bytes(dialect, &bytes).unwrap();
            prop_assert_eq!(&back, &u, "{}", dialect);
            // Canonical: the Writer re-encodes the decoded view to the same bytes.
            let view = gdwire::from_bytes_exact(dialect, &bytes).unwrap();
            prop_assert_eq!(gdwire::to_vec(dialect, &view).unwrap(), bytes, "{}", dialect);
        }
    }

    #[test]
    fn values_round_trip_through_serde_json_values(u in unit()) {
        // A self-describing detour: gdwire bytes -> serde_json::Value -> gdwire bytes keeps
        // every plain (non-math) value.
        let json = serde_json::to_value((u.id, &u.name, &u.stats, &u.pairs, &u.tag)).unwrap();
        let bytes = to_vec(Dialect::GODOT_4, &json).unwrap();
        let back: serde_json::Value = from_bytes(Dialect::GODOT_4, &bytes).unwrap();
        prop_assert_eq!(back, json);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        for dialect in Dialect::ALL {
            let _ = from_bytes::<Unit>(dialect, &bytes);
            let _ = from_bytes::<serde_json::Value>(dialect, &bytes);
        }
    }
}
