//! Differential runs against real Pandemonium engines: seeded mutants and every truncation of
//! each numbering's engine-made values (`tests/fixtures/pandemonium/<numbering>/
//! differential.jsonl`, made by `tests/pandemonium/differential.py`), each decoded by the
//! engine, which recorded its verdict, its `Error` code and the `var2str` of what it decoded.
//!
//! gdwire (the numbering's dialect) must give the engine's verdict, its error code on every
//! shared rejection and its text form on every shared acceptance. The only differences
//! allowed are the documented ones (docs/engine-parity.md), each counted: inputs where the
//! engine's Vector4 / Projection / PoolVector4(i)Array decoder bugs are in play (gdwire reads
//! what the engine's encoder writes), full objects of classes the engine does not
//! instantiate (gdwire accepts any class), the text of full objects (the engine prints the
//! instance it made, not the bytes), typed-array items of another type (the engine drops
//! them, gdwire keeps what was sent), and a typed array of objects that ends after its class
//! name (the engine reads the count past the end of its input; gdwire stops).

mod support;

use std::collections::BTreeMap;

use gdwire::read::{ArrayKind, Event};
use gdwire::text::to_text;
use gdwire::{
    ContainerType, Decoder, Dialect, ErrorKind, Expected, ObjectRef, VariantRef, VariantType,
};
use support::{hex, hex_of};

const NUMBERINGS: &[(&str, Dialect)] = &[
    ("5", Dialect::PANDEMONIUM_5),
    ("3.8", Dialect::PANDEMONIUM_3_8),
    ("3.5", Dialect::PANDEMONIUM_3_5),
];

/// Whether walking `bytes` meets a type whose engine decoder is known to be wrong (up to the
/// first error, if any).
fn engine_bug_zone(dialect: Dialect, allow_objects: bool, bytes: &[u8]) -> bool {
    let buggy = |v: &VariantRef<'_>| {
        matches!(
            v.variant_type(),
            VariantType::Vector4
                | VariantType::Vector4i
                | VariantType::Projection
                | VariantType::PackedVector4Array
                | VariantType::PackedVector4iArray
        )
    };
    let decoder = Decoder::new(dialect).with_allow_objects(allow_objects);
    for event in decoder.walk(bytes) {
        match event {
            Ok(Event::Value(v) | Event::Begin(v)) if buggy(&v) => return true,
            Ok(_) => {}
            Err(_) => return false,
        }
    }
    false
}

/// Whether walking `bytes` meets a full object (up to the first error, if any).
fn has_full_object(dialect: Dialect, bytes: &[u8]) -> bool {
    let decoder = Decoder::new(dialect).with_allow_objects(true);
    decoder
        .walk(bytes)
        .map_while(Result::ok)
        .any(|e| matches!(e, Event::Begin(VariantRef::Object(ObjectRef::Full(_)))))
}

/// Whether `v` holds a TypedArray / PackedTypedArray with an item its element type does not
/// take (`can_take_variant`: exactly that type; for objects, an object or null; nothing for
/// an id the engine has no type for). The engine's decoder drops such items.
fn has_foreign_typed_item(v: &VariantRef<'_>) -> bool {
    let takes = |t: Option<ContainerType<'_>>, x: &VariantRef<'_>| match t {
        Some(ContainerType::Builtin(VariantType::Object) | ContainerType::ClassName(_)) => {
            matches!(x.variant_type(), VariantType::Object | VariantType::Nil)
        }
        Some(ContainerType::Builtin(ty)) => x.variant_type() == ty,
        _ => false,
    };
    match v {
        VariantRef::Array(a) => {
            let typed = a.kind() != ArrayKind::Array;
            a.iter()
                .any(|x| (typed && !takes(a.element_type(), &x)) || has_foreign_typed_item(&x))
        }
        VariantRef::Dictionary(d) => d
            .iter()
            .any(|(k, x)| has_foreign_typed_item(&k) || has_foreign_typed_item(&x)),
        _ => false,
    }
}

