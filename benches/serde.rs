//! serde decode speed on struct-shaped data: `gdwire::serde` on the Godot 4 bytes against
//! `serde_json` (same structs, JSON text), `postcard` and `rmp-serde` (same structs, their own
//! encodings; `rmp_serde` writes structs as arrays, `rmp_serde_named` as maps with field
//! names). Every decoder builds the same borrowed structs (`&str` fields borrow).
//!
//! `cargo bench --features serde --bench serde`
//!
//! `GDWIRE_BENCH_REPEAT=<group>/<format>:<n>` (e.g. `serde_rpc_packets/gdwire_g4:20`) only
//! decodes that dataset `n` times in `repeat_loop` and exits, for `perf` or
//! `valgrind --tool=callgrind --toggle-collect='*repeat_loop*'` (instruction counts are
//! steady on a busy machine where wall time is not).

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, Criterion, Throughput};
use gdwire::math::{Basis, Transform3D, Vector2, Vector3};
use gdwire::Dialect;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Snapshot<'a> {
    tick: u64,
    time: f64,
    map: &'a str,
    #[serde(borrow)]
    players: Vec<Player<'a>>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Player<'a> {
    name: &'a str,
    id: u32,
    hp: f32,
    score: i64,
    ping: u16,
    alive: bool,
    position: Vector3,
    velocity: Vector3,
    transform: Transform3D,
    #[serde(borrow)]
    inventory: Vec<(&'a str, u32, u32)>,
    cooldowns: [f32; 4],
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum Packet<'a> {
    Move {
        seq: u32,
        from: Vector2,
        to: Vector2,
    },
    Fire {
        seq: u32,
        weapon: &'a str,
        target: i64,
        at: Vector2,
    },
    Chat {
        seq: u32,
        text: &'a str,
    },
    Ack {
        seq: u32,
    },
}

/// splitmix64: the same data on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// A float with a short binary fraction (an `f32` holds it: written 32-bit, as Godot does).
    fn real(&mut self) -> f64 {
        (self.below(20_000) as f64 - 10_000.0) / 64.0
    }
}

const NAMES: [&str; 8] = [
    "Alice",
    "Björn",
    "玩家",
    "Zoë",
    "xX_sniper_Xx",
    "bob",
    "Ω",
    "carol",
];
const ITEMS: [&str; 6] = ["sword", "potion", "arrow", "shield", "gem", "key"];
const WORDS: [&str; 6] = ["gg", "rush B", "need heal", "on my way", "nice shot", "brb"];

fn v3(r: &mut Rng) -> Vector3 {
    Vector3 {
        x: r.real(),
        y: r.real(),
        z: r.real(),
    }
}

fn snapshots() -> Vec<Snapshot<'static>> {
    let mut r = Rng(7);
    (0..32)
        .map(|s| Snapshot {
            tick: 48_000 + s,
            time: s as f64 * 0.015625,
            map: "de_dust",
            players: (0..32)
                .map(|i| Player {
                    name: NAMES[r.below(8) as usize],
                    id: i,
                    hp: r.below(100) as f32,
                    score: r.below(1 << 40) as i64 - (1 << 39),
                    ping: r.below(300) as u16,
                    alive: r.below(4) != 0,
                    position: v3(&mut r),
                    velocity: v3(&mut r),
                    transform: Transform3D {
                        basis: Basis {
                            rows: [v3(&mut r), v3(&mut r), v3(&mut r)],
                        },
                        origin: v3(&mut r),
                    },
                    inventory: (0..r.below(6))
                        .map(|_| {
                            (
                                ITEMS[r.below(6) as usize],
                                r.below(99) as u32,
                                r.below(1 << 20) as u32,
                            )
                        })
                        .collect(),
                    cooldowns: [0.0, 0.5, r.real() as f32, 1.25],
                })
                .collect(),
        })
        .collect()
}

fn packets() -> Vec<Packet<'static>> {
    let mut r = Rng(11);
    let v2 = |r: &mut Rng| Vector2 {
        x: r.real(),
        y: r.real(),
    };
    (0..10_000u32)
        .map(|seq| match r.below(4) {
            0 => Packet::Move {
                seq,
                from: v2(&mut r),
                to: v2(&mut r),
            },
            1 => Packet::Fire {
                seq,
                weapon: ITEMS[r.below(6) as usize],
                target: r.below(1 << 16) as i64,
                at: v2(&mut r),
            },
            2 => Packet::Chat {
                seq,
                text: WORDS[r.below(6) as usize],
            },
            _ => Packet::Ack { seq },
        })
        .collect()
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20)
}

