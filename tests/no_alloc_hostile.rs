//! The read path allocates nothing on fuzz-shaped input either: seeded random mutations of
//! every real-engine fixture (bit flips, truncations, count edits, random bytes), the
//! engine-judged inputs of the differential runs (3,549 Godot 3.2.3 mutants, 11,694 mutants
//! and truncations of the Pandemonium engines), and the hostile shapes, decoded in every
//! dialect with objects on and off, walked (event walker, lazy views with and without
//! hand-back), skipped with the cursor, re-encoded into a slice, and every error formatted
//! into a fixed buffer. The inputs reach every error kind the reader can return.
//! A counting global allocator proves it (one test only: the counter is process-wide).

mod support;

#[path = "support/counting_alloc.rs"]
mod counting_alloc;
#[path = "support/shapes.rs"]
mod shapes;

use std::collections::BTreeSet;

use counting_alloc::allocations_in;
use gdwire::read::Walked;
use gdwire::{
    to_slice, ContainerTypeSpec, Decoder, Dialect, Error, ErrorKind, ObjectRef, VariantRef, Writer,
};

#[global_allocator]
static GLOBAL: counting_alloc::Counting = counting_alloc::Counting;

/// xorshift64*: deterministic, dependency-free.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn mutants(seeds: &[Vec<u8>], rng: &mut Rng, per_seed: usize) -> Vec<Vec<u8>> {
    let edge = [
        0u32,
        1,
        0x7fff_ffff,
        0x8000_0000,
        0xffff_ffff,
        27,
        255,
        1 << 16,
    ];
    let mut out = Vec::new();
    for seed in seeds {
        for _ in 0..per_seed {
            let mut b = seed.clone();
            match rng.below(5) {
                0 if !b.is_empty() => {
                    let i = rng.below(b.len());
                    b[i] ^= 1 << rng.below(8);
                }
                1 => b.truncate(rng.below(b.len() + 1)),
                2 if b.len() >= 8 => {
                    let i = 4 * rng.below(b.len() / 4);
                    let w = edge[rng.below(edge.len())];
                    b[i..i + 4].copy_from_slice(&w.to_le_bytes());
                }
                3 => b.extend((0..rng.below(16)).map(|_| rng.next() as u8)),
                _ => b = (0..rng.below(64)).map(|_| rng.next() as u8).collect(),
            }
            out.push(b);
        }
    }
    out
}

/// Typed containers naming a class or a script (Godot 4.3+ / 4.4+, Pandemonium 5), written
/// by the crate's writer, with every truncation and every single-byte change of their heads:
/// the class-name and script-path error paths.
fn typed_container_mutants() -> Vec<Vec<u8>> {
    let mut seeds = Vec::new();
    for dialect in Dialect::ALL {
        for spec in [
            ContainerTypeSpec::ClassName("Node"),
            ContainerTypeSpec::Script("res://a.gd"),
        ] {
            let mut w = Writer::new(Vec::new(), dialect).with_full_objects(true);
            let ok = w.begin_typed_array(1, spec).and_then(|()| w.nil());
            if ok.and_then(|()| w.finish()).is_ok() {
                seeds.push(w.into_sink());
            }
        }
    }
    let mut out = Vec::new();
    for seed in &seeds {
        for cut in 0..seed.len() {
            out.push(seed[..cut].to_vec());
        }
        for i in 0..seed.len().min(48) {
            for x in [0x01, 0x04, 0x10, 0x80, 0xff] {
                let mut b = seed.clone();
                b[i] ^= x;
                out.push(b);
            }
        }
    }
    out
}

/// A fixed-size `fmt::Write` target: formatting an error must not allocate either.
struct Buf([u8; 512], usize);

impl std::fmt::Write for Buf {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = (self.1 + s.len()).min(self.0.len());
        self.0[self.1..end].copy_from_slice(&s.as_bytes()[..end - self.1]);
        self.1 = end;
        Ok(())
    }
}

/// Recursive view walk without allocation; hands walked children back when `resume`.
fn views<'a>(v: VariantRef<'a>, resume: bool, n: &mut u64) -> Result<Option<Walked<'a>>, Error> {
    *n += 1;
    match v {
        VariantRef::Array(a) => {
            let mut it = a.iter();
            while let Some(x) = it.next() {
                if let Some(w) = views(x, resume, n)? {
                    it.resume(w);
                }
            }
            Ok(resume.then(|| it.walked()).flatten())
        }
        VariantRef::Dictionary(d) => {
            let mut it = d.keys_and_values();
            while let Some(x) = it.next() {
                if let Some(w) = views(x, resume, n)? {
                    it.resume(w);
                }
            }
            for e in d.try_iter() {
                e?;
            }
            Ok(resume.then(|| it.walked()).flatten())
        }
        VariantRef::Object(ObjectRef::Full(o)) => {
            let mut it = o.properties();
            while let Some(p) = it.next() {
                if let Some(w) = views(p.1, resume, n)? {
                    it.resume(w);
                }
            }
            Ok(resume.then(|| it.walked()).flatten())
        }
        VariantRef::String(s) => {
            *n += s.code_points().count() as u64;
            Ok(None)
        }
        VariantRef::PackedStringArray(p) => {
            *n += p.iter().filter(|s| s.as_str().is_some()).count() as u64;
            Ok(None)
        }
        _ => Ok(None),
    }
}

