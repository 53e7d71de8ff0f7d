//! Decoded view → JSON text. Iterative: nesting depth costs heap, not stack.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result as ReadResult};
use crate::json::float::{write_f32, write_f64, write_f64_text};
use crate::json::names::{
    type_by_name, write_bytes_name, write_container_type, write_hex, write_prefixed_str, write_str,
};
use crate::json::JsonError;
use crate::math::{Precision, WireReals};
use crate::read::decoder::Decoder;
use crate::read::head::{read_head, Next};
use crate::read::quick_leaf;
use crate::read::skip::{traverse, Visit};
use crate::read::str_ref::string_block;
use crate::read::{ArrayKind, NodePathRef, ObjectRef, StrRef, VariantRef};
use crate::variant_type::VariantType;

/// Writes `value` as one JSON document (no newline) in the `JSON.from_native` convention of
/// Godot 4.4+, with this crate's lossless additions (see the [module docs](crate::json)).
///
/// Type names are `dialect`'s own (`PoolIntArray`, `Transform` in Godot 3). Containers are
/// written in one pass over their bytes (the reader's traversal), so any nesting the decoder
/// accepted is written without deep recursion.
///
/// ```
/// use gdwire::{from_bytes, json, Dialect};
/// // var2bytes(Vector2(1.5, -2)) in Godot 3.
/// let bytes = [5, 0, 0, 0, 0, 0, 0xc0, 0x3f, 0, 0, 0, 0xc0];
/// let v = from_bytes(Dialect::GODOT_3, &bytes)?;
/// let mut out = String::new();
/// json::write_json(&mut out, Dialect::GODOT_3, &v)?;
/// assert_eq!(out, r#"{"type":"Vector2","args":[1.5,-2.0]}"#);
/// # Ok::<(), gdwire::json::JsonError>(())
/// ```
pub fn write_json<W: Write>(
    out: &mut W,
    dialect: Dialect,
    value: &VariantRef<'_>,
) -> Result<(), JsonError> {
    let Some(items) = value.items() else {
        head(out, dialect, value)?;
        return Ok(());
    };
    // A container is written in one pass over its bytes by the reader's traversal; a view
    // not validated yet (a walker's) is checked as it is read, like its iterators would.
    let mut visit = Json {
        out,
        dialect,
        open: Vec::new(),
        first: true,
        named: false,
        validate: !items.checked,
        failed: None,
    };
    let depth = items.depth.saturating_sub(1);
    match traverse(&items.dec, items.data, items.header, depth, &mut visit) {
        Ok(_) => Ok(()),
        Err(e) => Err(visit.failed.take().unwrap_or(JsonError::Read(e))),
    }
}

/// [`write_json`] into a new `String`.
///
/// ```
/// use gdwire::{from_bytes, json, Dialect};
/// let v = from_bytes(Dialect::GODOT_4, &[2, 0, 0, 0, 5, 0, 0, 0])?;
/// assert_eq!(json::to_json_string(Dialect::GODOT_4, &v)?, r#""i:5""#);
/// # Ok::<(), gdwire::json::JsonError>(())
/// ```
pub fn to_json_string(dialect: Dialect, value: &VariantRef<'_>) -> Result<String, JsonError> {
    let mut out = String::new();
    write_json(&mut out, dialect, value)?;
    Ok(out)
}

/// The JSON writer on the reader's traversal, which hands over each value and property name
/// in wire order; on top it keeps what JSON needs: each open container's closing text and
/// the items it still owes.
struct Json<'w, W> {
    out: &'w mut W,
    dialect: Dialect,
    open: Vec<(&'static str, u32)>,
    /// The next item is the first of the innermost open container (no comma before it).
    first: bool,
    /// A property name was just written; its value follows without a comma.
    named: bool,
    validate: bool,
    /// The output's error, carried out of the traversal (which stops on any error).
    failed: Option<JsonError>,
}

