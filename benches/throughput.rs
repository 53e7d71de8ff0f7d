//! Throughput on deterministic datasets (see `datasets/mod.rs`), with `memcpy` of the same
//! bytes, the peer crate `godot-binary-serialization` and (separately, via
//! `tests/godot3/bench_engine.sh`) the real engine as references.
//!
//! Run: `cargo bench --bench throughput` (filter with a criterion regex, e.g.
//! `cargo bench --bench throughput -- a_game_state`).
//!
//! With `GDWIRE_BENCH_PAYLOADS=<dir>` set, the bench only writes each dataset's Godot 3 and
//! Godot 4 encodings as `store_var` frame files (`<dir>/<name>.g3.bin`, `.g4.bin`: u32 LE
//! length, value, repeated) for the engine script, and exits. `GDWIRE_BENCH_REPEAT` (see
//! `repeat`) runs one operation in a loop for profilers.

mod datasets;

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use datasets::{encode_all, peer_subset, write_val, Dataset, Val};
use gdwire::read::{Event, PackedReals, Walked, Walker};
use gdwire::{to_slice, Cursor, Decoder, Dialect, PackedRef, VariantRef, Writer};

/// Touches every element of `v` (every scalar, string, math value and packed element)
/// through the public views and folds it into `sum`, so nothing can be optimised away.
///
/// Views are matched by reference, never moved: moving a freshly written view (64 bytes) per
/// element costs a copy that also stalls store forwarding (docs/dev/performance-history.md,
/// "The full walk").
///
/// `IN_PLACE` also matches each iterator item where `next()` returned it (`match
/// &it.next()`) instead of moving it into a loop variable (`for x in a.iter()`, the
/// idiomatic form).
// The `loop { match &it.next() }` form is what is measured (see above).
#[allow(clippy::while_let_loop)]
fn walk<const IN_PLACE: bool, const AS_STR: bool>(v: &VariantRef<'_>, sum: &mut u64) {
    match v {
        VariantRef::Array(a) if IN_PLACE => {
            let mut it = a.iter();
            while let Some(x) = &it.next() {
                walk::<IN_PLACE, AS_STR>(x, sum);
            }
        }
        VariantRef::Dictionary(d) if IN_PLACE => {
            let mut it = d.iter();
            while let Some((k, v)) = &it.next() {
                walk::<IN_PLACE, AS_STR>(k, sum);
                walk::<IN_PLACE, AS_STR>(v, sum);
            }
        }
        VariantRef::Array(a) => {
            for x in a.iter() {
                walk::<IN_PLACE, AS_STR>(&x, sum);
            }
        }
        VariantRef::Dictionary(d) => {
            for (k, v) in d.iter() {
                walk::<IN_PLACE, AS_STR>(&k, sum);
                walk::<IN_PLACE, AS_STR>(&v, sum);
            }
        }
        leaf => self::leaf::<AS_STR>(leaf, sum),
    }
}

/// A non-container value folded into `sum`. `AS_STR` takes strings as `&str` (what most
/// callers want) instead of their bytes.
#[inline]
fn leaf<const AS_STR: bool>(v: &VariantRef<'_>, sum: &mut u64) {
    let add = |sum: &mut u64, x: u64| *sum = sum.wrapping_add(x);
    match v {
        VariantRef::Nil => add(sum, 1),
        VariantRef::Bool(b) => add(sum, *b as u64),
        VariantRef::Int(i) => add(sum, *i as u64),
        VariantRef::Float(f) => add(sum, f.to_bits()),
        VariantRef::String(s) if AS_STR => add(sum, s.as_str().unwrap().len() as u64),
        VariantRef::String(s) => add(sum, s.bytes().len() as u64),
        VariantRef::Vector2(v) => {
            let v = v.get();
            add(sum, (v.x + v.y).to_bits())
        }
        VariantRef::Vector3(v) => {
            let v = v.get();
            add(sum, (v.x + v.y + v.z).to_bits())
        }
        VariantRef::Transform3D(t) => {
            let t = t.get();
            add(sum, (t.origin.x + t.basis.rows[2].z).to_bits())
        }
        VariantRef::PackedStringArray(p) if AS_STR => p
            .iter()
            .for_each(|s| add(sum, s.as_str().unwrap().len() as u64)),
        VariantRef::PackedStringArray(p) => p.iter().for_each(|s| add(sum, s.bytes().len() as u64)),
        VariantRef::PackedVector3Array(p) => p.iter().for_each(|v| add(sum, v[0].to_bits())),
        VariantRef::PackedInt32Array(p) => p.iter().for_each(|x| add(sum, x as u64)),
        VariantRef::PackedFloat32Array(p) => p.iter().for_each(|x| add(sum, x.to_bits() as u64)),
        other => panic!("walk: unexpected {other:?}"),
    }
}

