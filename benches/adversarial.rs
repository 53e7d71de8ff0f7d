//! Decoding cost of hostile input shapes at growing sizes (bytes/s must stay flat: linear
//! cost), next to the real engine capture. Run: `cargo bench --bench adversarial --features json`.
//! Results: docs/hardening.md.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use gdwire::read::{Event, Walked, Walker};
use gdwire::{to_slice, Decoder, Dialect, ObjectRef, VariantRef};
use std::hint::black_box;

#[path = "../tests/support/shapes.rs"]
mod shapes;

/// Recursive walk through the lazy views; with `resume`, walked children are handed back.
fn views<'a>(v: VariantRef<'a>, resume: bool, n: &mut u64) -> Option<Walked<'a>> {
    *n += 1;
    match v {
        VariantRef::Array(a) => {
            let mut it = a.iter();
            while let Some(x) = it.next() {
                if let Some(w) = views(x, resume, n) {
                    it.resume(w);
                }
            }
            resume.then(|| it.walked()).flatten()
        }
        VariantRef::Dictionary(d) if resume => {
            let mut it = d.keys_and_values();
            while let Some(x) = it.next() {
                if let Some(w) = views(x, resume, n) {
                    it.resume(w);
                }
            }
            it.walked()
        }
        VariantRef::Dictionary(d) => {
            for e in d.iter() {
                let (k, v) = e;
                views(k, false, n);
                views(v, false, n);
            }
            None
        }
        VariantRef::Object(ObjectRef::Full(o)) => {
            for p in o.properties() {
                views(p.1, false, n);
            }
            None
        }
        _ => None,
    }
}

fn walker<'a>(w: &mut Walker<'a>, bytes: &'a [u8]) -> u64 {
    let mut n = 0;
    w.reset(bytes);
    for e in w.by_ref() {
        if !matches!(e.unwrap(), Event::End) {
            n += 1;
        }
    }
    n
}

type Shape = fn(usize) -> Vec<u8>;

fn group(c: &mut Criterion, name: &str, shape: Shape, sizes: &[usize], walks: bool) {
    let text_and_json = name.starts_with("deep_");
    let dec = Decoder::new(Dialect::GODOT_4);
    let mut g = c.benchmark_group(name);
    for &size in sizes {
        let bytes = shape(size);
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function(BenchmarkId::new("validate", size), |b| {
            b.iter(|| black_box(dec.validate(black_box(&bytes))))
        });
        if !walks {
            continue;
        }
        g.bench_function(BenchmarkId::new("walker", size), |b| {
            // One walker reused (`reset` keeps its stack; a fresh one zeroes 18 KiB).
            let mut w = dec.walk(&[]);
            b.iter(|| walker(&mut w, black_box(&bytes)))
        });
        // Views walked by other layers (text form, JSON): their cost on the same shapes.
        if text_and_json {
            g.bench_function(BenchmarkId::new("text", size), |b| {
                b.iter(|| {
                    let v = dec.decode(black_box(&bytes)).unwrap();
                    gdwire::text::to_text(Dialect::GODOT_4, &v).unwrap().len()
                })
            });
            #[cfg(feature = "json")]
            g.bench_function(BenchmarkId::new("json", size), |b| {
                b.iter(|| {
                    let v = dec.decode(black_box(&bytes)).unwrap();
                    gdwire::json::to_json_string(Dialect::GODOT_4, &v)
                        .unwrap()
                        .len()
                })
            });
        }
        // Re-encoding a decoded view walks it through the lazy iterators too.
        let mut out = vec![0u8; bytes.len()];
        g.bench_function(BenchmarkId::new("reencode", size), |b| {
            b.iter(|| {
                let v = dec.decode(black_box(&bytes)).unwrap();
                to_slice(Dialect::GODOT_4, &v, &mut out).unwrap()
            })
        });
        for (label, resume) in [("views", false), ("views_resumed", true)] {
            g.bench_function(BenchmarkId::new(label, size), |b| {
                b.iter(|| {
                    let mut n = 0;
                    views(dec.decode(black_box(&bytes)).unwrap(), resume, &mut n);
                    n
                })
            });
        }
    }
    g.finish();
}

/// The benign reference: the real Godot 3.2.3 capture (see benches/read.rs), walked the same
/// ways.
fn capture(c: &mut Criterion) {
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/samples/godot3_capture.bin"
    ))
    .unwrap();
    let mut frames = Vec::new();
    let mut pos = 0;
    while pos + 4 <= bytes.len() {
        let len = u32::from_le_bytes(bytes[pos..pos + 4].try_into().unwrap()) as usize;
        frames.push(&bytes[pos + 4..pos + 4 + len]);
        pos += 4 + len;
    }
    let dec = Decoder::new(Dialect::GODOT_3).with_allow_objects(true);
    let mut g = c.benchmark_group("benign_capture");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("validate", |b| {
        b.iter(|| {
            frames
                .iter()
                .map(|f| dec.validate(f).unwrap())
                .sum::<usize>()
        })
    });
    g.bench_function("walker_fresh", |b| {
        b.iter(|| {
            let mut n = 0u64;
            for f in &frames {
                for e in dec.walk(black_box(f)) {
                    e.unwrap();
                    n += 1;
                }
            }
            n
        })
    });
    g.bench_function("walker", |b| {
        // One walker reused for every frame (`reset` keeps its stack).
        let mut w = dec.walk(&[]);
        b.iter(|| {
            let mut n = 0u64;
            for f in &frames {
                w.reset(black_box(f));
                for e in w.by_ref() {
                    e.unwrap();
                    n += 1;
                }
            }
            n
        })
    });
    g.bench_function("views", |b| {
        b.iter(|| {
            let mut n = 0;
            for f in &frames {
                views(dec.decode(black_box(f)).unwrap(), false, &mut n);
            }
            n
        })
    });
    g.bench_function("text", |b| {
        b.iter(|| {
            let mut n = 0;
            for f in &frames {
                let v = dec.decode(black_box(f)).unwrap();
                n += gdwire::text::to_text(Dialect::GODOT_3, &v).unwrap().len();
            }
            n
        })
    });
    g.finish();
}

