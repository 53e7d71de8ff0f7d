//! Shared test support: the real-engine Godot 3 fixtures and a matcher that checks a decoded
//! view against the engine's own description of the value it decoded.
#![allow(dead_code)] // each test crate uses part of this

pub mod cases;
pub mod engine;
pub mod godot4;
pub mod godot4_mutants;
pub mod godot4_verdicts;
pub mod pairs;
#[cfg(feature = "alloc")]
pub mod random_values;
pub mod vectors;

use std::path::PathBuf;

use gdwire::{NodePathRef, ObjectRef, VariantRef};
use serde_json::Value;

/// Parses hex, ignoring ASCII whitespace. Panics on odd length or a bad digit (test input).
pub fn hex(s: &str) -> Vec<u8> {
    let digits: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    assert!(digits.len() % 2 == 0, "odd number of hex digits in {s:?}");
    digits
        .chunks(2)
        .map(|pair| {
            let text = std::str::from_utf8(pair).unwrap();
            u8::from_str_radix(text, 16).unwrap_or_else(|_| panic!("bad hex {text:?} in {s:?}"))
        })
        .collect()
}

/// Lower-case hex of `bytes`, no separators.
pub fn hex_of(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn fixture_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(if name.contains('/') {
            name.to_string()
        } else {
            format!("godot3/{name}")
        })
}

/// One line of `values.jsonl` or `malformed.jsonl`.
pub struct Fixture {
    pub name: String,
    pub bytes: Vec<u8>,
    pub allow_objects: bool,
    /// `None`: the engine rejected the bytes with this Godot error code.
    pub desc: Option<Value>,
    pub error: i64,
    pub json: Value,
}

