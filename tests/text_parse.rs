//! `gdwire::text::parse`: the engine's text form back to wire bytes, against independent truth.
//!
//! - `tests/fixtures/godot3/str2var.jsonl` (`tests/godot3/str2var.gd`, regenerate with
//!   `tests/godot3/regenerate_str2var.sh`, `--check` to compare): Godot 3.2.3's
//!   `var2bytes(str2var(text))` for every `text` of `values.jsonl` and `text.jsonl` and for
//!   probe texts of every construct (numbers, escapes, aliases, duplicate keys, errors).

mod support;

use gdwire::{text, Decoder, Dialect, Precision, Writer};
use serde_json::Value;

use support::{hex, hex_of, node_path_pads};

struct Row {
    source: String,
    name: String,
    text: String,
    read: bool,
    hex: Option<Vec<u8>>,
}

fn str2var_rows() -> Vec<Row> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/godot3/str2var.jsonl"
    );
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| {
            let j: Value = serde_json::from_str(line).unwrap();
            Row {
                source: j["source"].as_str().unwrap().into(),
                name: j["name"].as_str().unwrap().into(),
                text: j["text"].as_str().unwrap().into(),
                read: j["read"].as_bool().unwrap(),
                hex: j["hex"].as_str().map(hex),
            }
        })
        .collect()
}

/// Engine bytes with the NodePath pad bytes (uninitialised in 3.2.3) zeroed.
fn zero_pads(bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    let v = Decoder::new(Dialect::GODOT_3)
        .with_allow_objects(true)
        .decode(bytes)
        .expect("engine bytes decode");
    let mut pads = Vec::new();
    node_path_pads(bytes, &v, &mut pads);
    for p in pads {
        out[p] = 0;
    }
    out
}

/// Texts the engine reads (partly) that `parse` refuses on purpose, and why. The engine stops
/// at the first value and ignores the rest; `parse` wants the whole text to be one value.
fn refused_on_purpose(text: &str) -> Option<&'static str> {
    Some(match text {
        // A lone '-' reads as the int 0 and the rest is ignored: -inf and negative NaN do not
        // survive var2str/str2var in 3.2.3.
        "-inf.0" | "-nan.0" | "-inf" | "-" | "-x" => "'-' without digits",
        "inf.0" | "0x10" | "1E5" | "12abc" | "true false" => "text after the value",
        _ => return None,
    })
}

/// The original value bytes of `values.jsonl` by name.
fn original_values() -> std::collections::HashMap<String, Vec<u8>> {
    support::values()
        .into_iter()
        .map(|f| (f.name, f.bytes))
        .collect()
}

#[test]
fn godot3_reads_text_as_the_engine_does() {
    let originals = original_values();
    let (mut same, mut both_refuse, mut on_purpose, mut objects) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for r in str2var_rows() {
        let ours = text::parse(Dialect::GODOT_3, &r.text);
        let label = format!("{} {} {:?}", r.source, r.name, r.text);
        match (&ours, r.read, &r.hex) {
            (Ok(b), true, Some(engine)) => {
                if *b == zero_pads(engine) {
                    same += 1;
                } else {
                    failures.push(format!(
                        "{label}: engine {} ours {}",
                        hex_of(engine),
                        hex_of(b)
                    ));
                }
            }
            // Objects: the engine makes a new object (a new id). `parse` reads the id form as
            // that id and a full object with its properties as written, so the text of a
            // fixture value gives back the engine's original bytes.
            (Ok(b), true, None) => {
                if r.name == "object_full_scripted_reference" {
                    // var2str printed live engine state (a non-exported script variable).
                    continue;
                }
                let orig = originals.get(&r.name).filter(|_| r.source == "values");
                let back = Decoder::new(Dialect::GODOT_3)
                    .with_allow_objects(true)
                    .decode_exact(b)
                    .unwrap();
                let printed = text::to_text(Dialect::GODOT_3, &back).unwrap();
                // Same bytes as the original where the text kept wire order (no dictionary
                // printed in sorted order), and always the same text printed again.
                if printed.trim_end() != r.text.trim_end()
                    || orig.is_some_and(|o| *b != zero_pads(o) && !r.text.starts_with('{'))
                {
                    failures.push(format!("{label}: ours {} prints {printed:?}", hex_of(b)));
                } else {
                    objects += 1;
                }
            }
            (Ok(b), false, _) => failures.push(format!(
                "{label}: the engine refuses it, ours {}",
                hex_of(b)
            )),
            (Err(_), false, _) => both_refuse += 1,
            (Err(e), true, _) => match refused_on_purpose(&r.text) {
                Some(_) => on_purpose += 1,
                None => failures.push(format!("{label}: the engine reads it, ours: {e}")),
            },
        }
    }
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
    println!("same bytes {same}, objects {objects}, both refuse {both_refuse}, refused on purpose {on_purpose}");
    assert!(
        same >= 330 && objects >= 8 && both_refuse >= 60,
        "fixture shrank?"
    );
}

