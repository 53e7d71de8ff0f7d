//! The reader and writer against real double-precision Godot 4 builds (4.6.3, and 4.0–4.4:
//! the same generator as the single-precision fixtures, run in a `precision=double` build of
//! each): every value the engine wrote decodes in its version's dialect to what the engine
//! itself decoded, re-encodes to the engine's bytes through views, owned values and the
//! streaming calls of a double-precision `Writer` (also inside frames and multiplayer
//! packets), and prints as the engine's `var_to_str`. Which values the precision changes is
//! the engines' answer, not ours: the bytes are compared with the single-precision build's of
//! the same version.
//! Fixtures: `tests/fixtures/godot4_double/` (4.6.3, made by `tests/godot4/double/regenerate.sh`,
//! tests/godot4/double/README.md) and `tests/fixtures/godot4_older/<version>-double/` (made by
//! `tests/godot4/older/regenerate.sh`, tests/godot4/older/README.md). No engine is needed to
//! run this.

mod support;

use std::collections::BTreeMap;

use gdwire::frame::{FrameWriter, Framing};
use gdwire::{to_vec, Decoder, Dialect, Precision, VariantRef, VariantType, Writer};
use support::{set_allow_objects, value_matches, Fixture};

/// The double-precision engines whose fixtures are committed: the version, the dialect gdwire
/// names for it, and three counts read off the engines' fixtures (guards against a fixture
/// that shrank): how many values the precision changes, how many are math values or packed
/// vector arrays it reads back (written by the streaming calls below), and how many it cannot
/// read back ([`Engine::unreadable`]).
const ENGINES: &[(&str, Dialect, usize, usize, usize)] = &[
    ("4.0", Dialect::GODOT_4_0, 47, 39, 6),
    ("4.1", Dialect::GODOT_4_1, 47, 39, 6),
    ("4.2", Dialect::GODOT_4_2, 47, 44, 0),
    ("4.3", Dialect::GODOT_4_3, 54, 51, 0),
    ("4.4", Dialect::GODOT_4_4, 54, 51, 0),
    ("4.6.3", Dialect::GODOT_4, 54, 51, 0),
];

/// One double-precision engine's values, and the single-precision build's of the same
/// version by name and object mode.
struct Engine {
    version: &'static str,
    dialect: Dialect,
    /// The values the engine reads back.
    values: Vec<Fixture>,
    /// The values it wrote but cannot read back: Godot 4.0 and 4.1 double builds write
    /// Vector4 and Projection with `f64` components but without bit 16 (their encoder's list
    /// of 64-bit types lacks the two; 4.2 added them), and their decoder then reads `f32`
    /// components from the first half (at the top level the rest is ignored; inside a
    /// container it is read as the next values).
    unreadable: Vec<Fixture>,
    single: BTreeMap<(String, bool), Fixture>,
    changed: usize,
    streamed: usize,
}

/// Whether `v` is or holds a value of a type `pick` accepts.
fn holds(v: &VariantRef<'_>, pick: &dyn Fn(VariantType) -> bool) -> bool {
    pick(v.variant_type())
        || match v {
            VariantRef::Array(a) => a.iter().any(|x| holds(&x, pick)),
            VariantRef::Dictionary(d) => d.iter().any(|(k, x)| holds(&k, pick) || holds(&x, pick)),
            _ => false,
        }
}

fn engines() -> Vec<Engine> {
    // Every older engine's double build is here, and 4.6.3's.
    let versions: Vec<&str> = ENGINES.iter().map(|e| e.0).collect();
    let older: Vec<&str> = support::GODOT4_OLDER.iter().map(|e| e.0).collect();
    assert_eq!(versions, [older, vec!["4.6.3"]].concat());
    ENGINES
        .iter()
        .map(|&(version, dialect, changed, streamed, unreadable)| {
            let (values, single) = if version == "4.6.3" {
                (support::godot4_double_values(), support::godot4_values())
            } else {
                (
                    support::godot4_older(&format!("{version}-double"), "values.jsonl"),
                    support::godot4_older(version, "values.jsonl"),
                )
            };
            support::assert_more_than(&values, 200);
            let single: BTreeMap<_, _> = single
                .into_iter()
                .map(|f| ((f.name.clone(), f.allow_objects), f))
                .collect();
            let unflagged = [Dialect::GODOT_4_0, Dialect::GODOT_4_1].contains(&dialect);
            let (unreadable_values, values): (Vec<_>, Vec<_>) = values.into_iter().partition(|f| {
                let s = &single[&(f.name.clone(), f.allow_objects)];
                let v = Decoder::new(dialect)
                    .with_allow_objects(true)
                    .decode_exact(&s.bytes)
                    .unwrap();
                unflagged
                    && holds(&v, &|t| {
                        matches!(t, VariantType::Vector4 | VariantType::Projection)
                    })
            });
            assert_eq!(
                unreadable_values.len(),
                unreadable,
                "Godot {version} double"
            );
            Engine {
                version,
                dialect,
                values,
                unreadable: unreadable_values,
                single,
                changed,
                streamed,
            }
        })
        .collect()
}

