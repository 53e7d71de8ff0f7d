//! Values a real Pandemonium engine wrote (`tests/fixtures/pandemonium/values.jsonl`, made by
//! `tests/pandemonium/generate.gd`; tests/pandemonium/README.md says which build), read and
//! written by the `PANDEMONIUM_5` dialect:
//!
//! - the engine's bytes decode exactly (nothing left over), to the type the engine's
//!   `typeof` named through the dialect's id table;
//! - gdwire's text form of the view is the engine's `var2str` of what the engine's own decoder
//!   reads from those bytes (of the value it wrote, where that decoder has a known bug);
//! - the view re-encodes, and its owned copy encodes, to the engine's bytes;
//! - gdwire's text parser reads the engine's `var2str` to the bytes of the engine's `str2var`,
//!   and reads the other texts of `texts.jsonl` as the engine does (the same bytes, or an
//!   error where the engine's parser fails);
//! - the engine reads its own bytes back as the value it wrote, except for the decoder and
//!   encoder bugs docs/wire-format.md §4.12 names, and exactly those.

use gdwire::text::to_text;
use gdwire::{to_vec, Decoder, Dialect, VariantType};

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/pandemonium/values.jsonl"
);

const TEXTS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/pandemonium/texts.jsonl"
);

const DIALECT: Dialect = Dialect::PANDEMONIUM_5;

struct Row {
    name: String,
    type_id: u8,
    full_objects: bool,
    bytes: Vec<u8>,
    text: String,
    /// `var2bytes(str2var(text))`.
    text_read: Vec<u8>,
    read_back: String,
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn hex_str(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// `var2bytes` of `text` as a String value.
fn string_bytes(text: &str) -> Vec<u8> {
    let mut w = gdwire::Writer::new(Vec::new(), DIALECT);
    w.string(text).unwrap();
    w.into_sink()
}

fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(FIXTURE).unwrap_or_else(|e| {
        panic!("missing real-engine fixture {FIXTURE}: {e} (see tests/pandemonium/README.md)")
    });
    let rows: Vec<Row> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let e: serde_json::Value = serde_json::from_str(line).unwrap();
            let s = |k: &str| e[k].as_str().unwrap().to_owned();
            Row {
                name: s("name"),
                type_id: u8::try_from(e["type"].as_u64().unwrap()).unwrap(),
                full_objects: e["full_objects"].as_bool().unwrap(),
                bytes: hex(&s("hex")),
                text: s("text"),
                text_read: hex(&s("text_read_hex")),
                read_back: String::from_utf8(hex(&s("read_back_utf8"))).unwrap(),
            }
        })
        .collect();
    assert!(rows.len() >= 80, "{} rows", rows.len());
    rows
}

fn decoder() -> Decoder {
    Decoder::new(DIALECT).with_allow_objects(true)
}

#[test]
fn every_type_of_the_dialect_is_covered() {
    let seen: std::collections::BTreeSet<u8> = rows().iter().map(|r| r.type_id).collect();
    let all: std::collections::BTreeSet<u8> = (0..DIALECT.variant_max()).collect();
    // RID has no engine-made value but the empty one; OBJECT comes as null and full.
    assert_eq!(seen, all, "types without an engine-written value");
}

#[test]
fn engine_bytes_decode_to_the_engine_type() {
    for r in rows() {
        let v = decoder()
            .decode_exact(&r.bytes)
            .unwrap_or_else(|e| panic!("{}: engine bytes do not decode: {e}", r.name));
        let mut want = DIALECT
            .type_of(r.type_id)
            .unwrap_or_else(|| panic!("{}: typeof {} has no type", r.name, r.type_id));
        if want == VariantType::Object && r.bytes == [0; 4] {
            // The engine writes a null Object as NIL.
            want = VariantType::Nil;
        }
        assert_eq!(v.variant_type(), want, "{}", r.name);
    }
}