/// Every text the Godot 3 text writer prints for a fixture value, read back: the engine's own
/// `var2bytes(str2var(text))` where the engine reads it (above); and where text keeps all of
/// the value (no float rounded to six digits), the original bytes.
#[test]
fn godot3_fixture_values_round_trip_through_text() {
    let mut exact = 0;
    for f in support::values() {
        let v = Decoder::new(Dialect::GODOT_3)
            .with_allow_objects(f.allow_objects)
            .decode_exact(&f.bytes)
            .unwrap();
        let Ok(t) = text::to_text(Dialect::GODOT_3, &v) else {
            continue;
        };
        let Ok(back) = text::parse(Dialect::GODOT_3, &t) else {
            continue;
        };
        // Reading is stable: what was read prints to a text that reads back to the same
        // bytes (the first reading may drop what the text lost, e.g. an RID prints as
        // nothing in Godot 3).
        let again = Decoder::new(Dialect::GODOT_3)
            .with_allow_objects(true)
            .decode_exact(&back)
            .unwrap();
        let t2 = text::to_text(Dialect::GODOT_3, &again).unwrap();
        if f.name != "object_full_scripted_reference" {
            assert_eq!(
                text::parse(Dialect::GODOT_3, &t2).unwrap(),
                back,
                "{}",
                f.name
            );
        }
        if back == zero_pads(&f.bytes) {
            exact += 1;
        }
    }
    println!("{exact} fixture values give back their exact bytes");
    assert!(exact >= 100);
}

// ----- properties: random values printed by `gdwire::text` and read back ----------------------

mod model {
    use gdwire::{ContainerTypeSpec, Dialect, Family, VariantType as T, Writer};
    use proptest::prelude::*;
    use proptest::strategy::Union;

    /// A value whose text keeps all of it in every dialect: floats with at most six
    /// significant digits that are exact in `f32` (quarters), no -0.0, NaN or infinities;
    /// dictionaries with distinct int keys in ascending order (the order the engines print);
    /// object property names the writers can print unescaped.
    #[derive(Clone, Debug)]
    pub enum Val {
        Nil,
        Bool(bool),
        Int(i64),
        Float(f64),
        Str(String),
        Name(String),
        Path(String),
        Reals(T, Vec<f64>),
        Ints(T, Vec<i32>),
        Color([f32; 4]),
        Rid(u64),
        ObjectId(u64),
        Callable,
        EmptySignal,
        Bytes(Vec<u8>),
        I32(Vec<i32>),
        I64(Vec<i64>),
        F32(Vec<f32>),
        F64(Vec<f64>),
        Strings(Vec<String>),
        PReals(T, usize, Vec<f64>),
        Array(Vec<Val>),
        Typed(T, Vec<Val>),
        Dict(Vec<(i64, Val)>),
        Object(String, Vec<(String, Val)>),
    }

    fn quarter() -> impl Strategy<Value = f64> + Clone {
        (-39999i32..39999).prop_map(|k| f64::from(k) / 4.0)
    }

    /// Text without the two characters `c_escape` writes as `\a` and `\v`, which the
    /// engines' parsers read back as `a` and `v`, without NUL (the end of the text to the
    /// engines' readers) and without U+FEFF (a leading one is dropped when the bytes are read).
    fn text() -> impl Strategy<Value = String> {
        prop_oneof![".{0,12}", any::<String>(), "[a-z \"\\\\\n\t]{0,20}"]
            .prop_map(|s| s.replace(['\u{7}', '\u{b}', '\0', '\u{feff}'], ""))
    }

    fn small_int(d: Dialect) -> BoxedStrategy<i32> {
        // Pandemonium prints integer vectors and pools through `%g` (six digits).
        if d.family() == Family::Pandemonium {
            (-999_999i32..999_999).boxed()
        } else {
            any::<i32>().boxed()
        }
    }

