//! The differential run's machinery, shared by the Godot 4.6 run and the older engines' runs:
//! deterministic mutants of engine-made values with an engine's verdicts
//! (`tests/godot4/differential.py`), and the comparison of gdwire's decode of each with the
//! engine's (docs/engine-parity.md, "Godot 4.6: differential, writer and live checks").

use std::collections::BTreeMap;

use gdwire::{ContainerType, Decoder, Dialect, ObjectRef, StrRef, VariantRef, VariantType};
use serde_json::Value;

use super::{assert_no_failures, hex, hex_of};

pub struct Case {
    pub name: String,
    pub bytes: Vec<u8>,
    /// Per object mode (0: `bytes_to_var`, 1: `bytes_to_var_with_objects`).
    pub modes: Vec<Value>,
}

/// The mutants of `file` (a `differential.jsonl` under `tests/fixtures/`) with an engine's
/// verdicts.
pub fn cases(file: &str) -> Vec<Case> {
    cases_at(&format!(
        "{}/tests/fixtures/{file}",
        env!("CARGO_MANIFEST_DIR")
    ))
}

/// The mutants of the `differential.jsonl`-shaped file at `path`.
pub fn cases_at(path: &str) -> Vec<Case> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{path}: {e} (run tests/godot4/differential.py)"));
    text.lines()
        .map(|line| {
            let json: Value = serde_json::from_str(line).unwrap();
            Case {
                name: json["name"].as_str().unwrap().to_owned(),
                bytes: hex(json["hex"].as_str().unwrap()),
                modes: json["modes"].as_array().unwrap().clone(),
            }
        })
        .collect()
}

/// What a comparison found: equal, or different only in a documented, deliberate way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Same {
    Yes,
    /// Equal once only the last value of each duplicate dictionary key is kept.
    DuplicateKeys,
    /// Godot 4.0–4.3 store a StringName dictionary key as a String (their
    /// `Dictionary::operator[]` converts it); gdwire shows the key as sent.
    StringNameKeyAsString,
    /// Without `allow_objects` the engine replaces a class, script or builtin `Object` element
    /// type with `EncodedObjectAsID`; gdwire reports the type on the wire.
    ElementClassKept,
    /// A typed container holding elements the engine's validation converts or drops (an
    /// element not of the declared builtin type, or a class/script element type, which the
    /// engine checks against instances); gdwire shows the elements as sent.
    TypedElementsAsSent,
}

impl Same {
    fn why(self) -> &'static str {
        match self {
            Same::Yes => "equal",
            Same::DuplicateKeys => "keeps duplicate keys",
            Same::StringNameKeyAsString => "keeps StringName keys",
            Same::ElementClassKept => "keeps element class without allow_objects",
            Same::TypedElementsAsSent => "typed container elements as sent",
        }
    }
}

/// The engine rejected an input because it instantiates classes and loads scripts while
/// decoding (a mutated class name, a class that cannot be instantiated, a script path that
/// does not load); gdwire does neither, so it accepts such input or fails later in it.
fn engine_instantiation_failure(engine: &Value) -> bool {
    engine["messages"].as_array().is_some_and(|lines| {
        lines.iter().filter_map(Value::as_str).any(|l| {
            l.contains("ClassDB::can_instantiate")
                // Godot 4.2's ClassDB::instantiate
                || l.contains("Cannot get class")
                || l.contains("cannot be instantiated")
                || l.contains("Invalid script path")
                || l.contains("Invalid value for \"script\" property")
        })
    })
}

