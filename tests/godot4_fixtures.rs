//! The reader and writer against the real Godot 4.6 engine: every value the engine wrote
//! decodes (`Dialect::GODOT_4`) to what the engine itself decoded and re-encodes to the
//! engine's bytes; every odd or malformed input gets the engine's verdict and error code, with
//! objects allowed and not. Fixtures: `tests/fixtures/godot4/`, made by
//! `tests/godot4/regenerate.sh` (tests/godot4/README.md). No engine is needed to run this.

mod support;

use gdwire::{to_vec, Decoder, Dialect, ErrorKind};
use support::{
    check, check_container_type, set_allow_objects, value_matches, verdict_matches, Fixture,
    Objects,
};

fn decoder(allow_objects: bool) -> Decoder {
    Decoder::new(Dialect::GODOT_4).with_allow_objects(allow_objects)
}

fn hex(b: &[u8]) -> String {
    support::hex_of(b)
}

#[test]
fn every_engine_value_decodes_to_what_the_engine_decoded() {
    let fixtures = support::godot4_values();
    support::assert_more_than(&fixtures, 240);
    let mut failures = Vec::new();
    let mut types = std::collections::BTreeSet::new();
    for f in &fixtures {
        set_allow_objects(f.allow_objects);
        let desc = f.desc.as_ref().unwrap();
        types.insert(f.bytes[0]);
        let stripped = support::without_script_dictionary_types(f, desc);
        let desc = stripped.as_ref().unwrap_or(desc);
        if let Err(e) = value_matches(f, desc, decoder(f.allow_objects).decode_exact(&f.bytes)) {
            failures.push(e);
        }
    }
    support::assert_no_failures(&failures, "mismatches");
    // Every one of the 39 Godot 4.6 types is there, as a top-level value.
    assert_eq!(
        types.len(),
        usize::from(Dialect::GODOT_4.variant_max()),
        "{types:?}"
    );
}

#[test]
fn every_engine_value_reencodes_to_the_engine_bytes() {
    let mut failures = Vec::new();
    for f in &support::godot4_values() {
        let v = decoder(f.allow_objects).decode_exact(&f.bytes).unwrap();
        match to_vec(Dialect::GODOT_4, &v) {
            Ok(got) if got == f.bytes => {}
            Ok(got) => failures.push(format!(
                "{}: ours {}\n  engine {}",
                f.name,
                hex(&got),
                hex(&f.bytes)
            )),
            Err(e) => failures.push(format!("{}: {e}", f.name)),
        }
        // The streaming writer with the fixture's own object mode agrees.
        let mut out = Vec::new();
        let mut w =
            gdwire::Writer::new(&mut out, Dialect::GODOT_4).with_full_objects(f.allow_objects);
        if let Err(e) = w.value(&v).and_then(|()| w.finish()) {
            failures.push(format!("{}: Writer: {e}", f.name));
        } else if out != f.bytes {
            failures.push(format!("{}: Writer wrote {}", f.name, hex(&out)));
        }
    }
    support::assert_no_failures(&failures, "mismatches");
}

/// Where this crate deliberately differs from Godot 4.6 (docs/engine-parity.md), for inputs
/// the engine rejects or alters. `None`: no difference, the verdicts must agree exactly.
fn deliberate_difference(f: &Fixture) -> Option<&'static str> {
    let n = f.name.as_str();
    if f.allow_objects
        && matches!(
            n,
            "object_full_unknown_class" | "object_full_abstract_class"
        )
    {
        // ClassDB refuses to instantiate; this crate never instantiates and has no class list.
        return Some("accepts any class name");
    }
    if f.allow_objects
        && matches!(
            n,
            "object_full_script_missing"
                | "object_full_script_not_a_script"
                | "typed_array_script_missing"
                | "typed_array_script_not_a_script"
                | "typed_dictionary_script_value_missing"
        )
    {
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
    let typed_mismatch = matches!(
        n,
        "typed_array_int_with_string"
            | "typed_array_float_with_int"
            | "typed_array_float_with_big_int"
            | "typed_array_string_with_string_name"
            | "typed_array_string_name_with_string"
            | "typed_array_int_with_nil"
            | "typed_array_class_with_int"
            | "typed_dictionary_bad_key_dropped"
    ) || (f.allow_objects
        && matches!(
            n,
            "typed_array_class_node_ids"
                | "typed_array_class_node_with_refcounted"
                | "typed_array_script_with_plain_refcounted"
        ));
    if typed_mismatch {
        // The engine drops (or converts) elements that do not match the container type.
        return Some("keeps typed container elements as sent");
    }
    None
}