    fn leaf(d: Dialect) -> BoxedStrategy<Val> {
        let mut s: Vec<BoxedStrategy<Val>> = vec![
            Just(Val::Nil).boxed(),
            any::<bool>().prop_map(Val::Bool).boxed(),
            any::<i64>().prop_map(Val::Int).boxed(),
            quarter().prop_map(Val::Float).boxed(),
            text().prop_map(Val::Str).boxed(),
            "(/?)([a-z]{1,4}/){0,3}[a-z]{1,4}(:[a-z]{1,3}){0,2}"
                .prop_map(Val::Path)
                .boxed(),
            prop::array::uniform4(quarter().prop_map(|x| x as f32))
                .prop_map(Val::Color)
                .boxed(),
            (1u64..).prop_map(Val::ObjectId).boxed(),
            prop::collection::vec(any::<u8>(), 0..40)
                .prop_map(Val::Bytes)
                .boxed(),
            prop::collection::vec(small_int(d), 0..20)
                .prop_map(Val::I32)
                .boxed(),
            prop::collection::vec(quarter().prop_map(|x| x as f32), 0..20)
                .prop_map(Val::F32)
                .boxed(),
            prop::collection::vec(text(), 0..5)
                .prop_map(Val::Strings)
                .boxed(),
        ];
        for ty in T::ALL {
            if !d.supports(ty) {
                continue;
            }
            if let Some(n) = ty.real_components() {
                s.push(
                    prop::collection::vec(quarter(), n)
                        .prop_map(move |c| Val::Reals(ty, c))
                        .boxed(),
                );
            }
            if let Some(n) = ty.int_components() {
                s.push(
                    prop::collection::vec(small_int(d), n)
                        .prop_map(move |c| Val::Ints(ty, c))
                        .boxed(),
                );
            }
            let per = match ty {
                T::PackedVector2Array => 2,
                T::PackedVector3Array => 3,
                T::PackedVector4Array | T::PackedColorArray => 4,
                _ => 0,
            };
            if per > 0 {
                s.push(
                    (0..6usize)
                        .prop_flat_map(move |n| prop::collection::vec(quarter(), n * per))
                        .prop_map(move |c| Val::PReals(ty, per, c))
                        .boxed(),
                );
            }
        }
        if d.family() == Family::Godot4 {
            s.push(text().prop_map(Val::Name).boxed());
            // Godot 4.0 prints RIDs, Callables and Signals as nothing (engine-checked).
            if d != Dialect::GODOT_4_0 {
                // Ids above i64::MAX print as such and read back clamped, as in the engine.
                s.push((0..=i64::MAX as u64).prop_map(Val::Rid).boxed());
                s.push(Just(Val::Callable).boxed());
                s.push(Just(Val::EmptySignal).boxed());
            }
            s.push(
                prop::collection::vec(any::<i64>(), 0..20)
                    .prop_map(Val::I64)
                    .boxed(),
            );
            s.push(
                prop::collection::vec(quarter(), 0..20)
                    .prop_map(Val::F64)
                    .boxed(),
            );
        }
        Union::new(s).boxed()
    }

    pub fn value(d: Dialect) -> BoxedStrategy<Val> {
        leaf(d)
            .prop_recursive(4, 40, 5, move |inner| {
                let items = prop::collection::vec(inner.clone(), 0..5);
                let mut s = vec![
                    items.clone().prop_map(Val::Array).boxed(),
                    prop::collection::btree_map(any::<i64>(), inner.clone(), 0..4)
                        .prop_map(|m| Val::Dict(m.into_iter().collect()))
                        .boxed(),
                    (
                        "[A-Z][A-Za-z0-9]{0,8}",
                        prop::collection::vec(("[a-z_]{1,8}", inner), 0..3),
                    )
                        .prop_map(|(c, p)| Val::Object(c, p))
                        .boxed(),
                ];
                if d.has_typed_arrays() {
                    s.push(
                        prop::collection::vec(any::<i64>().prop_map(Val::Int), 0..5)
                            .prop_map(|v| Val::Typed(T::Int, v))
                            .boxed(),
                    );
                }
                Union::new(s)
            })
            .boxed()
    }

    fn reals<const N: usize>(c: &[f64]) -> [f64; N] {
        let mut o = [0.0; N];
        o.copy_from_slice(c);
        o
    }