fn load(file: &str, allow_key: &str) -> Vec<Fixture> {
    let path = fixture_path(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (run its regenerate.sh)", path.display()));
    text.lines()
        .map(|line| {
            let json: Value = serde_json::from_str(line).unwrap();
            let ok = json.get("verdict").is_none_or(|v| v == "ok");
            Fixture {
                name: json["name"].as_str().unwrap().to_owned(),
                bytes: hex(json["hex"].as_str().unwrap()),
                allow_objects: json[allow_key].as_bool().unwrap(),
                desc: ok.then(|| json["desc"].clone()),
                error: json.get("error").and_then(Value::as_i64).unwrap_or(0),
                json,
            }
        })
        .collect()
}

/// Values written by `var2bytes` in Godot 3.2.3, with the engine's description of what
/// `bytes2var` gives back.
pub fn values() -> Vec<Fixture> {
    load("values.jsonl", "full_objects")
}

/// Odd and malformed inputs with the engine's verdict.
pub fn malformed() -> Vec<Fixture> {
    load("malformed.jsonl", "allow_objects")
}

/// Values written by `var_to_bytes` in Godot 4.6, with the engine's description of what it
/// decodes from them (`tests/godot4/README.md`).
pub fn godot4_values() -> Vec<Fixture> {
    load("godot4/values.jsonl", "full_objects")
}

/// Values written by `var_to_bytes` in a double-precision Godot 4.6.3 build
/// (`tests/godot4/double/README.md`): the same values as [`godot4_values`], each made by the
/// engine in its own precision.
pub fn godot4_double_values() -> Vec<Fixture> {
    load("godot4_double/values.jsonl", "full_objects")
}

/// Values written by `var2bytes` in a Pandemonium engine of the type numbering `numbering`
/// ("5", "3.8" or "3.5"; `tests/pandemonium/README.md`). They carry no `desc`: the engine's
/// text form is in `json["text"]`.
pub fn pandemonium_values(numbering: &str) -> Vec<Fixture> {
    load(
        &format!("pandemonium/{numbering}/values.jsonl"),
        "full_objects",
    )
}

/// Mutated and truncated values with a Pandemonium engine's verdict
/// (`tests/pandemonium/differential.py`).
pub fn pandemonium_differential(numbering: &str) -> Vec<Fixture> {
    load(
        &format!("pandemonium/{numbering}/differential.jsonl"),
        "allow_objects",
    )
}

/// Odd and malformed inputs with the Godot 4.6 engine's verdict, each in both object modes.
pub fn godot4_malformed() -> Vec<Fixture> {
    load("godot4/malformed.jsonl", "allow_objects")
}

/// The older Godot 4 engines whose fixtures are committed (tests/godot4/older/README.md), each
/// with the dialect gdwire names for it. Each was also built in double precision: its fixtures
/// are in `<version>-double/`.
pub const GODOT4_OLDER: [(&str, gdwire::Dialect); 5] = [
    ("4.0", gdwire::Dialect::GODOT_4_0),
    ("4.1", gdwire::Dialect::GODOT_4_1),
    ("4.2", gdwire::Dialect::GODOT_4_2),
    ("4.3", gdwire::Dialect::GODOT_4_3),
    ("4.4", gdwire::Dialect::GODOT_4_4),
];

/// The fixtures of an older Godot 4 engine (`version`: "4.0" to "4.5", "-double" appended for
/// a double-precision build; `file`:
/// "values.jsonl", "malformed.jsonl" or "not_decoded.jsonl"; tests/godot4/older/README.md),
/// empty when that engine has none.
pub fn godot4_older(version: &str, file: &str) -> Vec<Fixture> {
    let name = format!("godot4_older/{version}/{file}");
    if !fixture_path(&name).exists() {
        return Vec::new();
    }
    let allow_key = if file == "malformed.jsonl" {
        "allow_objects"
    } else {
        "full_objects"
    };
    load(&name, allow_key)
}

/// Mutated values with the engine's verdict (`tests/godot3/differential.py`).
pub fn differential() -> Vec<Fixture> {
    load("differential.jsonl", "allow_objects")
}

/// The same mutants judged by Godot 3.6 (`differential.py --engine 3.6`).
pub fn differential_3_6() -> Vec<Fixture> {
    load("differential_3_6.jsonl", "allow_objects")
}

/// Mutants with Godot 3 verdicts in the file at `path` (`differential.py --campaign`).
pub fn differential_at(path: &str) -> Vec<Fixture> {
    load(path, "allow_objects")
}

/// The bytes `f` writes through a `Writer` for `dialect` (`full`: with full objects),
/// finished: how the engine interop tests build the values they hand the engine.
pub fn written(
    dialect: gdwire::Dialect,
    full: bool,
    f: impl FnOnce(&mut gdwire::Writer<&mut Vec<u8>>) -> gdwire::Result<()>,
) -> gdwire::Result<Vec<u8>> {
    written_in(dialect, gdwire::Precision::Single, full, f)
}

/// [`written`] with math values in `precision`.
pub fn written_in(
    dialect: gdwire::Dialect,
    precision: gdwire::Precision,
    full: bool,
    f: impl FnOnce(&mut gdwire::Writer<&mut Vec<u8>>) -> gdwire::Result<()>,
) -> gdwire::Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut w = gdwire::Writer::new(&mut out, dialect)
        .with_full_objects(full)
        .with_precision(precision);
    f(&mut w)?;
    w.finish()?;
    Ok(out)
}

