//! JSON input (`json::documents`, what `gdwire encode --from json` runs) on the JSON dumps of
//! the throughput datasets, against the pipeline it replaced (serde_json's parser into a
//! `Value`, then `json::from_json_value`) and `memcpy` of the same text.
//!
//! Run: `cargo bench --features json --bench json`.

#[path = "datasets/mod.rs"]
mod datasets;

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gdwire::{json, Decoder, Dialect};

/// The JSON dump of every value of a dataset, one document per line.
fn dump(g4: &[u8], frames: &[std::ops::Range<usize>]) -> String {
    let mut text = String::new();
    for r in frames {
        let v = Decoder::new(Dialect::GODOT_4)
            .decode_exact(&g4[r.clone()])
            .unwrap();
        json::write_json(&mut text, Dialect::GODOT_4, &v).unwrap();
        text.push('\n');
    }
    text
}

fn bench(c: &mut Criterion) {
    let g4 = Dialect::GODOT_4;
    for d in datasets::all() {
        let text = dump(&d.g4, &d.g4_frames);
        // Both pipelines give the dataset's own bytes back.
        let ours: Vec<u8> = json::documents(g4, &text)
            .flat_map(Result::unwrap)
            .collect();
        assert!(ours == d.g4, "{}", d.name);
        let mut g = c.benchmark_group(format!("json_in_{}", d.name));
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function("gdwire_parser", |b| {
            b.iter(|| {
                json::documents(g4, black_box(&text))
                    .map(|r| r.unwrap().len())
                    .sum::<usize>()
            })
        });
        g.bench_function("serde_json_parser", |b| {
            b.iter(|| {
                serde_json::Deserializer::from_str(black_box(&text))
                    .into_iter::<serde_json::Value>()
                    .map(|v| json::from_json_value(g4, &v.unwrap()).unwrap().len())
                    .sum::<usize>()
            })
        });
        let mut copy = vec![0u8; text.len()];
        g.bench_function("memcpy", |b| {
            b.iter(|| copy.copy_from_slice(black_box(text.as_bytes())))
        });
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
    targets = bench
}
criterion_main!(benches);
