//! Deterministic benchmark datasets, generated in code (no files, no randomness from the OS):
//! the same seed always gives the same bytes, so numbers are comparable across runs and
//! machines.
//!
//! Each dataset is a stream of values ([`Val`], a tiny owned model) encoded back to back with
//! gdwire's [`Writer`]: Godot 4 (the main dialect), Godot 3 (for the engine, which is Godot
//! 3.2.3 here) and the peer crate's subset in Godot 4 (see [`peer_subset`]).

#![allow(dead_code)] // not every bench uses every helper

use gdwire::math::{Basis, Transform3D, Vector2, Vector3};
use gdwire::{Dialect, Writer};

/// An owned value: what an application holds before encoding it.
#[derive(Clone, Debug)]
pub enum Val {
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    V2([f32; 2]),
    V3([f32; 3]),
    Xform([f32; 12]),
    Arr(Vec<Val>),
    Dict(Vec<(Val, Val)>),
    PStr(Vec<String>),
    PV3(Vec<[f32; 3]>),
    PF32(Vec<f32>),
    PI32(Vec<i32>),
}

/// A named stream of values and its encodings.
pub struct Dataset {
    pub name: &'static str,
    pub values: Vec<Val>,
    /// Godot 4 encoding, values back to back.
    pub g4: Vec<u8>,
    /// Where each value starts and ends in `g4`.
    pub g4_frames: Vec<std::ops::Range<usize>>,
    /// Godot 3 encoding of the same values, back to back.
    pub g3: Vec<u8>,
}

/// splitmix64: small, fast, and fully determined by its seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// A float in [lo, hi), exactly representable as `f32`.
    pub fn f32(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }
    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

fn s(text: &str) -> Val {
    Val::Str(text.to_owned())
}

const FIRST: &[&str] = &[
    "Ada", "Björn", "Chen", "Dmitri", "Eve", "Farah", "Gus", "Hana", "Ivo", "José", "Kai", "Lena",
    "Miyu", "Nour", "Olek", "Priya",
];
const LAST: &[&str] = &[
    "Sniper", "Tank", "Healer", "Scout", "Rogue", "Mage", "Bard", "Knight",
];
const ITEMS: &[&str] = &[
    "sword",
    "shield",
    "potion_small",
    "potion_large",
    "arrow",
    "bow",
    "torch",
    "key_bronze",
    "scroll_fire",
    "gem_blue",
];
const WORDS: &[&str] = &[
    "the",
    "quick",
    "player",
    "enemy",
    "spawn",
    "wave",
    "boss",
    "loot",
    "zone",
    "capture",
    "ready",
    "victory",
    "défaite",
    "große",
    "ниндзя",
    "勝利",
    "🎮",
    "gg",
    "respawn",
    "objective",
];

/// (a) Game-state snapshots: dictionaries of players with names, ints, floats, Vector3,
/// Transform3D and nested arrays.
pub fn game_state(snapshots: usize, players: usize) -> Vec<Val> {
    let mut rng = Rng::new(0xA11CE);
    (0..snapshots)
        .map(|tick| {
            let roster = (0..players)
                .map(|i| {
                    let name = format!("{}{}_{}", rng.pick(FIRST), rng.pick(LAST), i);
                    let pos = [
                        rng.f32(-500.0, 500.0),
                        rng.f32(0.0, 40.0),
                        rng.f32(-500.0, 500.0),
                    ];
                    let (sin, cos) = rng
                        .f32(-std::f32::consts::PI, std::f32::consts::PI)
                        .sin_cos();
                    let xform = [
                        cos, 0.0, sin, 0.0, 1.0, 0.0, -sin, 0.0, cos, pos[0], pos[1], pos[2],
                    ];
                    let inventory = (0..1 + rng.below(5))
                        .map(|_| {
                            Val::Arr(vec![
                                s(rng.pick(ITEMS)),
                                Val::Int(rng.below(100) as i64),
                                Val::Int(rng.below(1 << 20) as i64),
                            ])
                        })
                        .collect();
                    let player = Val::Dict(vec![
                        (s("name"), Val::Str(name)),
                        (s("id"), Val::Int(1000 + i as i64)),
                        (s("hp"), Val::Int(rng.below(101) as i64)),
                        (s("score"), Val::Int(rng.below(50_000) as i64)),
                        (s("ping"), Val::Float(rng.f32(5.0, 250.0) as f64)),
                        (s("alive"), Val::Bool(rng.below(8) != 0)),
                        (s("position"), Val::V3(pos)),
                        (
                            s("velocity"),
                            Val::V3([rng.f32(-8.0, 8.0), 0.0, rng.f32(-8.0, 8.0)]),
                        ),
                        (s("transform"), Val::Xform(xform)),
                        (s("inventory"), Val::Arr(inventory)),
                        (
                            s("cooldowns"),
                            Val::Arr(
                                (0..4)
                                    .map(|_| Val::Float(rng.f32(0.0, 10.0) as f64))
                                    .collect(),
                            ),
                        ),
                    ]);
                    (Val::Int(1000 + i as i64), player)
                })
                .collect();
            Val::Dict(vec![
                (s("tick"), Val::Int(tick as i64 * 3)),
                (s("time"), Val::Float(tick as f64 * 0.05 + 1e-9)), // needs 64-bit
                (s("map"), s("arena_03")),
                (s("players"), Val::Dict(roster)),
            ])
        })
        .collect()
}

