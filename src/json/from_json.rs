//! JSON → wire bytes through a [`Writer`]. Iterative over the JSON tree.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{Map, Value};

use crate::dialect::Dialect;
use crate::json::float::{parse_f32_special, parse_f64_text};
use crate::json::names::{name_bytes, parse_container_type, type_by_name};
use crate::json::parse::Parser;
use crate::json::{JsonError, Options};
use crate::lines::LineCounter;
use crate::math::{
    Aabb, Basis, Color, Plane, Precision, Projection, Quaternion, Rect2, Rect2i, Transform2D,
    Transform3D, Vector2, Vector2i, Vector3, Vector3i, Vector4, Vector4i, WireReals,
};
use crate::read::ContainerType;
use crate::variant_type::VariantType;
use crate::write::{Sink, Writer};

use VariantType as T;

/// Parses one JSON document and encodes it in `dialect`; the inverse of
/// [`crate::json::write_json`]. Output is canonical (what the engine writes for the value).
/// Full objects and typed-container class names are written as given.
///
/// The parser keeps its own stack: nesting is limited by
/// [`MAX_JSON_DEPTH`](crate::json::MAX_JSON_DEPTH), never by the thread's stack. A key repeated in one object is an error.
///
/// ```
/// use gdwire::{json, Dialect};
/// let bytes = json::from_json_str(Dialect::GODOT_3, r#"{"type":"Vector2","args":[1.5,-2.0]}"#)?;
/// assert_eq!(bytes, [5, 0, 0, 0, 0, 0, 0xc0, 0x3f, 0, 0, 0, 0xc0]);
/// assert_eq!(json::from_json_str(Dialect::GODOT_4, r#""i:5""#)?, [2, 0, 0, 0, 5, 0, 0, 0]);
/// # Ok::<(), gdwire::json::JsonError>(())
/// ```
pub fn from_json_str(dialect: Dialect, text: &str) -> Result<Vec<u8>, JsonError> {
    from_json_str_with(dialect, text, Options::STRICT)
}

/// [`from_json_str`] with [`Options`]: `Options::ENGINE` also reads what Godot's
/// `JSON.stringify` writes beyond RFC 8259, the way the engine reads it.
///
/// ```
/// use gdwire::{json, Dialect};
/// // JSON.stringify(JSON.from_native(-INF)) inside an array, in Godot 4.6.
/// let text = r#"{"type":"PackedFloat64Array","args":[-1e99999]}"#;
/// let bytes = json::from_json_str_with(Dialect::GODOT_4, text, json::Options::ENGINE)?;
/// assert_eq!(&bytes[8..], (-f64::INFINITY).to_le_bytes());
/// # Ok::<(), gdwire::json::JsonError>(())
/// ```
pub fn from_json_str_with(
    dialect: Dialect,
    text: &str,
    options: Options,
) -> Result<Vec<u8>, JsonError> {
    let mut parser = Parser::with_options(text, options);
    let value = parser.document()?;
    let result = if parser.more() {
        Err(parser.error("trailing characters"))
    } else {
        from_json_value_with(dialect, &value, options)
    };
    parser.discard(value);
    result
}

/// Reads the JSON documents of `text` one after another (separated by optional whitespace,
/// one per line as `gdwire dump --format json` prints them) and encodes each in `dialect`,
/// like [`from_json_str`]. After a syntax error the iterator ends: there is no telling where
/// the next document would start.
///
/// ```
/// use gdwire::{json, Dialect};
/// let mut docs = json::documents(Dialect::GODOT_4, "\"i:5\"\n[\"s:a\"]\n");
/// assert_eq!(docs.next().unwrap()?, [2, 0, 0, 0, 5, 0, 0, 0]);
/// assert_eq!(docs.line(), 1);
/// assert_eq!(docs.next().unwrap()?.len(), 20);
/// assert_eq!(docs.line(), 2);
/// assert!(docs.next().is_none());
/// # Ok::<(), gdwire::json::JsonError>(())
/// ```
pub fn documents(dialect: Dialect, text: &str) -> Documents<'_> {
    documents_with(dialect, text, Options::STRICT)
}