fn hex(b: &[u8]) -> String {
    support::hex_of(b)
}

fn decoder(e: &Engine, allow_objects: bool) -> Decoder {
    Decoder::new(e.dialect).with_allow_objects(allow_objects)
}

#[test]
fn every_double_engine_value_decodes_to_what_the_engine_decoded() {
    let mut failures = Vec::new();
    for e in &engines() {
        for f in &e.values {
            set_allow_objects(f.allow_objects);
            let desc = f.desc.as_ref().unwrap();
            let stripped = support::without_script_dictionary_types(e.dialect, f, desc);
            let desc = stripped.as_ref().unwrap_or(desc);
            if let Err(err) =
                value_matches(f, desc, decoder(e, f.allow_objects).decode_exact(&f.bytes))
            {
                failures.push(format!("Godot {} double: {err}", e.version));
            }
        }
    }
    support::assert_no_failures(&failures, "mismatches");
}

/// What Godot 4.0 and 4.1 double builds cannot read back of their own ([`Engine::unreadable`]):
/// the engine's bytes are longer than what it reads, and gdwire reads the same value from
/// them as the engine (what it writes instead, the engine reads: the live test).
#[test]
fn what_a_double_engine_cannot_read_back_reads_as_the_engine_reads_it() {
    let mut failures = Vec::new();
    for e in &engines() {
        for f in &e.unreadable {
            set_allow_objects(f.allow_objects);
            let name = format!("Godot {} double {}", e.version, f.name);
            let dec = decoder(e, f.allow_objects);
            if dec.decode_exact(&f.bytes).is_ok() {
                failures.push(format!("{name}: reads back exactly"));
            }
            if let Err(err) = value_matches(f, f.desc.as_ref().unwrap(), dec.decode(&f.bytes)) {
                failures.push(format!("{name}: {err}"));
            }
        }
    }
    support::assert_no_failures(&failures, "mismatches");
}

#[test]
fn every_double_engine_value_reencodes_to_the_engine_bytes() {
    let mut failures = Vec::new();
    for e in &engines() {
        for f in &e.values {
            let name = format!("Godot {} double {}", e.version, f.name);
            let v = decoder(e, f.allow_objects).decode_exact(&f.bytes).unwrap();
            // A view keeps the precision it was read with.
            match to_vec(e.dialect, &v) {
                Ok(got) if got == f.bytes => {}
                Ok(got) => failures.push(format!("{name}: ours {}", hex(&got))),
                Err(err) => failures.push(format!("{name}: {err}")),
            }
            let mut out = Vec::new();
            let mut w = Writer::new(&mut out, e.dialect)
                .with_full_objects(f.allow_objects)
                .with_precision(Precision::Double);
            if let Err(err) = w.value(&v).and_then(|()| w.finish()) {
                failures.push(format!("{name}: Writer: {err}"));
            } else if out != f.bytes {
                failures.push(format!("{name}: Writer wrote {}", hex(&out)));
            }
            // So does an owned value.
            let owned = v.to_owned();
            let mut out = Vec::new();
            let mut w = Writer::new(&mut out, e.dialect).with_full_objects(f.allow_objects);
            if let Err(err) = w.variant(&owned).and_then(|()| w.finish()) {
                failures.push(format!("{name}: Variant: {err}"));
            } else if out != f.bytes {
                failures.push(format!("{name}: Variant wrote {}", hex(&out)));
            }
        }
    }
    support::assert_no_failures(&failures, "mismatches");
}