#[test]
fn text_form_is_the_engines_var2str() {
    let mut wrong = Vec::new();
    for r in rows() {
        let v = decoder().decode_exact(&r.bytes).unwrap();
        let got = to_text(DIALECT, &v).unwrap_or_else(|e| panic!("{}: {e}", r.name));
        let want = match ENGINE_DECODER_BUGS.contains(&r.name.as_str()) {
            true => &r.text,
            false => &r.read_back,
        };
        if got != *want {
            wrong.push(format!("{}:\n  engine {want:?}\n  gdwire {got:?}", r.name));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn views_and_owned_values_encode_to_the_engine_bytes() {
    for r in rows() {
        let v = decoder().decode_exact(&r.bytes).unwrap();
        let from_view = to_vec(DIALECT, &v).unwrap_or_else(|e| panic!("{}: {e}", r.name));
        assert_eq!(hex_str(&from_view), hex_str(&r.bytes), "{} (view)", r.name);

        let owned = v.to_owned();
        let mut out = Vec::new();
        let mut w = gdwire::Writer::new(&mut out, DIALECT).with_full_objects(r.full_objects);
        w.variant(&owned)
            .unwrap_or_else(|e| panic!("{}: owned: {e}", r.name));
        assert_eq!(hex_str(&out), hex_str(&r.bytes), "{} (owned)", r.name);
    }
}

#[test]
fn text_parser_reads_var2str_to_the_engine_bytes() {
    let mut wrong = Vec::new();
    for r in rows() {
        let mut w = gdwire::Writer::new(Vec::new(), DIALECT).with_full_objects(r.full_objects);
        let parsed = gdwire::text::parse_into(&mut w, &r.text).map(|()| w.into_sink());
        if ENGINE_ENCODER_BUGS.contains(&r.name.as_str()) {
            // The engine's bytes are its encoder's bug; gdwire's hold the value the text names.
            let bytes = parsed.unwrap_or_else(|e| panic!("{}: {e}", r.name));
            let v = decoder().decode_exact(&bytes).unwrap();
            assert_eq!(to_text(DIALECT, &v).unwrap(), r.text, "{}", r.name);
            continue;
        }
        match parsed {
            Ok(bytes) if bytes == r.text_read => {}
            // Where the engine's parser fails, `str2var` returns its argument, the text as a
            // String (an RID's text form is empty); gdwire reports the error.
            Err(_) if r.text_read == string_bytes(&r.text) => {}
            Ok(bytes) => wrong.push(format!(
                "{}: {:?}\n  engine {}\n  gdwire {}",
                r.name,
                r.text,
                hex_str(&r.text_read),
                hex_str(&bytes)
            )),
            Err(e) => wrong.push(format!("{}: {:?}: {e}", r.name, r.text)),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Rows whose bytes the engine's decoder misreads (docs/wire-format.md §4.12): a Projection
/// needs 248 bytes left, Vector4(i) advances 12 bytes (so the next item is read from its last
/// component), PoolVector4Array reads `w` from the `z` slot. gdwire reads what the encoder
/// wrote.
const ENGINE_DECODER_BUGS: &[&str] = &[
    "projection",
    "array_of_vector4",
    "array_of_vector4i",
    "array_of_projection",
    "pool_vector4_array",
];

/// Rows whose engine bytes are wrong: the PoolVector4iArray encoder writes `z` in the `w`
/// slot (gdwire writes `w`; the engine's decoder reads `w` from the `z` slot either way).
const ENGINE_ENCODER_BUGS: &[&str] = &["pool_vector4i_array"];

/// An object-typed TypedArray sent without full objects carries no class name: the engine
/// reads it back typed `EncodedObjectAsID`.
const NO_CLASS_NAME_ON_THE_WIRE: &[&str] = &["typed_array_object_empty"];

#[test]
fn engine_reads_its_own_bytes_back_except_its_known_bugs() {
    let mut misread: Vec<String> = rows()
        .into_iter()
        .filter(|r| r.read_back != r.text)
        .map(|r| r.name)
        .collect();
    misread.sort();
    let mut known: Vec<&str> = [
        ENGINE_DECODER_BUGS,
        ENGINE_ENCODER_BUGS,
        NO_CLASS_NAME_ON_THE_WIRE,
    ]
    .concat();
    known.sort();
    assert_eq!(misread, known);
}

#[test]
fn text_parser_agrees_with_str2var_on_other_texts() {
    let fixture = std::fs::read_to_string(TEXTS).unwrap();
    let mut wrong = Vec::new();
    let mut refused = 0;
    for line in fixture.lines() {
        let e: serde_json::Value = serde_json::from_str(line).unwrap();
        let text = e["text"].as_str().unwrap();
        let engine = hex(e["read_hex"].as_str().unwrap());
        let engine_failed = engine == string_bytes(text);
        refused += usize::from(engine_failed);
        // `var2bytes` without full objects, as the generator calls it.
        let mut w = gdwire::Writer::new(Vec::new(), DIALECT).with_full_objects(false);
        let parsed = gdwire::text::parse_into(&mut w, text).map(|()| w.into_sink());
        match (parsed, engine_failed) {
            (Err(_), true) => {}
            (Ok(bytes), false) if bytes == engine => {}
            (got, _) => wrong.push(format!(
                "{text:?}\n  engine {}\n  gdwire {:?}",
                hex_str(&engine),
                got.map(|b| hex_str(&b))
            )),
        }
    }
    assert!(refused >= 5, "the fixture lost its refused texts");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
