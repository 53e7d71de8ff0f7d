//! The reader against the real engine: every value Godot 3.2.3 wrote decodes to what the engine
//! itself decoded, and every odd or malformed input gets the engine's verdict and error code.
//! Fixtures: `tests/fixtures/godot3/`, made by `tests/godot3/regenerate.sh`.

mod support;

use gdwire::{Decoder, Dialect, ErrorKind};
use support::{check, value_matches, verdict_matches, Objects};

fn decoder(allow_objects: bool) -> Decoder {
    Decoder::new(Dialect::GODOT_3).with_allow_objects(allow_objects)
}

#[test]
fn every_engine_value_decodes_to_what_the_engine_decoded() {
    let fixtures = support::values();
    support::assert_more_than(&fixtures, 150);
    let mut failures = Vec::new();
    for f in &fixtures {
        let desc = f.desc.as_ref().unwrap();
        if let Err(e) = value_matches(f, desc, decoder(f.allow_objects).decode_exact(&f.bytes)) {
            failures.push(e);
        }
    }
    support::assert_no_failures(&failures, "mismatches");
}

/// Where this crate deliberately differs from Godot 3.2.3 (docs/engine-parity.md).
fn deliberate_difference(f: &support::Fixture) -> Option<&'static str> {
    if f.name == "object_full_unknown_class" {
        // The engine fails (ERR_UNAVAILABLE) because ClassDB cannot instantiate the class;
        // this crate never instantiates and has no class list.
        return Some("accepts any class name");
    }
    if f.name == "dictionary_duplicate_keys" {
        // The engine keeps the last of duplicate keys; views keep every entry as sent.
        return Some("keeps duplicate keys");
    }
    // Chains describe N nested containers around a leaf at depth N. 3.2.3 has no depth limit;
    // 3.3+ and 4.x reject a value deeper than 1024 (3.2 crashes at ~30,000 levels).
    let desc = f.desc.as_ref()?;
    let chain = desc["t"] == "ArrayChain" || desc["t"] == "DictionaryChain";
    (chain && desc["depth"].as_u64()? > 1024).then_some("depth limit 1024 by default")
}

#[test]
fn every_malformed_input_gets_the_engine_verdict() {
    let fixtures = support::malformed();
    support::assert_more_than(&fixtures, 100);
    let mut failures = Vec::new();
    let mut differences = 0;
    for f in &fixtures {
        let got = decoder(f.allow_objects).decode(&f.bytes);
        if let Some(why) = deliberate_difference(f) {
            differences += 1;
            // The difference must really be there, and be the documented one.
            match (&got, why) {
                (Ok(_), "accepts any class name") if f.desc.is_none() => {}
                (Ok(v), "keeps duplicate keys") => {
                    // Both entries are kept, and the last one is what the engine kept.
                    let want = &f.desc.as_ref().unwrap()["v"][0];
                    let d = v.as_dictionary().unwrap();
                    let (k, last) = d.iter().last().unwrap();
                    assert!(d.len() == 2 && d.get(k.as_str().unwrap()) == Some(last));
                    let r = check(&want[0], &k, Objects::ClassOnly, &f.name)
                        .and_then(|()| check(&want[1], &last, Objects::ClassOnly, &f.name));
                    if let Err(e) = r {
                        failures.push(e);
                    }
                }
                (Err(e), "depth limit 1024 by default")
                    if matches!(e.kind(), ErrorKind::TooDeep { limit: 1024 })
                        && f.desc.is_some() =>
                {
                    // With the limit lifted, the value is exactly what the engine decoded.
                    let v = decoder(f.allow_objects)
                        .with_max_depth(u32::MAX)
                        .decode(&f.bytes)
                        .unwrap();
                    if let Err(e) = check(f.desc.as_ref().unwrap(), &v, Objects::ClassOnly, &f.name)
                    {
                        failures.push(e);
                    }
                }
                _ => failures.push(format!(
                    "{}: expected documented difference '{why}', got {got:?}",
                    f.name
                )),
            }
            continue;
        }
        if let Err(e) = verdict_matches(f, f.desc.as_ref(), got, &f.name) {
            failures.push(e);
        }
    }
    assert!(differences >= 4, "documented differences not exercised");
    support::assert_no_failures(&failures, "mismatches");
}