impl<W: Write> Json<'_, W> {
    /// The comma before an item, unless it is the first or a property's value.
    fn separator(&mut self) -> Result<(), JsonError> {
        if core::mem::take(&mut self.named) {
            return Ok(());
        }
        if !core::mem::take(&mut self.first) {
            self.out.write_char(',')?;
        }
        Ok(())
    }

    /// An item is complete: its container owes one less, and closes when it owes none.
    fn item_done(&mut self) -> Result<(), JsonError> {
        while let Some((close, left)) = self.open.last_mut() {
            *left -= 1;
            if *left > 0 {
                break;
            }
            self.out.write_str(close)?;
            self.open.pop();
        }
        Ok(())
    }

    fn put(&mut self, v: &VariantRef<'_>, next: Next) -> Result<(), JsonError> {
        self.separator()?;
        let close = head(self.out, self.dialect, v)?;
        match (next, close) {
            (Next::Nest { values, .. }, Some(close)) if values > 0 => {
                self.open.push((close, values));
                self.first = true;
                Ok(())
            }
            (_, close) => {
                self.out.write_str(close.unwrap_or_default())?;
                self.item_done()
            }
        }
    }

    /// Keeps the output's error for [`write_json`] and stops the traversal.
    fn fail<T>(&mut self, r: Result<T, JsonError>, pos: usize) -> Result<T, Error> {
        r.map_err(|e| {
            self.failed = Some(e);
            // Never seen: `write_json` returns the kept error instead.
            Error::new(ErrorKind::InvalidText, pos)
        })
    }
}

impl<'a, W: Write> Visit<'a> for Json<'_, W> {
    #[inline]
    fn value(&mut self, dec: &Decoder, data: &'a [u8], pos: usize, depth: u32) -> ReadResult<Next> {
        let (v, next) = match quick_leaf(dec, data, pos, self.validate) {
            Some((v, end)) => (v, Next::Leaf(end)),
            None => read_head(dec, data, pos, depth, self.validate)?,
        };
        let r = self.put(&v, next);
        self.fail(r, pos)?;
        Ok(next)
    }

    fn name(&mut self, dec: &Decoder, data: &'a [u8], pos: usize) -> ReadResult<usize> {
        let (name, end) = string_block(data, pos, dec.dialect().text_rules(), self.validate)?;
        let r = self.separator().and_then(|()| {
            write_bytes_name(self.out, name.raw())?;
            Ok(self.out.write_char(',')?)
        });
        self.fail(r, pos)?;
        self.named = true;
        Ok(end)
    }

    fn validates(&self) -> bool {
        self.validate
    }
}

/// `{"type":"<name>"` (the caller closes it).
fn open_typed<W: Write>(out: &mut W, name: &str) -> Result<(), JsonError> {
    out.write_str("{\"type\":")?;
    write_str(out, name)?;
    Ok(())
}

fn precision_key<W: Write>(out: &mut W, p: Precision) -> Result<(), JsonError> {
    if p == Precision::Double {
        out.write_str(",\"precision\":\"double\"")?;
    }
    Ok(())
}

/// One real component at the precision it was sent with.
fn real<W: Write>(out: &mut W, v: f64, p: Precision) -> Result<(), JsonError> {
    match p {
        // Exact: a single-precision component was widened from this f32.
        Precision::Single => write_f32(out, crate::float_width::narrow(v))?,
        Precision::Double => write_f64(out, v)?,
    }
    Ok(())
}

fn list<W: Write, T>(
    out: &mut W,
    items: impl IntoIterator<Item = T>,
    mut item: impl FnMut(&mut W, T) -> Result<(), JsonError>,
) -> Result<(), JsonError> {
    for (i, x) in items.into_iter().enumerate() {
        if i > 0 {
            out.write_char(',')?;
        }
        item(out, x)?;
    }
    Ok(())
}

/// `{"type":…[,"precision":"double"],"args":[components]}` of a real math value, components
/// in the engine's `from_native` order.
fn math<W: Write, R: WireReals>(
    out: &mut W,
    dialect: Dialect,
    ty: VariantType,
    v: &R,
    p: Precision,
) -> Result<(), JsonError> {
    let mut c = [0.0f64; 16];
    v.to_wire(&mut c[..R::COUNT]);
    if matches!(ty, VariantType::Basis | VariantType::Transform3D) {
        // The wire has rows; `from_native` lists the basis columns.
        let rows = c;
        for col in 0..3 {
            for row in 0..3 {
                c[col * 3 + row] = rows[row * 3 + col];
            }
        }
    }
    open_typed(out, dialect.type_name(ty))?;
    precision_key(out, p)?;
    out.write_str(",\"args\":[")?;
    list(out, c[..R::COUNT].iter(), |out, &x| real(out, x, p))?;
    out.write_str("]}")?;
    Ok(())
}

