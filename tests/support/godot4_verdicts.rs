//! The malformed-input verdicts of a Godot 4 engine (4.6, or an older one) against a decoder of
//! its dialect, with the differences this crate makes on purpose (docs/engine-parity.md).

use gdwire::{Decoder, Dialect};

use super::{
    assert_no_failures, check, check_container_type, set_allow_objects, verdict_matches,
    without_script_dictionary_types, Fixture, Objects,
};

/// Where this crate deliberately differs from a Godot 4 engine of `dialect`
/// (docs/engine-parity.md), for inputs the engine rejects or alters. `None`: no difference,
/// the verdicts must agree exactly. The typed-container and script cases only apply where
/// the dialect has those (elsewhere their bytes mean something else, and the engine's
/// verdict is the rule).
pub fn deliberate_difference(dialect: Dialect, f: &Fixture) -> Option<&'static str> {
    let n = f.name.as_str();
    let arrays = dialect.has_typed_arrays();
    let dictionaries = dialect.has_typed_dictionaries();
    let scripts = dialect.checks_script_property();
    if f.allow_objects
        && matches!(
            n,
            "object_full_unknown_class" | "object_full_abstract_class"
        )
    {
        // ClassDB refuses to instantiate; this crate never instantiates and has no class list.
        return Some("accepts any class name");
    }
    let loads_script = match n {
        "object_full_script_missing" | "object_full_script_not_a_script" => scripts,
        "typed_array_script_missing" | "typed_array_script_not_a_script" => arrays,
        "typed_dictionary_script_value_missing" => dictionaries,
        _ => false,
    };
    if f.allow_objects && loads_script {
        // A res:// path that does not load as a Script: there is no resource loader here.
        return Some("does not load scripts");
    }
    if matches!(
        n,
        "dictionary_duplicate_keys" | "dictionary_string_and_string_name_keys"
    ) {
        // The engine keeps one entry (a String and a StringName key are the same key to it).
        return Some("keeps duplicate keys");
    }
    let typed_mismatch = match n {
        "typed_array_int_with_string"
        | "typed_array_float_with_int"
        | "typed_array_float_with_big_int"
        | "typed_array_string_with_string_name"
        | "typed_array_string_name_with_string"
        | "typed_array_int_with_nil"
        | "typed_array_class_with_int" => arrays,
        "typed_dictionary_bad_key_dropped" => dictionaries,
        "typed_array_class_node_ids"
        | "typed_array_class_node_with_refcounted"
        | "typed_array_script_with_plain_refcounted" => arrays && f.allow_objects,
        _ => false,
    };
    if typed_mismatch {
        // The engine drops (or converts) elements that do not match the container type.
        return Some("keeps typed container elements as sent");
    }
    None
}

/// Requires every input of `fixtures` (a Godot 4 engine's `malformed.jsonl`) to get that
/// engine's verdict from a `dialect` decoder, in the fixture's object mode: the same value or
/// the same error code, except for the [`deliberate_difference`]s, which must show the
/// documented behaviour. Returns how many of those were exercised.
pub fn assert_engine_verdicts(dialect: Dialect, fixtures: &[Fixture]) -> usize {
    let mut failures = Vec::new();
    let mut differences = 0;
    for f in fixtures {
        set_allow_objects(f.allow_objects);
        let at = format!("{} (allow_objects {})", f.name, f.allow_objects);
        let got = Decoder::new(dialect)
            .with_allow_objects(f.allow_objects)
            .decode(&f.bytes);
        if let Some(why) = deliberate_difference(dialect, f) {
            differences += 1;
            match (&got, why) {
                (Ok(_), "accepts any class name" | "does not load scripts") if f.desc.is_none() => {
                }
                (Ok(v), "keeps duplicate keys") => {
                    // Both entries are kept; the engine's one entry has the first key and the
                    // last value.
                    let want = &f.desc.as_ref().unwrap()["v"][0];
                    let d = v.as_dictionary().unwrap();
                    let (first, _) = d.iter().next().unwrap();
                    let (_, last) = d.iter().last().unwrap();
                    let r = check(&want[0], &first, Objects::ClassOnly, &at)
                        .and_then(|()| check(&want[1], &last, Objects::ClassOnly, &at));
                    if let Err(e) = r {
                        failures.push(e);
                    }
                    if d.len() != 2 {
                        failures.push(format!("{at}: {} entries", d.len()));
                    }
                }
                (Ok(v), "keeps typed container elements as sent") if f.desc.is_some() => {
                    // The same container type as the engine's; elements it dropped are kept
                    // and elements it converted are as sent.
                    let want = f.desc.as_ref().unwrap();
                    let want_len = want["v"].as_array().unwrap().len();
                    let (got_len, r) = match (v.as_array(), v.as_dictionary()) {
                        (Some(a), _) => (
                            a.len(),
                            check_container_type(want.get("type"), a.element_type(), &at),
                        ),
                        (_, Some(d)) => (
                            d.len(),
                            check_container_type(want.get("key_type"), d.key_type(), &at),
                        ),
                        _ => (0, Err(format!("{at}: not a container"))),
                    };
                    if let Err(e) = r {
                        failures.push(e);
                    }
                    let converted = matches!(
                        f.name.as_str(),
                        "typed_array_float_with_int"
                            | "typed_array_float_with_big_int"
                            | "typed_array_string_with_string_name"
                            | "typed_array_string_name_with_string"
                    );
                    if (converted && got_len != want_len) || (!converted && got_len <= want_len) {
                        failures.push(format!("{at}: {got_len} elements, engine kept {want_len}"));
                    }
                }
                _ => failures.push(format!(
                    "{at}: expected documented difference '{why}', got {got:?}"
                )),
            }
            continue;
        }
        // (Only for a value we decoded: the stripping decodes the bytes again.)
        let stripped = (f.desc.as_ref())
            .filter(|_| got.is_ok())
            .and_then(|desc| without_script_dictionary_types(dialect, f, desc));
        if let Err(e) = verdict_matches(f, stripped.as_ref().or(f.desc.as_ref()), got, &at) {
            failures.push(e);
        }
    }
    assert_no_failures(&failures, "mismatches");
    differences
}