/// (b) Many small RPC-like packets: short arrays of ints, strings and Vector2, one value each.
pub fn rpc_packets(count: usize) -> Vec<Val> {
    let mut rng = Rng::new(0xB0B);
    (0..count)
        .map(|seq| {
            let seq = Val::Int(seq as i64);
            match rng.below(4) {
                0 => Val::Arr(vec![
                    Val::Int(1),
                    seq,
                    Val::V2([rng.f32(-500.0, 500.0), rng.f32(-500.0, 500.0)]),
                    Val::V2([rng.f32(-1.0, 1.0), rng.f32(-1.0, 1.0)]),
                ]),
                1 => Val::Arr(vec![
                    Val::Int(2),
                    seq,
                    s("fire"),
                    Val::Int(rng.below(16) as i64),
                    Val::V2([rng.f32(-1.0, 1.0), rng.f32(-1.0, 1.0)]),
                ]),
                2 => Val::Arr(vec![
                    Val::Int(3),
                    seq,
                    s("chat"),
                    Val::Str(
                        (0..1 + rng.below(6))
                            .map(|_| rng.pick(WORDS))
                            .collect::<Vec<_>>()
                            .join(" "),
                    ),
                ]),
                _ => Val::Arr(vec![Val::Int(4), seq, Val::Int(rng.next() as i32 as i64)]),
            }
        })
        .collect()
}

/// (c) String-heavy data: PackedStringArrays and dictionaries keyed by strings (a
/// localisation table / chat log shape), mostly ASCII with some multi-byte text.
pub fn strings(values: usize) -> Vec<Val> {
    let mut rng = Rng::new(0xC0DE);
    let sentence = |rng: &mut Rng, words: u64| {
        (0..1 + rng.below(words))
            .map(|_| rng.pick(WORDS))
            .collect::<Vec<_>>()
            .join(" ")
    };
    (0..values)
        .map(|v| {
            let lines = (0..200).map(|_| sentence(&mut rng, 12)).collect();
            let table = (0..100)
                .map(|i| {
                    let key = format!("ui/menu_{v}/{}_{}", rng.pick(ITEMS), i);
                    (Val::Str(key), Val::Str(sentence(&mut rng, 8)))
                })
                .collect();
            Val::Dict(vec![
                (s("locale"), s("fr_FR")),
                (s("log"), Val::PStr(lines)),
                (s("strings"), Val::Dict(table)),
            ])
        })
        .collect()
}