/// [`walk`] (in place) that hands every walked container back to its parent iterator
/// (`walked` / `resume`), so no level is skipped a second time: the linear form of a
/// recursive walk through lazy views.
fn walk_resume<'a>(v: &VariantRef<'a>, sum: &mut u64) -> Option<Walked<'a>> {
    match v {
        VariantRef::Array(a) => {
            let mut it = a.iter();
            while let Some(x) = &it.next() {
                if let Some(w) = walk_resume(x, sum) {
                    it.resume(w);
                }
            }
            it.walked()
        }
        VariantRef::Dictionary(d) => {
            let mut it = d.iter();
            while let Some((k, v)) = &it.next() {
                walk_resume(k, sum);
                if let Some(w) = walk_resume(v, sum) {
                    it.resume(w);
                }
            }
            it.walked()
        }
        leaf => {
            self::leaf::<false>(leaf, sum);
            None
        }
    }
}

/// Reads every value of a stream and walks it with [`walk_resume`].
fn walk_resume_stream(dec: Decoder, bytes: &[u8]) -> u64 {
    let mut cursor = Cursor::with_decoder(dec, bytes);
    let mut sum = 0;
    while !cursor.is_at_end() {
        match &cursor.read() {
            Ok(v) => {
                walk_resume(v, &mut sum);
            }
            Err(e) => panic!("{e}"),
        }
    }
    sum
}

/// Reads every value of a stream and walks it.
fn walk_stream<const IN_PLACE: bool, const AS_STR: bool>(dec: Decoder, bytes: &[u8]) -> u64 {
    let mut cursor = Cursor::with_decoder(dec, bytes);
    let mut sum = 0;
    while !cursor.is_at_end() {
        match &cursor.read() {
            Ok(v) => walk::<IN_PLACE, AS_STR>(v, &mut sum),
            Err(e) => panic!("{e}"),
        }
    }
    sum
}

/// Walks every value of a stream with the one-pass [`Walker`] (validation and visit in a
/// single pass), touching every element as `walk` does. One walker `reset` for each value;
/// with `FRESH`, a new walker for each value instead (`Decoder::walk`, as a server handling
/// one packet at a time would write it).
fn walker_stream<const AS_STR: bool, const FRESH: bool>(dec: Decoder, bytes: &[u8]) -> u64 {
    let add = |sum: &mut u64, x: u64| *sum = sum.wrapping_add(x);
    let mut sum = 0;
    let mut pos = 0;
    let mut walker = Walker::new(dec, bytes);
    while pos < bytes.len() {
        if FRESH {
            walker = dec.walk(black_box(&bytes[pos..]));
        } else {
            walker.reset(&bytes[pos..]);
        }
        for event in walker.by_ref() {
            match &event {
                Ok(Event::Value(v)) => leaf::<AS_STR>(v, &mut sum),
                Ok(Event::Begin(_)) | Ok(Event::End) => add(&mut sum, 1),
                Ok(Event::Property(_)) => unreachable!("no objects in the datasets"),
                Err(e) => panic!("{e}"),
            }
        }
        pos += walker.offset();
    }
    sum
}