/// Fails listing every collected failure, one a line, under "N {what}:". Checks collect
/// failures rather than stopping at the first, so one run shows every disagreement.
#[track_caller]
pub fn assert_no_failures(failures: &[String], what: &str) {
    assert!(
        failures.is_empty(),
        "{} {what}:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Fails unless a fixture file still has more than `min` rows (a regeneration that lost
/// most of them would otherwise check little and pass).
#[track_caller]
pub fn assert_more_than(fixtures: &[Fixture], min: usize) {
    assert!(
        fixtures.len() > min,
        "fixture set too small: {}",
        fixtures.len()
    );
}

/// Our decode of a value the engine wrote against the engine's description of it, including
/// the object fields the wire carries (`Objects::WireEqualsDesc`).
pub fn value_matches(
    f: &Fixture,
    desc: &Value,
    got: gdwire::Result<VariantRef<'_>>,
) -> Result<(), String> {
    match got {
        Ok(v) => check(desc, &v, Objects::WireEqualsDesc, &f.name),
        Err(e) => Err(format!("{}: {e}", f.name)),
    }
}

/// Our verdict on an engine input against the engine's: it accepted the bytes as the value
/// `desc` describes (checked with `Objects::ClassOnly`), or rejected them with `f.error`.
/// `at` names the input in the message; the engine's own error line is quoted when the
/// fixture has one.
pub fn verdict_matches(
    f: &Fixture,
    desc: Option<&Value>,
    got: gdwire::Result<VariantRef<'_>>,
    at: &str,
) -> Result<(), String> {
    let line = match f.json.get("error_line").and_then(Value::as_str) {
        Some(line) => format!(" ({line})"),
        None => String::new(),
    };
    match (desc, got) {
        (Some(desc), Ok(v)) => check(desc, &v, Objects::ClassOnly, at),
        (Some(_), Err(e)) => Err(format!("{at}: engine accepts, we reject: {e}")),
        (None, Ok(v)) => Err(format!(
            "{at}: engine rejects with {}{line}, we accept: {:?}",
            f.error,
            v.variant_type()
        )),
        (None, Err(e)) if e.kind().engine_code() != Some(f.error as i32) => Err(format!(
            "{at}: engine error {}{line}, ours {:?} ({e})",
            f.error,
            e.kind().engine_code()
        )),
        (None, Err(_)) => Ok(()),
    }
}

/// `f32` → `f64` as the engine's hardware does it, NaNs by bits (sign and payload kept,
/// quieted): Rust leaves an `as` cast's NaN bits unspecified and Miri randomises them.
pub fn widen(x: f32) -> f64 {
    let b = x.to_bits();
    if x.is_nan() {
        f64::from_bits((u64::from(b >> 31) << 63) | 0x7ff8 << 48 | u64::from(b & 0x7f_ffff) << 29)
    } else {
        f64::from(x)
    }
}

/// The engine describes floats as the 16 hex digits of the `f64` bits.
fn float_bits(desc: &Value) -> u64 {
    u64::from_str_radix(desc.as_str().unwrap(), 16).unwrap()
}

fn floats(desc: &Value) -> Vec<u64> {
    desc.as_array().unwrap().iter().map(float_bits).collect()
}

/// Decodes the engine's UTF-8 (which may hold surrogates, code points above U+10FFFF and
/// 5/6-byte forms) into code points, independently of the crate.
fn code_points(bytes: &[u8]) -> Vec<u32> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let len = match b {
            _ if b < 0x80 => 1,
            _ if b >> 5 == 0b110 => 2,
            _ if b >> 4 == 0b1110 => 3,
            _ if b >> 3 == 0b11110 => 4,
            _ if b >> 2 == 0b111110 => 5,
            _ => 6,
        };
        let mut c = if len == 1 {
            b as u32
        } else {
            (b as u32) & (0x7F >> len)
        };
        for k in 1..len {
            c = (c << 6) | (bytes[i + k] & 0x3F) as u32;
        }
        out.push(c);
        i += len;
    }
    out
}

fn check_text(desc: &Value, s: gdwire::StrRef<'_>, at: &str) -> Result<(), String> {
    let want = code_points(&hex(desc.as_str().unwrap()));
    let got: Vec<u32> = s.code_points().collect();
    if want != got {
        return Err(format!("{at}: text {got:x?}, engine has {want:x?}"));
    }
    Ok(())
}

fn expect_eq<T: PartialEq + std::fmt::Debug>(got: T, want: T, at: &str) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("{at}: got {got:?}, engine has {want:?}"))
    }
}

fn bits(values: &[f64]) -> Vec<u64> {
    values.iter().map(|v| v.to_bits()).collect()
}

/// How full objects are compared.
#[derive(Clone, Copy, PartialEq)]
pub enum Objects {
    /// The engine wrote these bytes from an object and described it from the same object: the
    /// wire properties are exactly the described ones.
    WireEqualsDesc,
    /// Hand-made bytes: the engine instantiated the class, so its description lists the class's
    /// stored properties rather than what was on the wire. Only the class is compared.
    ClassOnly,
}