/// Reader error kinds, without their payloads (a variant name each).
fn kind_name(k: ErrorKind) -> String {
    let s = format!("{k:?}");
    match k {
        ErrorKind::Truncated(_) => s,
        _ => s.split([' ', '(', '{']).next().unwrap().to_owned(),
    }
}

#[test]
fn hostile_input_never_allocates() {
    let mut seeds: Vec<Vec<u8>> = support::values().into_iter().map(|f| f.bytes).collect();
    seeds.extend(support::malformed().into_iter().map(|f| f.bytes));
    for numbering in ["5", "3.8", "3.5"] {
        seeds.extend(
            support::pandemonium_values(numbering)
                .into_iter()
                .map(|f| f.bytes),
        );
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut inputs = mutants(&seeds, &mut rng, 4);
    inputs.extend(support::differential().into_iter().map(|f| f.bytes));
    for numbering in ["5", "3.8", "3.5"] {
        let judged = support::pandemonium_differential(numbering);
        inputs.extend(judged.into_iter().map(|f| f.bytes));
    }
    inputs.extend(typed_container_mutants());
    inputs.extend([
        shapes::deep_with_siblings(1024),
        shapes::deep_with_siblings(1025),
        shapes::deep_dict_keys(1024),
        shapes::deep_chain(3000),
        shapes::huge_array_count(100),
        shapes::huge_packed_strings_count(100),
        shapes::many_nils(1000),
    ]);
    // Error kinds seen, recorded outside the counted region (formatting names allocates).
    let mut errors: Vec<ErrorKind> = Vec::with_capacity(1 << 20);
    let mut out = vec![0u8; 1 << 20];
    let mut stats = (0u64, 0u64);
    let inputs_ref = &inputs;
    let count = std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn_scoped(s, || {
                allocations_in(|| {
                    for bytes in inputs_ref {
                        for dialect in Dialect::ALL {
                            for objects in [false, true] {
                                let dec = Decoder::new(dialect).with_allow_objects(objects);
                                let mut walker = dec.walk(bytes);
                                for e in walker.by_ref() {
                                    if let Err(e) = e {
                                        let mut buf = Buf([0; 512], 0);
                                        std::fmt::write(&mut buf, format_args!("{e}")).unwrap();
                                        errors.push(e.kind());
                                    }
                                }
                                let mut cursor = dec.cursor(bytes);
                                while cursor.skip().is_ok() && !cursor.is_at_end() {}
                                if let Err(e) = dec.decode_exact(bytes) {
                                    errors.push(e.kind());
                                }
                                if let Ok(v) = dec.decode(bytes) {
                                    stats.0 += 1;
                                    views(v, false, &mut stats.1).unwrap();
                                    views(v, true, &mut stats.1).unwrap();
                                    let _ = to_slice(dialect, &v, &mut out);
                                    let _ = to_slice(dialect, &v, &mut out[..bytes.len() / 2]);
                                }
                            }
                        }
                    }
                })
            })
            .unwrap()
            .join()
            .unwrap()
    });
    assert_eq!(count, 0, "the read path allocated {count} times");
    assert_eq!(
        allocations_in(|| drop(std::hint::black_box(vec![1u8; 8]))),
        1
    );
    let seen: BTreeSet<String> = errors.iter().map(|&k| kind_name(k)).collect();
    // Every way reading can fail (writer-only kinds excluded) was exercised.
    let expected = [
        "Truncated(Header)",
        "Truncated(Payload(Int))",
        "Truncated(StringLength)",
        "Truncated(NodePathHeader)",
        "Truncated(Count)",
        "Truncated(PropertyCount)",
        "Truncated(ContainerType)",
        "Truncated(ClassName)",
        "UnknownType",
        "StringLength",
        "InvalidText",
        "NegativeCount",
        "SizeOverflow",
        "OldNodePath",
        "ObjectsNotAllowed",
        "InvalidContainerType",
        "InvalidScriptPath",
        "InvalidClassName",
        "TooDeep",
        "TrailingBytes",
    ];
    let missing: Vec<_> = expected.iter().filter(|k| !seen.contains(**k)).collect();
    assert!(
        missing.is_empty(),
        "error paths not reached: {missing:?}\nseen: {seen:?}"
    );
    assert!(stats.0 > 20_000 && stats.1 > 100_000, "{stats:?}");
}