/// Validates every value of a stream without building views.
fn validate_stream(dec: Decoder, bytes: &[u8]) -> usize {
    let mut cursor = Cursor::with_decoder(dec, bytes);
    let mut n = 0;
    while !cursor.is_at_end() {
        cursor.skip().unwrap();
        n += 1;
    }
    n
}

/// Decodes every value of a stream and re-encodes it into `buf` in `dialect` with
/// [`to_slice`] (a forwarding server's path); returns the length written.
fn reencode_stream(dec: Decoder, bytes: &[u8], dialect: Dialect, buf: &mut [u8]) -> usize {
    let mut cursor = Cursor::with_decoder(dec, bytes);
    let mut pos = 0;
    while !cursor.is_at_end() {
        let v = cursor.read().unwrap();
        pos += to_slice(dialect, &v, &mut buf[pos..]).unwrap();
    }
    pos
}

/// Encodes `values` back to back into `buf` (never allocates); returns the length.
fn encode_stream(dialect: Dialect, values: &[Val], buf: &mut [u8]) -> usize {
    let mut pos = 0;
    for v in values {
        let mut w = Writer::new(&mut buf[pos..], dialect);
        write_val(&mut w, v).unwrap();
        pos += w.finish().unwrap();
    }
    pos
}

/// Sums `f32`s with 8 independent lanes (vectorisable; a single running sum would be bound
/// by the add latency, not by the view).
fn sum_lanes(xs: &[f32]) -> f32 {
    let mut lanes = [0f32; 8];
    let chunks = xs.chunks_exact(8);
    let tail: f32 = chunks.remainder().iter().sum();
    for c in chunks {
        for (l, x) in lanes.iter_mut().zip(c) {
            *l += *x;
        }
    }
    lanes.iter().sum::<f32>() + tail
}

/// Sums a PackedFloat32Array: the native slice when aligned (the usual case), else the
/// unaligned little-endian elements.
fn sum_f32(p: PackedRef<'_, f32>) -> f32 {
    match p.as_native_slice() {
        Some(xs) => sum_lanes(xs),
        None => p.iter().sum(),
    }
}

fn sum_v3(p: PackedReals<'_, 3>) -> f32 {
    let PackedReals::Single(p) = p else {
        panic!("single precision expected")
    };
    match p.as_native_slice() {
        Some(vs) => sum_lanes(vs.as_flattened()),
        None => p.iter().map(|[x, y, z]| x + y + z).sum(),
    }
}

fn sum_i32(p: PackedRef<'_, i32>) -> i64 {
    match p.as_native_slice() {
        Some(xs) => xs.iter().map(|&x| x as i64).sum(),
        None => p.iter().map(|x| x as i64).sum(),
    }
}

/// Decodes each mesh, takes its packed views and sums every element.
fn mesh_sums(dec: Decoder, bytes: &[u8]) -> f64 {
    let mut cursor = Cursor::with_decoder(dec, bytes);
    let mut total = 0.0;
    while !cursor.is_at_end() {
        let dict = cursor.read().unwrap().as_dictionary().unwrap();
        for e in dict.iter() {
            total += match e.1 {
                VariantRef::PackedVector3Array(p) => sum_v3(p) as f64,
                VariantRef::PackedFloat32Array(p) => sum_f32(p) as f64,
                VariantRef::PackedInt32Array(p) => sum_i32(p) as f64,
                _ => 0.0,
            };
        }
    }
    total
}

mod peer {
    //! `godot-binary-serialization` 0.2 on its supported subset (Godot 4 ids).
    use super::Val;
    use godot_binary_serialization::types::primitive::{
        GodotBool, GodotFloat, GodotInteger, GodotNull, GodotString,
    };
    use godot_binary_serialization::types::structures::{
        GodotDictionary, GodotVector2, GodotVector3,
    };
    use godot_binary_serialization::types::variant::GodotVariant;

