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

/// Touches every element of a view (recursively: the datasets nest at most 60 levels).
fn walk(v: &VariantRef<'_>, sum: &mut u64) {
    match v {
        VariantRef::Array(a) => a.iter().for_each(|x| walk(&x.unwrap(), sum)),
        VariantRef::Dictionary(d) => d.iter().for_each(|e| {
            let (k, v) = e.unwrap();
            walk(&k, sum);
            walk(&v, sum);
        }),
        VariantRef::Int(i) => *sum = sum.wrapping_add(*i as u64),
        VariantRef::Float(f) => *sum = sum.wrapping_add(f.to_bits()),
        VariantRef::String(s) => *sum += s.bytes().len() as u64,
        VariantRef::PackedStringArray(p) => {
            *sum += p.iter().map(|s| s.bytes().len() as u64).sum::<u64>()
        }
        VariantRef::PackedVector3Array(p) => *sum += p.iter().count() as u64,
        VariantRef::PackedInt32Array(p) => *sum += p.iter().map(|x| x as u64).sum::<u64>(),
        VariantRef::PackedFloat32Array(p) => *sum += p.iter().count() as u64,
        _ => *sum += 1,
    }
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20)
}

fn bench_dataset(c: &mut Criterion, d: &Dataset) {
    let dec = Decoder::new(Dialect::GODOT_4);
    let frames: Vec<&[u8]> = d.g4_frames.iter().map(|r| &d.g4[r.clone()]).collect();
    let owned: Vec<Variant> = frames
        .iter()
        .map(|f| dec.decode_owned_exact(f).unwrap())
        .collect();
    let mut out = vec![0u8; d.g4.len()];
    let mut group = c.benchmark_group(d.name);
    group.throughput(Throughput::Bytes(d.g4.len() as u64));
    group.bench_function("view_decode", |b| {
        b.iter(|| {
            for f in &frames {
                black_box(dec.decode(black_box(f)).unwrap());
            }
        })
    });
    group.bench_function("view_decode_walk", |b| {
        b.iter(|| {
            let mut sum = 0;
            for f in &frames {
                walk(&dec.decode(black_box(f)).unwrap(), &mut sum);
            }
            sum
        })
    });
    group.bench_function("owned_decode", |b| {
        b.iter(|| {
            for f in &frames {
                black_box(dec.decode_owned(black_box(f)).unwrap());
            }
        })
    });
    group.bench_function("owned_encode", |b| {
        b.iter(|| {
            let mut pos = 0;
            for v in &owned {
                let mut w = Writer::new(&mut out[pos..], Dialect::GODOT_4);
                w.variant(black_box(v)).unwrap();
                pos += w.finish().unwrap();
            }
            pos
        })
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    for d in datasets::all() {
        bench_dataset(c, &d);
    }
}

criterion_group! {
    name = owned;
    config = config();
    targets = benches
}
criterion_main!(owned);