/// [`documents`] with [`Options`] (`Options::ENGINE`: also what Godot's `JSON.stringify`
/// writes).
///
/// ```
/// use gdwire::{json, Dialect};
/// let text = "\"s:a\u{1}b\"\n[\"f:inf\"]\n";
/// let docs: Vec<_> = json::documents_with(Dialect::GODOT_4, text, json::Options::ENGINE)
///     .collect::<Result<_, _>>()?;
/// assert_eq!(docs.len(), 2);
/// assert!(json::documents(Dialect::GODOT_4, text).next().unwrap().is_err());
/// # Ok::<(), gdwire::json::JsonError>(())
/// ```
pub fn documents_with(dialect: Dialect, text: &str, options: Options) -> Documents<'_> {
    Documents {
        parser: Parser::with_options(text, options),
        options,
        dialect,
        start: 0,
        lines: LineCounter::new(),
        ended: false,
    }
}

/// Iterator over the encoded JSON documents of a text; see [`documents`].
///
/// ```
/// use gdwire::{json, Dialect};
/// let docs: Vec<Vec<u8>> = json::documents(Dialect::GODOT_4, "\"i:1\"\nnull\n").collect::<Result<_, _>>()?;
/// assert_eq!(docs, [vec![2, 0, 0, 0, 1, 0, 0, 0], vec![0, 0, 0, 0]]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Documents<'t> {
    parser: Parser<'t>,
    options: Options,
    dialect: Dialect,
    start: usize,
    lines: LineCounter,
    ended: bool,
}

impl core::fmt::Debug for Documents<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Documents")
            .field("dialect", &self.dialect)
            .field("offset", &self.start)
            .field("ended", &self.ended)
            .finish_non_exhaustive()
    }
}

impl Documents<'_> {
    /// Byte offset where the document last returned (or failed) starts.
    ///
    /// ```
    /// use gdwire::{json, Dialect};
    /// let mut docs = json::documents(Dialect::GODOT_4, "null true");
    /// docs.next();
    /// docs.next();
    /// assert_eq!(docs.offset(), 5);
    /// ```
    pub fn offset(&self) -> usize {
        self.start
    }

    /// 1-based line where the document last returned (or failed) starts.
    ///
    /// ```
    /// use gdwire::{json, Dialect};
    /// let mut docs = json::documents(Dialect::GODOT_4, "null\n\n{\"type\":\"Vector2\",\"args\":[1]}");
    /// docs.next();
    /// assert!(docs.next().unwrap().is_err());
    /// assert_eq!(docs.line(), 3); // where the failing document starts
    /// ```
    pub fn line(&self) -> usize {
        self.lines
            .line_at(self.parser.text().as_bytes(), self.start)
    }
}

impl Iterator for Documents<'_> {
    type Item = Result<Vec<u8>, JsonError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.ended || !self.parser.more() {
            self.ended = true;
            return None;
        }
        self.start = self.parser.offset();
        let value = match self.parser.document() {
            Ok(v) => v,
            Err(e) => {
                self.ended = true;
                return Some(Err(e));
            }
        };
        let result = from_json_value_with(self.dialect, &value, self.options);
        self.parser.discard(value);
        Some(result)
    }
}

impl core::iter::FusedIterator for Documents<'_> {}

/// Encodes a parsed JSON document in `dialect` (see [`from_json_str`]).
///
/// ```
/// use gdwire::{json, Dialect};
/// let value = serde_json::json!({"type": "Vector2i", "args": [3, -4]});
/// assert_eq!(json::from_json_value(Dialect::GODOT_4, &value)?, [6, 0, 0, 0, 3, 0, 0, 0, 0xfc, 0xff, 0xff, 0xff]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn from_json_value(dialect: Dialect, value: &Value) -> Result<Vec<u8>, JsonError> {
    from_json_value_with(dialect, value, Options::STRICT)
}

/// [`from_json_value`] with [`Options`]: with `Options::ENGINE`, `null` in a float slot of
/// `args` is `0.0` (how the engine reads the `null` its `JSON.stringify` writes for NaN).
///
/// ```
/// use gdwire::{json, Dialect};
/// let v = serde_json::json!({"type": "PackedFloat32Array", "args": [null]});
/// let bytes = json::from_json_value_with(Dialect::GODOT_4, &v, json::Options::ENGINE)?;
/// assert_eq!(bytes, [0x20, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
/// assert!(json::from_json_value(Dialect::GODOT_4, &v).is_err());
/// # Ok::<(), gdwire::json::JsonError>(())
/// ```
pub fn from_json_value_with(
    dialect: Dialect,
    value: &Value,
    options: Options,
) -> Result<Vec<u8>, JsonError> {
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, dialect)
        .with_full_objects(true)
        .with_heap_spill(true)
        .with_precision(options.precision);
    walk(&mut w, value, "$", options)?;
    w.finish().map_err(|e| JsonError::encode(e, "$"))?;
    Ok(out)
}

