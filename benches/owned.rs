//! Decoding straight into owned values (`Decoder::decode_owned`) next to the view decode
//! (`Decoder::decode`, with and without touching every element) on the datasets of
//! `datasets/mod.rs`, and encoding owned values. Godot 4 dialect, one value per frame.
//!
//! Run: `cargo bench --bench owned` (filter with a criterion regex, e.g.
//! `cargo bench --bench owned -- a_game_state`).

mod datasets;

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use datasets::Dataset;
use gdwire::owned::Variant;
use gdwire::{Decoder, Dialect, VariantRef, Writer};

// Profiling one operation:
// `GDWIRE_BENCH_REPEAT=b_rpc_packets/owned_decode:300 perf stat -e task-clock target/release/deps/owned-<hash> --bench`

/// Touches every element of a view, as `benches/throughput.rs` does (recursively: the
/// datasets nest at most 60 levels).
fn walk(v: &VariantRef<'_>, sum: &mut u64) {
    match v {
        VariantRef::Array(a) => a.iter().for_each(|x| walk(&x, sum)),
        VariantRef::Dictionary(d) => d.iter().for_each(|(k, v)| {
            walk(&k, sum);
            walk(&v, sum);
        }),
        VariantRef::Int(i) => *sum = sum.wrapping_add(*i as u64),
        VariantRef::Float(f) => *sum = sum.wrapping_add(f.to_bits()),
        VariantRef::String(s) => *sum += s.bytes().len() as u64,
        VariantRef::PackedStringArray(p) => {
            *sum += p.iter().map(|s| s.bytes().len() as u64).sum::<u64>()
        }
        VariantRef::PackedVector3Array(p) => {
            *sum += p.iter().map(|v| v[0].to_bits()).fold(0, u64::wrapping_add)
        }
        VariantRef::PackedInt32Array(p) => {
            *sum += p.iter().map(|x| x as u64).fold(0, u64::wrapping_add)
        }
        VariantRef::PackedFloat32Array(p) => {
            *sum += p.iter().map(|x| x.to_bits() as u64).sum::<u64>()
        }
        _ => *sum += 1,
    }
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20)
}

/// What the operations run on: one dataset's Godot 4 frames and their owned values.
struct Input<'d> {
    frames: Vec<&'d [u8]>,
    owned: Vec<Variant>,
    out: Vec<u8>,
}

/// With feature `serde`, `owned_serde_encode` too: the same values through
/// `gdwire::serde::to_slice` (the same bytes as `owned_encode`, checked in `Input::new`).
const OPS: &[&str] = &[
    "view_decode",
    "view_decode_walk",
    "owned_decode",
    "owned_encode",
    #[cfg(feature = "serde")]
    "owned_serde_encode",
];

impl<'d> Input<'d> {
    fn new(d: &'d Dataset) -> Self {
        let dec = Decoder::new(Dialect::GODOT_4);
        let frames: Vec<&[u8]> = d.g4_frames.iter().map(|r| &d.g4[r.clone()]).collect();
        let owned: Vec<Variant> = frames
            .iter()
            .map(|f| dec.decode_owned_exact(f).unwrap())
            .collect();
        #[cfg(feature = "serde")]
        for v in &owned {
            let expected = v.to_vec(Dialect::GODOT_4).unwrap();
            assert_eq!(
                gdwire::serde::to_vec(Dialect::GODOT_4, v).unwrap(),
                expected
            );
        }
        Input {
            frames,
            owned,
            out: vec![0u8; d.g4.len()],
        }
    }

    /// Runs operation `op` over every frame once.
    fn run(&mut self, op: &str) -> u64 {
        let dec = Decoder::new(Dialect::GODOT_4);
        let mut sum = 0;
        match op {
            "view_decode" => {
                for f in &self.frames {
                    black_box(dec.decode(black_box(f)).unwrap());
                }
            }
            "view_decode_walk" => {
                for f in &self.frames {
                    walk(&dec.decode(black_box(f)).unwrap(), &mut sum);
                }
            }
            "owned_decode" => {
                for f in &self.frames {
                    black_box(dec.decode_owned(black_box(f)).unwrap());
                }
            }
            "owned_encode" => {
                let mut pos = 0;
                for v in &self.owned {
                    let mut w = Writer::new(&mut self.out[pos..], Dialect::GODOT_4);
                    w.variant(black_box(v)).unwrap();
                    pos += w.finish().unwrap();
                }
                sum = pos as u64;
            }
            #[cfg(feature = "serde")]
            "owned_serde_encode" => {
                let mut pos = 0;
                for v in &self.owned {
                    pos += gdwire::serde::to_slice(
                        Dialect::GODOT_4,
                        black_box(v),
                        &mut self.out[pos..],
                    )
                    .unwrap();
                }
                sum = pos as u64;
            }
            _ => panic!("unknown op {op}"),
        }
        sum
    }
}

fn bench_dataset(c: &mut Criterion, d: &Dataset) {
    let mut input = Input::new(d);
    let mut group = c.benchmark_group(d.name);
    group.throughput(Throughput::Bytes(d.g4.len() as u64));
    for &op in OPS {
        group.bench_function(op, |b| b.iter(|| input.run(op)));
    }
    group.finish();
}

/// `GDWIRE_BENCH_REPEAT=<dataset>/<op>:<n>` runs one operation `n` times and exits, for
/// `perf stat -e task-clock` (CPU time is steadier than wall time on a busy machine).
fn repeat(spec: &str, sets: &[Dataset]) {
    let (name, n) = spec.split_once(':').expect("<dataset>/<op>:<n>");
    let (set, op) = name.split_once('/').expect("<dataset>/<op>");
    let d = sets.iter().find(|d| d.name == set).expect("dataset");
    let mut input = Input::new(d);
    let mut check = 0u64;
    for _ in 0..n.parse::<usize>().unwrap() {
        check = check.wrapping_add(input.run(op));
    }
    println!("{check}");
}

fn benches(c: &mut Criterion) {
    let sets = datasets::all();
    if let Ok(spec) = std::env::var("GDWIRE_BENCH_REPEAT") {
        repeat(&spec, &sets);
        std::process::exit(0);
    }
    for d in &sets {
        bench_dataset(c, d);
    }
}

criterion_group! {
    name = owned;
    config = config();
    targets = benches
}
criterion_main!(owned);