/// Writes a top-level math value or packed vector array with the streaming call for its
/// type, from its components; `None` for other types.
fn write_streaming(w: &mut Writer<&mut Vec<u8>>, v: &VariantRef<'_>) -> Option<gdwire::Result<()>> {
    Some(match v {
        VariantRef::Vector2(x) => w.vector2(x.get()),
        VariantRef::Rect2(x) => w.rect2(x.get()),
        VariantRef::Vector3(x) => w.vector3(x.get()),
        VariantRef::Transform2D(x) => w.transform2d(x.get()),
        VariantRef::Vector4(x) => w.vector4(x.get()),
        VariantRef::Plane(x) => w.plane(x.get()),
        VariantRef::Quaternion(x) => w.quaternion(x.get()),
        VariantRef::Aabb(x) => w.aabb(x.get()),
        VariantRef::Basis(x) => w.basis(x.get()),
        VariantRef::Transform3D(x) => w.transform3d(x.get()),
        VariantRef::Projection(x) => w.projection(x.get()),
        VariantRef::PackedVector2Array(p) => w.packed_vector2(p.iter().collect::<Vec<[f64; 2]>>()),
        VariantRef::PackedVector3Array(p) => w.packed_vector3(p.iter().collect::<Vec<[f64; 3]>>()),
        VariantRef::PackedVector4Array(p) => w.packed_vector4(p.iter().collect::<Vec<[f64; 4]>>()),
        _ => return None,
    })
}

#[test]
fn a_double_precision_writer_writes_the_engines_math_bytes() {
    let mut failures = Vec::new();
    for e in &engines() {
        let mut written = 0;
        for f in &e.values {
            let name = format!("Godot {} double {}", e.version, f.name);
            let v = decoder(e, f.allow_objects).decode_exact(&f.bytes).unwrap();
            let mut out = Vec::new();
            let mut w = Writer::new(&mut out, e.dialect).with_precision(Precision::Double);
            let Some(r) = write_streaming(&mut w, &v) else {
                continue;
            };
            written += 1;
            if let Err(err) = r.and_then(|()| w.finish()) {
                failures.push(format!("{name}: {err}"));
            } else if out != f.bytes {
                failures.push(format!("{name}: ours {}", hex(&out)));
            }
            // The same through a `store_var` / `put_var` frame writer.
            let mut frames = FrameWriter::new(Vec::new(), Framing::default(), e.dialect)
                .with_precision(Precision::Double);
            match frames.write_with(|w| write_streaming(w, &v).unwrap()) {
                Ok(()) if frames.get_ref()[4..] == f.bytes[..] => {}
                Ok(()) => failures.push(format!("{name}: framed {}", hex(frames.get_ref()))),
                Err(err) => failures.push(format!("{name}: FrameWriter: {err}")),
            }
        }
        assert_eq!(written, e.streamed, "Godot {} double", e.version);
    }
    support::assert_no_failures(&failures, "mismatches");
}

/// Godot 4's high-level multiplayer packets (its `PacketWriter`: the current dialect) carry
/// the same math bytes in every double-precision 4.x build.
#[test]
fn a_double_precision_packet_writer_sends_the_engines_math_bytes() {
    use gdwire::multiplayer::{Args, Packet, PacketWriter, Target};
    let mut failures = Vec::new();
    for e in &engines() {
        let mut sent = 0;
        for f in &e.values {
            let name = format!("Godot {} double {}", e.version, f.name);
            let v = decoder(e, f.allow_objects).decode_exact(&f.bytes).unwrap();
            let mut w = PacketWriter::new(Vec::new()).with_precision(Precision::Double);
            w.remote_call(Target::Cached(1), 0, 1).unwrap();
            let mut streamed = None;
            let r = w.with(|w| {
                let r = write_streaming(w, &v);
                streamed = Some(r.is_some());
                r.unwrap_or(Ok(()))
            });
            if streamed != Some(true) {
                continue;
            }
            sent += 1;
            let out = r.and_then(|()| w.finish()).map(|_| w.into_sink());
            // A remote call to cached node 1, method 0, one argument: 4 bytes, then the value.
            match out {
                Ok(out) if out[4..] == f.bytes[..] => match Packet::parse(&out) {
                    Ok(Packet::RemoteCall(c)) if matches!(c.args, Args::Values(_)) => {}
                    other => failures.push(format!("{name}: parsed as {other:?}")),
                },
                Ok(out) => failures.push(format!("{name}: sent {}", hex(&out))),
                Err(err) => failures.push(format!("{name}: {err}")),
            }
        }
        assert_eq!(sent, e.streamed, "Godot {} double", e.version);
    }
    support::assert_no_failures(&failures, "mismatches");
}

