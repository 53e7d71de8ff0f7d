//! The reader and writer against the real Godot 4.6 engine: every value the engine wrote
//! decodes (`Dialect::GODOT_4`) to what the engine itself decoded and re-encodes to the
//! engine's bytes; every odd or malformed input gets the engine's verdict and error code, with
//! objects allowed and not. Fixtures: `tests/fixtures/godot4/`, made by
//! `tests/godot4/regenerate.sh` (tests/godot4/README.md). No engine is needed to run this.

mod support;

use gdwire::{to_vec, Decoder, Dialect, ErrorKind};
use support::godot4_verdicts::deliberate_difference;
use support::{set_allow_objects, value_matches};

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
        let stripped = support::without_script_dictionary_types(Dialect::GODOT_4, f, desc);
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

#[test]
fn every_malformed_input_gets_the_engine_verdict() {
    let fixtures = support::godot4_malformed();
    support::assert_more_than(&fixtures, 2000);
    let differences = support::godot4_verdicts::assert_engine_verdicts(Dialect::GODOT_4, &fixtures);
    assert!(differences >= 4, "documented differences not exercised");
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
    support::assert_godot4_text_is_var_to_str(Dialect::GODOT_4, &support::godot4_values());
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
            || deliberate_difference(Dialect::GODOT_4, f).is_some()
            || support::without_script_dictionary_types(Dialect::GODOT_4, f, desc).is_some()
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
