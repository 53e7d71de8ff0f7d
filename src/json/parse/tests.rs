//! The parser against serde_json (the reference it replaces): same `Value`s, same verdicts.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use proptest::prelude::*;
use serde_json::Value;

use super::{dismantle, Parser, MAX_JSON_DEPTH};
use crate::json::{JsonError, Options};

/// One document, nothing after it.
fn parse(text: &str) -> Result<Value, JsonError> {
    parse_with(text, Options::STRICT)
}

fn parse_with(text: &str, options: Options) -> Result<Value, JsonError> {
    let mut p = Parser::with_options(text, options);
    let v = p.document()?;
    if p.more() {
        dismantle(v);
        return Err(p.error("trailing characters"));
    }
    Ok(v)
}

/// Same text, same number representation (`u64` / `i64` / `f64`), same bits for floats.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            (x.as_u64(), x.as_i64(), x.is_f64()) == (y.as_u64(), y.as_i64(), y.is_f64())
                && x.as_f64().map(f64::to_bits) == y.as_f64().map(f64::to_bits)
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((ka, a), (kb, b))| ka == kb && same(a, b))
        }
        _ => a == b,
    }
}

/// Our verdict agrees with serde_json's, and accepted documents give the same `Value`.
/// serde_json keeps the last of repeated keys where we refuse them.
fn agrees(text: &str) -> Result<(), String> {
    let ours = parse(text);
    engine_extends_strict(text, &ours)?;
    let theirs = serde_json::from_str::<Value>(text);
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) if same(a, b) => Ok(()),
        (Err(_), Err(_)) => Ok(()),
        (Err(JsonError::Syntax { message, .. }), Ok(_)) if message.starts_with("duplicate key") => {
            Ok(())
        }
        _ => Err(alloc::format!(
            "{text:?}: ours {ours:?}, serde_json {theirs:?}"
        )),
    }
}

#[test]
fn values_match_serde_json() {
    for text in [
        "null",
        "true",
        "false",
        " \t\r\n[ 1 , -2 , 3.5 , \"x\" , { } , [ ] ] ",
        r#"{"a":{"b":[null,{"c":"d"}]},"e":"f"}"#,
        r#""\" \\ \/ \b \f \n \r \t \u0041 \u00e9 \u20ac \ud83d\ude00 \u0000""#,
        "\"é€😀\"",
        "\"\u{7f} \u{80}\"",
        "0",
        "-0",
        "-0.0",
        "0e0",
        "-0e5",
        "1e2",
        "1E+2",
        "1e-2",
        "123.456e-7",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "-18446744073709551615",
        "99999999999999999999999999999999",
        "1.7976931348623157e308",
        "2.2250738585072011e-308",
        "4.9e-324",
        "2e-324",
        "1e-400",
        "0.30000000000000004",
        "9007199254740993",
        "9007199254740993.0",
        "1000000000000000000000000000000000000000000000000000000000000000000000e-70",
        "[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]",
    ] {
        assert!(parse(text).is_ok(), "{text}");
        agrees(text).unwrap();
    }
    // As deep as serde_json goes.
    agrees(&nested(127)).unwrap();
}

#[test]
fn rejections_match_serde_json() {
    for text in [
        "",
        " ",
        "nul",
        "nulll",
        "True",
        "[1,]",
        "[,1]",
        "[1 2]",
        "{\"a\" 1}",
        "{\"a\":1,}",
        "{a:1}",
        "{\"a\":}",
        "{1:2}",
        "[",
        "{",
        "{\"a\"",
        "{\"a\":1",
        "[1",
        "\"abc",
        "\"a\u{1}b\"",
        "\"\t\"",
        "\"\u{1f}\"",
        "\"\n\"",
        "\"\\x\"",
        "\"\\u12\"",
        "\"\\u12g4\"",
        "\"\\ud800\"",
        "\"\\ud800x\"",
        "\"\\ud800\\u0041\"",
        "\"\\udc00\"",
        "\"\\",
        "01",
        "-01",
        "00",
        "-",
        "+1",
        ".5",
        "1.",
        "1.e5",
        "1e",
        "1e+",
        "0x10",
        "1e309",
        "-1e309",
        "NaN",
        "Infinity",
        "[1]]",
        "1 2",
        "\u{feff}1",
        "[\"a\"]x",
    ] {
        assert!(parse(text).is_err(), "{text:?} accepted");
        agrees(text).unwrap();
    }
}