thread_local! {
    static ALLOW_OBJECTS: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// Tells [`check`] whether the engine decoded with objects allowed (this thread, until
/// changed; default true). Godot 4 typed containers depend on it: without objects the engine
/// reports `EncodedObjectAsID` as the element class whatever the wire names.
pub fn set_allow_objects(allow: bool) {
    ALLOW_OBJECTS.with(|a| a.set(allow));
}

fn allow_objects() -> bool {
    ALLOW_OBJECTS.with(|a| a.get())
}

/// Checks a typed container's element type against the engine's description (`None`: the
/// engine's container is untyped). See tests/godot4/README.md.
pub fn check_container_type(
    want: Option<&Value>,
    got: Option<gdwire::read::ContainerType<'_>>,
    at: &str,
) -> Result<(), String> {
    use gdwire::read::ContainerType as C;
    let Some(want) = want else {
        // A BUILTIN block naming NIL is the engine's "untyped"; the view keeps the block.
        let untyped = matches!(got, None | Some(C::Builtin(gdwire::VariantType::Nil)));
        return expect_eq(untyped, true, &format!("{at}: untyped"));
    };
    if want.get("any").is_some() {
        return Ok(()); // a test replaced the engine's type on purpose
    }
    let builtin = want["builtin"].as_i64().unwrap();
    let class = want["class"].as_str().unwrap();
    let script = want["script"].as_str();
    let at = &format!("{at} (container type {want})");
    match got {
        Some(C::Builtin(t)) => {
            // An OBJECT builtin type reads as class EncodedObjectAsID without objects.
            let id = gdwire::Dialect::GODOT_4.wire_id(t).map(i64::from);
            expect_eq(id, Some(builtin), at)?;
            let object_class = if allow_objects() {
                "Object"
            } else {
                "EncodedObjectAsID"
            };
            let want_class = if t == gdwire::VariantType::Object {
                object_class
            } else {
                ""
            };
            // The engine leaves the class empty for an OBJECT builtin when objects are allowed.
            if class.is_empty() || class == want_class {
                Ok(())
            } else {
                Err(format!("{at}: class {class:?} for builtin {t:?}"))
            }
        }
        Some(C::ClassName(name)) => {
            expect_eq(builtin, 24, at)?;
            expect_eq(script, None, at)?;
            if allow_objects() {
                check_text(&Value::String(hex_of(class.as_bytes())), name, at)
            } else {
                // What the wire names is replaced by the wrapper class of id-only objects.
                expect_eq(class, "EncodedObjectAsID", at)
            }
        }
        Some(C::Script(path)) => {
            expect_eq(builtin, 24, at)?;
            if allow_objects() {
                let want = script.ok_or(format!("{at}: engine has no script"))?;
                check_text(&Value::String(hex_of(want.as_bytes())), path, at)
            } else {
                expect_eq((class, script), ("EncodedObjectAsID", None), at)
            }
        }
        other => Err(format!("{at}: got {other:?}")),
    }
}

/// Checks a decoded view against the engine's description `desc` (schema in
/// `tests/godot3/README.md`; Godot 4 names in `tests/godot4/README.md`).
pub fn check(desc: &Value, v: &VariantRef<'_>, objects: Objects, at: &str) -> Result<(), String> {
    let t = desc["t"].as_str().unwrap();
    let d = &desc["v"];
    let reals = |want: &Value, got: &[f64]| expect_eq(bits(got), floats(want), at);
    match (t, v) {
        ("nil", VariantRef::Nil) => Ok(()),
        ("StringName", VariantRef::StringName(s)) => check_text(d, *s, at),
        ("Vector2i", VariantRef::Vector2i(x)) => ints(d, [x.x, x.y], at),
        ("Rect2i", VariantRef::Rect2i(r)) => {
            ints(d, [r.position.x, r.position.y, r.size.x, r.size.y], at)
        }
        ("Vector3i", VariantRef::Vector3i(x)) => ints(d, [x.x, x.y, x.z], at),
        ("Vector4i", VariantRef::Vector4i(x)) => ints(d, [x.x, x.y, x.z, x.w], at),
        ("Vector4", VariantRef::Vector4(x)) => {
            let x = x.get();
            reals(d, &[x.x, x.y, x.z, x.w])
        }
        ("Projection", VariantRef::Projection(p)) => {
            let p = p.get();
            let flat: Vec<f64> = p
                .columns
                .iter()
                .flat_map(|c| [c.x, c.y, c.z, c.w])
                .collect();
            reals(d, &flat)
        }
        ("Callable", VariantRef::Callable) => Ok(()),
        ("Signal", VariantRef::Signal(s)) => {
            check_text(&desc["name"], s.name(), at)?;
            expect_eq(
                (s.object_id() as i64).to_string(),
                desc["id"].as_str().unwrap().to_owned(),
                at,
            )
        }
        // The engine describes a null object inside a full object as nil (it is NIL on the wire).
        ("bool", VariantRef::Bool(b)) => expect_eq(*b, d.as_bool().unwrap(), at),
        ("int", VariantRef::Int(i)) => expect_eq(i.to_string(), d.as_str().unwrap().to_owned(), at),
        ("float", VariantRef::Float(f)) => expect_eq(f.to_bits(), float_bits(d), at),
        ("String", VariantRef::String(s)) => check_text(d, *s, at),
        ("Vector2", VariantRef::Vector2(x)) => {
            let x = x.get();
            reals(d, &[x.x, x.y])
        }
        ("Rect2", VariantRef::Rect2(r)) => {
            let r = r.get();
            reals(d, &[r.position.x, r.position.y, r.size.x, r.size.y])
        }
        ("Vector3", VariantRef::Vector3(x)) => {
            let x = x.get();
            reals(d, &[x.x, x.y, x.z])
        }
        ("Transform2D", VariantRef::Transform2D(t)) => {
            let t = t.get();
            reals(d, &[t.x.x, t.x.y, t.y.x, t.y.y, t.origin.x, t.origin.y])
        }
        ("Plane", VariantRef::Plane(p)) => {
            let p = p.get();
            reals(d, &[p.normal.x, p.normal.y, p.normal.z, p.d])
        }
        ("Quat" | "Quaternion", VariantRef::Quaternion(q)) => {
            let q = q.get();
            reals(d, &[q.x, q.y, q.z, q.w])
        }
        ("AABB", VariantRef::Aabb(b)) => {
            let b = b.get();
            let p = [b.position, b.size];
            reals(d, &[p[0].x, p[0].y, p[0].z, p[1].x, p[1].y, p[1].z])
        }
        // The engine describes Basis by its columns (GDScript basis.x/y/z), not in wire order.
        ("Basis", VariantRef::Basis(b)) => {
            let b = b.get();
            reals(d, &basis_columns(&b))
        }
        ("Transform" | "Transform3D", VariantRef::Transform3D(t)) => {
            let t = t.get();
            let mut want = basis_columns(&t.basis).to_vec();
            want.extend([t.origin.x, t.origin.y, t.origin.z]);
            reals(d, &want)
        }
        ("Color", VariantRef::Color(c)) => {
            reals(d, &[widen(c.r), widen(c.g), widen(c.b), widen(c.a)])
        }
        ("NodePath", VariantRef::NodePath(p)) => {
            expect_eq(p.is_absolute(), desc["absolute"].as_bool().unwrap(), at)?;
            let names: Vec<_> = p.names().collect();
            let subnames: Vec<_> = p.subnames().collect();
            let want_names = desc["names"].as_array().unwrap();
            let want_subnames = desc["subnames"].as_array().unwrap();
            expect_eq(names.len(), want_names.len(), at)?;
            expect_eq(subnames.len(), want_subnames.len(), at)?;
            for (w, g) in want_names
                .iter()
                .chain(want_subnames)
                .zip(names.iter().chain(&subnames))
            {
                check_text(w, *g, at)?;
            }
            Ok(())
        }
        // Godot 3 RIDs carry no payload; the engine's decoded RID has id 0. Godot 4 prints
        // the id as a signed 64-bit number.
        ("RID", VariantRef::Rid(id)) => expect_eq(
            (id.unwrap_or(0) as i64).to_string(),
            desc["id"].as_str().unwrap().to_owned(),
            at,
        ),
        ("EncodedObjectAsID", VariantRef::Object(ObjectRef::Id(id))) => {
            // The engine prints the id as a signed 64-bit number.
            expect_eq(
                (*id as i64).to_string(),
                desc["id"].as_str().unwrap().to_owned(),
                at,
            )
        }
        ("ObjectNull", VariantRef::Object(o)) => expect_eq(o.is_null(), true, at),
        ("Object", VariantRef::Object(ObjectRef::Full(o))) => {
            check_text(
                &Value::String(hex_of(desc["class"].as_str().unwrap().as_bytes())),
                o.class(),
                at,
            )?;
            if objects == Objects::ClassOnly {
                return Ok(());
            }
            let want = desc["props"].as_array().unwrap();
            expect_eq(o.len(), want.len(), at)?;
            for (w, g) in want.iter().zip(o.properties()) {
                let (name, value) = g;
                check_text(&w[0], name, at)?;
                check(&w[1], &value, objects, &format!("{at}.{name}"))?;
            }
            Ok(())
        }
        ("Array", VariantRef::Array(a)) => {
            check_container_type(desc.get("type"), a.element_type(), at)?;
            let want = d.as_array().unwrap();
            expect_eq(a.len(), want.len(), at)?;
            for (i, (w, g)) in want.iter().zip(a.iter()).enumerate() {
                check(w, &g, objects, &format!("{at}[{i}]"))?;
            }
            Ok(())
        }
        ("Dictionary", VariantRef::Dictionary(m)) => {
            check_container_type(desc.get("key_type"), m.key_type(), &format!("{at}{{keys}}"))?;
            check_container_type(
                desc.get("value_type"),
                m.value_type(),
                &format!("{at}{{values}}"),
            )?;
            let want = d.as_array().unwrap();
            expect_eq(m.len(), want.len(), at)?;
            for (i, (w, g)) in want.iter().zip(m.iter()).enumerate() {
                let (k, v) = g;
                check(&w[0], &k, objects, &format!("{at}{{key {i}}}"))?;
                check(&w[1], &v, objects, &format!("{at}{{value {i}}}"))?;
            }
            Ok(())
        }
        ("ArrayChain", _) | ("DictionaryChain", _) => check_chain(desc, v, objects, at),
        ("PoolByteArray" | "PackedByteArray", VariantRef::PackedByteArray(p)) => {
            expect_eq(p.as_bytes().to_vec(), hex(d.as_str().unwrap()), at)
        }
        ("PackedInt64Array", VariantRef::PackedInt64Array(p)) => ints(d, p.iter(), at),
        ("PackedFloat64Array", VariantRef::PackedFloat64Array(p)) => {
            reals(d, &p.iter().collect::<Vec<_>>())
        }
        ("PackedVector4Array", VariantRef::PackedVector4Array(p)) => vectors(d, p.iter(), at),
        ("PoolIntArray" | "PackedInt32Array", VariantRef::PackedInt32Array(p)) => {
            ints(d, p.iter(), at)
        }
        ("PoolRealArray" | "PackedFloat32Array", VariantRef::PackedFloat32Array(p)) => {
            reals(d, &p.iter().map(widen).collect::<Vec<_>>())
        }
        ("PoolStringArray" | "PackedStringArray", VariantRef::PackedStringArray(p)) => {
            let want = d.as_array().unwrap();
            expect_eq(p.len(), want.len(), at)?;
            want.iter()
                .zip(p.iter())
                .try_for_each(|(w, g)| check_text(w, g, at))
        }
        ("PoolVector2Array" | "PackedVector2Array", VariantRef::PackedVector2Array(p)) => {
            vectors(d, p.iter(), at)
        }
        ("PoolVector3Array" | "PackedVector3Array", VariantRef::PackedVector3Array(p)) => {
            vectors(d, p.iter(), at)
        }
        ("PoolColorArray" | "PackedColorArray", VariantRef::PackedColorArray(p)) => {
            vectors(d, p.iter().map(|c| c.map(widen)), at)
        }
        _ => Err(format!(
            "{at}: engine has {t}, decoded {:?}",
            v.variant_type()
        )),
    }
}

/// Integers, which the engine's description gives as decimal strings (exact past 2^53).
fn ints<T: ToString>(
    want: &Value,
    got: impl IntoIterator<Item = T>,
    at: &str,
) -> Result<(), String> {
    let want: Vec<String> = want
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_owned())
        .collect();
    expect_eq(got.into_iter().map(|x| x.to_string()).collect(), want, at)
}

