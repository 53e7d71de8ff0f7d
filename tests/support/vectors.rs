//! Helpers for the spec-vector test files: float-run builders, math values and a full walk
//! that exercises every accessor.

use gdwire::math::{Precision, Vector2, Vector3, Vector4, WireReals};
use gdwire::read::{MathRef, ObjectRef};
use gdwire::{Error, VariantRef};

use super::hex;

/// `f32` little-endian hex of the small integers 0..=16 (index = value).
pub const F: [&str; 17] = [
    "00000000", "0000803f", "00000040", "00004040", "00008040", "0000a040", "0000c040", "0000e040",
    "00000041", "00001041", "00002041", "00003041", "00004041", "00005041", "00006041", "00007041",
    "00008041",
];

/// `f64` little-endian hex of the small integers 0..=16 (index = value).
pub const D: [&str; 17] = [
    "0000000000000000",
    "000000000000f03f",
    "0000000000000040",
    "0000000000000840",
    "0000000000001040",
    "0000000000001440",
    "0000000000001840",
    "0000000000001c40",
    "0000000000002040",
    "0000000000002240",
    "0000000000002440",
    "0000000000002640",
    "0000000000002840",
    "0000000000002a40",
    "0000000000002c40",
    "0000000000002e40",
    "0000000000003040",
];

/// `header` then `F[first..=last]` (f32 components `first, first+1, …`).
pub fn f32_run(header: &str, first: usize, last: usize) -> Vec<u8> {
    let mut s = String::from(header);
    for f in &F[first..=last] {
        s.push_str(f);
    }
    hex(&s)
}

/// `header` then `D[first..=last]`.
pub fn f64_run(header: &str, first: usize, last: usize) -> Vec<u8> {
    let mut s = String::from(header);
    for d in &D[first..=last] {
        s.push_str(d);
    }
    hex(&s)
}

/// Asserts `$v` is the math variant `$variant` holding `$want` sent with precision `$p`
/// (compares the decoded value, so only the reader's component order is involved).
#[macro_export]
macro_rules! expect_math {
    ($v:expr, $variant:ident, $want:expr, $p:expr) => {{
        let VariantRef::$variant(m) = $v else {
            panic!("expected {}: {:?}", stringify!($variant), $v)
        };
        assert_eq!((m.get(), m.precision()), ($want, $p));
    }};
}

/// A math view of `v` for comparisons, built from `v`'s wire components (leaked: tests only).
pub fn math<T: WireReals>(v: T, p: Precision) -> MathRef<'static, T> {
    let mut comps = [0.0f64; 16];
    v.to_wire(&mut comps[..T::COUNT]);
    let bytes: Vec<u8> = comps[..T::COUNT]
        .iter()
        .flat_map(|c| match p {
            Precision::Single => (*c as f32).to_le_bytes().to_vec(),
            Precision::Double => c.to_le_bytes().to_vec(),
        })
        .collect();
    MathRef::from_wire(Box::leak(bytes.into_boxed_slice())).unwrap()
}

pub fn v2(x: f64, y: f64) -> Vector2 {
    Vector2 { x, y }
}

pub fn v3(x: f64, y: f64, z: f64) -> Vector3 {
    Vector3 { x, y, z }
}

pub fn v4(x: f64, y: f64, z: f64, w: f64) -> Vector4 {
    Vector4 { x, y, z, w }
}

/// Walks the whole value (every element, entry, property, string, node-path part, packed
/// element) and returns how many nodes it visited. A value from a successful decode must walk
/// without any error.
pub fn walk(value: &VariantRef<'_>) -> Result<usize, Error> {
    // Explicit stack: values may nest deeply.
    let mut stack = vec![*value];
    let mut visited = 0usize;
    while let Some(v) = stack.pop() {
        visited += 1;
        match v {
            VariantRef::String(s) | VariantRef::StringName(s) => {
                let _ = (s.raw(), s.bytes(), s.as_str(), s.code_points().count());
                let _ = format!("{s} {s:?}");
            }
            VariantRef::NodePath(p) => {
                visited += p.names().count() + p.subnames().count();
                assert_eq!(p.names().count(), p.name_count());
                assert_eq!(p.subnames().count(), p.subname_count());
            }
            VariantRef::Array(a) => {
                let _ = a.element_type();
                let mut n = 0;
                for item in a.iter() {
                    stack.push(item);
                    n += 1;
                }
                assert_eq!(n, a.len());
            }
            VariantRef::Dictionary(d) => {
                let _ = (d.key_type(), d.value_type());
                let mut n = 0;
                for entry in d.iter() {
                    let (k, v) = entry;
                    stack.push(k);
                    stack.push(v);
                    n += 1;
                }
                assert_eq!(n, d.len());
            }
            VariantRef::Object(ObjectRef::Full(o)) => {
                let _ = o.class().bytes();
                let mut n = 0;
                for prop in o.properties() {
                    let (name, v) = prop;
                    let _ = name.bytes();
                    stack.push(v);
                    n += 1;
                }
                assert_eq!(n, o.len());
            }
            VariantRef::Signal(s) => {
                let _ = (s.name().bytes(), s.object_id());
            }
            VariantRef::PackedByteArray(p) => visited += p.iter().count(),
            VariantRef::PackedInt32Array(p) => visited += p.iter().count(),
            VariantRef::PackedInt64Array(p) => visited += p.iter().count(),
            VariantRef::PackedFloat32Array(p) => visited += p.iter().count(),
            VariantRef::PackedFloat64Array(p) => visited += p.iter().count(),
            VariantRef::PackedColorArray(p) => visited += p.iter().count(),
            VariantRef::PackedVector2iArray(p) => visited += p.iter().count(),
            VariantRef::PackedVector3iArray(p) => visited += p.iter().count(),
            VariantRef::PackedVector4iArray(p) => visited += p.iter().count(),
            VariantRef::PackedVector2Array(p) => visited += p.iter().count(),
            VariantRef::PackedVector3Array(p) => visited += p.iter().count(),
            VariantRef::PackedVector4Array(p) => visited += p.iter().count(),
            VariantRef::PackedStringArray(p) => {
                let n = p.iter().count();
                assert_eq!(n, p.len());
                visited += n;
            }
            _ => {}
        }
    }
    Ok(visited)
}