/// Writes a parsed JSON document as the next item of `w` (in `w`'s dialect), so JSON values
/// can be placed inside containers written with the streaming calls, into any [`Sink`].
/// Real-valued math types and packed vector arrays keep the precision the JSON gives
/// (`"precision"`); where it gives none, the writer's ([`Writer::with_precision`]). Full
/// objects need [`Writer::with_full_objects`], and values with more than 64 containers owing
/// items at once [`Writer::with_heap_spill`] ([`from_json_str`] and [`from_json_value`] set
/// both).
///
/// ```
/// use gdwire::{json, Dialect, Writer};
/// let mut buf = [0u8; 32];
/// let mut w = Writer::new(&mut buf[..], Dialect::GODOT_4);
/// w.begin_array(1)?;
/// json::write_json_value(&mut w, &serde_json::json!("s:hi"))?;
/// let n = w.finish()?;
/// assert_eq!(&buf[..n], [0x1c, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'i', 0, 0]);
/// # Ok::<(), gdwire::json::JsonError>(())
/// ```
pub fn write_json_value<S: Sink>(w: &mut Writer<S>, value: &Value) -> Result<(), JsonError> {
    walk(w, value, "$", Options::STRICT)
}

/// A container whose JSON items are still to be written.
struct Open<'j> {
    items: &'j [Value],
    next: usize,
    /// Object properties: (name, value) pairs.
    props: bool,
    label: &'static str,
}

fn path(base: &str, stack: &[Open<'_>]) -> String {
    let mut p = String::from(base);
    for f in stack {
        p.push_str(&format!("{}[{}]", f.label, f.next.saturating_sub(1)));
    }
    p
}

fn walk<S: Sink>(
    w: &mut Writer<S>,
    value: &Value,
    base: &str,
    options: Options,
) -> Result<(), JsonError> {
    let engine = options.engine_compatible;
    let mut stack: Vec<Open<'_>> = Vec::new();
    let mut next = Some(value);
    loop {
        if let Some(v) = next.take() {
            match head(w, v, engine) {
                Ok(Some(frame)) => stack.push(frame),
                Ok(None) => {}
                Err(Fail::Msg(msg)) => return Err(JsonError::invalid(msg, path(base, &stack))),
                Err(Fail::Wire(e)) => return Err(JsonError::encode(e, &path(base, &stack))),
            }
        }
        let Some(top) = stack.last_mut() else {
            return Ok(());
        };
        let Some(item) = top.items.get(top.next) else {
            stack.pop();
            continue;
        };
        top.next += 1;
        if top.props {
            let name = name_bytes(item)
                .and_then(|b| String::from_utf8(b).ok())
                .ok_or_else(|| {
                    let msg = "property name must be a UTF-8 string".to_string();
                    JsonError::invalid(msg, path(base, &stack))
                })?;
            w.property_name(&name)
                .map_err(|e| JsonError::encode(e, &path(base, &stack)))?;
            let top = stack.last_mut().expect("frame just used");
            let Some(value) = top.items.get(top.next) else {
                return Err(JsonError::invalid(
                    "props needs a value after each name".to_string(),
                    path(base, &stack),
                ));
            };
            top.next += 1;
            next = Some(value);
        } else {
            next = Some(item);
        }
    }
}

/// Why one JSON value could not be written.
enum Fail {
    Msg(String),
    Wire(crate::Error),
}

impl From<crate::Error> for Fail {
    fn from(e: crate::Error) -> Fail {
        Fail::Wire(e)
    }
}

fn msg<T>(m: impl Into<String>) -> Result<T, Fail> {
    Err(Fail::Msg(m.into()))
}

/// Only these keys may appear (catches typos that would otherwise drop data silently).
fn check_keys(m: &Map<String, Value>, allowed: &[&str]) -> Result<(), Fail> {
    match m.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(k) => msg(format!("unexpected key \"{k}\"")),
        None => Ok(()),
    }
}

fn args(m: &Map<String, Value>) -> Result<&[Value], Fail> {
    match m.get("args") {
        Some(Value::Array(a)) => Ok(a),
        _ => msg("\"args\" must be an array"),
    }
}