fn vectors<const N: usize>(
    want: &Value,
    got: impl Iterator<Item = [f64; N]>,
    at: &str,
) -> Result<(), String> {
    let want: Vec<Vec<u64>> = want.as_array().unwrap().iter().map(floats).collect();
    let got: Vec<Vec<u64>> = got.map(|v| bits(&v)).collect();
    expect_eq(got, want, at)
}

fn basis_columns(b: &gdwire::math::Basis) -> [f64; 9] {
    let (x, y, z) = (b.x(), b.y(), b.z());
    [x.x, x.y, x.z, y.x, y.y, y.z, z.x, z.y, z.z]
}

/// Deep chains are described compactly; walk them with a loop, not recursion.
fn check_chain(desc: &Value, v: &VariantRef<'_>, objects: Objects, at: &str) -> Result<(), String> {
    let depth = desc["depth"].as_u64().unwrap();
    let dict = desc["t"] == "DictionaryChain";
    let mut cur = *v;
    for level in 0..depth {
        let at = format!("{at}@{level}");
        cur = if dict {
            let d = cur
                .as_dictionary()
                .ok_or(format!("{at}: not a dictionary"))?;
            expect_eq(d.len(), 1, &at)?;
            let (k, v) = d.iter().next().unwrap();
            check(&desc["key"], &k, objects, &at)?;
            v
        } else {
            let a = cur.as_array().ok_or(format!("{at}: not an array"))?;
            expect_eq(a.len(), 1, &at)?;
            a.iter().next().unwrap()
        };
    }
    check(&desc["leaf"], &cur, objects, at)
}