#[test]
fn every_mutant_gets_the_engine_verdict() {
    for &(numbering, dialect) in NUMBERINGS {
        let path = format!(
            "{}/tests/fixtures/pandemonium/{numbering}/differential.jsonl",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{path}: {e} (see tests/pandemonium/README.md)"));
        let mut failures = Vec::new();
        let (mut agree_ok, mut agree_err, mut crashes) = (0, 0, 0);
        let mut agree_err_no_code = 0;
        let mut differences = BTreeMap::<&str, usize>::new();
        let mut cases = 0;
        for line in text.lines() {
            cases += 1;
            let j: serde_json::Value = serde_json::from_str(line).unwrap();
            let name = j["name"].as_str().unwrap();
            let bytes = hex(j["hex"].as_str().unwrap());
            let allow = j["allow_objects"].as_bool().unwrap();
            if j["verdict"] == "crash" {
                crashes += 1;
                continue;
            }
            let engine_error = j["error"].as_i64().unwrap();
            let engine_text = j["desc"]
                .as_str()
                .map(|h| String::from_utf8(hex(h)).unwrap());
            let bug_zone = || engine_bug_zone(dialect, allow, &bytes);
            let full_object = || has_full_object(dialect, &bytes);
            let mut differ = |why| *differences.entry(why).or_default() += 1;
            let got = Decoder::new(dialect)
                .with_allow_objects(allow)
                .decode(&bytes);
            let at = format!("{numbering} {name} ({})", hex_of(&bytes));
            match (engine_text, got) {
                (Some(engine), Ok(v)) => {
                    let ours = to_text(dialect, &v).unwrap();
                    if ours == engine {
                        agree_ok += 1;
                    } else if bug_zone() {
                        differ("engine decoder bug (Vector4, Projection)");
                    } else if full_object() {
                        differ("text of a full object (the engine prints its instance)");
                    } else if has_foreign_typed_item(&v) {
                        differ("typed-array items of another type (the engine drops them)");
                    } else {
                        failures.push(format!("{at}: engine {engine:?}, gdwire {ours:?}"));
                    }
                }
                (Some(_), Err(_)) if bug_zone() => {
                    differ("engine decoder bug (Vector4, Projection)");
                }
                (Some(_), Err(e)) if e.kind() == ErrorKind::Truncated(Expected::Count) => {
                    differ("typed array ending after its class name (engine reads past the end)");
                }
                (Some(_), Err(e)) => failures.push(format!("{at}: engine accepts, gdwire: {e}")),
                (None, Ok(v)) => {
                    if bug_zone() {
                        differ("engine decoder bug (Vector4, Projection)");
                    } else if engine_error == 2 && full_object() {
                        differ("accepts any class name");
                    } else {
                        failures.push(format!(
                            "{at}: engine rejects ({engine_error}), gdwire accepts {:?}",
                            v.variant_type()
                        ));
                    }
                }
                (None, Err(e)) => {
                    if e.kind().engine_code() == Some(engine_error as i32) {
                        agree_err += 1;
                    } else if engine_error == -1 {
                        // The engine's message names no code (an ERR_FAIL_*_MSG check that
                        // prints only its message): the verdict agrees, the code is unknown.
                        agree_err += 1;
                        agree_err_no_code += 1;
                    } else if bug_zone() {
                        differ("engine decoder bug (Vector4, Projection)");
                    } else if engine_error == 2 {
                        differ("unknown class, later error");
                    } else if e.kind() == ErrorKind::InvalidClassName {
                        differ("class name of another type, malformed (engine: its error first)");
                    } else {
                        failures.push(format!(
                            "{at}: engine error {engine_error}, gdwire {:?} ({e})",
                            e.kind().engine_code()
                        ));
                    }
                }
            }
        }
        assert!(
            failures.is_empty(),
            "{} disagreements:\n{}",
            failures.len(),
            failures.join("\n")
        );
        eprintln!(
            "Pandemonium {numbering}: {cases} inputs; agree: {agree_ok} accepted, {agree_err} \
             rejected ({agree_err_no_code} without a code from the engine); documented \
             differences: {differences:?}; engine crashes: {crashes}"
        );
        assert!(agree_ok > 700 && agree_err > 500, "{agree_ok} {agree_err}");
        assert!(agree_err_no_code < 10, "{agree_err_no_code}");
        assert_eq!(crashes, 0, "Pandemonium {numbering} crashed");
        assert!(
            differences.values().sum::<usize>() * 5 < cases,
            "{differences:?}"
        );
    }
}