/// The `"precision"` a math value's JSON gives, else `unmarked`.
fn precision(m: &Map<String, Value>, unmarked: Precision) -> Result<Precision, Fail> {
    match m.get("precision").map(|p| p.as_str()) {
        None => Ok(unmarked),
        Some(Some("single")) => Ok(Precision::Single),
        Some(Some("double")) => Ok(Precision::Double),
        _ => msg("\"precision\" must be \"single\" or \"double\""),
    }
}

fn u64_string(m: &Map<String, Value>, key: &str) -> Result<Option<u64>, Fail> {
    match m.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => match s.parse::<u64>() {
            Ok(v) => Ok(Some(v)),
            Err(_) => msg(format!("\"{key}\" must be a decimal u64 string")),
        },
        Some(Value::Number(n)) if n.as_u64().is_some() => Ok(n.as_u64()),
        Some(_) => msg(format!("\"{key}\" must be a decimal u64 string")),
    }
}

/// A real component: a JSON number or a special token (`inf`, `nan`, `nan:0x…` of the
/// slot's width).
fn real(v: &Value, single: bool, engine: bool) -> Result<f64, Fail> {
    let parsed = match v {
        Value::Number(n) => n.as_f64(),
        // The engine's NaN, which its `to_native` reads as 0.
        Value::Null if engine => Some(0.0),
        Value::String(s) if single => parse_f32_special(s).map(f64::from),
        Value::String(s) => parse_f64_text(s).filter(|x| !x.is_finite()),
        _ => None,
    };
    match parsed {
        Some(x) => Ok(x),
        None => msg(format!(
            "expected a number, \"inf\", \"-inf\" or \"nan\", got {}",
            shown(v)
        )),
    }
}

/// A JSON value for an error message: scalars as written, containers by kind only
/// (serde_json's `Display` recurses per level, and a message need not quote a subtree).
fn shown(v: &Value) -> String {
    match v {
        Value::Array(a) => format!("an array of {} items", a.len()),
        Value::Object(m) => format!("an object of {} keys", m.len()),
        v => v.to_string(),
    }
}

/// An `f32` slot, kept as `f32` so signalling NaNs are not quieted by a widening.
fn real32(v: &Value, engine: bool) -> Result<f32, Fail> {
    match v {
        Value::String(s) => match parse_f32_special(s) {
            Some(x) => Ok(x),
            None => msg(format!(
                "expected a number, \"inf\", \"-inf\" or \"nan\", got {}",
                shown(v)
            )),
        },
        _ => real(v, true, engine).map(crate::float_width::narrow),
    }
}

fn reals32(args: &[Value], engine: bool) -> Result<Vec<f32>, Fail> {
    args.iter().map(|v| real32(v, engine)).collect()
}

fn reals(args: &[Value], single: bool, engine: bool) -> Result<Vec<f64>, Fail> {
    args.iter().map(|v| real(v, single, engine)).collect()
}

fn int<T: TryFrom<i64>>(v: &Value) -> Result<T, Fail> {
    match v.as_i64().and_then(|i| T::try_from(i).ok()) {
        Some(x) => Ok(x),
        None => msg(format!("expected an integer in range, got {}", shown(v))),
    }
}

fn ints<T: TryFrom<i64>>(args: &[Value]) -> Result<Vec<T>, Fail> {
    args.iter().map(int).collect()
}

fn exact_len(args: &[Value], n: usize, ty: &str) -> Result<(), Fail> {
    if args.len() != n {
        return msg(format!("{ty} needs {n} args, got {}", args.len()));
    }
    Ok(())
}

fn multiple_of(args: &[Value], n: usize, ty: &str) -> Result<(), Fail> {
    if args.len() % n != 0 {
        return msg(format!(
            "{ty} needs a multiple of {n} args, got {}",
            args.len()
        ));
    }
    Ok(())
}

fn chunks<const N: usize, E: Copy + Default>(flat: &[E]) -> Vec<[E; N]> {
    flat.chunks_exact(N)
        .map(|c| {
            let mut a = [E::default(); N];
            a.copy_from_slice(c);
            a
        })
        .collect()
}

