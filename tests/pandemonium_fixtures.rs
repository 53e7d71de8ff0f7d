//! Values real Pandemonium engines wrote (`tests/fixtures/pandemonium/<numbering>/`, made by
//! `tests/pandemonium/generate.gd`; tests/pandemonium/README.md says which builds), read and
//! written by the dialect of each engine's numbering:
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

use gdwire::text::{parse_into, to_text};
use gdwire::{to_vec, Decoder, Dialect, VariantType, Writer};

/// One engine's fixtures and what they are known to show.
struct Engine {
    /// Directory under tests/fixtures/pandemonium/: the type numbering (5, 3.8 or 3.5).
    version: &'static str,
    dialect: Dialect,
    /// Rows whose bytes the engine's decoder misreads (docs/wire-format.md §4.12): a
    /// Projection needs 248 bytes left, Vector4(i) advances 12 bytes (so the next item is
    /// read from its last component), PoolVector4Array reads `w` from the `z` slot. gdwire
    /// reads what the encoder wrote.
    decoder_bugs: &'static [&'static str],
    /// Rows whose engine bytes are wrong: the PoolVector4iArray encoder writes `z` in the `w`
    /// slot (gdwire writes `w`; the engine's decoder reads `w` from the `z` slot either way).
    encoder_bugs: &'static [&'static str],
    /// Rows that lose something on the wire: an object-typed TypedArray sent without full
    /// objects carries no class name (the engine reads it back typed `EncodedObjectAsID`).
    lossy: &'static [&'static str],
}

const VECTOR4_DECODER_BUGS: &[&str] = &[
    "projection",
    "array_of_vector4",
    "array_of_vector4i",
    "array_of_projection",
    "pool_vector4_array",
];

const ENGINES: &[Engine] = &[
    Engine {
        version: "5",
        dialect: Dialect::PANDEMONIUM_5,
        decoder_bugs: VECTOR4_DECODER_BUGS,
        encoder_bugs: &["pool_vector4i_array"],
        lossy: &["typed_array_object_empty"],
    },
    Engine {
        version: "3.8",
        dialect: Dialect::PANDEMONIUM_3_8,
        decoder_bugs: VECTOR4_DECODER_BUGS,
        encoder_bugs: &["pool_vector4i_array"],
        lossy: &[],
    },
    Engine {
        version: "3.5",
        dialect: Dialect::PANDEMONIUM_3_5,
        decoder_bugs: &[],
        encoder_bugs: &[],
        lossy: &[],
    },
];

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

fn fixture(e: &Engine, file: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/pandemonium/{}/{file}",
        env!("CARGO_MANIFEST_DIR"),
        e.version
    );
    std::fs::read_to_string(&path).unwrap_or_else(|err| {
        panic!("missing real-engine fixture {path}: {err} (see tests/pandemonium/README.md)")
    })
}

fn rows(e: &Engine) -> Vec<Row> {
    let rows: Vec<Row> = fixture(e, "values.jsonl")
        .lines()
        .map(|line| {
            let j: serde_json::Value = serde_json::from_str(line).unwrap();
            let s = |k: &str| j[k].as_str().unwrap().to_owned();
            Row {
                name: s("name"),
                type_id: u8::try_from(j["type"].as_u64().unwrap()).unwrap(),
                full_objects: j["full_objects"].as_bool().unwrap(),
                bytes: hex(&s("hex")),
                text: s("text"),
                text_read: hex(&s("text_read_hex")),
                read_back: String::from_utf8(hex(&s("read_back_utf8"))).unwrap(),
            }
        })
        .collect();
    assert!(rows.len() >= 60, "{}: {} rows", e.version, rows.len());
    rows
}

fn decoder(e: &Engine) -> Decoder {
    Decoder::new(e.dialect).with_allow_objects(true)
}

/// What gdwire's text parser writes for `text`, through a writer like the engine's
/// `var2bytes(…, full_objects)`.
fn parse(e: &Engine, text: &str, full_objects: bool) -> Result<Vec<u8>, String> {
    let mut w = Writer::new(Vec::new(), e.dialect).with_full_objects(full_objects);
    parse_into(&mut w, text).map_err(|err| err.to_string())?;
    Ok(w.into_sink())
}

/// `var2bytes` of `text` as a String value: what `str2var` returns where its parser fails.
fn string_bytes(e: &Engine, text: &str) -> Vec<u8> {
    let mut w = Writer::new(Vec::new(), e.dialect);
    w.string(text).unwrap();
    w.into_sink()
}

#[test]
fn every_type_of_the_dialect_is_covered() {
    for e in ENGINES {
        let seen: std::collections::BTreeSet<u8> = rows(e).iter().map(|r| r.type_id).collect();
        let all: std::collections::BTreeSet<u8> = (0..e.dialect.variant_max()).collect();
        assert_eq!(
            seen, all,
            "{}: types without an engine-written value",
            e.version
        );
    }
}

#[test]
fn engine_bytes_decode_to_the_engine_type() {
    for e in ENGINES {
        for r in rows(e) {
            let v = decoder(e)
                .decode_exact(&r.bytes)
                .unwrap_or_else(|err| panic!("{}: engine bytes do not decode: {err}", r.name));
            let mut want = e
                .dialect
                .type_of(r.type_id)
                .unwrap_or_else(|| panic!("{}: typeof {} has no type", r.name, r.type_id));
            if want == VariantType::Object && r.bytes == [0; 4] {
                // The engine writes a null Object as NIL.
                want = VariantType::Nil;
            }
            assert_eq!(v.variant_type(), want, "{} {}", e.version, r.name);
        }
    }
}