/// (d) Mesh data: a few large PackedVector3Array / PackedFloat32Array / PackedInt32Array.
pub fn meshes(count: usize, vertices: usize) -> Vec<Val> {
    let mut rng = Rng::new(0xD00D);
    (0..count)
        .map(|m| {
            let pos = (0..vertices)
                .map(|_| {
                    [
                        rng.f32(-10.0, 10.0),
                        rng.f32(-10.0, 10.0),
                        rng.f32(-10.0, 10.0),
                    ]
                })
                .collect();
            let normals = (0..vertices)
                .map(|_| {
                    let (a, b) = rng.f32(0.0, std::f32::consts::TAU).sin_cos();
                    [a, b, 0.0]
                })
                .collect();
            let uvs = (0..vertices * 2).map(|_| rng.f32(0.0, 1.0)).collect();
            let indices = (0..vertices * 3)
                .map(|_| rng.below(vertices as u64) as i32)
                .collect();
            Val::Dict(vec![
                (s("name"), Val::Str(format!("mesh_{m}"))),
                (s("vertices"), Val::PV3(pos)),
                (s("normals"), Val::PV3(normals)),
                (s("uvs"), Val::PF32(uvs)),
                (s("indices"), Val::PI32(indices)),
            ])
        })
        .collect()
}

/// (e) Deep nesting: chains `depth` levels deep alternating arrays and dictionaries, each
/// level with siblings before and after the child, so a reader must step over the whole
/// child to reach them. (The streaming writer holds at most 64 containers with items still
/// owed, so `depth` stays below that.)
pub fn deep(values: usize, depth: usize) -> Vec<Val> {
    let mut rng = Rng::new(0xDEE9);
    (0..values)
        .map(|_| {
            let mut node = Val::Nil;
            for level in (0..depth).rev() {
                node = if level % 2 == 0 {
                    Val::Arr(vec![Val::Int(level as i64), node, s("node")])
                } else {
                    Val::Dict(vec![
                        (s("depth"), Val::Int(level as i64)),
                        (s("child"), node),
                        (s("weight"), Val::Float(rng.f32(0.0, 1.0) as f64)),
                    ])
                };
            }
            node
        })
        .collect()
}

