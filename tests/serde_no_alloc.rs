//! Deserializing a struct of borrowed fields (`&str`, `&[u8]`, packed views, math types,
//! scalars, nested borrowed structs and tuples, `StringName<&str>`, `Rid`, `ObjectId`,
//! `Callable`, a full object as `Object<P, &str>`) performs no heap allocation: a counting
//! global allocator proves it, on the real engine capture and on a Godot 4 packet.

#[path = "support/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::allocations_in;

use gdwire::frame::Framing;
use gdwire::math::{Aabb, Quaternion, Transform3D, Vector2, Vector3};
use gdwire::serde::{
    from_bytes, from_bytes_with, Callable, Deserializer, Object, ObjectId, Rid, StringName,
};
use gdwire::{Decoder, Dialect, PackedRef};
use serde::Deserialize;

#[global_allocator]
static GLOBAL: counting_alloc::Counting = counting_alloc::Counting;

#[derive(Deserialize)]
#[allow(dead_code)]
struct Player<'a> {
    name: &'a str,
    id: u8,
    score: i64,
    hp: f32,
    pos: Vector3,
    alive: bool,
    team: &'a str,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct GameState<'a> {
    version: i32,
    map: &'a str,
    tick: u32,
    time_left: f64,
    gravity: f64,
    // Three players: a fixed-size array, so no Vec.
    #[serde(borrow)]
    players: [Player<'a>; 3],
    spawn: Transform3D,
    scores: [(i64, i64); 3],
    paused: bool,
    winner: Option<&'a str>,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct Rpc<'a>(&'a str, i32, &'a str, (Vector3, Quaternion, Vector2), f64);

#[derive(Deserialize)]
#[allow(dead_code)]
struct MeshChunk<'a> {
    #[serde(borrow)]
    mesh_chunk: PackedRef<'a, [f32; 3]>,
    #[serde(borrow)]
    indices: PackedRef<'a, i32>,
    aabb: Aabb,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct Reals<'a>(#[serde(borrow)] PackedRef<'a, f32>);

// One test only: the counter is global.
#[test]
fn borrowed_structs_deserialize_without_allocating() {
    let capture = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/samples/godot3_capture.bin"
    ))
    .unwrap();
    // A Godot 4 packet made with the serializer (allocation allowed here, outside the count).
    #[derive(serde::Serialize)]
    struct Packet<'a> {
        op: &'a str,
        #[serde(with = "serde_bytes")]
        blob: &'a [u8],
        at: Vector3,
        seq: u64,
        note: Option<&'a str>,
        team: StringName<&'a str>,
        rid: Rid,
        owner: ObjectId,
        hook: Callable,
    }
    let packet = gdwire::serde::to_vec(
        Dialect::GODOT_4,
        &Packet {
            op: "fire",
            blob: &[1, 2, 3, 4, 5],
            at: Vector3 {
                x: 1.0,
                y: 2.0,
                z: 3.0,
            },
            seq: 99,
            note: Some("ok"),
            team: StringName("red"),
            rid: Rid(7),
            owner: ObjectId(4096),
            hook: Callable,
        },
    )
    .unwrap();
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct PacketIn<'a> {
        op: &'a str,
        blob: &'a [u8],
        at: Vector3,
        seq: u64,
        note: Option<&'a str>,
        #[serde(default)]
        missing: Option<&'a str>,
        // The Godot types with a borrowed or plain form.
        #[serde(borrow)]
        team: StringName<&'a str>,
        rid: Rid,
        owner: ObjectId,
        hook: Callable,
    }

    // var_to_bytes_with_objects(RefCounted.new()) in Godot 4.6 (object_full_refcounted).
    let object = [
        0x18, 0, 0, 0, 10, 0, 0, 0, b'R', b'e', b'f', b'C', b'o', b'u', b'n', b't', b'e', b'd', 0,
        0, 1, 0, 0, 0, 6, 0, 0, 0, b's', b'c', b'r', b'i', b'p', b't', 0, 0, 0, 0, 0, 0,
    ];
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Props {
        script: Option<()>,
    }
    let with_objects = Decoder::new(Dialect::GODOT_4).with_allow_objects(true);

    let mut total = 0usize;
    let count = allocations_in(|| {
        let mut de =
            Deserializer::framed(Framing::default(), Decoder::new(Dialect::GODOT_3), &capture);
        let state: GameState = de.next_value().unwrap().unwrap();
        total += state.players[2].name.len();
        let rpc: Rpc = de.next_value().unwrap().unwrap();
        total += rpc.2.len();
        // A PackedStringArray: skipped here (reading it as strings needs a Vec).
        de.next_value::<serde::de::IgnoredAny>().unwrap().unwrap();
        let mesh: MeshChunk = de.next_value().unwrap().unwrap();
        total += mesh.indices.len();
        de.next_value::<serde::de::IgnoredAny>().unwrap().unwrap();
        de.next_value::<serde::de::IgnoredAny>().unwrap().unwrap();
        let reals: Reals = de.next_value().unwrap().unwrap();
        total += reals.0.len();
        let bytes: &[u8] = de.next_value().unwrap().unwrap();
        total += bytes.len();
        de.next_value::<serde::de::IgnoredAny>().unwrap().unwrap();
        let text: &str = de.next_value().unwrap().unwrap();
        total += text.len();

        let p: PacketIn = from_bytes(Dialect::GODOT_4, &packet).unwrap();
        total += p.op.len() + p.blob.len() + p.note.unwrap().len() + p.team.0.len();
        total += (p.rid.0 + p.owner.0) as usize;

        let o: Object<Props, &str> = from_bytes_with(with_objects, &object).unwrap();
        total += o.class.len();
    });
    assert_eq!(
        count, 0,
        "deserializing borrowed structs allocated {count} times"
    );
    assert!(total > 100);
}