fn ints<W: Write>(
    out: &mut W,
    dialect: Dialect,
    ty: VariantType,
    c: &[i32],
) -> Result<(), JsonError> {
    open_typed(out, dialect.type_name(ty))?;
    out.write_str(",\"args\":[")?;
    list(out, c.iter(), |out, x| Ok(write!(out, "{x}")?))?;
    out.write_str("]}")?;
    Ok(())
}

/// `"s:text"`, or `{"type":"String","hex":"…"}` for text that is not UTF-8 (Godot 3).
fn text<W: Write>(
    out: &mut W,
    dialect: Dialect,
    prefix: &str,
    ty: VariantType,
    s: StrRef<'_>,
) -> Result<(), JsonError> {
    match core::str::from_utf8(s.raw()) {
        Ok(text) => write_prefixed_str(out, prefix, text)?,
        Err(_) => {
            open_typed(out, dialect.type_name(ty))?;
            out.write_str(",\"hex\":\"")?;
            write_hex(out, s.raw())?;
            out.write_str("\"}")?;
        }
    }
    Ok(())
}

/// `"np:path"` when the text form parses back to the same parts, else the parts.
fn node_path<'a, W: Write>(out: &mut W, p: &NodePathRef<'a>) -> Result<(), JsonError> {
    let absolute = p.flags() & 1 != 0;
    fn as_text<'a>(s: StrRef<'a>, forbidden: &[char]) -> Option<&'a str> {
        core::str::from_utf8(s.raw())
            .ok()
            .filter(|t| !t.is_empty() && !t.contains(forbidden))
    }
    let text_ok = p.names().all(|n| as_text(n, &['/', ':']).is_some())
        && p.subnames().all(|n| as_text(n, &[':']).is_some());
    if text_ok {
        let mut s = String::new();
        if absolute {
            s.push('/');
        }
        for (i, n) in p.names().enumerate() {
            if i > 0 {
                s.push('/');
            }
            s.push_str(as_text(n, &[]).unwrap_or_default());
        }
        for n in p.subnames() {
            s.push(':');
            s.push_str(as_text(n, &[]).unwrap_or_default());
        }
        write_prefixed_str(out, "np:", &s)?;
        return Ok(());
    }
    out.write_str("{\"type\":\"NodePath\",\"absolute\":")?;
    out.write_str(if absolute { "true" } else { "false" })?;
    out.write_str(",\"names\":[")?;
    list(out, p.names(), |out, n| Ok(write_bytes_name(out, n.raw())?))?;
    out.write_str("],\"subnames\":[")?;
    list(out, p.subnames(), |out, n| {
        Ok(write_bytes_name(out, n.raw())?)
    })?;
    out.write_str("]}")?;
    Ok(())
}

/// `{"type":…,"args":[` of a packed array.
fn packed_open<W: Write>(
    out: &mut W,
    dialect: Dialect,
    ty: VariantType,
    p: Option<Precision>,
) -> Result<(), JsonError> {
    open_typed(out, dialect.type_name(ty))?;
    if let Some(p) = p {
        precision_key(out, p)?;
    }
    out.write_str(",\"args\":[")?;
    Ok(())
}