    /// The canonical bytes of `v`, written with the streaming calls (not through text).
    pub fn encode(d: Dialect, v: &Val) -> Vec<u8> {
        let mut out = Vec::new();
        let mut w = Writer::new(&mut out, d)
            .with_full_objects(true)
            .with_heap_spill(true);
        put(&mut w, v).unwrap();
        w.finish().unwrap();
        out
    }

    fn put<S: gdwire::Sink>(w: &mut Writer<S>, v: &Val) -> gdwire::Result<()> {
        use gdwire::math::*;
        match v {
            Val::Nil => w.nil(),
            Val::Bool(b) => w.bool(*b),
            Val::Int(i) => w.int(*i),
            Val::Float(f) => w.float(*f),
            Val::Str(s) => w.string(s),
            Val::Name(s) => w.string_name(s),
            Val::Path(p) => w.node_path_str(p),
            Val::Reals(ty, c) => match ty {
                T::Vector2 => w.vector2(Vector2::from_wire(c)),
                T::Rect2 => w.rect2(Rect2::from_wire(c)),
                T::Vector3 => w.vector3(Vector3::from_wire(c)),
                T::Transform2D => w.transform2d(Transform2D::from_wire(c)),
                T::Vector4 => w.vector4(Vector4::from_wire(c)),
                T::Plane => w.plane(Plane::from_wire(c)),
                T::Quaternion => w.quaternion(Quaternion::from_wire(c)),
                T::Aabb => w.aabb(Aabb::from_wire(c)),
                T::Basis => w.basis(Basis::from_wire(c)),
                T::Transform3D => w.transform3d(Transform3D::from_wire(c)),
                _ => w.projection(Projection::from_wire(c)),
            },
            Val::Ints(ty, c) => match ty {
                T::Vector2i => w.vector2i(Vector2i { x: c[0], y: c[1] }),
                T::Vector3i => w.vector3i(Vector3i {
                    x: c[0],
                    y: c[1],
                    z: c[2],
                }),
                T::Vector4i => w.vector4i(Vector4i {
                    x: c[0],
                    y: c[1],
                    z: c[2],
                    w: c[3],
                }),
                _ => w.rect2i(Rect2i {
                    position: Vector2i { x: c[0], y: c[1] },
                    size: Vector2i { x: c[2], y: c[3] },
                }),
            },
            Val::Color(c) => w.color(Color {
                r: c[0],
                g: c[1],
                b: c[2],
                a: c[3],
            }),
            Val::Rid(id) => w.rid(*id),
            Val::ObjectId(id) => w.object_id(*id),
            Val::Callable => w.callable(),
            Val::EmptySignal => w.signal("", 0),
            Val::Bytes(b) => w.packed_bytes(b),
            Val::I32(v) => w.packed_i32(v),
            Val::I64(v) => w.packed_i64(v),
            Val::F32(v) => w.packed_f32(v),
            Val::F64(v) => w.packed_f64(v),
            Val::Strings(v) => w.packed_strings(v),
            Val::PReals(ty, per, c) => match (ty, per) {
                (T::PackedColorArray, _) => w.packed_color(c.chunks_exact(4).map(|x| {
                    let a = reals::<4>(x);
                    [a[0] as f32, a[1] as f32, a[2] as f32, a[3] as f32]
                })),
                (_, 2) => w.packed_vector2(c.chunks_exact(2).map(reals::<2>)),
                (_, 3) => w.packed_vector3(c.chunks_exact(3).map(reals::<3>)),
                _ => w.packed_vector4(c.chunks_exact(4).map(reals::<4>)),
            },
            Val::Array(items) => {
                w.begin_array(items.len())?;
                items.iter().try_for_each(|x| put(w, x))
            }
            Val::Typed(ty, items) => {
                w.begin_typed_array(items.len(), ContainerTypeSpec::Builtin(*ty))?;
                items.iter().try_for_each(|x| put(w, x))
            }
            Val::Dict(entries) => {
                w.begin_dictionary(entries.len())?;
                for (k, v) in entries {
                    w.int(*k)?;
                    put(w, v)?;
                }
                Ok(())
            }
            Val::Object(class, props) => {
                w.begin_object(class, props.len())?;
                for (name, v) in props {
                    w.property_name(name)?;
                    put(w, v)?;
                }
                Ok(())
            }
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// `parse(print(v)) == bytes(v)` for values the text form keeps whole, in every dialect.
    #[test]
    fn printed_values_read_back_to_their_bytes(
        (d, v) in proptest::sample::select(Dialect::ALL.to_vec())
            .prop_flat_map(|d| (proptest::strategy::Just(d), model::value(d)))
    ) {
        let bytes = model::encode(d, &v);
        let view = Decoder::new(d).with_allow_objects(true).decode_exact(&bytes).unwrap();
        let t = text::to_text(d, &view).unwrap();
        let back = text::parse(d, &t).map_err(|e| proptest::test_runner::TestCaseError::fail(format!("{d}: {e}\n{t}")))?;
        proptest::prop_assert_eq!(hex_of(&back), hex_of(&bytes), "{}: {}", d, t);
    }
}

use proptest::strategy::Strategy;

struct Row4 {
    name: String,
    text: String,
    read: bool,
    hex: Vec<u8>,
    /// `var_to_bytes` of the value whose `var_to_str` is `text` (value rows).
    value: Option<Vec<u8>>,
}

/// `tests/fixtures/godot4/str_to_var.jsonl` (`tests/godot4/str_to_var.gd`, regenerate with
/// `tests/godot4/regenerate_str_to_var.sh`): the real Godot 4.6 engine's `var_to_str` of
/// values of every type and `var_to_bytes(str_to_var(text))` of those texts and of probes.
fn str_to_var_rows() -> Vec<Row4> {
    rows4("godot4/str_to_var.jsonl")
}

/// The same texts and values in a double-precision Godot 4.6.3 build
/// (`tests/godot4/double/regenerate.sh`).
fn str_to_var_double_rows() -> Vec<Row4> {
    rows4("godot4_double/str_to_var.jsonl")
}

fn rows4(fixture: &str) -> Vec<Row4> {
    let path = format!("{}/tests/fixtures/{fixture}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| {
            let j = json_line(line);
            Row4 {
                name: j["name"].as_str().unwrap().into(),
                text: j["text"].as_str().unwrap().into(),
                read: j["read"].as_bool().unwrap(),
                hex: hex(j["hex"].as_str().unwrap()),
                value: j.get("value_hex").and_then(Value::as_str).map(hex),
            }
        })
        .collect()
}

/// Godot 4.0 and 4.1 double-precision builds write Vector4 and Projection with `f64`
/// components but without bit 16, bytes they cannot read back themselves
/// (tests/godot4_double_fixtures.rs); gdwire writes the bit, which they read.
fn unflagged_math_4(dialect: Dialect, precision: Precision, text: &str) -> bool {
    [Dialect::GODOT_4_0, Dialect::GODOT_4_1].contains(&dialect)
        && precision == Precision::Double
        && (text.starts_with("Vector4(") || text.starts_with("Projection("))
}

/// Godot 4 texts whose bytes differ on purpose from those of the engine of `dialect` in
/// `precision`, and why.
fn differs_on_purpose_4(
    dialect: Dialect,
    precision: Precision,
    text: &str,
) -> Option<&'static str> {
    if unflagged_math_4(dialect, precision, text) {
        return Some("Vector4 or Projection in f64 without bit 16");
    }
    Some(match text {
        // Godot 4.0 keeps a code point above U+10FFFF and writes it as UTF-8 that no reader
        // accepts; `parse` writes U+FFFD, as 4.2+ read it.
        "\"\\U110000\"" if dialect == Dialect::GODOT_4_0 => "code point above U+10FFFF",
        // `parse` writes what `var_to_bytes_with_objects` writes: the class name; plain
        // `var_to_bytes` writes "EncodedObjectAsID".
        "Array[Node]([])" => "class-typed array: full-objects form",
        // The engine drops a class it does not have; `parse` cannot know the engine's classes.
        "Array[Nope]([])" => "unknown class",
        // The engine makes a new object (a new id).
        "Object(RefCounted,\"script\":null)" => "object",
        _ => return None,
    })
}