/// Writes a math value from components in `from_native` order (Basis columns first).
fn write_math<S: Sink>(
    w: &mut Writer<S>,
    ty: VariantType,
    c: &[f64],
    p: Precision,
) -> crate::Result<()> {
    let col = |i: usize| Vector3 {
        x: c[i],
        y: c[i + 1],
        z: c[i + 2],
    };
    macro_rules! put {
        ($variant:ident, $value:expr) => {
            w.leaf(|w| w.put_reals(T::$variant, &$value, p))?
        };
    }
    match ty {
        T::Vector2 => put!(Vector2, Vector2::from_wire(c)),
        T::Rect2 => put!(Rect2, Rect2::from_wire(c)),
        T::Vector3 => put!(Vector3, Vector3::from_wire(c)),
        T::Transform2D => put!(Transform2D, Transform2D::from_wire(c)),
        T::Vector4 => put!(Vector4, Vector4::from_wire(c)),
        T::Plane => put!(Plane, Plane::from_wire(c)),
        T::Quaternion => put!(Quaternion, Quaternion::from_wire(c)),
        T::Aabb => put!(Aabb, Aabb::from_wire(c)),
        T::Basis => put!(Basis, Basis::from_columns(col(0), col(3), col(6))),
        T::Transform3D => put!(
            Transform3D,
            Transform3D {
                basis: Basis::from_columns(col(0), col(3), col(6)),
                origin: col(9),
            }
        ),
        _ => put!(Projection, Projection::from_wire(c)),
    }
    Ok(())
}

/// Writes one JSON value's wire form up to its items; returns the items still to write.
fn head<'j, S: Sink>(
    w: &mut Writer<S>,
    v: &'j Value,
    engine: bool,
) -> Result<Option<Open<'j>>, Fail> {
    match v {
        Value::Null => w.nil()?,
        Value::Bool(b) => w.bool(*b)?,
        Value::Number(_) => {
            return msg("bare JSON numbers are ambiguous: write \"i:<int>\" or \"f:<float>\"")
        }
        Value::String(s) => prefixed(w, s)?,
        Value::Array(items) => {
            w.begin_array(items.len())?;
            return Ok(frame(items, false, ""));
        }
        Value::Object(m) => return typed(w, m, engine),
    }
    Ok(None)
}

fn frame<'j>(items: &'j [Value], props: bool, label: &'static str) -> Option<Open<'j>> {
    (!items.is_empty()).then_some(Open {
        items,
        next: 0,
        props,
        label,
    })
}

fn prefixed<S: Sink>(w: &mut Writer<S>, s: &str) -> Result<(), Fail> {
    if let Some(t) = s.strip_prefix("i:") {
        match t.parse::<i64>() {
            Ok(i) => w.int(i)?,
            Err(_) => return msg(format!("\"i:\" needs a decimal i64, got {t:?}")),
        }
    } else if let Some(t) = s.strip_prefix("f:") {
        match parse_f64_text(t) {
            Some(f) => w.float(f)?,
            None => return msg(format!("\"f:\" needs a float, inf, -inf or nan, got {t:?}")),
        }
    } else if let Some(t) = s.strip_prefix("s:") {
        w.string(t)?;
    } else if let Some(t) = s.strip_prefix("sn:") {
        w.string_name(t)?;
    } else if let Some(t) = s.strip_prefix("np:") {
        w.node_path_str(t)?;
    } else {
        return msg(format!(
            "string without a type prefix (i:, f:, s:, sn:, np:): {s:?}"
        ));
    }
    Ok(())
}