/// Engine-compatible reading gives the same `Value` wherever strict reading succeeds, and
/// succeeds where strict fails only past a raw control character or an out-of-range number.
fn engine_extends_strict(text: &str, strict: &Result<Value, JsonError>) -> Result<(), String> {
    let engine = parse_with(text, Options::ENGINE);
    let ok = match (strict, &engine) {
        (Ok(a), Ok(b)) => same(a, b),
        (Err(_), Err(_)) => true,
        (Err(JsonError::Syntax { message, .. }), Ok(_)) => {
            message == "number out of range" || message.starts_with("control character")
        }
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(alloc::format!(
            "{text:?}: strict {strict:?}, engine {engine:?}"
        ))
    }
}

#[test]
fn engine_mode_reads_what_godot_writes() {
    let engine = |t: &str| parse_with(t, Options::ENGINE);
    let s = |t: &str| Value::String(t.to_string());
    // JSON.stringify's ±inf; the engine's String::to_float overflows the same way.
    assert_eq!(engine("1e99999").unwrap(), s("inf"));
    assert_eq!(engine("-1e99999").unwrap(), s("-inf"));
    assert_eq!(
        engine("[1.5e309,-2E+400]").unwrap(),
        serde_json::json!(["inf", "-inf"])
    );
    // Underflow is 0 in both modes; an overflowing integer is a float overflow too.
    assert_eq!(engine("1e-99999").unwrap(), parse("1e-99999").unwrap());
    assert_eq!(engine(&"9".repeat(400)).unwrap(), s("inf"));
    assert!(parse("1e99999").is_err() && parse("-1e99999").is_err());
    // Raw control characters (the engine writes them unescaped), next to escapes.
    let raw: String = (1u8..0x20).map(char::from).collect();
    let text = alloc::format!("\"a{raw}\\n\\u0001z\"");
    assert_eq!(engine(&text).unwrap(), s(&alloc::format!("a{raw}\n\u{1}z")));
    assert!(parse(&text).is_err());
    // NUL ends the engine's text: still an error, with its place.
    let e = engine("[\"a\u{0}\"]").unwrap_err();
    assert!(matches!(e, JsonError::Syntax { column: 4, .. }), "{e:?}");
    // Nothing else is relaxed: bare control characters outside strings, the engine's other
    // number forms, identifiers.
    for bad in [
        "\u{1}1", "01", "1.", ".5", "+1", "NaN", "inf", "[1,]", "'a'",
    ] {
        assert!(engine(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn repeated_keys_are_refused_with_their_place() {
    let e = parse("{\"a\":1,\n  \"a\":2}").unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid JSON: duplicate key \"a\" at line 2 column 3"
    );
    // Keys equal after unescaping are the same key.
    assert!(parse(r#"{"a":1,"\u0061":2}"#).is_err());
    assert!(parse(r#"{"a":{"a":1},"b":{"a":2}}"#).is_ok());
}

#[test]
fn errors_give_line_and_column() {
    let e = parse("[1,\n 2,\n  x]").unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid JSON: expected value at line 3 column 3"
    );
    let e = parse("[1,\n 2").unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid JSON: EOF while parsing a list at line 2 column 3"
    );
    let e = parse("\"é\u{1}\"").unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid JSON: control character (\\u0000-\\u001F) found while parsing a string \
         at line 1 column 4"
    );
}

#[test]
fn documents_follow_one_another() {
    let text = "1 \"a\"[2]{\"b\":null}\n\ttrue";
    let mut p = Parser::new(text);
    let mut got = Vec::new();
    while p.more() {
        got.push(p.document().unwrap().to_string());
    }
    assert_eq!(got, ["1", "\"a\"", "[2]", "{\"b\":null}", "true"]);
}

fn nested(depth: usize) -> String {
    // Alternating arrays and single-key objects, the shape gdwire's dictionaries dump to.
    let mut s = String::new();
    for i in 0..depth {
        s.push_str(if i % 2 == 0 { "[" } else { "{\"k\":" });
    }
    s.push_str("null");
    for i in (0..depth).rev() {
        s.push(if i % 2 == 0 { ']' } else { '}' });
    }
    s
}

/// Runs `f` on a 64 KiB stack: nothing may recurse per nesting level.
fn small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(64 << 10)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn nesting_to_the_limit_on_a_small_stack() {
    small_stack(|| {
        let v = parse(&nested(MAX_JSON_DEPTH)).unwrap();
        let mut depth = 0;
        let mut at = &v;
        loop {
            at = match at {
                Value::Array(a) => &a[0],
                Value::Object(m) => &m["k"],
                _ => break,
            };
            depth += 1;
        }
        assert_eq!(depth, MAX_JSON_DEPTH);
        dismantle(v);

        let e = parse(&nested(MAX_JSON_DEPTH + 1)).unwrap_err();
        assert!(
            e.to_string().contains("nested deeper than 4096 levels"),
            "{e}"
        );
        // Errors deep inside, after deep siblings were built, tear everything down too.
        let mut text = String::from("[");
        text.push_str(&nested(MAX_JSON_DEPTH - 1));
        text.push(',');
        text.push_str(&nested(MAX_JSON_DEPTH - 1)[..MAX_JSON_DEPTH]);
        assert!(parse(&text).is_err());
    });
}

#[test]
fn a_million_levels_are_refused_without_building_them() {
    small_stack(|| {
        let text = "[".repeat(1 << 20);
        assert!(parse(&text).is_err());
    });
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |x| x.is_finite())
            .prop_map(Value::from),
        "\\PC{0,8}".prop_map(Value::String),
        any::<String>().prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 64, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::btree_map("\\PC{0,4}", inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Text edits that keep it UTF-8: delete, insert or replace one char.
#[derive(Debug, Clone)]
enum Edit {
    Delete(usize),
    Insert(usize, char),
    Replace(usize, char),
}

fn edit() -> impl Strategy<Value = Edit> {
    let c = prop_oneof![
        proptest::sample::select(
            "[]{}\",:\\ \n\t0123456789-+.eEtrufalsn/bu\u{1}\u{1f}\u{7f}é😀"
                .chars()
                .collect::<Vec<_>>()
        ),
        any::<char>(),
    ];
    prop_oneof![
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), c.clone()).prop_map(|(i, c)| Edit::Insert(i, c)),
        (any::<usize>(), c).prop_map(|(i, c)| Edit::Replace(i, c)),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for e in edits {
        let n = chars.len();
        match *e {
            Edit::Delete(i) if n > 0 => {
                chars.remove(i % n);
            }
            Edit::Insert(i, c) => chars.insert(i % (n + 1), c),
            Edit::Replace(i, c) if n > 0 => chars[i % n] = c,
            _ => {}
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn serde_json_text_reads_back_the_same(v in json_value(), pretty in any::<bool>()) {
        let text = if pretty {
            serde_json::to_string_pretty(&v).unwrap()
        } else {
            serde_json::to_string(&v).unwrap()
        };
        let ours = parse(&text).unwrap();
        prop_assert!(same(&ours, &v), "{}", text);
    }

    #[test]
    fn edited_text_gets_the_same_verdict(
        v in json_value(),
        edits in proptest::collection::vec(edit(), 1..4),
    ) {
        let text = apply(&serde_json::to_string(&v).unwrap(), &edits);
        if let Err(e) = agrees(&text) {
            prop_assert!(false, "{}", e);
        }
    }
}