fn u32s(out: &mut Vec<u8>, words: &[u32]) {
    for w in words {
        out.extend_from_slice(&w.to_le_bytes());
    }
}

/// `{A: 1, B: 2}` (Godot 4): two keys that are the same deep structure with a sibling at
/// every level, but for their outermost last item; the deepest values sit at `depth`. Ordering
/// and merging the two keys compares them whole.
fn deep_key_pair(depth: usize) -> Vec<u8> {
    let inner = shapes::deep_with_siblings(depth - 2);
    let mut out = Vec::new();
    u32s(&mut out, &[0x1b, 2]);
    for last in [1, 2] {
        u32s(&mut out, &[0x1c, 2]);
        out.extend_from_slice(&inner);
        u32s(&mut out, &[2, last, 2, last]);
    }
    out
}

/// A dictionary of `n` keys, each a different one-entry dictionary `{i: 0}` (Godot 4): keys
/// alike in type and length, which a length-based hash would put in one bucket.
fn wide_dict_keys(n: usize) -> Vec<u8> {
    let mut out = Vec::new();
    u32s(&mut out, &[0x1b, n as u32]);
    for i in 0..n as u32 {
        u32s(&mut out, &[0x1b, 1, 2, i, 2, 0, 2, i]);
    }
    out
}

/// An array of `n` small dictionaries `{"id": i, "name": "x", "pos": [i, i]}` (Godot 4): not
/// hostile, the shape whose text pays most for recording where containers end.
fn small_records(n: usize) -> Vec<u8> {
    let word = |b: &[u8; 4]| u32::from_le_bytes(*b);
    let mut out = Vec::new();
    u32s(&mut out, &[0x1c, n as u32]);
    for i in 0..n as u32 {
        u32s(
            &mut out,
            &[0x1b, 3, 4, 2, word(b"id\0\0"), 2, i, 4, 4, word(b"name")],
        );
        u32s(
            &mut out,
            &[
                4,
                1,
                u32::from(b'x'),
                4,
                3,
                word(b"pos\0"),
                0x1c,
                2,
                2,
                i,
                2,
                i,
            ],
        );
    }
    out
}

/// A dictionary of `n` keys `[Color(i, 0, 0, 1)]` (Godot 3): 3.2.3's array `<` is true both
/// ways for these, and the engine's sort then makes O(n²) comparisons; the text form's port
/// caps its final pass (docs/hardening.md), so this must stay linear-logarithmic.
fn contradicting_keys(n: usize) -> Vec<u8> {
    let mut out = Vec::new();
    u32s(&mut out, &[0x12, n as u32]);
    for i in 0..n as u32 {
        let red = (i as f32).to_bits();
        u32s(&mut out, &[0x13, 1, 14, red, 0, 0, 1f32.to_bits(), 2, i]);
    }
    out
}

/// The text form of shapes that stress dictionary keys.
fn text_group(c: &mut Criterion, name: &str, shape: Shape, sizes: &[usize], dialect: Dialect) {
    let dec = Decoder::new(dialect);
    let mut g = c.benchmark_group(name);
    for &size in sizes {
        let bytes = shape(size);
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function(BenchmarkId::new("text", size), |b| {
            b.iter(|| {
                let v = dec.decode(black_box(&bytes)).unwrap();
                gdwire::text::to_text(dialect, &v).unwrap().len()
            })
        });
    }
    g.finish();
}

fn hostile(c: &mut Criterion) {
    let depths = [16, 128, 1024];
    let counts = [1 << 10, 1 << 14, 1 << 18];
    group(
        c,
        "deep_siblings",
        shapes::deep_with_siblings,
        &depths,
        true,
    );
    group(c, "deep_dict_keys", shapes::deep_dict_keys, &depths, true);
    let g4 = Dialect::GODOT_4;
    text_group(c, "deep_key_pair", deep_key_pair, &depths, g4);
    text_group(c, "wide_dict_keys", wide_dict_keys, &[256, 1024, 4096], g4);
    text_group(c, "small_records", small_records, &[1 << 10, 1 << 14], g4);
    let sizes = [500, 2000, 16000];
    text_group(
        c,
        "contradicting_keys",
        contradicting_keys,
        &sizes,
        Dialect::GODOT_3,
    );
    group(c, "deep_chain", shapes::deep_chain, &depths, true);
    group(c, "many_nils", shapes::many_nils, &counts, true);
    group(
        c,
        "many_short_strings",
        shapes::many_short_strings,
        &counts,
        true,
    );
    group(
        c,
        "huge_array_count",
        shapes::huge_array_count,
        &counts,
        false,
    );
    group(
        c,
        "huge_packed_strings_count",
        shapes::huge_packed_strings_count,
        &counts,
        false,
    );
}

criterion_group!(benches, capture, hostile);
criterion_main!(benches);
