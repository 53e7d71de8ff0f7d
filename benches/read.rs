//! Read-path throughput on real engine output, next to `memcpy` of the same bytes (the
//! hardware bound) measured in the same run, and the text of top-level strings (chat lines
//! sent with `put_var`). Run: `cargo bench --bench read`.
//! The full benchmark suite (synthetic datasets, peers, the engine itself) is separate work;
//! this one keeps the read path's speed visible from the start.

use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput,
};
use gdwire::frame::Framing;
use gdwire::{to_slice, Cursor, Decoder, Dialect, ObjectRef, StrRef, VariantRef};
use std::hint::black_box;

/// `samples/godot3_capture.bin`: `File.store_var` frames (u32 LE length + value) from Godot 3.2.3.
fn capture_frames() -> (Vec<u8>, Vec<std::ops::Range<usize>>) {
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/samples/godot3_capture.bin"
    ))
    .unwrap();
    let mut frames = Vec::new();
    let mut pos = 0;
    while pos + 4 <= bytes.len() {
        let len = u32::from_le_bytes(bytes[pos..pos + 4].try_into().unwrap()) as usize;
        frames.push(pos + 4..pos + 4 + len);
        pos += 4 + len;
    }
    (bytes, frames)
}

fn walk(v: VariantRef<'_>, sum: &mut u64) {
    match v {
        VariantRef::Array(a) => a.iter().for_each(|x| walk(x, sum)),
        VariantRef::Dictionary(d) => d.iter().for_each(|e| {
            let (k, v) = e;
            walk(k, sum);
            walk(v, sum);
        }),
        VariantRef::Object(ObjectRef::Full(o)) => o.properties().for_each(|p| walk(p.1, sum)),
        VariantRef::Int(i) => *sum = sum.wrapping_add(i as u64),
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

fn bench(c: &mut Criterion) {
    let (bytes, frames) = capture_frames();
    let decoder = Decoder::new(Dialect::GODOT_3).with_allow_objects(true);
    let mut group = c.benchmark_group("godot3_capture");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    let mut out = vec![0u8; bytes.len()];
    group.bench_function(BenchmarkId::new("memcpy", bytes.len()), |b| {
        b.iter(|| out.copy_from_slice(black_box(&bytes)))
    });
    group.bench_function(BenchmarkId::new("validate", bytes.len()), |b| {
        b.iter(|| {
            for r in &frames {
                black_box(decoder.validate(black_box(&bytes[r.clone()])).unwrap());
            }
        })
    });
    group.bench_function(BenchmarkId::new("decode_and_walk", bytes.len()), |b| {
        b.iter(|| {
            let mut sum = 0;
            for r in &frames {
                walk(
                    decoder.decode(black_box(&bytes[r.clone()])).unwrap(),
                    &mut sum,
                );
            }
            black_box(sum)
        })
    });
    // The same through the framing layer: the file's length prefixes read by
    // `Framing::values`, which decodes each frame's payload.
    group.bench_function(
        BenchmarkId::new("frames_decode_and_walk", bytes.len()),
        |b| {
            b.iter(|| {
                let mut sum = 0;
                for v in Framing::default().values(decoder, black_box(&bytes)) {
                    walk(v.unwrap(), &mut sum);
                }
                black_box(sum)
            })
        },
    );
    // Godot 3 values written for Godot 4 (a save or capture migrated): every value goes
    // through the writer (ids, float widths and packed arrays change between the two).
    group.bench_function(BenchmarkId::new("to_godot4", bytes.len()), |b| {
        b.iter(|| {
            let mut written = 0;
            for r in &frames {
                let v = decoder.decode(black_box(&bytes[r.clone()])).unwrap();
                written += to_slice(Dialect::GODOT_4, &v, &mut out).unwrap();
            }
            black_box(written)
        })
    });
    group.bench_function(BenchmarkId::new("cursor_skip", bytes.len()), |b| {
        b.iter(|| {
            for r in &frames {
                let mut cursor = Cursor::with_decoder(decoder, black_box(&bytes[r.clone()]));
                black_box(cursor.skip().unwrap());
            }
        })
    });
    group.finish();
}

/// 2,000 Godot 4 Strings of 1 to 12 words, half of them not ASCII (a chat stream's
/// `put_var` payloads, one value each).
fn text_messages() -> Vec<Vec<u8>> {
    const WORDS: [&str; 8] = [
        "hello",
        "Grüße",
        "gg",
        "こんにちは",
        "rematch?",
        "déjà",
        "вперёд",
        "lag",
    ];
    let mut state = 0x9E37_79B9_u32;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state
    };
    (0..2000)
        .map(|_| {
            let words = 1 + next() % 12;
            let text: Vec<&str> = (0..words).map(|_| WORDS[(next() % 8) as usize]).collect();
            let text = text.join(" ");
            let mut b = vec![4, 0, 0, 0];
            b.extend_from_slice(&(text.len() as u32).to_le_bytes());
            b.extend_from_slice(text.as_bytes());
            b.resize(b.len().next_multiple_of(4), 0);
            b
        })
        .collect()
}

/// A decoded string's `as_str` against its `bytes` (no text check) and `validate`: the text
/// the decode checked is not checked a second time. The same bytes read as Godot 3 (String
/// has the same id there), whose rules accept text that is not UTF-8, so that `as_str`
/// checks it again.
fn bench_text(c: &mut Criterion) {
    let messages = text_messages();
    let total: usize = messages.iter().map(Vec::len).sum();
    let mut group = c.benchmark_group("text_messages");
    group.throughput(Throughput::Bytes(total as u64));
    for (prefix, dialect) in [("", Dialect::GODOT_4), ("g3_", Dialect::GODOT_3)] {
        let decoder = Decoder::new(dialect);
        group.bench_function(BenchmarkId::new(format!("{prefix}validate"), total), |b| {
            b.iter(|| {
                for m in &messages {
                    black_box(decoder.validate(black_box(m)).unwrap());
                }
            })
        });
        // The text of each decoded string as its bytes, then as `&str`.
        bench_decode_text(
            &mut group,
            &format!("{prefix}decode_bytes"),
            decoder,
            &messages,
            |s| s.bytes().len(),
        );
        bench_decode_text(
            &mut group,
            &format!("{prefix}decode_as_str"),
            decoder,
            &messages,
            |s| s.as_str().unwrap().len(),
        );
    }
    group.finish();
}

/// One `text_messages` row: every message decoded and its text taken with `text` (generic,
/// so that each row's loop is compiled for its own `text`: through a `fn` pointer the view
/// went through memory to an indirect call, +30 % on these 62-byte values).
fn bench_decode_text(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    decoder: Decoder,
    messages: &[Vec<u8>],
    text: impl Fn(&StrRef<'_>) -> usize,
) {
    let total: usize = messages.iter().map(Vec::len).sum();
    group.bench_function(BenchmarkId::new(name, total), |b| {
        b.iter(|| {
            let mut n = 0;
            for m in messages {
                if let VariantRef::String(s) = decoder.decode(black_box(m)).unwrap() {
                    n += text(&s);
                }
            }
            black_box(n)
        })
    });
}

criterion_group!(benches, bench, bench_text);
criterion_main!(benches);