/// Godot 4 texts the engine of `dialect` reads (partly) that `parse` refuses on purpose.
fn refused_on_purpose_4(dialect: Dialect, text: &str) -> Option<&'static str> {
    let before_4_4 = !dialect.has_typed_dictionaries();
    let before_4_5 = !dialect.prints_shortest_floats();
    Some(match text {
        "-inf.0" | "0x10" | "12abc" | "true false" => "text after the value",
        // Godot 4.0–4.3 read numbers as Godot 3: no `E` exponent (the rest is text after the
        // value); before 4.5 a '-' without a digit after it is the number 0.
        "1E5" | "2.5E-3" if before_4_4 => "text after the value",
        "-inf" | "-nan" | "-" | "-x" if before_4_5 => "a lone '-', which the engine reads as 0",
        // ConfigFile reads it (a newline follows there); str_to_var gives null.
        "#ff0000" => "colour literal at the end of the text",
        _ => return None,
    })
}

/// Texts with an integer component out of its range (or NaN): the engine's C++ conversion is
/// undefined there and differs by platform. `parse` gives what the 4.6 web build gives
/// (saturated); the native x86-64 double build gives the integer minimum.
fn platform_dependent_4(text: &str) -> bool {
    matches!(
        text,
        "Vector2i(2147483648, 1e20)"
            | "PackedInt64Array(1, 9223372036854775807, 1e19)"
            | "PackedInt32Array(1e20, -1e20, nan)"
            | "PackedByteArray(1e20, 300.5, -1.5)"
            | "Vector2i(nan, -1e20)"
    )
}