#[test]
fn every_malformed_input_gets_the_engine_verdict() {
    let fixtures = support::godot4_malformed();
    support::assert_more_than(&fixtures, 2000);
    let mut failures = Vec::new();
    let mut differences = 0;
    for f in &fixtures {
        set_allow_objects(f.allow_objects);
        let at = format!("{} (allow_objects {})", f.name, f.allow_objects);
        let got = decoder(f.allow_objects).decode(&f.bytes);
        if let Some(why) = deliberate_difference(f) {
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
            .and_then(|desc| support::without_script_dictionary_types(f, desc));
        if let Err(e) = verdict_matches(f, stripped.as_ref().or(f.desc.as_ref()), got, &at) {
            failures.push(e);
        }
    }
    assert!(differences >= 4, "documented differences not exercised");
    support::assert_no_failures(&failures, "mismatches");
}

#[test]
fn depth_limit_is_the_engines() {
    // 1025 nested arrays (innermost at depth 1024) decode; 1026 do not, with the engine's code.
    for f in support::godot4_malformed() {
        if f.name == "array_nesting_1026" {
            let e = decoder(f.allow_objects).decode(&f.bytes).unwrap_err();
            assert!(
                matches!(e.kind(), ErrorKind::TooDeep { limit: 1024 }),
                "{e}"
            );
            assert_eq!(e.kind().engine_code(), Some(f.error as i32));
        }
        if f.name == "array_nesting_1025" {
            assert!(f.desc.is_some());
            decoder(f.allow_objects).decode(&f.bytes).unwrap();
        }
    }
}

#[test]
fn the_walker_gives_the_same_verdicts() {
    // Decoder::walk validates in its own single pass: it must reject exactly what decode
    // rejects, with the same engine code, on every engine input.
    let mut failures = Vec::new();
    for f in support::godot4_values()
        .iter()
        .chain(&support::godot4_malformed())
    {
        let dec = decoder(f.allow_objects);
        let decoded = dec
            .decode(&f.bytes)
            .map(|_| ())
            .map_err(|e| e.kind().engine_code());
        let mut walked = Ok(());
        for event in dec.walk(&f.bytes) {
            if let Err(e) = event {
                walked = Err(e.kind().engine_code());
                break;
            }
        }
        // decode ignores trailing bytes like the engine; the walk stops after one value too.
        if decoded != walked {
            failures.push(format!(
                "{} ({}): decode {decoded:?}, walk {walked:?}",
                f.name, f.allow_objects
            ));
        }
    }
    support::assert_no_failures(&failures, "mismatches");
}

#[test]
fn text_form_is_the_engines_var_to_str() {
    support::assert_godot4_text_is_var_to_str(&support::godot4_values());
}

#[test]
fn sample_capture_decodes_to_the_engines_text() {
    // samples/godot4_capture.bin: FileAccess.store_var of 12 values (u32 length + payload each);
    // samples/godot4_capture.txt: var_to_str of each + "\n" (tests/godot4/README.md).
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/");
    let bin = std::fs::read(format!("{dir}godot4_capture.bin")).unwrap();
    let txt = std::fs::read_to_string(format!("{dir}godot4_capture.txt")).unwrap();
    let (mut pos, mut text, mut again, mut count) = (0, String::new(), Vec::new(), 0);
    while pos < bin.len() {
        let len = u32::from_le_bytes(bin[pos..pos + 4].try_into().unwrap()) as usize;
        let payload = &bin[pos + 4..pos + 4 + len];
        let v = decoder(false).decode_exact(payload).unwrap();
        text += &gdwire::text::to_text(Dialect::GODOT_4, &v).unwrap();
        text.push('\n');
        let bytes = to_vec(Dialect::GODOT_4, &v).unwrap();
        again.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
        again.extend_from_slice(&bytes);
        pos += 4 + len;
        count += 1;
    }
    assert_eq!(count, 12);
    assert_eq!(text, txt);
    assert_eq!(
        again, bin,
        "re-encoding the capture gives the engine's bytes"
    );
}

#[test]
#[cfg(feature = "json")] // gdwire::json
fn the_engines_json_reads_back_to_its_bytes() {
    // JSON.from_native (+ JSON.stringify, full precision) of each value, read with
    // gdwire::json in engine-compatible mode: the engine's bytes again, except where the
    // engine's JSON drops data (docs/json.md). Strict mode rejects exactly the texts that are
    // not RFC 8259 JSON and reads the others to the same bytes.
    let lossy = |name: &str| {
        matches!(
            name,
            // -0.0, subnormals, NaN payloads and 1/3 (14 digits) are not kept by "f:" texts
            "float_neg0"
                | "float_1_3"
                | "float_nan_negative_payload"
                | "float_f32_min_subnormal"
                | "float_f32_min_normal"
                | "float_f64_min_subnormal"
                | "float_f64_subnormal_big"
                | "float_1e_45"
                | "packed_float32_array_len3"
                // RID ids, Signal contents and object ids are dropped
                | "rid_13"
                | "rid_big"
                | "rid_u64_max"
                | "signal_node_ready"
                | "object_id_refcounted"
                | "object_id_node"
                | "array_of_objects_id"
                | "typed_dictionary_class_value_ids"
                | "typed_dictionary_script_value_ids"
                | "typed_array_class_ids"
                | "typed_array_class_empty_ids"
                | "typed_array_script_ids"
                // the engine lost the script type while decoding (see above)
                | "typed_dictionary_script_value_full"
                | "typed_dictionary_script_key_full"
        )
    };
    let engine = gdwire::json::Options::ENGINE;
    let (mut exact, mut zeroed, mut strict_rejected, mut non_rfc) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    let values = support::godot4_values();
    for f in &values {
        let text = f.json["json"].as_str().unwrap();
        // JSON.stringify writes ±inf as 1e99999 / -1e99999, NaN in args as null and control
        // characters raw: not RFC 8259 JSON.
        let not_rfc = text.contains("1e99999") || text.chars().any(|c| c < ' ');
        // NaN in a float slot of args (the only `null` in values of one math / packed type).
        let nan_null =
            text.starts_with("{\"type\":\"Packed") || text.starts_with("{\"type\":\"Vector");
        let nan_null = nan_null && text.contains("null");
        non_rfc += usize::from(not_rfc || nan_null);
        let strict = gdwire::json::from_json_str(Dialect::GODOT_4, text);
        let ours = gdwire::json::from_json_str_with(Dialect::GODOT_4, text, engine);
        match (&strict, &ours) {
            (Err(_), _) if not_rfc || nan_null => strict_rejected += 1,
            (Ok(a), Ok(b)) if a == b => {}
            _ => failures.push(format!(
                "{}: strict {strict:?}, engine mode {ours:?}",
                f.name
            )),
        }
        match ours {
            Ok(bytes) if bytes == f.bytes => exact += 1,
            Ok(_) if lossy(&f.name) => {}
            // The engine's to_native reads null as 0 and its JSON writes -0.0 as 0.0: the same
            // bytes but 0.0 where the value had NaN or -0.0, and nothing else.
            Ok(bytes) if nan_and_neg_zero_lost(&f.bytes, &bytes) => zeroed += 1,
            got => failures.push(format!("{}: {got:?} from {text}", f.name)),
        }
        if lossy(&f.name) && ours_exact(&f.bytes, text, engine) {
            failures.push(format!(
                "{}: listed as lossy but reads back exactly",
                f.name
            ));
        }
    }
    support::assert_no_failures(&failures, "mismatches");
    eprintln!(
        "{exact} of {} exact, {zeroed} with NaN or -0.0 in args read as 0.0 (as the engine), \
         {strict_rejected} rejected by strict mode",
        values.len()
    );
    assert_eq!(exact + zeroed + 23, values.len());
    assert_eq!(
        strict_rejected, non_rfc,
        "strict mode rejects every non-RFC text"
    );
    assert!(exact >= 220 && zeroed > 0 && strict_rejected > 0);
}

fn ours_exact(want: &[u8], text: &str, options: gdwire::json::Options) -> bool {
    gdwire::json::from_json_str_with(Dialect::GODOT_4, text, options).is_ok_and(|b| b == want)
}

/// `got` is `want` with every NaN float replaced by 0.0 and every -0.0 by 0.0 (4-byte words,
/// or 8-byte ones at 8-aligned offsets), and at least one replaced: what the engine's JSON does
/// to those floats (NaN written as `null`, read as 0; -0.0 written as `0.0`).
fn nan_and_neg_zero_lost(want: &[u8], got: &[u8]) -> bool {
    if want.len() != got.len() || want.len() % 4 != 0 {
        return false;
    }
    let (mut i, mut replaced) = (0, 0);
    while i < want.len() {
        let w4: [u8; 4] = want[i..i + 4].try_into().unwrap();
        let g4: [u8; 4] = got[i..i + 4].try_into().unwrap();
        let w8 = want.get(i..i + 8).filter(|_| i % 8 == 0);
        let w8 = w8.map(|w| f64::from_le_bytes(w.try_into().unwrap()));
        if w4 == g4 {
            i += 4;
        } else if g4 == [0; 4] && (f32::from_le_bytes(w4).is_nan() || w4 == (-0.0f32).to_le_bytes())
        {
            replaced += 1;
            i += 4;
        } else if w8.is_some_and(|w| w.is_nan() || w.to_bits() == (-0.0f64).to_bits())
            && got[i..i + 8] == [0; 8]
        {
            replaced += 1;
            i += 8;
        } else {
            return false;
        }
    }
    replaced > 0
}

#[test]
fn text_form_of_odd_inputs_is_the_engines() {
    // var_to_str of what the engine decoded from every odd input it accepts, objects allowed.
    // Skipped: inputs whose decoded value differs by design (documented differences above:
    // dropped or converted typed elements, duplicate keys, the script-typed Dictionary), and
    // full objects, which the engine prints with all properties of the instance it made.
    let mut failures = Vec::new();
    let mut checked = 0;
    for f in &support::godot4_malformed() {
        let (Some(desc), Some(want)) = (&f.desc, f.json["text"].as_str()) else {
            continue;
        };
        let full_object = serde_json::to_string(desc)
            .unwrap()
            .contains("\"t\":\"Object\"");
        if !f.allow_objects
            || full_object
            || deliberate_difference(f).is_some()
            || support::without_script_dictionary_types(f, desc).is_some()
        {
            continue;
        }
        let v = decoder(true).decode(&f.bytes).unwrap();
        match gdwire::text::to_text(Dialect::GODOT_4, &v) {
            Ok(got) if got == want => checked += 1,
            Ok(got) => failures.push(format!("{}:\n  ours   {got:?}\n  engine {want:?}", f.name)),
            Err(e) => failures.push(format!("{}: {e}", f.name)),
        }
    }
    support::assert_no_failures(&failures, "mismatches");
    eprintln!("{checked} odd inputs printed as the engine prints them");
    assert!(checked > 150, "only {checked} checked");
}