/// `ours` (gdwire's view of the mutant) against `theirs` (gdwire's view of the engine's
/// re-encoding of its own decode). The engine is a single-precision release build and holds
/// decoded objects as instances, so:
/// * real components are compared as the `f32` the engine keeps (a 64-bit math value on the
///   wire is narrowed to `real_t` = `f32`), NaN by NaN-ness;
/// * an object sent as an id (`EncodedObjectAsID`) is re-encoded by the engine as that class
///   with its `object_id` property; a null object as Nil;
/// * a full object's class is compared, not its properties: the engine instantiated the class
///   and re-encodes all the stored properties of that instance;
/// * a Dictionary keeps one entry per key (the first position, the last value), and before
///   4.4 (`dialect` without typed dictionaries) stores StringName keys as Strings.
fn engine_equal(
    dialect: Dialect,
    ours: &VariantRef<'_>,
    theirs: &VariantRef<'_>,
    allow: bool,
    at: &str,
) -> Result<Same, String> {
    use VariantRef as V;
    let fail = |what: &str| Err(format!("{at}: {what}: ours {ours:?}, engine {theirs:?}"));
    let f32_eq =
        |a: f64, b: f64| (a as f32).to_bits() == (b as f32).to_bits() || a.is_nan() && b.is_nan();
    let reals_eq = |a: &mut dyn Iterator<Item = f64>, b: &mut dyn Iterator<Item = f64>| {
        let (a, b): (Vec<f64>, Vec<f64>) = (a.collect(), b.collect());
        a.len() == b.len() && a.iter().zip(&b).all(|(x, y)| f32_eq(*x, *y))
    };
    let text_eq = |a: StrRef<'_>, b: StrRef<'_>| a.bytes() == b.bytes();
    macro_rules! reals {
        ($a:expr, $b:expr) => {
            if reals_eq(&mut $a.components(), &mut $b.components()) {
                Ok(Same::Yes)
            } else {
                fail("components")
            }
        };
    }
    macro_rules! eq {
        ($a:expr, $b:expr) => {
            if $a == $b {
                Ok(Same::Yes)
            } else {
                fail("values")
            }
        };
    }
    match (ours, theirs) {
        (V::Nil, V::Nil) => Ok(Same::Yes),
        (V::Object(o), V::Nil) if o.is_null() => Ok(Same::Yes),
        (V::Bool(a), V::Bool(b)) => eq!(a, b),
        (V::Int(a), V::Int(b)) => eq!(a, b),
        (V::Float(a), V::Float(b)) => eq!(a.to_bits(), b.to_bits()),
        (V::String(a), V::String(b)) | (V::StringName(a), V::StringName(b)) => {
            eq!(a.bytes(), b.bytes())
        }
        (V::Vector2(a), V::Vector2(b)) => reals!(a, b),
        (V::Rect2(a), V::Rect2(b)) => reals!(a, b),
        (V::Vector3(a), V::Vector3(b)) => reals!(a, b),
        (V::Transform2D(a), V::Transform2D(b)) => reals!(a, b),
        (V::Vector4(a), V::Vector4(b)) => reals!(a, b),
        (V::Plane(a), V::Plane(b)) => reals!(a, b),
        (V::Quaternion(a), V::Quaternion(b)) => reals!(a, b),
        (V::Aabb(a), V::Aabb(b)) => reals!(a, b),
        (V::Basis(a), V::Basis(b)) => reals!(a, b),
        (V::Transform3D(a), V::Transform3D(b)) => reals!(a, b),
        (V::Projection(a), V::Projection(b)) => reals!(a, b),
        (V::Color(a), V::Color(b)) => eq!(
            [a.r, a.g, a.b, a.a].map(f32::to_bits),
            [b.r, b.g, b.b, b.a].map(f32::to_bits)
        ),
        (V::Vector2i(a), V::Vector2i(b)) => eq!(a, b),
        (V::Vector3i(a), V::Vector3i(b)) => eq!(a, b),
        (V::Vector4i(a), V::Vector4i(b)) => eq!(a, b),
        (V::Rect2i(a), V::Rect2i(b)) => eq!(a, b),
        (V::NodePath(a), V::NodePath(b)) => {
            let parts = |p: &gdwire::NodePathRef<'_>| {
                let names: Vec<Vec<u8>> = p.names().map(|s| s.bytes().to_vec()).collect();
                let subnames: Vec<Vec<u8>> = p.subnames().map(|s| s.bytes().to_vec()).collect();
                (p.is_absolute(), names, subnames)
            };
            eq!(parts(a), parts(b))
        }
        (V::Rid(a), V::Rid(b)) => eq!(a.unwrap_or(0), b.unwrap_or(0)),
        (V::Callable, V::Callable) => Ok(Same::Yes),
        (V::Signal(a), V::Signal(b)) => {
            eq!(
                (a.name().bytes(), a.object_id()),
                (b.name().bytes(), b.object_id())
            )
        }
        (V::Object(ObjectRef::Id(id)), V::Object(ObjectRef::Full(o))) => {
            let mut id_prop = None;
            for (name, value) in o.properties() {
                if name.bytes() == b"object_id" {
                    id_prop = value.as_int();
                }
            }
            if o.class().bytes() == b"EncodedObjectAsID" && id_prop == Some(*id as i64) {
                Ok(Same::Yes)
            } else {
                fail("object id")
            }
        }
        (V::Object(ObjectRef::Full(a)), V::Object(ObjectRef::Full(b))) => {
            if text_eq(a.class(), b.class()) {
                Ok(Same::Yes)
            } else {
                fail("object class")
            }
        }
        (V::Array(a), V::Array(b)) => {
            let mut same = match container_types(a.element_type(), b.element_type(), allow) {
                Some(same) => same,
                None if typed_elements_as_sent(ours) => return Ok(Same::TypedElementsAsSent),
                None => return fail("array element type"),
            };
            if a.len() != b.len() {
                if typed_elements_as_sent(ours) {
                    return Ok(Same::TypedElementsAsSent);
                }
                return fail("array length");
            }
            for (i, (x, y)) in a.iter().zip(b.iter()).enumerate() {
                match engine_equal(dialect, &x, &y, allow, &format!("{at}[{i}]")) {
                    Ok(s) => same = same.max(s),
                    Err(_) if typed_elements_as_sent(ours) => return Ok(Same::TypedElementsAsSent),
                    Err(e) => return Err(e),
                }
            }
            Ok(same)
        }
        (V::Dictionary(a), V::Dictionary(b)) => {
            let types = container_types(a.key_type(), b.key_type(), allow).zip(container_types(
                a.value_type(),
                b.value_type(),
                allow,
            ));
            let mut same = match types {
                Some((k, v)) => k.max(v),
                None if typed_elements_as_sent(ours) => return Ok(Same::TypedElementsAsSent),
                None => return fail("dictionary key or value type"),
            };
            let mut entries: Vec<(VariantRef<'_>, VariantRef<'_>)> = a.iter().collect();
            if entries.len() != b.len() && typed_elements_as_sent(ours) {
                return Ok(Same::TypedElementsAsSent);
            }
            if entries.len() != b.len() {
                // The engine's Dictionary keeps one entry per key: its first position, the
                // last value sent for it.
                let mut unique: Vec<(VariantRef<'_>, VariantRef<'_>)> = Vec::new();
                for (k, v) in entries {
                    match unique.iter_mut().find(|(u, _)| *u == k) {
                        Some(slot) => slot.1 = v,
                        None => unique.push((k, v)),
                    }
                }
                if unique.len() != b.len() {
                    return fail("dictionary length");
                }
                entries = unique;
                same = same.max(Same::DuplicateKeys);
            }
            for (i, ((k, v), theirs)) in entries.iter().zip(b.iter()).enumerate() {
                let (tk, tv) = theirs;
                let key = match (k, &tk) {
                    (V::StringName(a), V::String(b))
                        if !dialect.has_typed_dictionaries() && a.bytes() == b.bytes() =>
                    {
                        Ok(Same::StringNameKeyAsString)
                    }
                    _ => engine_equal(dialect, k, &tk, allow, &format!("{at}{{key {i}}}")),
                };
                let pair = key.and_then(|a| {
                    engine_equal(dialect, v, &tv, allow, &format!("{at}{{value {i}}}"))
                        .map(|b| a.max(b))
                });
                match pair {
                    Ok(s) => same = same.max(s),
                    Err(_) if typed_elements_as_sent(ours) => return Ok(Same::TypedElementsAsSent),
                    Err(e) => return Err(e),
                }
            }
            Ok(same)
        }
        (V::PackedByteArray(a), V::PackedByteArray(b)) => eq!(a.as_bytes(), b.as_bytes()),
        (V::PackedInt32Array(a), V::PackedInt32Array(b)) => eq!(a.as_bytes(), b.as_bytes()),
        (V::PackedInt64Array(a), V::PackedInt64Array(b)) => eq!(a.as_bytes(), b.as_bytes()),
        (V::PackedFloat32Array(a), V::PackedFloat32Array(b)) => eq!(a.as_bytes(), b.as_bytes()),
        (V::PackedFloat64Array(a), V::PackedFloat64Array(b)) => eq!(a.as_bytes(), b.as_bytes()),
        (V::PackedColorArray(a), V::PackedColorArray(b)) => eq!(a.as_bytes(), b.as_bytes()),
        (V::PackedVector2iArray(a), V::PackedVector2iArray(b)) => eq!(a.as_bytes(), b.as_bytes()),
        (V::PackedVector3iArray(a), V::PackedVector3iArray(b)) => eq!(a.as_bytes(), b.as_bytes()),
        (V::PackedVector4iArray(a), V::PackedVector4iArray(b)) => eq!(a.as_bytes(), b.as_bytes()),
        (V::PackedStringArray(a), V::PackedStringArray(b)) => {
            let texts = |p: &gdwire::read::PackedStrings<'_>| -> Vec<Vec<u8>> {
                p.iter().map(|s| s.bytes().to_vec()).collect()
            };
            eq!(texts(a), texts(b))
        }
        (V::PackedVector2Array(a), V::PackedVector2Array(b)) => {
            reals_eq(&mut a.iter().flatten(), &mut b.iter().flatten())
                .then_some(Same::Yes)
                .map_or_else(|| fail("components"), Ok)
        }
        (V::PackedVector3Array(a), V::PackedVector3Array(b)) => {
            reals_eq(&mut a.iter().flatten(), &mut b.iter().flatten())
                .then_some(Same::Yes)
                .map_or_else(|| fail("components"), Ok)
        }
        (V::PackedVector4Array(a), V::PackedVector4Array(b)) => {
            reals_eq(&mut a.iter().flatten(), &mut b.iter().flatten())
                .then_some(Same::Yes)
                .map_or_else(|| fail("components"), Ok)
        }
        _ => fail("types"),
    }
}