/// `text::parse` with the writer in `precision`.
fn parse_in(precision: Precision, text: &str) -> Result<Vec<u8>, String> {
    parse_for(Dialect::GODOT_4, precision, text)
}

/// `text::parse` with a writer for `dialect` in `precision`.
fn parse_for(dialect: Dialect, precision: Precision, text: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, dialect)
        .with_full_objects(true)
        .with_heap_spill(true)
        .with_precision(precision);
    text::parse_into(&mut w, text).map_err(|e| e.to_string())?;
    w.finish().map_err(|e| e.to_string())?;
    Ok(out)
}

#[test]
fn godot4_reads_text_as_the_4_6_engine_does() {
    reads_text_as_the_engine(Dialect::GODOT_4, str_to_var_rows(), Precision::Single);
}

/// The engines older than 4.6 (`tests/godot4/older/`), each read in its version's dialect,
/// single and double precision (the `-double` directories: `precision=double` builds).
fn older_engines() -> impl Iterator<Item = (String, Dialect, Precision)> {
    support::GODOT4_OLDER
        .into_iter()
        .flat_map(|(version, dialect)| {
            [
                (version.to_string(), dialect, Precision::Single),
                (format!("{version}-double"), dialect, Precision::Double),
            ]
        })
}

/// These engines are native x86-64 builds: the texts with an out-of-range integer component
/// give the integer minimum there (see [`platform_dependent_4`]); `parse` gives the web
/// build's answer, checked against those rows only for that difference.
#[test]
fn godot4_reads_text_as_the_older_engines_do() {
    for (version, dialect, precision) in older_engines() {
        let rows: Vec<Row4> = rows4(&format!("godot4_older/{version}/str_to_var.jsonl"))
            .into_iter()
            .filter(|r| {
                let native = platform_dependent_4(&r.text);
                if native {
                    let ours = parse_for(dialect, precision, &r.text).unwrap();
                    assert_ne!(
                        ours, r.hex,
                        "{version} {}: no longer platform-dependent?",
                        r.name
                    );
                }
                !native
            })
            .collect();
        reads_text_as_the_engine(dialect, rows, precision);
    }
}

#[test]
fn godot4_text_writer_matches_the_older_engines() {
    for (version, dialect, precision) in older_engines() {
        let rows = rows4(&format!("godot4_older/{version}/str_to_var.jsonl"));
        text_writer_matches(dialect, precision, rows);
    }
}

/// A double-precision build reads its texts into 64-bit math; so does `parse` with a
/// double-precision writer.
#[test]
fn godot4_reads_text_as_the_double_precision_engine_does() {
    let web: std::collections::BTreeMap<String, Vec<u8>> = str_to_var_rows()
        .into_iter()
        .map(|r| (r.name, r.hex))
        .collect();
    let rows: Vec<Row4> = str_to_var_double_rows()
        .into_iter()
        .filter(|r| {
            if !platform_dependent_4(&r.text) {
                return true;
            }
            // Ours is the web build's answer, which this native build does not give.
            let ours = parse_in(Precision::Double, &r.text).unwrap();
            assert_eq!(hex_of(&ours), hex_of(&web[&r.name]), "{}", r.name);
            assert_ne!(ours, r.hex, "{}: no longer platform-dependent?", r.name);
            false
        })
        .collect();
    assert_eq!(str_to_var_double_rows().len() - rows.len(), 5);
    reads_text_as_the_engine(Dialect::GODOT_4, rows, Precision::Double);
}