#[test]
fn text_form_is_the_engines_var2str() {
    let mut wrong = Vec::new();
    for e in ENGINES {
        for r in rows(e) {
            let v = decoder(e).decode_exact(&r.bytes).unwrap();
            let got = to_text(e.dialect, &v).unwrap_or_else(|err| panic!("{}: {err}", r.name));
            let want = match e.decoder_bugs.contains(&r.name.as_str()) {
                true => &r.text,
                false => &r.read_back,
            };
            if got != *want {
                let name = format!("{} {}", e.version, r.name);
                wrong.push(format!("{name}:\n  engine {want:?}\n  gdwire {got:?}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn views_and_owned_values_encode_to_the_engine_bytes() {
    for e in ENGINES {
        for r in rows(e) {
            let name = format!("{} {}", e.version, r.name);
            let v = decoder(e).decode_exact(&r.bytes).unwrap();
            let from_view = to_vec(e.dialect, &v).unwrap_or_else(|err| panic!("{name}: {err}"));
            assert_eq!(hex_str(&from_view), hex_str(&r.bytes), "{name} (view)");

            let mut w = Writer::new(Vec::new(), e.dialect).with_full_objects(r.full_objects);
            w.variant(&v.to_owned())
                .unwrap_or_else(|err| panic!("{name}: owned: {err}"));
            assert_eq!(hex_str(&w.into_sink()), hex_str(&r.bytes), "{name} (owned)");
        }
    }
}

#[test]
fn text_parser_reads_var2str_to_the_engine_bytes() {
    let mut wrong = Vec::new();
    for e in ENGINES {
        for r in rows(e) {
            let name = format!("{} {}", e.version, r.name);
            let parsed = parse(e, &r.text, r.full_objects);
            if e.encoder_bugs.contains(&r.name.as_str()) {
                // The engine's bytes are its encoder's bug; gdwire's hold the value the text
                // names.
                let bytes = parsed.unwrap_or_else(|err| panic!("{name}: {err}"));
                let v = decoder(e).decode_exact(&bytes).unwrap();
                assert_eq!(to_text(e.dialect, &v).unwrap(), r.text, "{name}");
                continue;
            }
            match parsed {
                Ok(bytes) if bytes == r.text_read => {}
                // Where the engine's parser fails, `str2var` returns its argument (an RID's
                // text form is empty); gdwire reports the error.
                Err(_) if r.text_read == string_bytes(e, &r.text) => {}
                Ok(bytes) => wrong.push(format!(
                    "{name}: {:?}\n  engine {}\n  gdwire {}",
                    r.text,
                    hex_str(&r.text_read),
                    hex_str(&bytes)
                )),
                Err(err) => wrong.push(format!("{name}: {:?}: {err}", r.text)),
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn engine_reads_its_own_bytes_back_except_its_known_bugs() {
    for e in ENGINES {
        let mut misread: Vec<String> = rows(e)
            .into_iter()
            .filter(|r| r.read_back != r.text)
            .map(|r| r.name)
            .collect();
        misread.sort();
        let mut known: Vec<&str> = [e.decoder_bugs, e.encoder_bugs, e.lossy].concat();
        known.sort();
        assert_eq!(misread, known, "Pandemonium numbering {}", e.version);
    }
}

#[test]
fn text_parser_agrees_with_str2var_on_other_texts() {
    let mut wrong = Vec::new();
    for e in ENGINES {
        let mut refused = 0;
        for line in fixture(e, "texts.jsonl").lines() {
            let j: serde_json::Value = serde_json::from_str(line).unwrap();
            let text = j["text"].as_str().unwrap();
            let engine = hex(j["read_hex"].as_str().unwrap());
            let engine_failed = engine == string_bytes(e, text);
            refused += usize::from(engine_failed);
            // `var2bytes` without full objects, as the generator calls it.
            match (parse(e, text, false), engine_failed) {
                (Err(_), true) => {}
                (Ok(bytes), false) if bytes == engine => {}
                (got, _) => wrong.push(format!(
                    "{} {text:?}\n  engine {}\n  gdwire {:?}",
                    e.version,
                    hex_str(&engine),
                    got.map(|b| hex_str(&b))
                )),
            }
        }
        assert!(
            refused >= 1,
            "{}: the fixture lost its refused texts",
            e.version
        );
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// gdwire's own JSON form (docs/json.md) keeps everything: every engine value reads back to
/// the engine's bytes.
#[cfg(feature = "json")]
#[test]
fn engine_values_round_trip_through_json() {
    for e in ENGINES {
        for r in rows(e) {
            let v = decoder(e).decode_exact(&r.bytes).unwrap();
            let json = gdwire::json::to_json_string(e.dialect, &v)
                .unwrap_or_else(|err| panic!("{} {}: {err}", e.version, r.name));
            let back = gdwire::json::from_json_str(e.dialect, &json)
                .unwrap_or_else(|err| panic!("{} {}: {err}\n{json}", e.version, r.name));
            assert_eq!(
                hex_str(&back),
                hex_str(&r.bytes),
                "{} {}: {json}",
                e.version,
                r.name
            );
        }
    }
}