/// Compares element types: `Some(Same::Yes)` when equal, `Some(ElementClassKept)` for the
/// engine's `EncodedObjectAsID` substitution without `allow_objects` (its
/// `_decode_container_type` makes it for a builtin `Object` type too, which the engine's own
/// encoder never writes: its `Object` element types carry a class name), `None` otherwise.
fn container_types(
    ours: Option<ContainerType<'_>>,
    theirs: Option<ContainerType<'_>>,
    allow: bool,
) -> Option<Same> {
    use ContainerType as C;
    match (ours, theirs) {
        (None, None) => Some(Same::Yes),
        (Some(C::Builtin(x)), Some(C::Builtin(y))) if x == y => Some(Same::Yes),
        (Some(C::ClassName(x)), Some(C::ClassName(y)))
        | (Some(C::Script(x)), Some(C::Script(y)))
            if x.bytes() == y.bytes() =>
        {
            Some(Same::Yes)
        }
        (
            Some(C::ClassName(_) | C::Script(_) | C::Builtin(VariantType::Object)),
            Some(C::ClassName(y)),
        ) if !allow && y.bytes() == b"EncodedObjectAsID" => Some(Same::ElementClassKept),
        _ => None,
    }
}

/// Whether `v` is a typed container that the engine's element validation changes: an
/// element (key, value) not of the declared builtin type, or a class/script element type.
fn typed_elements_as_sent(v: &VariantRef<'_>) -> bool {
    use ContainerType as C;
    let off =
        |t: Option<ContainerType<'_>>, items: &mut dyn Iterator<Item = VariantRef<'_>>| match t {
            None => false,
            Some(C::Builtin(want)) => {
                for x in items {
                    if x.variant_type() != want {
                        return true;
                    }
                }
                false
            }
            Some(_) => true,
        };
    match v {
        VariantRef::Array(a) => off(a.element_type(), &mut a.iter()),
        VariantRef::Dictionary(d) => {
            off(d.key_type(), &mut d.iter().map(|e| e.0))
                || off(d.value_type(), &mut d.iter().map(|e| e.1))
        }
        _ => false,
    }
}