/// One dataset: each message encoded by every format, then decoded message by message into
/// the borrowed struct `$ty`.
macro_rules! bench_messages {
    ($c:expr, $name:expr, $messages:expr, $ty:ty) => {{
        let messages = $messages;
        let formats: [(&str, fn(&_) -> Vec<u8>); 5] = [
            ("gdwire_g4", |m| {
                gdwire::serde::to_vec(Dialect::GODOT_4, m).unwrap()
            }),
            ("serde_json", |m| serde_json::to_vec(m).unwrap()),
            ("postcard", |m| postcard::to_allocvec(m).unwrap()),
            ("rmp_serde", |m| rmp_serde::to_vec(m).unwrap()),
            // Maps with field names, as a Godot Dictionary carries them: like with like.
            ("rmp_serde_named", |m| rmp_serde::to_vec_named(m).unwrap()),
        ];
        for (format, encode) in formats {
            let encoded: Vec<Vec<u8>> = messages.iter().map(encode).collect();
            let total: usize = encoded.iter().map(Vec::len).sum();
            let mut group = $c.benchmark_group($name);
            group.throughput(Throughput::Bytes(total as u64));
            let repeat = std::env::var("GDWIRE_BENCH_REPEAT").ok();
            macro_rules! run {
                ($decode:expr) => {{
                    if let Some(spec) = &repeat {
                        let (name, n) = spec.split_once(':').expect("<group>/<format>:<n>");
                        if name == spec_name($name, format) {
                            repeat_loop(n.parse().expect("count"), || {
                                for bytes in &encoded {
                                    let v: $ty = $decode(black_box(&bytes[..]));
                                    black_box(v);
                                }
                            });
                        }
                        continue;
                    }
                    // Every format decodes back to the very same structs.
                    for (m, bytes) in messages.iter().zip(&encoded) {
                        let back: $ty = $decode(&bytes[..]);
                        assert_eq!(&back, m, "{format}");
                    }
                    group.bench_function(format, |b| {
                        b.iter(|| {
                            for bytes in &encoded {
                                let v: $ty = $decode(black_box(&bytes[..]));
                                black_box(v);
                            }
                        })
                    });
                }};
            }
            if format == "gdwire_g4" && repeat.is_none() {
                // The crate's one-pass `Walker` over the same bytes, every event visited (a
                // new walker, and its 2048-level stack, per message): what the event stream
                // costs; the deserializer reads typed values from the bytes without it.
                let dec = gdwire::Decoder::new(Dialect::GODOT_4);
                group.bench_function("gdwire_g4_walker_only", |b| {
                    b.iter(|| {
                        for bytes in &encoded {
                            let mut n = 0usize;
                            for e in dec.walk(black_box(&bytes[..])) {
                                black_box(e.unwrap());
                                n += 1;
                            }
                            black_box(n);
                        }
                    })
                });
            }
            match format {
                "gdwire_g4" => run!(|b| gdwire::serde::from_bytes(Dialect::GODOT_4, b).unwrap()),
                "serde_json" => run!(|b| serde_json::from_slice(b).unwrap()),
                "postcard" => run!(|b| postcard::from_bytes(b).unwrap()),
                "rmp_serde" | "rmp_serde_named" => run!(|b| rmp_serde::from_slice(b).unwrap()),
                _ => unreachable!("{format}"),
            }
            group.finish();
            eprintln!(
                "{}/{format}: {} messages, {total} bytes",
                $name,
                encoded.len()
            );
        }
    }};
}

fn spec_name(group: &str, format: &str) -> String {
    format!("{group}/{format}")
}

#[inline(never)]
fn repeat_loop(n: usize, mut decode_all: impl FnMut()) {
    for _ in 0..n {
        decode_all();
    }
}

fn benches(c: &mut Criterion) {
    bench_messages!(c, "serde_snapshots", snapshots(), Snapshot<'_>);
    bench_messages!(c, "serde_rpc_packets", packets(), Packet<'_>);
}

criterion_group! {
    name = serde_benches;
    config = config();
    targets = benches
}
fn main() {
    if std::env::var_os("GDWIRE_BENCH_REPEAT").is_some() {
        benches(&mut Criterion::default());
        return;
    }
    serde_benches();
    Criterion::default().configure_from_args().final_summary();
}