/// (f) A save-game file: one large dictionary of nested dictionaries, strings and arrays
/// (player, inventory, world regions with NPCs and flags, a quest log with prose), the
/// shape `FileAccess.store_var(save_dict)` writes. Not a game-state snapshot: few numbers,
/// many keys and texts, irregular nesting.
pub fn save_game(regions: usize) -> Vec<Val> {
    let mut rng = Rng::new(0x5A7E);
    let sentence = |rng: &mut Rng, words: u64| {
        (0..1 + rng.below(words))
            .map(|_| rng.pick(WORDS))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let inventory = (0..400)
        .map(|i| {
            Val::Dict(vec![
                (s("id"), Val::Str(format!("{}_{i}", rng.pick(ITEMS)))),
                (s("qty"), Val::Int(1 + rng.below(99) as i64)),
                (s("durability"), Val::Float(rng.f32(0.0, 1.0) as f64)),
                (s("equipped"), Val::Bool(rng.below(10) == 0)),
                (
                    s("enchantments"),
                    Val::Arr((0..rng.below(3)).map(|_| s(rng.pick(WORDS))).collect()),
                ),
            ])
        })
        .collect();
    let world = (0..regions)
        .map(|r| {
            let npcs = (0..20)
                .map(|n| {
                    Val::Dict(vec![
                        (
                            s("name"),
                            Val::Str(format!("{} {}", rng.pick(FIRST), rng.pick(LAST))),
                        ),
                        (s("dialogue"), Val::Str(format!("dlg/region_{r}/npc_{n}"))),
                        (s("stage"), Val::Int(rng.below(12) as i64)),
                        (s("met"), Val::Bool(rng.below(2) == 0)),
                        (
                            s("flags"),
                            Val::Arr(
                                (0..rng.below(6))
                                    .map(|_| Val::Str(format!("flag_{}", rng.below(500))))
                                    .collect(),
                            ),
                        ),
                        (s("last_words"), Val::Str(sentence(&mut rng, 10))),
                    ])
                })
                .collect();
            let chests = (0..10)
                .map(|c| {
                    (
                        Val::Str(format!("chest_{c}")),
                        Val::Dict(vec![
                            (s("opened"), Val::Bool(rng.below(3) == 0)),
                            (s("loot"), s(rng.pick(ITEMS))),
                        ]),
                    )
                })
                .collect();
            (
                Val::Str(format!("region_{r:03}")),
                Val::Dict(vec![
                    (s("discovered"), Val::Bool(rng.below(4) != 0)),
                    (s("description"), Val::Str(sentence(&mut rng, 30))),
                    (s("npcs"), Val::Arr(npcs)),
                    (s("chests"), Val::Dict(chests)),
                ]),
            )
        })
        .collect();
    let quests = (0..300)
        .map(|q| {
            (
                Val::Str(format!("quest_{q}")),
                Val::Dict(vec![
                    (s("title"), Val::Str(sentence(&mut rng, 5))),
                    (s("journal"), Val::Str(sentence(&mut rng, 60))),
                    (s("stage"), Val::Int(rng.below(8) as i64)),
                    (
                        s("objectives"),
                        Val::Arr(
                            (0..1 + rng.below(5))
                                .map(|_| Val::Str(sentence(&mut rng, 8)))
                                .collect(),
                        ),
                    ),
                ]),
            )
        })
        .collect();
    vec![Val::Dict(vec![
        (s("version"), s("1.4.2")),
        (s("saved_at"), Val::Int(1_700_000_000)),
        (
            s("player"),
            Val::Dict(vec![
                (s("name"), s("Björn the Bold")),
                (s("level"), Val::Int(37)),
                (s("xp"), Val::Int(1_234_567)),
                (
                    s("stats"),
                    Val::Dict(
                        ["str", "dex", "con", "int", "wis", "cha"]
                            .iter()
                            .map(|k| (s(k), Val::Int(8 + rng.below(12) as i64)))
                            .collect(),
                    ),
                ),
                (s("inventory"), Val::Arr(inventory)),
            ]),
        ),
        (s("world"), Val::Dict(world)),
        (s("quests"), Val::Dict(quests)),
    ])]
}

/// (g) A stream of small state-sync packets (what a `MultiplayerSynchronizer`-style
/// replication sends many times a second): a dictionary per entity and tick with a few
/// ints, a float, two Vector2 and a short state name.
pub fn sync_packets(count: usize) -> Vec<Val> {
    const STATES: &[&str] = &["idle", "run", "jump", "fall", "attack", "hurt"];
    let mut rng = Rng::new(0x5C);
    (0..count)
        .map(|i| {
            Val::Dict(vec![
                (s("id"), Val::Int(1 + rng.below(64) as i64)),
                (s("tick"), Val::Int(i as i64 / 16)),
                (
                    s("pos"),
                    Val::V2([rng.f32(-2000.0, 2000.0), rng.f32(-2000.0, 2000.0)]),
                ),
                (
                    s("vel"),
                    Val::V2([rng.f32(-300.0, 300.0), rng.f32(-300.0, 300.0)]),
                ),
                (s("rot"), Val::Float(rng.f32(-3.2, 3.2) as f64)),
                (s("hp"), Val::Int(rng.below(101) as i64)),
                (s("state"), s(rng.pick(STATES))),
            ])
        })
        .collect()
}

/// (h) A stream of small path and tile updates (a navigation or tile-map sync): a
/// dictionary per update with an id, a few waypoints (PackedVector3Array), their weights
/// (PackedFloat32Array) and the tiles touched (PackedInt32Array), each a handful of elements.
pub fn small_packed(count: usize) -> Vec<Val> {
    let mut rng = Rng::new(0x9A7);
    (0..count)
        .map(|i| {
            let points = 2 + rng.below(5) as usize;
            Val::Dict(vec![
                (s("id"), Val::Int(i as i64)),
                (
                    s("path"),
                    Val::PV3(
                        (0..points)
                            .map(|_| [rng.f32(-50.0, 50.0), 0.0, rng.f32(-50.0, 50.0)])
                            .collect(),
                    ),
                ),
                (
                    s("weights"),
                    Val::PF32((0..points).map(|_| rng.f32(0.0, 1.0)).collect()),
                ),
                (
                    s("tiles"),
                    Val::PI32(
                        (0..3 + rng.below(10))
                            .map(|_| rng.below(4096) as i32)
                            .collect(),
                    ),
                ),
            ])
        })
        .collect()
}

/// Writes `v` as one item of `w`.
pub fn write_val<S: gdwire::Sink>(w: &mut Writer<S>, v: &Val) -> gdwire::Result<()> {
    let v3 = |c: &[f32]| Vector3 {
        x: c[0] as f64,
        y: c[1] as f64,
        z: c[2] as f64,
    };
    match v {
        Val::Nil => w.nil(),
        Val::Bool(b) => w.bool(*b),
        Val::Int(i) => w.int(*i),
        Val::Float(f) => w.float(*f),
        Val::Str(t) => w.string(t),
        Val::V2([x, y]) => w.vector2(Vector2 {
            x: *x as f64,
            y: *y as f64,
        }),
        Val::V3(c) => w.vector3(v3(c)),
        Val::Xform(m) => w.transform3d(Transform3D {
            basis: Basis::from_columns(v3(&m[0..3]), v3(&m[3..6]), v3(&m[6..9])),
            origin: v3(&m[9..12]),
        }),
        Val::Arr(items) => {
            w.begin_array(items.len())?;
            items.iter().try_for_each(|x| write_val(w, x))
        }
        Val::Dict(entries) => {
            w.begin_dictionary(entries.len())?;
            entries.iter().try_for_each(|(k, v)| {
                write_val(w, k)?;
                write_val(w, v)
            })
        }
        Val::PStr(items) => w.packed_strings(items),
        Val::PV3(items) => w.packed_vector3(items),
        Val::PF32(items) => w.packed_f32(items),
        Val::PI32(items) => w.packed_i32(items),
    }
}

/// Encodes `values` back to back into `out` (cleared first); returns each value's range.
pub fn encode_all(
    dialect: Dialect,
    values: &[Val],
    out: &mut Vec<u8>,
) -> Vec<std::ops::Range<usize>> {
    out.clear();
    values
        .iter()
        .map(|v| {
            let start = out.len();
            let mut w = Writer::new(&mut *out, dialect);
            write_val(&mut w, v).unwrap();
            w.finish().unwrap();
            start..out.len()
        })
        .collect()
}

impl Dataset {
    pub fn new(name: &'static str, values: Vec<Val>) -> Dataset {
        let mut g4 = Vec::new();
        let g4_frames = encode_all(Dialect::GODOT_4, &values, &mut g4);
        let mut g3 = Vec::new();
        encode_all(Dialect::GODOT_3, &values, &mut g3);
        Dataset {
            name,
            values,
            g4,
            g4_frames,
            g3,
        }
    }
}

/// The seven datasets at benchmark size (about 0.3–6 MB each).
pub fn all() -> Vec<Dataset> {
    vec![
        Dataset::new("a_game_state", game_state(32, 32)),
        Dataset::new("b_rpc_packets", rpc_packets(10_000)),
        Dataset::new("c_strings", strings(64)),
        Dataset::new("d_mesh", meshes(2, 60_000)),
        Dataset::new("e_deep", deep(128, 60)),
        Dataset::new("f_save_game", save_game(120)),
        Dataset::new("g_sync_packets", sync_packets(20_000)),
        Dataset::new("h_small_packed", small_packed(10_000)),
    ]
}

/// The part of `v` the peer crate `godot-binary-serialization` 0.2 handles: Nil, bool, int,
/// float, String, Vector2, Vector3 and Dictionary (no Array, no packed arrays, no
/// Transform3D; Nil decodes but does not encode). Arrays and PackedStringArrays become
/// dictionaries keyed by index, so the same content stays in; Nil, Transform3D and numeric
/// packed arrays are dropped.
pub fn peer_subset(v: &Val) -> Option<Val> {
    Some(match v {
        Val::Nil | Val::Xform(_) | Val::PV3(_) | Val::PF32(_) | Val::PI32(_) => return None,
        Val::Arr(items) => Val::Dict(
            items
                .iter()
                .filter_map(peer_subset)
                .enumerate()
                .map(|(i, x)| (Val::Int(i as i64), x))
                .collect(),
        ),
        Val::PStr(items) => Val::Dict(
            items
                .iter()
                .enumerate()
                .map(|(i, x)| (Val::Int(i as i64), Val::Str(x.clone())))
                .collect(),
        ),
        Val::Dict(entries) => Val::Dict(
            entries
                .iter()
                .filter_map(|(k, v)| Some((peer_subset(k)?, peer_subset(v)?)))
                .collect(),
        ),
        other => other.clone(),
    })
}
