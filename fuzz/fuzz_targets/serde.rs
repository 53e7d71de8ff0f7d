//! `gdwire::serde`'s Deserializer on arbitrary bytes: never panics, into a self-describing
//! value (`serde_json::Value`), a typed struct (math markers, packed views, enums, options),
//! a full object with its class borrowed, or `IgnoredAny`; accepts nothing the validating
//! reader rejects; a stream of values always makes progress.
#![no_main]

use std::collections::BTreeMap;

use gdwire::math::{Color, Transform3D, Vector2, Vector3};
use gdwire::serde::{from_bytes, Deserializer, Object};
use gdwire::{Decoder, Dialect, PackedRef};
use libfuzzer_sys::fuzz_target;
use serde::de::IgnoredAny;
use serde::Deserialize;

#[derive(Deserialize)]
#[allow(dead_code)]
enum Kind<'a> {
    Unit,
    New(f32),
    Tuple(i8, Option<&'a str>),
    Struct { v: Vector2 },
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct Typed<'a> {
    name: &'a str,
    hp: f32,
    id: Option<u64>,
    pos: Vector3,
    xform: Option<Transform3D>,
    tint: Color,
    #[serde(borrow)]
    ids: Option<PackedRef<'a, i32>>,
    blob: Option<&'a [u8]>,
    kinds: Vec<Kind<'a>>,
    map: BTreeMap<i64, (bool, f64)>,
    #[serde(default)]
    floats: Vec<f64>,
}

fuzz_target!(|data: &[u8]| {
    for dialect in [Dialect::GODOT_3, Dialect::GODOT_4, Dialect::PANDEMONIUM_5] {
        let dec = Decoder::new(dialect).with_allow_objects(true);
        let ignored = gdwire::serde::from_bytes_with::<IgnoredAny>(dec, data);
        if ignored.is_ok() {
            // The walker checks everything validation checks.
            assert!(dec.validate(data).is_ok(), "serde accepted what validate rejects");
        }
        let _ = gdwire::serde::from_bytes_with::<serde_json::Value>(dec, data);
        type Full<'a> = Object<BTreeMap<&'a str, IgnoredAny>, &'a str>;
        let _ = gdwire::serde::from_bytes_with::<Full>(dec, data);
        let _ = from_bytes::<Typed>(dialect, data);
        let _ = from_bytes::<(String, Vec<Vector3>, Option<Kind>)>(dialect, data);
        // A stream: each value moves the position forward, or the stream ends.
        let mut de = Deserializer::new(dec, data);
        let mut last = 0;
        while let Some(r) = de.next_value::<IgnoredAny>() {
            if r.is_err() {
                assert!(de.next_value::<IgnoredAny>().is_none());
                break;
            }
            assert!(de.position() > last);
            last = de.position();
        }
    }
});
