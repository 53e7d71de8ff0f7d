//! The reader and writer against real Godot 4 engines older than 4.6, one dialect each: every
//! value the engine wrote (the generator of the 4.6 fixtures, run in that engine, which
//! leaves out the types and container kinds it does not have) decodes in the version's
//! dialect to what the engine itself decoded, re-encodes to the engine's bytes and prints as
//! its `var_to_str`; every one of the 1,268 odd or malformed inputs of the 4.6 fixtures gets
//! that engine's verdict and error code, with objects allowed and not.
//! Fixtures: `tests/fixtures/godot4_older/<version>/`, made by
//! `tests/godot4/older/regenerate.sh` (tests/godot4/older/README.md). No engine is needed to
//! run this.

mod support;

use gdwire::read::FullObjectRef;
use gdwire::{to_vec, Decoder, Dialect, ObjectRef, VariantRef, Writer};
use support::{set_allow_objects, value_matches, Fixture};

/// The engines whose fixtures are committed, with the dialect gdwire names for each.
const ENGINES: &[(&str, Dialect)] = &support::GODOT4_OLDER;

fn values(version: &str) -> Vec<Fixture> {
    let fixtures = support::godot4_older(version, "values.jsonl");
    support::assert_more_than(&fixtures, 200);
    fixtures
}

fn decoder(dialect: Dialect, allow_objects: bool) -> Decoder {
    Decoder::new(dialect).with_allow_objects(allow_objects)
}

#[test]
fn every_engine_value_decodes_to_what_the_engine_decoded() {
    for &(version, dialect) in ENGINES {
        let mut failures = Vec::new();
        let mut types = std::collections::BTreeSet::new();
        for f in &values(version) {
            set_allow_objects(f.allow_objects);
            types.insert(f.bytes[0]);
            let got = decoder(dialect, f.allow_objects).decode_exact(&f.bytes);
            let desc = f.desc.as_ref().unwrap();
            let stripped = support::without_script_dictionary_types(dialect, f, desc);
            if let Err(e) = value_matches(f, stripped.as_ref().unwrap_or(desc), got) {
                failures.push(format!("Godot {version}: {e}"));
            }
        }
        support::assert_no_failures(&failures, "mismatches");
        // Every type of the version is there, as a top-level value.
        assert_eq!(types.len(), usize::from(dialect.variant_max()), "{version}");
    }
}

#[test]
fn every_engine_value_reencodes_to_the_engine_bytes() {
    for &(version, dialect) in ENGINES {
        let mut failures = Vec::new();
        for f in &values(version) {
            let v = decoder(dialect, f.allow_objects)
                .decode_exact(&f.bytes)
                .unwrap();
            match to_vec(dialect, &v) {
                Ok(got) if got == f.bytes => {}
                Ok(got) => failures.push(format!(
                    "Godot {version} {}: ours {}\n  engine {}",
                    f.name,
                    support::hex_of(&got),
                    support::hex_of(&f.bytes)
                )),
                Err(e) => failures.push(format!("Godot {version} {}: {e}", f.name)),
            }
            let mut out = Vec::new();
            let mut w = Writer::new(&mut out, dialect).with_full_objects(f.allow_objects);
            if let Err(e) = w.value(&v).and_then(|()| w.finish()) {
                failures.push(format!("Godot {version} {}: Writer: {e}", f.name));
            } else if out != f.bytes {
                failures.push(format!("Godot {version} {}: Writer differs", f.name));
            }
        }
        support::assert_no_failures(&failures, "mismatches");
    }
}

#[test]
fn text_form_is_the_engines_var_to_str() {
    for &(version, dialect) in ENGINES {
        support::assert_godot4_text_is_var_to_str(dialect, &values(version));
    }
}

#[test]
fn every_malformed_input_gets_the_engine_verdict() {
    for &(version, dialect) in ENGINES {
        let fixtures = support::godot4_older(version, "malformed.jsonl");
        support::assert_more_than(&fixtures, 2000);
        support::godot4_verdicts::assert_engine_verdicts(dialect, &fixtures);
    }
}

#[test]
fn the_walker_gives_the_same_verdicts() {
    for &(version, dialect) in ENGINES {
        let mut failures = Vec::new();
        let malformed = support::godot4_older(version, "malformed.jsonl");
        for f in values(version).iter().chain(&malformed) {
            let dec = decoder(dialect, f.allow_objects);
            let decoded = dec
                .decode(&f.bytes)
                .map(|_| ())
                .map_err(|e| e.kind().engine_code());
            let walked = match dec.walk(&f.bytes).find_map(Result::err) {
                Some(e) => Err(e.kind().engine_code()),
                None => Ok(()),
            };
            if decoded != walked {
                failures.push(format!(
                    "Godot {version} {} ({}): decode {decoded:?}, walk {walked:?}",
                    f.name, f.allow_objects
                ));
            }
        }
        support::assert_no_failures(&failures, "mismatches");
    }
}