/// A double build's `JSON.from_native` text (4.4 on), read in engine mode with unmarked math
/// in double precision, gives its bytes back exactly where the single build's text, read in
/// single precision, gives the single build's bytes back (both engines' JSON drop the same
/// things: docs/json.md).
#[cfg(feature = "json")]
#[test]
fn the_double_engines_json_reads_back_to_its_bytes_in_double_precision() {
    use gdwire::json::{from_json_str_with, Options};
    let mut failures = Vec::new();
    for e in engines()
        .iter()
        .filter(|e| e.dialect.has_typed_dictionaries())
    {
        let mut exact = 0;
        for f in &e.values {
            let s = &e.single[&(f.name.clone(), f.allow_objects)];
            let read = |f: &Fixture, p: Precision| {
                let text = f.json["json"].as_str().unwrap();
                from_json_str_with(e.dialect, text, Options::ENGINE.with_precision(p))
                    .map(|b| b == f.bytes)
                    .unwrap_or(false)
            };
            let (in_single, in_double) = (read(s, Precision::Single), read(f, Precision::Double));
            if in_single != in_double {
                failures.push(format!(
                    "Godot {} double {}: exact in the single build {in_single}, in the double build {in_double}",
                    e.version, f.name
                ));
            }
            exact += usize::from(in_double);
        }
        assert!(exact >= 200, "Godot {} double: {exact}", e.version);
    }
    support::assert_no_failures(&failures, "mismatches");
}

/// Whether `v` is or holds a type whose width follows the build's precision, by the rule this
/// crate documents (docs/encoding.md): real math types and PackedVector2/3/4Array; not Color,
/// PackedColorArray, PackedFloat32Array or integer vectors.
fn holds_real_math(v: &VariantRef<'_>) -> bool {
    use gdwire::VariantType as T;
    holds(v, &|t| {
        matches!(
            t,
            T::Vector2
                | T::Rect2
                | T::Vector3
                | T::Transform2D
                | T::Vector4
                | T::Plane
                | T::Quaternion
                | T::Aabb
                | T::Basis
                | T::Transform3D
                | T::Projection
                | T::PackedVector2Array
                | T::PackedVector3Array
                | T::PackedVector4Array
        )
    })
}

#[test]
fn precision_changes_exactly_the_real_math_values() {
    let mut failures = Vec::new();
    for e in &engines() {
        let (mut changed, mut same) = (0, 0);
        for f in e.values.iter().chain(&e.unreadable) {
            let s = &e.single[&(f.name.clone(), f.allow_objects)];
            let v = decoder(e, f.allow_objects).decode_exact(&s.bytes).unwrap();
            let differs = s.bytes != f.bytes;
            if differs != holds_real_math(&v) {
                failures.push(format!(
                    "Godot {} double {}: the engines' bytes {} but the rule says {}",
                    e.version,
                    f.name,
                    if differs { "differ" } else { "agree" },
                    if differs { "agree" } else { "differ" },
                ));
            }
            if differs {
                changed += 1;
            } else {
                same += 1;
            }
        }
        assert_eq!(
            (changed, same),
            (e.changed, e.values.len() + e.unreadable.len() - e.changed),
            "Godot {} double",
            e.version
        );
        // Every value of the single build is there.
        let all = e.values.len() + e.unreadable.len();
        assert_eq!(all, e.single.len(), "Godot {} double", e.version);
    }
    support::assert_no_failures(&failures, "mismatches");
}

#[test]
fn double_engine_text_form_is_its_var_to_str() {
    for e in &engines() {
        support::assert_godot4_text_is_var_to_str(e.dialect, &e.values);
    }
}
