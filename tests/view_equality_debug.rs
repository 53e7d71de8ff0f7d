//! Equality and `Debug` of container views. Both walk iteratively (fixed stack, linear
//! time), so equality must agree with the plain recursive definition; `tests/deep_values.rs`
//! runs them on the deepest values.

mod support;

use gdwire::read::{Event, ObjectRef, Walker};
use gdwire::{Decoder, Dialect, VariantRef};
use support::hex;

/// The definition, recursively through the views' iterators: same container kind, length and
/// declared types, then items pairwise; leaves by their own equality.
fn reference_eq(a: &VariantRef<'_>, b: &VariantRef<'_>) -> bool {
    match (a, b) {
        (VariantRef::Array(x), VariantRef::Array(y)) => {
            x.kind() == y.kind()
                && x.element_type() == y.element_type()
                && x.len() == y.len()
                && x.iter().zip(y.iter()).all(|(p, q)| reference_eq(&p, &q))
        }
        (VariantRef::Dictionary(x), VariantRef::Dictionary(y)) => {
            x.key_type() == y.key_type()
                && x.value_type() == y.value_type()
                && x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|((pk, pv), (qk, qv))| reference_eq(&pk, &qk) && reference_eq(&pv, &qv))
        }
        (VariantRef::Object(ObjectRef::Full(x)), VariantRef::Object(ObjectRef::Full(y))) => {
            x.class() == y.class()
                && x.len() == y.len()
                && x.properties()
                    .zip(y.properties())
                    .all(|((pn, pv), (qn, qv))| pn == qn && reference_eq(&pv, &qv))
        }
        (VariantRef::Array(_) | VariantRef::Dictionary(_), _)
        | (_, VariantRef::Array(_) | VariantRef::Dictionary(_))
        | (VariantRef::Object(ObjectRef::Full(_)), _)
        | (_, VariantRef::Object(ObjectRef::Full(_))) => false,
        _ => a == b,
    }
}

#[test]
fn equality_agrees_with_the_recursive_definition_on_engine_values() {
    let dec = Decoder::new(Dialect::GODOT_3).with_allow_objects(true);
    let values: Vec<Vec<u8>> = support::values().into_iter().map(|f| f.bytes).collect();
    // Mutants of the same values that still decode: near misses of the originals.
    let mutants: Vec<Vec<u8>> = support::differential()
        .into_iter()
        .map(|f| f.bytes)
        .filter(|b| dec.decode(b).is_ok())
        .collect();
    let (mut pairs, mut equal_distinct_bytes) = (0, 0);
    for a in &values {
        let x = dec.decode(a).unwrap();
        for b in values.iter().chain(&mutants) {
            let y = dec.decode(b).unwrap();
            let want = reference_eq(&x, &y);
            assert_eq!(
                x == y,
                want,
                "{} vs {}",
                support::hex_of(a),
                support::hex_of(b)
            );
            pairs += 1;
            equal_distinct_bytes += usize::from(want && a != b);
        }
    }
    // Not a vacuous check: many pairs, and some equal values with different bytes (ignored
    // flag bits, -0.0 and 0.0, padding).
    assert!(pairs > 100_000, "{pairs} pairs");
    assert!(equal_distinct_bytes > 0);
}

#[test]
fn debug_prints_items_in_order_compact_and_pretty() {
    // [1, "a", {"k": [2.5]}] in Godot 4.
    let bytes = hex(
        "1c000000 03000000  02000000 01000000  04000000 01000000 61000000
         1b000000 01000000  04000000 01000000 6b000000  1c000000 01000000 03000000 00002040",
    );
    let v = Decoder::new(Dialect::GODOT_4).decode(&bytes).unwrap();
    assert_eq!(
        format!("{v:?}"),
        r#"Array([Int(1), String("a"), Dictionary({String("k"): Array([Float(2.5)])})])"#
    );
    let pretty = r#"[
    Int(1),
    String("a"),
    Dictionary({
        String("k"): Array([
            Float(2.5),
        ]),
    }),
]"#;
    assert_eq!(format!("{:#?}", v.as_array().unwrap()), pretty);
    // Typed Array[int] [7] (Godot 4.3+: builtin element kind in the header).
    let typed = hex("1c000100 02000000 01000000 02000000 07000000");
    let v = Decoder::new(Dialect::GODOT_4).decode(&typed).unwrap();
    assert_eq!(format!("{v:?}"), "Array(Array<Builtin(Int)>[Int(7)])");
    assert_eq!(
        format!("{:?}", v.as_array().unwrap().iter().next()),
        "Some(Int(7))"
    );
}

#[test]
fn debug_of_an_unvalidated_view_shows_the_error_and_stays_balanced() {
    // [1, <type 0xff>]: the walker hands out the array before reaching the bad item.
    let bytes = hex("1c000000 02000000 02000000 01000000 ff000000");
    let dec = Decoder::new(Dialect::GODOT_4);
    let Some(Ok(Event::Begin(v))) = Walker::new(dec, &bytes).next() else {
        panic!("no Begin event")
    };
    let text = format!("{:?}", v.as_array().unwrap());
    assert!(text.starts_with("[Int(1), <error: "), "{text}");
    assert!(text.ends_with(">]"), "{text}");
    assert!(
        v != v,
        "an undecodable item makes a container unequal, even to itself"
    );
}

/// JSON and text of a walker's `Begin` view (items not validated yet) equal those of the
/// decoded view, and an undecodable item inside is an error, not output.
#[test]
fn json_and_text_of_an_unvalidated_view() {
    fn begin(bytes: &[u8]) -> VariantRef<'_> {
        let dec = Decoder::new(Dialect::GODOT_4);
        let Some(Ok(Event::Begin(v))) = Walker::new(dec, bytes).next() else {
            panic!("no Begin event")
        };
        v
    }
    let dec = Decoder::new(Dialect::GODOT_4);
    // {"a": [1, {}], "b": []} in Godot 4 (`var_to_bytes`).
    let good = hex(
        "1b000000 02000000 04000000 01000000 61000000 1c000000 02000000 02000000 01000000 \
         1b000000 00000000 04000000 01000000 62000000 1c000000 00000000",
    );
    let decoded = dec.decode_exact(&good).unwrap();
    assert_eq!(
        gdwire::text::to_text(Dialect::GODOT_4, &begin(&good)).unwrap(),
        gdwire::text::to_text(Dialect::GODOT_4, &decoded).unwrap()
    );
    #[cfg(feature = "json")]
    assert_eq!(
        gdwire::json::to_json_string(Dialect::GODOT_4, &begin(&good)).unwrap(),
        gdwire::json::to_json_string(Dialect::GODOT_4, &decoded).unwrap()
    );
    // {"k": [1, <a String whose byte 0xff is not UTF-8>]}: met only inside the walk.
    let bad = hex(
        "1b000000 01000000 04000000 01000000 6b000000 1c000000 02000000 02000000 01000000 \
         04000000 01000000 ff000000",
    );
    assert!(dec.decode(&bad).is_err());
    assert!(gdwire::text::to_text(Dialect::GODOT_4, &begin(&bad)).is_err());
    #[cfg(feature = "json")]
    assert!(matches!(
        gdwire::json::to_json_string(Dialect::GODOT_4, &begin(&bad)),
        Err(gdwire::json::JsonError::Read(_))
    ));
}