/// What changed in the engine's writer since this version, read off the engines: the values
/// both engines wrote (by name and object mode) are the same bytes, except typed arrays where
/// the dialect has none (the older engine writes a plain array), and values whose difference
/// is not the wire format: `object_full_node_meta` and `object_full_gradient` (the stored
/// properties of `Node` and `Gradient` change between releases) and
/// `string_chr0_is_replacement_char` (GDScript's `String.chr(0)`, an empty string in 4.2).
#[test]
fn the_bytes_differ_from_godot_4_6_only_where_the_format_changed() {
    let newest: std::collections::BTreeMap<_, _> = support::godot4_values()
        .into_iter()
        .map(|f| ((f.name.clone(), f.allow_objects), f.bytes))
        .collect();
    let not_wire = [
        "object_full_node_meta",
        "object_full_gradient",
        "string_chr0_is_replacement_char",
    ];
    for &(version, dialect) in ENGINES {
        let mut failures = Vec::new();
        let mut typed = 0;
        for f in &values(version) {
            let key = (f.name.clone(), f.allow_objects);
            let Some(bytes) = newest.get(&key) else {
                panic!("Godot {version} wrote {} that 4.6 did not", f.name);
            };
            let typed_array = f.name.contains("typed_array");
            let must_differ = typed_array && !dialect.has_typed_arrays();
            typed += usize::from(must_differ);
            let differs = *bytes != f.bytes;
            if differs != must_differ && !(differs && not_wire.contains(&f.name.as_str())) {
                failures.push(format!("Godot {version} {}: differs {differs}", f.name));
            }
        }
        support::assert_no_failures(&failures, "unexpected differences");
        assert!(
            dialect.has_typed_arrays() || typed >= 15,
            "{version}: {typed}"
        );
    }
}

/// Values the engine wrote and then crashed decoding (Godot 4.0–4.2 write a scripted object's
/// script as a full `GDScript` object, its source code included, and aborts with "pure
/// virtual method called" reading it back): gdwire reads them, the script's source is
/// `typed_item.gd` as the generator packed it, and they re-encode to the engine's bytes.
#[test]
fn values_the_engine_cannot_read_back_decode_and_reencode() {
    let source = include_str!("godot4/typed_item.gd");
    for &(version, dialect) in ENGINES {
        let rows = support::godot4_older(version, "not_decoded.jsonl");
        for f in &rows {
            let v = decoder(dialect, true).decode_exact(&f.bytes).unwrap();
            // Either the scripted object itself or a plain array holding it.
            let object = match v.as_array() {
                Some(a) => a.iter().next().unwrap(),
                None => v,
            };
            let Some(ObjectRef::Full(object)) = object.as_object() else {
                panic!("{}: not a full object", f.name);
            };
            assert_eq!(object.class().as_str(), Some("RefCounted"));
            let script = property(&object, "script");
            let Some(ObjectRef::Full(script)) = script.as_object() else {
                panic!("{}: the script is not a full object", f.name);
            };
            assert_eq!(script.class().as_str(), Some("GDScript"), "{}", f.name);
            let text = property(&script, "script/source");
            assert_eq!(text.as_str(), Some(source), "{}", f.name);
            assert_eq!(to_vec(dialect, &v).unwrap(), f.bytes, "{}", f.name);
        }
        // Only engines that write the script as an object (before 4.3) have such values.
        let expected = if dialect.checks_script_property() {
            0
        } else {
            2
        };
        assert_eq!(rows.len(), expected, "{version}");
    }
}

/// The value of the property `name` of `object`.
fn property<'a>(object: &FullObjectRef<'a>, name: &str) -> VariantRef<'a> {
    let found = object.properties().find(|(n, _)| n.as_str() == Some(name));
    found.unwrap_or_else(|| panic!("no property {name}")).1
}

/// The 4,148 mutants of the 4.6 differential run (`tests/godot4/differential.py`), judged by
/// each older engine (`differential.py --native ENGINE --out …`): its version's dialect gives
/// the engine's verdict, error code and value on every one in both object modes, but for the
/// differences documented for 4.6 (docs/engine-parity.md).
#[test]
fn every_mutant_gets_the_engine_verdict_in_both_object_modes() {
    for &(version, dialect) in ENGINES {
        let cases =
            support::godot4_mutants::cases(&format!("godot4_older/{version}/differential.jsonl"));
        assert!(cases.len() > 4000, "{version}: {}", cases.len());
        let agreement = support::godot4_mutants::assert_engine_verdicts(dialect, &cases);
        let (ok, err) = (agreement.accepted, agreement.rejected);
        assert!(ok > 2500 && err > 2000, "{version}: {ok} {err}");
        let differences = agreement.differences.values().sum::<usize>();
        assert!(differences < 150, "{version}: {:?}", agreement.differences);
    }
}