    /// Builds the peer's value tree (same width choices as gdwire's writer, so the peer
    /// encodes the same bytes).
    pub fn build(v: &Val) -> Box<dyn GodotVariant> {
        match v {
            Val::Nil => Box::new(GodotNull),
            Val::Bool(b) => Box::new(GodotBool::new(*b)),
            Val::Int(i) => match i32::try_from(*i) {
                Ok(i) => Box::new(GodotInteger::new_from_i32(i)),
                Err(_) => Box::new(GodotInteger::new_from_i64(*i)),
            },
            Val::Float(f) if (*f as f32) as f64 == *f => {
                Box::new(GodotFloat::new_from_f32(*f as f32))
            }
            Val::Float(f) => Box::new(GodotFloat::new_from_f64(*f)),
            Val::Str(s) => Box::new(GodotString::new(s)),
            Val::V2([x, y]) => Box::new(GodotVector2::new(*x, *y)),
            Val::V3([x, y, z]) => Box::new(GodotVector3::new(*x, *y, *z)),
            Val::Dict(entries) => {
                let mut d = GodotDictionary::new();
                for (k, v) in entries {
                    d.map.insert(build(k), build(v));
                }
                Box::new(d)
            }
            other => panic!("not in the peer subset: {other:?}"),
        }
    }
}

/// Measurement settings: short windows (the machine is shared), medians reported.
fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20)
}

fn bench_dataset(c: &mut Criterion, d: &Dataset) {
    use godot_binary_serialization::decoder::Decoder as PeerDecoder;
    use godot_binary_serialization::encoder::Encoder as PeerEncoder;

    let g4 = Decoder::new(Dialect::GODOT_4);
    let g3 = Decoder::new(Dialect::GODOT_3);
    let mut group = c.benchmark_group(d.name);
    let mut out = vec![0u8; d.g4.len().max(d.g3.len())];

    group.throughput(Throughput::Bytes(d.g4.len() as u64));
    group.bench_function("memcpy", |b| {
        b.iter(|| out[..d.g4.len()].copy_from_slice(black_box(&d.g4)))
    });
    group.bench_function("g4_validate", |b| {
        b.iter(|| validate_stream(g4, black_box(&d.g4)))
    });
    group.bench_function("g4_walk", |b| {
        b.iter(|| walk_stream::<false, false>(g4, black_box(&d.g4)))
    });
    group.bench_function("g4_walk_in_place", |b| {
        b.iter(|| walk_stream::<true, false>(g4, black_box(&d.g4)))
    });
    group.bench_function("g4_walk_resume", |b| {
        b.iter(|| walk_resume_stream(g4, black_box(&d.g4)))
    });
    group.bench_function("g4_walker", |b| {
        b.iter(|| walker_stream::<false, false>(g4, black_box(&d.g4)))
    });
    group.bench_function("g4_walker_fresh", |b| {
        b.iter(|| walker_stream::<false, true>(g4, black_box(&d.g4)))
    });
    group.bench_function("g4_walk_str", |b| {
        b.iter(|| walk_stream::<false, true>(g4, black_box(&d.g4)))
    });
    group.bench_function("g4_walker_str", |b| {
        b.iter(|| walker_stream::<true, false>(g4, black_box(&d.g4)))
    });
    group.bench_function("g4_encode", |b| {
        b.iter(|| encode_stream(Dialect::GODOT_4, black_box(&d.values), &mut out))
    });
    group.bench_function("g4_reencode", |b| {
        b.iter(|| reencode_stream(g4, black_box(&d.g4), Dialect::GODOT_4, &mut out))
    });
    // A relay's decoder: canonical bytes noted while validating, then copied.
    let relay = g4.with_canonical_check(true);
    group.bench_function("g4_forward", |b| {
        b.iter(|| reencode_stream(relay, black_box(&d.g4), Dialect::GODOT_4, &mut out))
    });
    group.bench_function("g4_to_g3", |b| {
        b.iter(|| reencode_stream(g4, black_box(&d.g4), Dialect::GODOT_3, &mut out))
    });
    if d.name == "d_mesh" {
        group.bench_function("g4_packed_sum", |b| {
            b.iter(|| mesh_sums(g4, black_box(&d.g4)))
        });
    }

    // The engine is Godot 3.2.3: the same data in its dialect, for ratios to its numbers.
    group.throughput(Throughput::Bytes(d.g3.len() as u64));
    group.bench_function("g3_walk", |b| {
        b.iter(|| walk_stream::<false, false>(g3, black_box(&d.g3)))
    });
    group.bench_function("g3_walker", |b| {
        b.iter(|| walker_stream::<false, false>(g3, black_box(&d.g3)))
    });
    group.bench_function("g3_encode", |b| {
        b.iter(|| encode_stream(Dialect::GODOT_3, black_box(&d.values), &mut out))
    });

    // The peer crate's subset of the same data, both libraries on the same bytes.
    let subset: Vec<Val> = d.values.iter().filter_map(peer_subset).collect();
    if d.name != "d_mesh" {
        let mut bytes = Vec::new();
        let frames = encode_all(Dialect::GODOT_4, &subset, &mut bytes);
        let trees: Vec<_> = subset.iter().map(peer::build).collect();
        // Sanity: the peer encodes exactly gdwire's bytes and decodes all of them.
        for (tree, r) in trees.iter().zip(&frames) {
            assert_eq!(
                PeerEncoder::encode_variant(&**tree).unwrap(),
                bytes[r.clone()]
            );
            PeerDecoder::decode_variant(&bytes[r.clone()]).unwrap();
        }
        let mut out = vec![0u8; bytes.len()];
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("subset_g4_walk", |b| {
            b.iter(|| walk_stream::<false, false>(g4, black_box(&bytes)))
        });
        group.bench_function("subset_g4_walker", |b| {
            b.iter(|| walker_stream::<false, false>(g4, black_box(&bytes)))
        });
        group.bench_function("subset_peer_decode", |b| {
            b.iter(|| {
                frames
                    .iter()
                    .map(|r| {
                        let v = PeerDecoder::decode_variant(black_box(&bytes[r.clone()])).unwrap();
                        v.byte_length()
                    })
                    .sum::<usize>()
            })
        });
        group.bench_function("subset_g4_encode", |b| {
            b.iter(|| encode_stream(Dialect::GODOT_4, black_box(&subset), &mut out))
        });
        group.bench_function("subset_peer_encode", |b| {
            b.iter(|| {
                trees
                    .iter()
                    .map(|t| PeerEncoder::encode_variant(&**black_box(t)).unwrap().len())
                    .sum::<usize>()
            })
        });
    }
    group.finish();
}

