//! Decode-and-walk of a multiplayer capture (small RPCs, full and delta syncs, as a game
//! sends every tick) against memcpy of the same bytes; per-packet cost = time / packets.
//! `cargo bench --bench multiplayer`; numbers in docs/performance.md ("Multiplayer packets").

#[path = "../tests/support/mp_capture.rs"]
mod mp_capture;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use gdwire::multiplayer::{Args, Packet};
use gdwire::VariantRef;

fn touch(v: VariantRef<'_>, sum: &mut f64) {
    match v {
        VariantRef::Int(i) => *sum += i as f64,
        VariantRef::Float(f) => *sum += f,
        VariantRef::Bool(b) => *sum += f64::from(u8::from(b)),
        VariantRef::Vector3(m) => *sum += m.get().x,
        VariantRef::String(s) => *sum += s.bytes().len() as f64,
        _ => {}
    }
}

fn walk(p: Packet<'_>, sum: &mut f64) {
    match p {
        Packet::RemoteCall(c) => {
            *sum += f64::from(c.method);
            if let Args::Values(v) = c.args {
                v.for_each(|x| touch(x, sum));
            }
        }
        Packet::Sync(s) => {
            for e in s.entries {
                *sum += f64::from(e.net_id);
                e.values.for_each(|x| touch(x, sum));
            }
        }
        _ => {}
    }
}

fn bench(c: &mut Criterion) {
    let (bytes, ranges) = mp_capture::capture(256);
    eprintln!("capture: {} packets, {} bytes", ranges.len(), bytes.len());
    let mut group = c.benchmark_group("multiplayer_capture");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    let mut out = vec![0u8; bytes.len()];
    group.bench_function(BenchmarkId::new("memcpy", bytes.len()), |b| {
        b.iter(|| out.copy_from_slice(black_box(&bytes)))
    });
    group.bench_function(BenchmarkId::new("parse", bytes.len()), |b| {
        b.iter(|| {
            for r in &ranges {
                black_box(Packet::parse(black_box(&bytes[r.clone()])).unwrap());
            }
        })
    });
    group.bench_function(BenchmarkId::new("parse_and_walk", bytes.len()), |b| {
        b.iter(|| {
            let mut sum = 0.0;
            for r in &ranges {
                walk(
                    Packet::parse(black_box(&bytes[r.clone()])).unwrap(),
                    &mut sum,
                );
            }
            black_box(sum)
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