/// Writes a value's JSON up to its items; for a container, returns the text that closes it.
fn head<W: Write>(
    out: &mut W,
    dialect: Dialect,
    v: &VariantRef<'_>,
) -> Result<Option<&'static str>, JsonError> {
    use VariantRef as V;
    use VariantType as T;
    match *v {
        V::Nil => out.write_str("null")?,
        V::Bool(b) => out.write_str(if b { "true" } else { "false" })?,
        V::Int(i) => write!(out, "\"i:{i}\"")?,
        V::Float(f) => {
            out.write_str("\"f:")?;
            write_f64_text(out, f)?;
            out.write_char('"')?;
        }
        V::String(s) => text(out, dialect, "s:", T::String, s)?,
        V::StringName(s) => text(out, dialect, "sn:", T::StringName, s)?,
        V::Vector2(x) => {
            let p = x.precision();
            let x = x.get();
            math(out, dialect, T::Vector2, &x, p)?
        }
        V::Rect2(x) => {
            let p = x.precision();
            let x = x.get();
            math(out, dialect, T::Rect2, &x, p)?
        }
        V::Vector3(x) => {
            let p = x.precision();
            let x = x.get();
            math(out, dialect, T::Vector3, &x, p)?
        }
        V::Transform2D(x) => {
            let p = x.precision();
            let x = x.get();
            math(out, dialect, T::Transform2D, &x, p)?
        }
        V::Vector4(x) => {
            let p = x.precision();
            let x = x.get();
            math(out, dialect, T::Vector4, &x, p)?
        }
        V::Plane(x) => {
            let p = x.precision();
            let x = x.get();
            math(out, dialect, T::Plane, &x, p)?
        }
        V::Quaternion(x) => {
            let p = x.precision();
            let x = x.get();
            math(out, dialect, T::Quaternion, &x, p)?
        }
        V::Aabb(x) => {
            let p = x.precision();
            let x = x.get();
            math(out, dialect, T::Aabb, &x, p)?
        }
        V::Basis(x) => {
            let p = x.precision();
            let x = x.get();
            math(out, dialect, T::Basis, &x, p)?
        }
        V::Transform3D(x) => {
            let p = x.precision();
            let x = x.get();
            math(out, dialect, T::Transform3D, &x, p)?
        }
        V::Projection(x) => {
            let p = x.precision();
            let x = x.get();
            math(out, dialect, T::Projection, &x, p)?
        }
        V::Vector2i(x) => ints(out, dialect, T::Vector2i, &[x.x, x.y])?,
        V::Vector3i(x) => ints(out, dialect, T::Vector3i, &[x.x, x.y, x.z])?,
        V::Vector4i(x) => ints(out, dialect, T::Vector4i, &[x.x, x.y, x.z, x.w])?,
        V::Rect2i(r) => {
            let c = [r.position.x, r.position.y, r.size.x, r.size.y];
            ints(out, dialect, T::Rect2i, &c)?
        }
        V::Color(c) => {
            open_typed(out, dialect.type_name(T::Color))?;
            out.write_str(",\"args\":[")?;
            list(out, [c.r, c.g, c.b, c.a], |out, x| Ok(write_f32(out, x)?))?;
            out.write_str("]}")?;
        }
        V::NodePath(p) => node_path(out, &p)?,
        V::Rid(None) => out.write_str("{\"type\":\"RID\"}")?,
        V::Rid(Some(id)) => write!(out, "{{\"type\":\"RID\",\"id\":\"{id}\"}}")?,
        V::Object(ObjectRef::Id(id)) => write!(out, "{{\"type\":\"Object\",\"id\":\"{id}\"}}")?,
        V::Object(ObjectRef::Null) => out.write_str("{\"type\":\"Object\",\"id\":\"0\"}")?,
        V::Object(ObjectRef::Full(obj)) => {
            let class = obj.class().raw();
            match core::str::from_utf8(class) {
                Ok(name) if !name.is_empty() && type_by_name(dialect, name).is_none() => {
                    open_typed(out, name)?;
                }
                _ => {
                    out.write_str("{\"type\":\"Object\",\"class\":")?;
                    write_bytes_name(out, class)?;
                }
            }
            out.write_str(",\"props\":[")?;
            return Ok(Some("]}"));
        }
        V::Callable => out.write_str("{\"type\":\"Callable\"}")?,
        V::Signal(s) => {
            out.write_str("{\"type\":\"Signal\",\"name\":")?;
            write_bytes_name(out, s.name().raw())?;
            write!(out, ",\"id\":\"{}\"}}", s.object_id())?;
        }
        V::Dictionary(d) => {
            open_typed(out, dialect.type_name(T::Dictionary))?;
            if let Some(t) = d.key_type() {
                out.write_str(",\"key_type\":")?;
                write_container_type(out, dialect, &t)?;
            }
            if let Some(t) = d.value_type() {
                out.write_str(",\"value_type\":")?;
                write_container_type(out, dialect, &t)?;
            }
            out.write_str(",\"args\":[")?;
            return Ok(Some("]}"));
        }
        V::Array(a) => {
            if a.kind() == ArrayKind::Array && a.element_type().is_none() {
                out.write_char('[')?;
                return Ok(Some("]"));
            }
            open_typed(out, dialect.type_name(a.variant_type()))?;
            if let Some(t) = a.element_type() {
                out.write_str(",\"elem_type\":")?;
                write_container_type(out, dialect, &t)?;
            }
            out.write_str(",\"args\":[")?;
            return Ok(Some("]}"));
        }
        V::PackedByteArray(p) => {
            packed_open(out, dialect, T::PackedByteArray, None)?;
            list(out, p.iter(), |out, x| Ok(write!(out, "{x}")?))?;
            out.write_str("]}")?;
        }
        V::PackedInt32Array(p) => {
            packed_open(out, dialect, T::PackedInt32Array, None)?;
            list(out, p.iter(), |out, x| Ok(write!(out, "{x}")?))?;
            out.write_str("]}")?;
        }
        V::PackedInt64Array(p) => {
            packed_open(out, dialect, T::PackedInt64Array, None)?;
            list(out, p.iter(), |out, x| Ok(write!(out, "{x}")?))?;
            out.write_str("]}")?;
        }
        V::PackedFloat32Array(p) => {
            packed_open(out, dialect, T::PackedFloat32Array, None)?;
            list(out, p.iter(), |out, x| Ok(write_f32(out, x)?))?;
            out.write_str("]}")?;
        }
        V::PackedFloat64Array(p) => {
            packed_open(out, dialect, T::PackedFloat64Array, None)?;
            list(out, p.iter(), |out, x| Ok(write_f64(out, x)?))?;
            out.write_str("]}")?;
        }
        V::PackedStringArray(s) => {
            packed_open(out, dialect, T::PackedStringArray, None)?;
            list(out, s.iter(), |out, item| {
                // The engine's NUL terminator is part of the encoding, not of the text.
                let raw = item.raw();
                let raw = raw.strip_suffix(&[0]).unwrap_or(raw);
                Ok(write_bytes_name(out, raw)?)
            })?;
            out.write_str("]}")?;
        }
        V::PackedVector2Array(p) => {
            let prec = p.precision();
            packed_open(out, dialect, T::PackedVector2Array, Some(prec))?;
            list(out, p.iter().flatten(), |out, x| real(out, x, prec))?;
            out.write_str("]}")?;
        }
        V::PackedVector3Array(p) => {
            let prec = p.precision();
            packed_open(out, dialect, T::PackedVector3Array, Some(prec))?;
            list(out, p.iter().flatten(), |out, x| real(out, x, prec))?;
            out.write_str("]}")?;
        }
        V::PackedVector4Array(p) => {
            let prec = p.precision();
            packed_open(out, dialect, T::PackedVector4Array, Some(prec))?;
            list(out, p.iter().flatten(), |out, x| real(out, x, prec))?;
            out.write_str("]}")?;
        }
        V::PackedColorArray(p) => {
            packed_open(out, dialect, T::PackedColorArray, None)?;
            list(out, p.iter().flatten(), |out, x| Ok(write_f32(out, x)?))?;
            out.write_str("]}")?;
        }
        V::PackedVector2iArray(p) => {
            packed_open(out, dialect, T::PackedVector2iArray, None)?;
            list(out, p.iter().flatten(), |out, x| Ok(write!(out, "{x}")?))?;
            out.write_str("]}")?;
        }
        V::PackedVector3iArray(p) => {
            packed_open(out, dialect, T::PackedVector3iArray, None)?;
            list(out, p.iter().flatten(), |out, x| Ok(write!(out, "{x}")?))?;
            out.write_str("]}")?;
        }
        V::PackedVector4iArray(p) => {
            packed_open(out, dialect, T::PackedVector4iArray, None)?;
            list(out, p.iter().flatten(), |out, x| Ok(write!(out, "{x}")?))?;
            out.write_str("]}")?;
        }
    }
    Ok(None)
}
