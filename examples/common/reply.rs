//! The reply the example servers send for each value they receive: a Dictionary that shows the
//! server decoded the value, not just copied bytes.
//!
//! ```text
//! {"index": 3,            # messages answered before this one on this connection/peer
//!  "type": 21,            # the value's wire type id in the dialect (= GDScript typeof())
//!  "name": "PoolIntArray",# the dialect's type name
//!  "size": 262144,        # elements, entries, code points, NodePath parts; 0 for scalars
//!  "sum": 1234,           # a digest computed from the decoded content (see `digest`)
//!  "echo": <the value>}   # the decoded view written back by `Writer::value`
//! ```
//!
//! A value that does not decode (the frame around it was fine) gets
//! `{"index": i, "error": "<message>", "code": <engine Error code or -1>, "offset": <byte
//! where decoding failed: from the start of the stream (TCP) or of the datagram (UDP)>}`.

use gdwire::{Dialect, Error, ObjectRef, Sink, StrRef, VariantRef, Writer};

/// Writes the reply for `value`, the `index`-th message.
pub fn write_reply<S: Sink>(
    w: &mut Writer<S>,
    dialect: Dialect,
    index: u64,
    value: &VariantRef<'_>,
) -> gdwire::Result<()> {
    let ty = value.variant_type();
    w.begin_dictionary(6)?;
    w.string("index")?;
    w.int(index as i64)?;
    w.string("type")?;
    w.int(dialect.wire_id(ty).map_or(-1, i64::from))?;
    w.string("name")?;
    w.string(dialect.type_name(ty))?;
    w.string("size")?;
    w.int(size(value) as i64)?;
    w.string("sum")?;
    match digest(dialect, value)? {
        Digest::Int(i) => w.int(i)?,
        Digest::Float(f) => w.float(f)?,
    }
    w.string("echo")?;
    w.value(value)
}

/// Writes the reply for a message whose value failed to decode.
pub fn write_error_reply<S: Sink>(
    w: &mut Writer<S>,
    index: u64,
    error: &Error,
) -> gdwire::Result<()> {
    w.begin_dictionary(4)?;
    w.string("index")?;
    w.int(index as i64)?;
    w.string("error")?;
    // Formatting into the sink without a String: the message is short and ASCII.
    let mut msg = MsgBuf::default();
    let _ = core::fmt::write(&mut msg, format_args!("{}", error.kind()));
    w.string(msg.as_str())?;
    w.string("code")?;
    w.int(error.kind().engine_code().map_or(-1, i64::from))?;
    w.string("offset")?;
    w.int(error.offset() as i64)
}

/// A fixed-size message buffer (keeps the error path allocation-free too).
struct MsgBuf {
    buf: [u8; 160],
    len: usize,
}

impl Default for MsgBuf {
    fn default() -> Self {
        MsgBuf {
            buf: [0; 160],
            len: 0,
        }
    }
}

impl MsgBuf {
    fn as_str(&self) -> &str {
        core::str::from_utf8(&self.buf[..self.len]).unwrap_or("")
    }
}

impl core::fmt::Write for MsgBuf {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        // Truncate on a char boundary rather than fail.
        let room = self.buf.len() - self.len;
        let mut n = s.len().min(room);
        while !s.is_char_boundary(n) {
            n -= 1;
        }
        self.buf[self.len..self.len + n].copy_from_slice(&s.as_bytes()[..n]);
        self.len += n;
        Ok(())
    }
}

/// Elements of a container or packed array, entries of a Dictionary, code points of a string,
/// names + subnames of a NodePath, properties of a full object; 0 otherwise.
pub fn size(value: &VariantRef<'_>) -> usize {
    use VariantRef as V;
    match value {
        V::String(s) | V::StringName(s) => s.code_points().count(),
        V::NodePath(p) => p.name_count() + p.subname_count(),
        V::Object(ObjectRef::Full(o)) => o.len(),
        V::Dictionary(d) => d.len(),
        V::Array(a) => a.len(),
        V::PackedByteArray(a) => a.len(),
        V::PackedInt32Array(a) => a.len(),
        V::PackedInt64Array(a) => a.len(),
        V::PackedFloat32Array(a) => a.len(),
        V::PackedFloat64Array(a) => a.len(),
        V::PackedStringArray(a) => a.len(),
        V::PackedVector2Array(a) => a.len(),
        V::PackedVector3Array(a) => a.len(),
        V::PackedColorArray(a) => a.len(),
        V::PackedVector4Array(a) => a.len(),
        V::PackedVector2iArray(a) => a.len(),
        V::PackedVector3iArray(a) => a.len(),
        V::PackedVector4iArray(a) => a.len(),
        _ => 0,
    }
}