/// Walks every part of a value pushed on `stack` (every element, entry, property, packed
/// element and string byte), iteratively, counting what it saw into `seen`. With a
/// pre-reserved stack the walk itself allocates nothing, which the no-allocation tests rely on.
pub fn walk_into<'a>(stack: &mut Vec<VariantRef<'a>>, seen: &mut u64) -> Result<(), gdwire::Error> {
    while let Some(v) = stack.pop() {
        *seen += 1;
        match v {
            VariantRef::Array(a) => {
                for item in a.iter() {
                    stack.push(item);
                }
            }
            VariantRef::Dictionary(d) => {
                for entry in d.iter() {
                    let (k, v) = entry;
                    stack.push(k);
                    stack.push(v);
                }
            }
            VariantRef::Object(ObjectRef::Full(o)) => {
                *seen += o.class().bytes().len() as u64;
                for p in o.properties() {
                    let (name, value) = p;
                    *seen += name.bytes().len() as u64;
                    stack.push(value);
                }
            }
            VariantRef::String(s) | VariantRef::StringName(s) => {
                *seen += s.code_points().count() as u64
            }
            VariantRef::NodePath(p) => {
                *seen += p
                    .parts()
                    .iter()
                    .map(|s| s.bytes().len() as u64)
                    .sum::<u64>()
            }
            VariantRef::PackedByteArray(p) => *seen += p.iter().map(u64::from).sum::<u64>(),
            VariantRef::PackedInt32Array(p) => *seen += p.iter().count() as u64,
            VariantRef::PackedFloat32Array(p) => *seen += p.iter().count() as u64,
            VariantRef::PackedStringArray(p) => {
                *seen += p.iter().map(|s| s.bytes().len() as u64).sum::<u64>()
            }
            VariantRef::PackedVector2Array(p) => *seen += p.iter().count() as u64,
            VariantRef::PackedVector3Array(p) => *seen += p.iter().count() as u64,
            VariantRef::PackedColorArray(p) => *seen += p.iter().count() as u64,
            _ => {}
        }
    }
    Ok(())
}