/// What [`assert_engine_verdicts`] counted: mutant × mode pairs where gdwire and the engine
/// both accepted (the same value) or both rejected (the same code), and the deliberate
/// differences by kind.
pub struct Agreement {
    pub accepted: usize,
    pub rejected: usize,
    pub differences: BTreeMap<&'static str, usize>,
}

/// Requires a `dialect` decoder to give the engine's verdict on every mutant of `cases` in both
/// object modes: the engine's error code when both reject, the engine's value when both accept
/// (read from its re-encoding), except for the deliberate differences ([`Same`], and the
/// classes and scripts the engine instantiates while decoding).
pub fn assert_engine_verdicts(dialect: Dialect, cases: &[Case]) -> Agreement {
    let mut failures = Vec::new();
    let (mut agree_ok, mut agree_err) = (0, 0);
    let mut differences = BTreeMap::<&'static str, usize>::new();
    for case in cases {
        for (mode, engine) in case.modes.iter().enumerate() {
            let allow = mode == 1;
            let at = format!("{} (objects {allow}, {})", case.name, hex_of(&case.bytes));
            let got = Decoder::new(dialect)
                .with_allow_objects(allow)
                .decode(&case.bytes);
            let engine_error = engine["error"].as_i64().unwrap();
            match (engine["verdict"].as_str().unwrap(), got) {
                ("ok", Ok(ours)) => {
                    let theirs_bytes = engine["reenc"].as_str().map(hex).unwrap_or_default();
                    let theirs = if theirs_bytes.is_empty() {
                        VariantRef::Nil
                    } else {
                        Decoder::new(dialect)
                            .with_allow_objects(true)
                            .decode_exact(&theirs_bytes)
                            .unwrap_or_else(|e| panic!("{at}: engine re-encoding: {e}"))
                    };
                    match engine_equal(dialect, &ours, &theirs, allow, &at) {
                        Ok(Same::Yes) => agree_ok += 1,
                        Ok(why) => *differences.entry(why.why()).or_default() += 1,
                        Err(e) => failures.push(e),
                    }
                }
                ("ok", Err(e)) => failures.push(format!("{at}: engine accepts, we reject: {e}")),
                (_, Ok(_)) if allow && engine_instantiation_failure(engine) => {
                    *differences.entry("no instantiation: accepted").or_default() += 1
                }
                (_, Ok(v)) => failures.push(format!(
                    "{at}: engine rejects with {engine_error}, we accept {:?}",
                    v.variant_type()
                )),
                (_, Err(e)) => {
                    if e.kind().engine_code() == Some(engine_error as i32) {
                        agree_err += 1;
                    } else if allow && engine_instantiation_failure(engine) {
                        *differences
                            .entry("no instantiation: later error")
                            .or_default() += 1;
                    } else {
                        failures.push(format!(
                            "{at}: engine error {engine_error}, ours {:?} ({e})",
                            e.kind().engine_code()
                        ));
                    }
                }
            }
        }
    }
    assert_no_failures(&failures, "disagreements with the engine");
    eprintln!(
        "{} mutants x 2 object modes agree: {agree_ok} accepted, {agree_err} rejected; \
         deliberate differences: {differences:?}",
        cases.len()
    );
    Agreement {
        accepted: agree_ok,
        rejected: agree_err,
        differences,
    }
}