/// Writes the payload files for `tests/godot3/bench_engine.sh`.
fn write_payloads(dir: &str, sets: &[Dataset]) {
    std::fs::create_dir_all(dir).unwrap();
    for d in sets {
        for (dialect, ext) in [(Dialect::GODOT_3, "g3"), (Dialect::GODOT_4, "g4")] {
            let mut framed = Vec::new();
            for v in &d.values {
                let mut w = Writer::new(&mut framed, dialect)
                    .with_length_prefix(gdwire::write::Endian::Little);
                write_val(&mut w, v).unwrap();
                w.finish().unwrap();
            }
            let path = format!("{dir}/{}.{ext}.bin", d.name);
            std::fs::write(&path, &framed).unwrap();
            println!("{path}: {} values, {} bytes", d.values.len(), framed.len());
        }
    }
}

/// `GDWIRE_BENCH_REPEAT=<dataset>/<op>:<n>` runs one operation `n` times and exits, for
/// `perf stat` / `perf record` (cycle counts are steadier than wall time on a busy machine).
fn repeat(spec: &str, sets: &[Dataset]) {
    let (name, n) = spec.split_once(':').expect("<dataset>/<op>:<n>");
    let (set, op) = name.split_once('/').expect("<dataset>/<op>");
    let d = sets.iter().find(|d| d.name == set).expect("dataset");
    let g4 = Decoder::new(Dialect::GODOT_4);
    let mut out = vec![0u8; d.g4.len().max(d.g3.len())];
    // The peer crate's subset (`subset_*` ops), encoded once.
    let subset: Vec<Val> = d.values.iter().filter_map(peer_subset).collect();
    let mut sub = Vec::new();
    let frames = encode_all(Dialect::GODOT_4, &subset, &mut sub);
    let mut check = 0u64;
    for _ in 0..n.parse::<usize>().unwrap() {
        check = check.wrapping_add(match op {
            "g4_walk" => walk_stream::<false, false>(g4, black_box(&d.g4)),
            "g4_walk_in_place" => walk_stream::<true, false>(g4, black_box(&d.g4)),
            "g4_walk_resume" => walk_resume_stream(g4, black_box(&d.g4)),
            "g4_walker" => walker_stream::<false, false>(g4, black_box(&d.g4)),
            "g4_walker_fresh" => walker_stream::<false, true>(g4, black_box(&d.g4)),
            "g4_validate" => validate_stream(g4, black_box(&d.g4)) as u64,
            "g4_encode" => encode_stream(Dialect::GODOT_4, black_box(&d.values), &mut out) as u64,
            "g3_encode" => encode_stream(Dialect::GODOT_3, black_box(&d.values), &mut out) as u64,
            "g4_walk_str" => walk_stream::<false, true>(g4, black_box(&d.g4)),
            "g4_walker_str" => walker_stream::<true, false>(g4, black_box(&d.g4)),
            "g4_reencode" => {
                reencode_stream(g4, black_box(&d.g4), Dialect::GODOT_4, &mut out) as u64
            }
            "g4_to_g3" => reencode_stream(g4, black_box(&d.g4), Dialect::GODOT_3, &mut out) as u64,
            "g4_forward" => {
                let relay = g4.with_canonical_check(true);
                reencode_stream(relay, black_box(&d.g4), Dialect::GODOT_4, &mut out) as u64
            }
            "g4_packed_sum" => mesh_sums(g4, black_box(&d.g4)) as u64,
            "subset_g4_walker" => walker_stream::<false, false>(g4, black_box(&sub)),
            "subset_peer_decode" => frames
                .iter()
                .map(|r| {
                    let v = godot_binary_serialization::decoder::Decoder::decode_variant(
                        black_box(&sub[r.clone()]),
                    )
                    .unwrap();
                    v.byte_length() as u64
                })
                .sum::<u64>(),
            _ => panic!("unknown op {op}"),
        });
    }
    println!("{check}");
}