/// Offsets (into `base`) of the NodePath pad bytes inside `v`.
pub fn node_path_pads(base: &[u8], v: &VariantRef<'_>, out: &mut Vec<usize>) {
    match v {
        VariantRef::NodePath(p) => pads_of(base, p, out),
        VariantRef::Array(a) => {
            for item in a.iter() {
                node_path_pads(base, &item, out);
            }
        }
        VariantRef::Dictionary(d) => {
            for entry in d.iter() {
                let (k, v) = entry;
                node_path_pads(base, &k, out);
                node_path_pads(base, &v, out);
            }
        }
        VariantRef::Object(ObjectRef::Full(o)) => {
            for prop in o.properties() {
                node_path_pads(base, &prop.1, out);
            }
        }
        _ => {}
    }
}

fn pads_of(base: &[u8], p: &NodePathRef<'_>, out: &mut Vec<usize>) {
    let parts = p.parts().as_bytes();
    if parts.is_empty() {
        return;
    }
    let start = parts.as_ptr() as usize - base.as_ptr() as usize;
    let mut pos = 0;
    while pos < parts.len() {
        let len = u32::from_le_bytes(parts[pos..pos + 4].try_into().unwrap()) as usize;
        let pad = (4 - len % 4) % 4;
        out.extend((0..pad).map(|i| start + pos + 4 + len + i));
        pos += 4 + len + pad;
    }
}