/// The "sum" field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Digest {
    Int(i64),
    Float(f64),
}

/// A number computed from the decoded content, easy to recompute in GDScript:
///
/// * Bool 0/1, Int itself, Float itself; Object: its instance id (0 if null / full);
/// * String, StringName: sum of code points; NodePath: of all names and subnames;
///   PoolStringArray: of all its strings;
/// * math types, Color, packed real/vector/color arrays: sum of all components as `f64`, in
///   wire / element order;
/// * packed integer arrays: wrapping sum of the elements;
/// * Array: sum of the elements' wire type ids; Dictionary: of the keys' and values' type ids;
/// * Nil, RID, Callable, Signal: 0.
pub fn digest(dialect: Dialect, value: &VariantRef<'_>) -> gdwire::Result<Digest> {
    use Digest::{Float, Int};
    use VariantRef as V;
    let type_id = |v: &VariantRef<'_>| i64::from(dialect.wire_id(v.variant_type()).unwrap_or(0));
    Ok(match value {
        V::Bool(b) => Int(i64::from(*b)),
        V::Int(i) => Int(*i),
        V::Float(f) => Float(*f),
        V::String(s) | V::StringName(s) => Int(code_point_sum(s)),
        V::NodePath(p) => Int(p
            .names()
            .chain(p.subnames())
            .map(|s| code_point_sum(&s))
            .sum()),
        V::PackedStringArray(a) => Int(a.iter().map(|s| code_point_sum(&s)).sum()),
        V::Object(ObjectRef::Id(id)) => Int(*id as i64),
        V::Object(_) => Int(0),
        V::Vector2(v) => Float(v.components().sum()),
        V::Rect2(v) => Float(v.components().sum()),
        V::Vector3(v) => Float(v.components().sum()),
        V::Transform2D(v) => Float(v.components().sum()),
        V::Vector4(v) => Float(v.components().sum()),
        V::Plane(v) => Float(v.components().sum()),
        V::Quaternion(v) => Float(v.components().sum()),
        V::Aabb(v) => Float(v.components().sum()),
        V::Basis(v) => Float(v.components().sum()),
        V::Transform3D(v) => Float(v.components().sum()),
        V::Projection(v) => Float(v.components().sum()),
        V::Color(c) => Float([c.r, c.g, c.b, c.a].into_iter().map(f64::from).sum()),
        V::Vector2i(v) => Int(i64::from(v.x) + i64::from(v.y)),
        V::Vector3i(v) => Int(i64::from(v.x) + i64::from(v.y) + i64::from(v.z)),
        V::Vector4i(v) => Int([v.x, v.y, v.z, v.w].into_iter().map(i64::from).sum()),
        V::Rect2i(r) => Int([r.position.x, r.position.y, r.size.x, r.size.y]
            .into_iter()
            .map(i64::from)
            .sum()),
        V::Array(a) => {
            let mut sum = 0;
            for item in a.iter() {
                sum += type_id(&item);
            }
            Int(sum)
        }
        V::Dictionary(d) => {
            let mut sum = 0;
            for entry in d.iter() {
                let (k, v) = entry;
                sum += type_id(&k) + type_id(&v);
            }
            Int(sum)
        }
        V::PackedByteArray(a) => Int(a.as_bytes().iter().map(|&b| i64::from(b)).sum()),
        V::PackedInt32Array(a) => Int(a.iter().fold(0i64, |s, e| s.wrapping_add(e.into()))),
        V::PackedInt64Array(a) => Int(a.iter().fold(0i64, |s, e| s.wrapping_add(e))),
        V::PackedFloat32Array(a) => Float(a.iter().fold(0.0, |s, e| s + f64::from(e))),
        V::PackedFloat64Array(a) => Float(a.iter().fold(0.0, |s, e| s + e)),
        V::PackedVector2Array(a) => Float(a.iter().flatten().fold(0.0, |s, e| s + e)),
        V::PackedVector3Array(a) => Float(a.iter().flatten().fold(0.0, |s, e| s + e)),
        V::PackedVector4Array(a) => Float(a.iter().flatten().fold(0.0, |s, e| s + e)),
        V::PackedColorArray(a) => Float(a.iter().flatten().fold(0.0, |s, e| s + f64::from(e))),
        V::PackedVector2iArray(a) => Int(a.iter().flatten().map(i64::from).sum()),
        V::PackedVector3iArray(a) => Int(a.iter().flatten().map(i64::from).sum()),
        V::PackedVector4iArray(a) => Int(a.iter().flatten().map(i64::from).sum()),
        V::Nil | V::Rid(_) | V::Callable | V::Signal(_) => Int(0),
    })
}

fn code_point_sum(s: &StrRef<'_>) -> i64 {
    s.code_points().map(i64::from).sum()
}