fn benches(c: &mut Criterion) {
    let sets = datasets::all();
    if let Ok(dir) = std::env::var("GDWIRE_BENCH_PAYLOADS") {
        write_payloads(&dir, &sets);
        std::process::exit(0);
    }
    if let Ok(spec) = std::env::var("GDWIRE_BENCH_REPEAT") {
        repeat(&spec, &sets);
        std::process::exit(0);
    }
    for d in &sets {
        // Sanity: every stream decodes in both dialects and the walk sees every value.
        assert_eq!(
            validate_stream(Decoder::new(Dialect::GODOT_4), &d.g4),
            d.values.len()
        );
        assert_eq!(
            validate_stream(Decoder::new(Dialect::GODOT_3), &d.g3),
            d.values.len()
        );
        // Sanity: re-encoding gives the writer's own bytes back, in either dialect.
        let mut out = vec![0u8; d.g4.len().max(d.g3.len())];
        let n = reencode_stream(
            Decoder::new(Dialect::GODOT_4),
            &d.g4,
            Dialect::GODOT_4,
            &mut out,
        );
        assert!(out[..n] == d.g4[..], "{}: re-encode differs", d.name);
        let n = reencode_stream(
            Decoder::new(Dialect::GODOT_4),
            &d.g4,
            Dialect::GODOT_3,
            &mut out,
        );
        assert!(out[..n] == d.g3[..], "{}: transcode differs", d.name);
        bench_dataset(c, d);
    }
}

criterion_group! {
    name = group;
    config = config();
    targets = benches
}
criterion_main!(group);