/// `hex("…")` literals and `&str` constants of hex digits in a test source file.
pub fn hex_literals(file: &str) -> Vec<Vec<u8>> {
    let path = format!("{}/tests/{file}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(path).unwrap();
    let mut out = Vec::new();
    let mut rest = src.as_str();
    while let Some(i) = rest.find('"') {
        let after = &rest[i + 1..];
        let Some(end) = after.find('"') else { break };
        // Join `\`-newline continuations; keep only hex digits and spaces.
        let body: String = after[..end]
            .split("\\\n")
            .map(str::trim_start)
            .collect::<Vec<_>>()
            .concat();
        let digits: String = body.split_whitespace().collect();
        if digits.len() >= 8
            && digits.len() % 2 == 0
            && digits.bytes().all(|b| b.is_ascii_hexdigit())
        {
            out.push(hex(&digits));
        }
        rest = &after[end + 1..];
    }
    out
}

/// Godot 4.6 decodes a Dictionary whose key or value type is a script without applying that
/// type (its decoder prints "Script class can only be set together with base class name"):
/// the keys come out untyped, the values typed by class only. Views expose the type the wire
/// names (docs/engine-parity.md). Returns the description with the dictionary's types set to
/// "any", to compare the rest exactly, after checking that the wire does name a script.
/// `None` (nothing to strip) in a `dialect` without typed dictionaries.
pub fn without_script_dictionary_types(
    dialect: gdwire::Dialect,
    f: &Fixture,
    desc: &Value,
) -> Option<Value> {
    let scripted = dialect.has_typed_dictionaries()
        && matches!(
            f.name.as_str(),
            "typed_dictionary_script_value_full" | "typed_dictionary_script_key_full"
        )
        || (f.name == "typed_dictionary_script_key" && f.allow_objects);
    if !scripted {
        return None;
    }
    let v = gdwire::Decoder::new(dialect)
        .with_allow_objects(f.allow_objects)
        .decode(&f.bytes)
        .unwrap();
    let d = v.as_dictionary().unwrap();
    let is_script =
        |t: Option<gdwire::ContainerType<'_>>| matches!(t, Some(gdwire::ContainerType::Script(_)));
    assert!(
        is_script(d.key_type()) || is_script(d.value_type()),
        "{}: no script type on the wire",
        f.name
    );
    let mut desc = desc.clone();
    let obj = desc.as_object_mut().unwrap();
    obj.insert("key_type".into(), serde_json::json!({"any": true}));
    obj.insert("value_type".into(), serde_json::json!({"any": true}));
    Some(desc)
}

/// Requires `gdwire::text` to print each Godot 4 fixture value, decoded and printed in
/// `dialect`, as the engine's `var_to_str` (`json["text"]`) printed it.
pub fn assert_godot4_text_is_var_to_str(dialect: gdwire::Dialect, fixtures: &[Fixture]) {
    let mut failures = Vec::new();
    for f in fixtures {
        if matches!(
            f.name.as_str(),
            "typed_dictionary_script_value_full" | "typed_dictionary_script_key_full"
        ) {
            // The engine lost the script type while decoding (see
            // `without_script_dictionary_types`); it prints the dictionary it made, we print
            // the type the wire names.
            continue;
        }
        let v = gdwire::Decoder::new(dialect)
            .with_allow_objects(f.allow_objects)
            .decode_exact(&f.bytes)
            .unwrap();
        // typed_item.gd's plain `var not_exported = 9` is state of the instance the engine
        // made, not on the wire (only exported variables are stored): the engine prints it.
        let want = f.json["text"]
            .as_str()
            .unwrap()
            .replace(",\"not_exported\":9", "");
        match gdwire::text::to_text(dialect, &v) {
            Ok(got) if got == want => {}
            Ok(got) => failures.push(format!("{}:\n  ours   {got:?}\n  engine {want:?}", f.name)),
            Err(e) => failures.push(format!("{}: {e}", f.name)),
        }
    }
    assert_no_failures(&failures, "mismatches");
}