fn typed<'j, S: Sink>(
    w: &mut Writer<S>,
    m: &'j Map<String, Value>,
    engine: bool,
) -> Result<Option<Open<'j>>, Fail> {
    let dialect = w.dialect();
    let Some(Value::String(name)) = m.get("type") else {
        return msg("object without a string \"type\"");
    };
    if let Some(props) = m.get("props") {
        check_keys(m, &["type", "class", "props"])?;
        let class = match m.get("class") {
            Some(c) => name_bytes(c).and_then(|b| String::from_utf8(b).ok()),
            None => Some(name.clone()),
        };
        let Some(class) = class else {
            return msg("object class name must be a UTF-8 string");
        };
        let Value::Array(props) = props else {
            return msg("\"props\" must be an array");
        };
        if props.len() % 2 != 0 {
            return msg("\"props\" needs (name, value) pairs");
        }
        w.begin_object(&class, props.len() / 2)?;
        return Ok(frame(props, true, ".props"));
    }
    let Some(ty) = type_by_name(dialect, name) else {
        return msg(format!("unknown type {name:?} for {dialect}"));
    };
    let tn = name.as_str();
    match ty {
        T::Nil | T::Bool | T::Int | T::Float => {
            return msg(format!(
                "{tn} is written as a JSON literal or \"i:\"/\"f:\" string"
            ))
        }
        T::String | T::StringName => {
            check_keys(m, &["type", "hex"])?;
            let Some(bytes) = m.get("hex").and_then(Value::as_str).and_then(parse_hex_str) else {
                return msg(format!("{tn} object form needs \"hex\""));
            };
            w.text_bytes(ty, &bytes)?;
        }
        T::Vector2
        | T::Rect2
        | T::Vector3
        | T::Transform2D
        | T::Vector4
        | T::Plane
        | T::Quaternion
        | T::Aabb
        | T::Basis
        | T::Transform3D
        | T::Projection => {
            check_keys(m, &["type", "args", "precision"])?;
            let a = args(m)?;
            let n = ty.real_components().unwrap_or(0);
            exact_len(a, n, tn)?;
            let p = precision(m, w.precision())?;
            let c = reals(a, p == Precision::Single, engine)?;
            write_math(w, ty, &c, p)?;
        }
        T::Vector2i | T::Vector3i | T::Vector4i | T::Rect2i => {
            check_keys(m, &["type", "args"])?;
            let a = args(m)?;
            exact_len(a, ty.int_components().unwrap_or(0), tn)?;
            let c: Vec<i32> = ints(a)?;
            match ty {
                T::Vector2i => w.vector2i(Vector2i { x: c[0], y: c[1] })?,
                T::Vector3i => w.vector3i(Vector3i {
                    x: c[0],
                    y: c[1],
                    z: c[2],
                })?,
                T::Vector4i => w.vector4i(Vector4i {
                    x: c[0],
                    y: c[1],
                    z: c[2],
                    w: c[3],
                })?,
                _ => w.rect2i(Rect2i {
                    position: Vector2i { x: c[0], y: c[1] },
                    size: Vector2i { x: c[2], y: c[3] },
                })?,
            }
        }
        T::Color => {
            check_keys(m, &["type", "args"])?;
            let a = args(m)?;
            exact_len(a, 4, tn)?;
            let c = reals32(a, engine)?;
            w.color(Color {
                r: c[0],
                g: c[1],
                b: c[2],
                a: c[3],
            })?;
        }
        T::NodePath => {
            check_keys(m, &["type", "absolute", "names", "subnames"])?;
            let list = |key: &str| -> Result<Vec<Vec<u8>>, Fail> {
                match m.get(key) {
                    None => Ok(Vec::new()),
                    Some(Value::Array(a)) => a
                        .iter()
                        .map(|n| name_bytes(n).ok_or(()))
                        .collect::<Result<_, _>>()
                        .or_else(|_| msg(format!("\"{key}\" must hold strings"))),
                    Some(_) => msg(format!("\"{key}\" must be an array")),
                }
            };
            let (names, subnames) = (list("names")?, list("subnames")?);
            let absolute = match m.get("absolute") {
                None => false,
                Some(Value::Bool(b)) => *b,
                Some(_) => return msg("\"absolute\" must be a bool"),
            };
            w.node_path_bytes(absolute, &names, &subnames)?;
        }
        T::Rid => {
            check_keys(m, &["type", "id"])?;
            w.rid(u64_string(m, "id")?.unwrap_or(0))?;
        }
        T::Object => {
            check_keys(m, &["type", "id"])?;
            // Id 0 is a null object, written as Nil like the engine does.
            w.object_id(u64_string(m, "id")?.unwrap_or(0))?;
        }
        T::Callable => {
            check_keys(m, &["type"])?;
            w.callable()?;
        }
        T::Signal => {
            check_keys(m, &["type", "name", "id"])?;
            let name = m.get("name").map_or(Some(Vec::new()), name_bytes);
            let Some(name) = name else {
                return msg("Signal \"name\" must be a string");
            };
            w.signal_bytes(&name, u64_string(m, "id")?.unwrap_or(0))?;
        }
        T::Dictionary => {
            check_keys(m, &["type", "key_type", "value_type", "args"])?;
            let a = args(m)?;
            if a.len() % 2 != 0 {
                return msg("Dictionary needs (key, value) pairs in \"args\"");
            }
            let (mut kb, mut vb) = (Vec::new(), Vec::new());
            let key = elem(dialect, m.get("key_type"), &mut kb)?;
            let value = elem(dialect, m.get("value_type"), &mut vb)?;
            w.dictionary_of(a.len() / 2, key, value)?;
            return Ok(frame(a, false, ".args"));
        }
        T::Array | T::TypedArray | T::PackedTypedArray => {
            check_keys(m, &["type", "elem_type", "args"])?;
            let a = args(m)?;
            let mut buf = Vec::new();
            let e = elem(dialect, m.get("elem_type"), &mut buf)?;
            if e.is_none() && ty != T::Array {
                return msg(format!("{tn} needs \"elem_type\""));
            }
            w.array_of(ty, a.len(), e)?;
            return Ok(frame(a, false, ".args"));
        }
        T::PackedByteArray => {
            check_keys(m, &["type", "args"])?;
            w.packed_bytes(&ints::<u8>(args(m)?)?)?
        }
        T::PackedInt32Array => {
            check_keys(m, &["type", "args"])?;
            w.packed_i32(ints::<i32>(args(m)?)?)?
        }
        T::PackedInt64Array => {
            check_keys(m, &["type", "args"])?;
            w.packed_i64(ints::<i64>(args(m)?)?)?
        }
        T::PackedFloat32Array => {
            check_keys(m, &["type", "args"])?;
            w.packed_f32(reals32(args(m)?, engine)?)?
        }
        T::PackedFloat64Array => {
            check_keys(m, &["type", "args"])?;
            w.packed_f64(reals(args(m)?, false, engine)?)?
        }
        T::PackedStringArray => {
            check_keys(m, &["type", "args"])?;
            let items = args(m)?.iter().map(name_bytes).collect::<Option<Vec<_>>>();
            let Some(items) = items else {
                return msg("PackedStringArray args must be strings");
            };
            w.packed_string_bytes(&items)?;
        }
        T::PackedVector2Array | T::PackedVector3Array | T::PackedVector4Array => {
            check_keys(m, &["type", "args", "precision"])?;
            let a = args(m)?;
            let p = precision(m, w.precision())?;
            let n = match ty {
                T::PackedVector2Array => 2,
                T::PackedVector3Array => 3,
                _ => 4,
            };
            multiple_of(a, n, tn)?;
            let c = reals(a, p == Precision::Single, engine)?;
            // The precision is the JSON's, not `w`'s.
            match n {
                2 => w.packed_reals_in::<f64, 2, _>(ty, chunks::<2, f64>(&c), p)?,
                3 => w.packed_reals_in::<f64, 3, _>(ty, chunks::<3, f64>(&c), p)?,
                _ => w.packed_reals_in::<f64, 4, _>(ty, chunks::<4, f64>(&c), p)?,
            }
        }
        T::PackedColorArray => {
            check_keys(m, &["type", "args"])?;
            let a = args(m)?;
            multiple_of(a, 4, tn)?;
            w.packed_color(chunks::<4, f32>(&reals32(a, engine)?))?
        }
        T::PackedVector2iArray | T::PackedVector3iArray | T::PackedVector4iArray => {
            check_keys(m, &["type", "args"])?;
            let a = args(m)?;
            let c: Vec<i32> = ints(a)?;
            match ty {
                T::PackedVector2iArray => {
                    multiple_of(a, 2, tn)?;
                    w.packed_vector2i(chunks::<2, i32>(&c))?
                }
                T::PackedVector3iArray => {
                    multiple_of(a, 3, tn)?;
                    w.packed_vector3i(chunks::<3, i32>(&c))?
                }
                _ => {
                    multiple_of(a, 4, tn)?;
                    w.packed_vector4i(chunks::<4, i32>(&c))?
                }
            }
        }
    }
    Ok(None)
}

fn parse_hex_str(s: &str) -> Option<Vec<u8>> {
    crate::json::names::parse_hex(s)
}

/// The element type named by `v`, if any (its name kept in `buf`). `Nil` stays: Godot 4
/// writes it untyped, as the engine does, and Pandemonium 5 as a TypedArray of element id 0.
fn elem<'b>(
    dialect: Dialect,
    v: Option<&Value>,
    buf: &'b mut Vec<u8>,
) -> Result<Option<ContainerType<'b>>, Fail> {
    match v {
        None => Ok(None),
        Some(v) => match parse_container_type(dialect, v, buf) {
            Some(e) => Ok(Some(e)),
            None => msg(format!("invalid container element type {}", shown(v))),
        },
    }
}