fn reads_text_as_the_engine(dialect: Dialect, rows: Vec<Row4>, precision: Precision) {
    let (mut same, mut both_refuse, mut on_purpose) = (0, 0, 0);
    let mut failures = Vec::new();
    for r in rows {
        let ours = parse_for(dialect, precision, &r.text);
        let label = format!("{dialect} {} {:?}", r.name, r.text);
        match (&ours, r.read) {
            (Ok(b), true) if *b == r.hex => same += 1,
            (Ok(_), true) if differs_on_purpose_4(dialect, precision, &r.text).is_some() => {
                on_purpose += 1
            }
            (Ok(b), true) => failures.push(format!(
                "{label}: engine {} ours {}",
                hex_of(&r.hex),
                hex_of(b)
            )),
            (Ok(b), false) => failures.push(format!(
                "{label}: the engine refuses it, ours {}",
                hex_of(b)
            )),
            (Err(_), false) => both_refuse += 1,
            (Err(_), true) if refused_on_purpose_4(dialect, &r.text).is_some() => on_purpose += 1,
            (Err(e), true) => failures.push(format!("{label}: the engine reads it, ours: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
    println!("same bytes {same}, both refuse {both_refuse}, on purpose {on_purpose}");
    assert!(
        same >= 185 && both_refuse >= 20,
        "fixture shrank? {same} {both_refuse}"
    );
}

/// `gdwire::text` (the Godot 4 writer) prints what the 4.6 engine's `var_to_str` prints, for
/// the bytes `var_to_bytes` gives of each value.
#[test]
fn godot4_text_writer_matches_the_4_6_engine() {
    text_writer_matches(Dialect::GODOT_4, Precision::Single, str_to_var_rows());
}

/// The same for a double-precision build, which prints its 64-bit math in full.
#[test]
fn godot4_text_writer_matches_the_double_precision_engine() {
    text_writer_matches(
        Dialect::GODOT_4,
        Precision::Double,
        str_to_var_double_rows(),
    );
}

fn text_writer_matches(dialect: Dialect, precision: Precision, rows: Vec<Row4>) {
    let mut checked = 0;
    for r in rows {
        let Some(bytes) = &r.value else { continue };
        if !dialect.has_typed_arrays() && r.text.starts_with("Array[") {
            // The engine printed the typed array it held; its bytes (before 4.3) are plain.
            continue;
        }
        let read = Decoder::new(dialect).decode_exact(bytes);
        if unflagged_math_4(dialect, precision, &r.text) {
            // The engine printed the value it held; its bytes do not say it.
            assert!(read.is_err(), "{dialect} {}: now read back exactly", r.name);
            continue;
        }
        let v = read.unwrap();
        let printed = text::to_text(dialect, &v).unwrap();
        if r.name == "array_typed_node" {
            // var_to_bytes (no full objects) sends the class as "EncodedObjectAsID", and the
            // text of those bytes says so; the engine printed the live array's class.
            assert_eq!(printed, "Array[EncodedObjectAsID]([])");
            continue;
        }
        assert_eq!(printed, r.text, "{dialect} {}", r.name);
        checked += 1;
    }
    assert!(checked >= 65, "{checked}");
}

/// A line of the engine's `JSON.stringify`, which leaves control characters other than
/// `\n \t \r \b \f` raw (invalid JSON): escaped before parsing.
fn json_line(line: &str) -> Value {
    let mut fixed = String::with_capacity(line.len());
    for c in line.chars() {
        if (c as u32) < 0x20 {
            fixed.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            fixed.push(c);
        }
    }
    serde_json::from_str(&fixed).unwrap()
}

/// Found by the `text_parse` fuzz target: Godot 3.2.3's `Array <` contradicts itself (it
/// answers "less" as soon as an element is not less), so array keys sort into an order that
/// depends on the order they came in, in the engine as in `gdwire::text`; reading a printed
/// dictionary and printing it again can reorder the entries. The entries themselves survive.
#[test]
fn godot3_array_keys_keep_their_entries_through_text() {
    let t = "{\n[ 1 ]: 12,\n[ 0, 0 ]: 1,\n[  ]: 18,\n[ 0, 2 ]: 9,\n[ 1, 0 ]: 19,\n[ 1, 1, 0 ]: 10,\n[ 2, 0, 1 ]: 5,\n[ 0 ]: 17,\n[ 0, 2, 2 ]: 16,\n[ 0, 0, 0 ]: 15\n}";
    let d = Dialect::GODOT_3;
    let print = |b: &[u8]| text::to_text(d, &Decoder::new(d).decode_exact(b).unwrap()).unwrap();
    let lines = |t: &str| {
        let mut l: Vec<String> = t
            .lines()
            .map(|l| l.trim_end_matches(',').to_owned())
            .collect();
        l.sort();
        l
    };
    let mut t1 = t.to_owned();
    for _ in 0..4 {
        let b = text::parse(d, &t1).unwrap();
        let t2 = print(&b);
        assert_eq!(lines(&t2), lines(t));
        t1 = t2;
    }
}

/// Found by the `text_parse` fuzz target: a script-typed container whose script is not a
/// `res://` path was written, and the reader (like the engine, which cannot load it) refused
/// the bytes. Now the parser refuses such a path.
#[test]
fn script_types_need_a_res_path() {
    let err = text::parse(Dialect::GODOT_4, "Array[Resource(\".gd\")]([])").unwrap_err();
    assert!(err.to_string().contains("res://"), "{err}");
    let ok = text::parse(Dialect::GODOT_4, "Array[Resource(\"res://a.gd\")]([])").unwrap();
    Decoder::new(Dialect::GODOT_4)
        .with_allow_objects(true)
        .decode_exact(&ok)
        .unwrap();
}

/// Found by the `text_parse` fuzz target: the engine's `strtod` is not correctly rounded for
/// large exponents, so the shortest digits of a value it read may read back as a neighbouring
/// double. The engine's own reading of these texts is in the Godot 3 and 4.6 fixtures (probes
/// `1.00001521611732e308` and `1.0000152161173201e+308`), which `parse` matches.
#[test]
fn large_exponents_read_as_the_engines_read_them() {
    let d = Dialect::GODOT_4;
    let once = text::parse(d, "1.00001521611732e308").unwrap();
    let t = text::to_text(d, &Decoder::new(d).decode_exact(&once).unwrap()).unwrap();
    assert_eq!(t, "1.0000152161173201e+308");
    let exact: f64 = "1.00001521611732e308".parse().unwrap();
    assert_ne!(once[4..12], exact.to_le_bytes());
    for rows in [
        str2var_rows()
            .iter()
            .map(|r| (r.text.clone(), r.hex.clone()))
            .collect::<Vec<_>>(),
        str_to_var_rows()
            .iter()
            .map(|r| (r.text.clone(), Some(r.hex.clone())))
            .collect(),
    ] {
        let probes: Vec<_> = rows
            .iter()
            .filter(|(t, _)| t.starts_with("1.0000152161173"))
            .collect();
        assert_eq!(probes.len(), 2);
    }
}

/// Throughput of `parse` on the Godot 3 fixture texts in one array (about 10 MB of text).
/// `cargo test --release --all-features --test text_parse -- --ignored --nocapture throughput`
#[test]
#[ignore = "timing; run with --release"]
fn throughput() {
    let rows: Vec<String> = str2var_rows()
        .into_iter()
        .filter(|r| r.read && r.hex.is_some() && text::parse(Dialect::GODOT_3, &r.text).is_ok())
        .filter(|r| std::env::var("NODICT").is_err() || !r.text.contains('{'))
        .map(|r| r.text)
        .collect();
    // A probe may end in a `;` comment: the comma goes on the next line.
    let one = rows.join("\n,\n");
    let copies = (10 << 20) / one.len() + 1;
    let big = format!("[\n{}\n]", vec![one.as_str(); copies].join("\n,\n"));
    let start = std::time::Instant::now();
    let bytes = text::parse(Dialect::GODOT_3, &big).unwrap();
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{:.1} MB of text -> {:.1} MB of wire bytes in {:.3} s: {:.0} MB/s",
        big.len() as f64 / 1e6,
        bytes.len() as f64 / 1e6,
        secs,
        big.len() as f64 / 1e6 / secs
    );
}
