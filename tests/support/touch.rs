//! Calls every public accessor of every read view on a decoded value and on all its
//! descendants, and asserts that accessors which must agree do: lengths against iteration,
//! `get(i)` against the `i`-th item, byte lengths against element sizes, elements against our
//! own decoding of the wire bytes, code points against core's UTF-8 decoder, lookups against
//! the entries iterated. Shared by `tests/view_accessors.rs` and the `decode_walk` fuzz
//! target (included with `#[path]`), so it depends on nothing but `gdwire` and `std`.
//!
//! The walk is iterative (values nest up to 1024 levels) and costs a constant number of passes
//! per container: no accessor is called once per element where it is O(index).
#![allow(dead_code)] // each includer uses part of this

use std::fmt::Debug;

use gdwire::header::ContainerKind;
use gdwire::math::{Precision, WireReals};
use gdwire::read::{
    ArrayKind, Element, FullObjectRef, MathRef, PackedReals, PackedRef, PackedStrings, SignalRef,
    Walked,
};
use gdwire::{
    ArrayRef, ContainerType, DictRef, Error, NodePathRef, ObjectRef, StrRef, VariantRef,
    VariantType,
};

/// What [`touch`] saw.
#[derive(Clone, Debug)]
pub struct Touched {
    /// Values visited: the value itself and every descendant (keys, values, elements,
    /// properties).
    pub values: u64,
    /// Values visited per type, indexed by `VariantType as usize`.
    pub types: [u64; VariantType::COUNT],
    /// A NaN was met somewhere (then `==` on the value may be false).
    pub nan: bool,
    /// Deepest nesting met (the value itself: 0).
    pub depth: usize,
}

impl Default for Touched {
    fn default() -> Self {
        Touched {
            values: 0,
            types: [0; VariantType::COUNT],
            nan: false,
            depth: 0,
        }
    }
}

impl Touched {
    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &Touched) {
        self.values += other.values;
        for (a, b) in self.types.iter_mut().zip(other.types) {
            *a += b;
        }
        self.nan |= other.nan;
        self.depth = self.depth.max(other.depth);
    }

    /// How many values of type `ty` were visited.
    pub fn count(&self, ty: VariantType) -> u64 {
        self.types[ty as usize]
    }
}

/// `{:#?}` only for values this small: it doubles the cost of `Debug`, and this runs per
/// fuzz input.
const PRETTY_VALUES: u64 = 256;

/// Visits `v` and every descendant, calling every accessor and checking that they agree, then
/// `Debug` and `==` on `v`. `v` must come from a successful decode (`Decoder::decode`
/// validates the whole value first): an element failing to decode is then a bug, and panics.
pub fn touch(v: &VariantRef<'_>) -> Touched {
    let seen = accessors(v);
    // Debug and PartialEq cover the whole value: called on the top-level value only.
    let plain = format!("{v:?}");
    assert!(!plain.is_empty());
    if seen.values <= PRETTY_VALUES {
        assert!(!format!("{v:#?}").is_empty());
    }
    if !seen.nan {
        // Without a NaN anywhere, a value equals itself.
        assert!(
            reflexive(*v),
            "a value without NaN differs from itself: {plain}"
        );
    }
    seen
}

/// [`touch`] without `Debug` and `==` on `v` itself (for callers that format the value
/// anyway).
pub fn accessors(v: &VariantRef<'_>) -> Touched {
    let mut seen = Touched::default();
    let mut stack = vec![(*v, 0)];
    let mut children = Vec::new();
    while let Some((item, depth)) = stack.pop() {
        seen.depth = seen.depth.max(depth);
        one(&item, &mut children, &mut seen);
        stack.extend(children.drain(..).map(|c| (c, depth + 1)));
    }
    seen
}

/// Calls everything an error exposes and checks the parts agree with its Display form.
pub fn touch_error(e: &Error) {
    let kind = e.kind();
    let offset = e.offset();
    assert_eq!(e.to_string(), format!("{kind} at byte {offset}"));
    assert!(!kind.to_string().is_empty());
    assert!(!format!("{e:?} {e:#?}").is_empty());
    // Godot's Error codes for what the decoder reports: ERR_UNAUTHORIZED, ERR_OUT_OF_MEMORY,
    // ERR_FILE_EOF, ERR_INVALID_DATA.
    if let Some(code) = kind.engine_code() {
        assert!([4, 6, 18, 30].contains(&code), "{e}: engine code {code}");
    }
    assert_eq!(Error::new(kind, offset), *e);
    assert_eq!(e.offset_by(0), *e);
    assert_eq!(e.offset_by(7).offset(), offset.saturating_add(7));
    assert_eq!(e.offset_by(7).kind(), kind);
}

/// `x == x`, through a copy (for views free of NaN).
fn reflexive<T: PartialEq + Copy>(x: T) -> bool {
    let copy = x;
    x == copy
}

/// Up to three indices to spot-check: first, middle, last.
fn samples(n: usize) -> impl Iterator<Item = usize> {
    let picks = if n == 0 { [0; 3] } else { [0, n / 2, n - 1] };
    let take = match n {
        0 => 0,
        1 => 1,
        2 => 2,
        _ => 3,
    };
    picks.into_iter().take(take)
}

/// A value's identity for comparing what two accessors handed out: type, length and, for
/// views over the input, where their bytes are. Not `Debug` of a container (recursive) nor
/// `==` (NaN).
fn shallow(v: &VariantRef<'_>) -> String {
    match v {
        VariantRef::Array(a) => format!(
            "{:?} {:?} {:?} {}",
            a.kind(),
            a.element_type(),
            a.element_type().map(|t| container_addr(&t)),
            a.len()
        ),
        VariantRef::Dictionary(d) => format!(
            "Dictionary {:?} {:?} {}",
            d.key_type(),
            d.value_type(),
            d.len()
        ),
        VariantRef::Object(ObjectRef::Full(o)) => format!(
            "Object {:?}@{:p} {}",
            o.class(),
            o.class().raw().as_ptr(),
            o.len()
        ),
        VariantRef::Float(f) => format!("Float {:x}", f.to_bits()),
        VariantRef::String(s) | VariantRef::StringName(s) => {
            format!("{v:?}@{:p}", s.raw().as_ptr())
        }
        VariantRef::NodePath(p) => format!("{v:?}@{:p}", p.parts().as_bytes().as_ptr()),
        VariantRef::Signal(s) => format!("{v:?}@{:p}", s.name().raw().as_ptr()),
        leaf => format!("{leaf:?}"),
    }
}

fn container_addr(t: &ContainerType<'_>) -> Option<*const u8> {
    match t {
        ContainerType::ClassName(s) | ContainerType::Script(s) => Some(s.raw().as_ptr()),
        _ => None,
    }
}

/// `f32` → `f64` as the engine widens it: a NaN keeps sign and payload and is quieted.
fn widen_bits(x: f32) -> u64 {
    let b = x.to_bits();
    if x.is_nan() {
        (u64::from(b >> 31) << 63) | 0x7ff8 << 48 | u64::from(b & 0x7f_ffff) << 29
    } else {
        f64::from(x).to_bits()
    }
}

/// One real component from its wire bytes (4: `f32`, 8: `f64`), widened, as bits.
fn real_bits(chunk: &[u8]) -> u64 {
    match chunk.len() {
        4 => widen_bits(f32::from_le_bytes(chunk.try_into().unwrap())),
        8 => u64::from_le_bytes(chunk.try_into().unwrap()),
        n => panic!("a real component of {n} bytes"),
    }
}

fn width(p: Precision) -> usize {
    match p {
        Precision::Single => 4,
        Precision::Double => 8,
    }
}

/// Visits one value; pushes its children on `stack`.
fn one<'a>(v: &VariantRef<'a>, stack: &mut Vec<VariantRef<'a>>, seen: &mut Touched) {
    use VariantRef as V;
    use VariantType as T;
    seen.values += 1;
    // No `_` arm: a new variant must be touched here before this compiles.
    let (ty, precision): (VariantType, Option<Precision>) = match *v {
        V::Nil => (T::Nil, None),
        V::Bool(_) => (T::Bool, None),
        V::Int(_) => (T::Int, None),
        V::Float(f) => {
            seen.nan |= f.is_nan();
            (T::Float, None)
        }
        V::String(s) => {
            text(s);
            (T::String, None)
        }
        V::Vector2(m) => (T::Vector2, Some(math(m, T::Vector2, seen))),
        V::Vector2i(_) => (T::Vector2i, None),
        V::Rect2(m) => (T::Rect2, Some(math(m, T::Rect2, seen))),
        V::Rect2i(_) => (T::Rect2i, None),
        V::Vector3(m) => (T::Vector3, Some(math(m, T::Vector3, seen))),
        V::Vector3i(_) => (T::Vector3i, None),
        V::Transform2D(m) => (T::Transform2D, Some(math(m, T::Transform2D, seen))),
        V::Vector4(m) => (T::Vector4, Some(math(m, T::Vector4, seen))),
        V::Vector4i(_) => (T::Vector4i, None),
        V::Plane(m) => (T::Plane, Some(math(m, T::Plane, seen))),
        V::Quaternion(m) => (T::Quaternion, Some(math(m, T::Quaternion, seen))),
        V::Aabb(m) => (T::Aabb, Some(math(m, T::Aabb, seen))),
        V::Basis(m) => (T::Basis, Some(math(m, T::Basis, seen))),
        V::Transform3D(m) => (T::Transform3D, Some(math(m, T::Transform3D, seen))),
        V::Projection(m) => (T::Projection, Some(math(m, T::Projection, seen))),
        V::Color(c) => {
            seen.nan |= [c.r, c.g, c.b, c.a].iter().any(|x| x.is_nan());
            (T::Color, None)
        }
        V::StringName(s) => {
            text(s);
            (T::StringName, None)
        }
        V::NodePath(p) => {
            node_path(p);
            (T::NodePath, None)
        }
        V::Rid(_) => (T::Rid, None),
        V::Object(o) => {
            object(o, stack);
            (T::Object, None)
        }
        V::Callable => (T::Callable, None),
        V::Signal(s) => {
            signal(s);
            (T::Signal, None)
        }
        V::Dictionary(d) => {
            dict(d, stack);
            (T::Dictionary, None)
        }
        V::Array(a) => (array(a, stack), None),
        V::PackedByteArray(p) => (T::PackedByteArray, packed(p, seen)),
        V::PackedInt32Array(p) => (T::PackedInt32Array, packed(p, seen)),
        V::PackedInt64Array(p) => (T::PackedInt64Array, packed(p, seen)),
        V::PackedFloat32Array(p) => (T::PackedFloat32Array, packed(p, seen)),
        V::PackedFloat64Array(p) => (T::PackedFloat64Array, packed(p, seen)),
        V::PackedStringArray(p) => {
            strings(p);
            (T::PackedStringArray, None)
        }
        V::PackedVector2Array(p) => (T::PackedVector2Array, Some(reals(p, seen))),
        V::PackedVector3Array(p) => (T::PackedVector3Array, Some(reals(p, seen))),
        V::PackedColorArray(p) => (T::PackedColorArray, packed(p, seen)),
        V::PackedVector4Array(p) => (T::PackedVector4Array, Some(reals(p, seen))),
        V::PackedVector2iArray(p) => (T::PackedVector2iArray, packed(p, seen)),
        V::PackedVector3iArray(p) => (T::PackedVector3iArray, packed(p, seen)),
        V::PackedVector4iArray(p) => (T::PackedVector4iArray, packed(p, seen)),
    };
    assert_eq!(v.variant_type(), ty);
    assert_eq!(v.precision(), precision);
    if seen.types[ty as usize] == 0 {
        variant_type(ty); // a function of the type alone: once per type is enough
    }
    seen.types[ty as usize] += 1;
    conversions(v);
}

/// Every `as_*` / `is_*` gives its payload exactly for its own variant.
fn conversions(v: &VariantRef<'_>) {
    use VariantRef as V;
    assert_eq!(v.is_nil(), matches!(v, V::Nil));
    assert_eq!(
        v.as_bool(),
        match v {
            V::Bool(b) => Some(*b),
            _ => None,
        }
    );
    assert_eq!(
        v.as_int(),
        match v {
            V::Int(i) => Some(*i),
            _ => None,
        }
    );
    assert_eq!(
        v.as_float().map(f64::to_bits),
        match v {
            V::Float(f) => Some(f.to_bits()),
            _ => None,
        }
    );
    let string = match v {
        V::String(s) | V::StringName(s) => Some(*s),
        _ => None,
    };
    assert_eq!(v.as_string().map(|s| s.raw()), string.map(|s| s.raw()));
    assert_eq!(v.as_str(), string.and_then(|s| s.as_str()));
    assert_eq!(v.as_array().is_some(), matches!(v, V::Array(_)));
    if let (Some(a), V::Array(b)) = (v.as_array(), v) {
        assert_eq!((a.len(), a.kind()), (b.len(), b.kind()));
    }
    assert_eq!(v.as_dictionary().is_some(), matches!(v, V::Dictionary(_)));
    if let (Some(a), V::Dictionary(b)) = (v.as_dictionary(), v) {
        assert_eq!(a.len(), b.len());
    }
    assert_eq!(
        v.as_node_path().map(|p| p.parts().as_bytes()),
        match v {
            V::NodePath(p) => Some(p.parts().as_bytes()),
            _ => None,
        }
    );
    assert_eq!(v.as_object().is_some(), matches!(v, V::Object(_)));
    if let (Some(a), V::Object(b)) = (v.as_object(), v) {
        assert_eq!(a.is_null(), b.is_null());
    }
}

fn variant_type(ty: VariantType) {
    use VariantType as T;
    let name = ty.name();
    assert!(!name.is_empty());
    assert_eq!(ty.to_string(), name);
    assert!(!format!("{ty:?}").is_empty());
    assert!(T::ALL.contains(&ty));
    let container = matches!(
        ty,
        T::Array | T::Dictionary | T::Object | T::TypedArray | T::PackedTypedArray
    );
    assert_eq!(ty.is_container(), container, "{name}");
    assert_eq!(
        ty.is_packed(),
        name.starts_with("Packed") && name.ends_with("Array") && !container,
        "{name}"
    );
    let ints = ty.int_components();
    assert!(ty.real_components().is_none() || ints.is_none());
    assert_eq!(
        ints.is_some(),
        matches!(ty, T::Vector2i | T::Vector3i | T::Vector4i | T::Rect2i),
        "{name}"
    );
}

fn container_type(t: ContainerType<'_>) {
    let kind = t.kind();
    match t {
        ContainerType::Builtin(ty) => {
            assert_eq!(kind, ContainerKind::Builtin);
            variant_type(ty);
        }
        ContainerType::UnknownBuiltin(_) => assert_eq!(kind, ContainerKind::Builtin),
        ContainerType::ClassName(s) => {
            assert_eq!(kind, ContainerKind::ClassName);
            text(s);
        }
        ContainerType::Script(s) => {
            assert_eq!(kind, ContainerKind::Script);
            text(s);
        }
    }
    assert!(!format!("{t:?} {kind:?}").is_empty());
    assert!(reflexive(t));
}

/// A string view: the visible text, `&str`, code points and Display agree.
fn text(s: StrRef<'_>) {
    let raw = s.raw();
    let bytes = s.bytes();
    // The engine's text: a leading BOM skipped, cut at the first NUL.
    let visible = raw.strip_prefix(b"\xef\xbb\xbf").unwrap_or(raw);
    let visible = &visible[..visible
        .iter()
        .position(|&b| b == 0)
        .unwrap_or(visible.len())];
    assert_eq!(bytes, visible);
    assert_eq!(s.is_empty(), bytes.is_empty());
    let shown = s.to_string();
    match s.as_str() {
        Some(text) => {
            assert_eq!(text.as_bytes(), bytes);
            // The soundness of `as_str`'s unchecked conversion: its text is UTF-8 by std's rule.
            assert!(std::str::from_utf8(bytes).is_ok(), "{bytes:02x?}");
            assert!(s.code_points().eq(text.chars().map(u32::from)));
            assert_eq!(shown, text);
            assert!(s == text && s == *text);
        }
        None => {
            assert!(std::str::from_utf8(bytes).is_err());
            // Godot 3 text `&str` cannot hold: one char per code point (U+FFFD if need be).
            let n = s.code_points().count();
            assert!(n <= bytes.len());
            assert_eq!(shown.chars().count(), n);
        }
    }
    assert!(reflexive(s));
}

fn math<T: WireReals + Debug + PartialEq>(
    m: MathRef<'_, T>,
    ty: VariantType,
    seen: &mut Touched,
) -> Precision {
    let n = ty.real_components().expect("a real-valued math type");
    assert_eq!(T::COUNT, n);
    let p = m.precision();
    let w = width(p);
    assert_eq!(p.size(), w);
    let bytes = m.as_bytes();
    assert_eq!(bytes.len(), n * w);
    assert_eq!(m.components().len(), n);
    assert_eq!(m.components().count(), n);
    let mut wire = [0u64; 16];
    let mut nan = false;
    for ((c, chunk), slot) in m.components().zip(bytes.chunks_exact(w)).zip(&mut wire) {
        assert_eq!(c.to_bits(), real_bits(chunk));
        nan |= c.is_nan();
        *slot = c.to_bits();
    }
    seen.nan |= nan;
    // `get` puts the components in their fields; `to_wire` reads them back in wire order.
    let mut back = [0f64; 16];
    m.get().to_wire(&mut back[..n]);
    assert!(back[..n]
        .iter()
        .map(|x| x.to_bits())
        .eq(wire[..n].iter().copied()));
    let again = MathRef::<T>::from_wire(bytes).expect("a view's own bytes");
    assert_eq!(again.precision(), p);
    assert_eq!(again.as_bytes(), bytes);
    assert!(MathRef::<T>::from_wire(&bytes[..bytes.len() - 1]).is_none());
    if !nan {
        assert!(m == again);
    }
    p
}

/// An element type of a fixed-size packed array, decoded here independently of the crate.
pub trait Wire: Element + Debug + PartialEq {
    /// Bytes per element on the wire.
    const BYTES: usize;
    /// Decodes the element at the start of `b`.
    fn decode(b: &[u8]) -> Self;
    /// The element's bits (up to four components), for NaN-safe comparison.
    fn bits(&self) -> [u64; 4];
    /// Any NaN component.
    fn nan(&self) -> bool;
}

macro_rules! wire_scalar {
    ($t:ty, $n:literal, $bits:expr, $nan:expr) => {
        impl Wire for $t {
            const BYTES: usize = $n;
            fn decode(b: &[u8]) -> Self {
                <$t>::from_le_bytes(b[..$n].try_into().unwrap())
            }
            fn bits(&self) -> [u64; 4] {
                [$bits(*self), 0, 0, 0]
            }
            fn nan(&self) -> bool {
                $nan(*self)
            }
        }
        impl<const N: usize> Wire for [$t; N]
        where
            [$t; N]: Element,
        {
            const BYTES: usize = $n * N;
            fn decode(b: &[u8]) -> Self {
                core::array::from_fn(|i| <$t as Wire>::decode(&b[i * $n..]))
            }
            fn bits(&self) -> [u64; 4] {
                let mut out = [0; 4];
                for (o, x) in out.iter_mut().zip(self) {
                    *o = $bits(*x);
                }
                out
            }
            fn nan(&self) -> bool {
                self.iter().any(|x| $nan(*x))
            }
        }
    };
}

wire_scalar!(u8, 1, u64::from, |_| false);
wire_scalar!(i32, 4, |x: i32| x as u32 as u64, |_| false);
wire_scalar!(i64, 8, |x: i64| x as u64, |_| false);
wire_scalar!(f32, 4, |x: f32| u64::from(x.to_bits()), f32::is_nan);
wire_scalar!(f64, 8, f64::to_bits, f64::is_nan);

/// Returns the precision `VariantRef::precision` reports: none for fixed-width elements.
fn packed<T: Wire>(p: PackedRef<'_, T>, seen: &mut Touched) -> Option<Precision> {
    let n = p.len();
    let b = T::BYTES;
    assert_eq!(T::SIZE, b);
    let bytes = p.as_bytes();
    assert_eq!(bytes.len(), n * b);
    assert_eq!(p.is_empty(), n == 0);
    let le = p.as_le_slice();
    assert_eq!(le.len(), n);
    let it = p.iter();
    assert_eq!((it.len(), it.size_hint()), (n, (n, Some(n))));
    let at = |i: usize| T::decode(&bytes[i * b..]).bits();
    let mut count = 0;
    for (i, x) in p.iter().enumerate() {
        assert_eq!(x.bits(), at(i), "element {i}");
        seen.nan |= x.nan();
        count += 1;
    }
    assert_eq!(count, n);
    assert_eq!(p.iter().rev().count(), n);
    for i in samples(n) {
        let want = at(i);
        assert_eq!(p.get(i).map(|x| x.bits()), Some(want));
        assert_eq!(p.iter().nth(i).map(|x| x.bits()), Some(want));
        assert_eq!(p.iter().rev().nth(n - 1 - i).map(|x| x.bits()), Some(want));
        assert_eq!(T::from_le(le[i]).bits(), want);
    }
    assert!(p.get(n).is_none());
    if let Some(native) = p.as_native_slice() {
        assert_eq!(native.len(), n);
        assert!(native.iter().map(Wire::bits).eq(p.iter().map(|x| x.bits())));
    }
    let zero = T::decode(&[0; 32]);
    let mut out = vec![zero; n + 1];
    assert_eq!(p.copy_to_slice(&mut out), n);
    assert!(out[..n]
        .iter()
        .map(Wire::bits)
        .eq(p.iter().map(|x| x.bits())));
    assert_eq!(
        out[n].bits(),
        zero.bits(),
        "copy_to_slice wrote past the elements"
    );
    let mut short = vec![zero; n / 2];
    assert_eq!(p.copy_to_slice(&mut short), n / 2);
    assert!(short
        .iter()
        .map(Wire::bits)
        .eq(out[..n / 2].iter().map(Wire::bits)));
    let owned = p.to_vec();
    assert_eq!(owned.len(), n);
    assert!(owned
        .iter()
        .map(Wire::bits)
        .eq(out[..n].iter().map(Wire::bits)));
    if !p.iter().any(|x| x.nan()) {
        assert!(reflexive(p));
    }
    None
}

fn reals<const N: usize>(p: PackedReals<'_, N>, seen: &mut Touched) -> Precision
where
    [f32; N]: Wire,
    [f64; N]: Wire,
{
    let n = p.len();
    let prec = p.precision();
    let w = width(prec);
    let bytes = p.as_bytes();
    assert_eq!(bytes.len(), n * N * w);
    assert_eq!(p.is_empty(), n == 0);
    match p {
        PackedReals::Single(q) => {
            assert_eq!((prec, q.as_bytes()), (Precision::Single, bytes));
            packed(q, seen);
        }
        PackedReals::Double(q) => {
            assert_eq!((prec, q.as_bytes()), (Precision::Double, bytes));
            packed(q, seen);
        }
    }
    let at = |i: usize, k: usize| real_bits(&bytes[(i * N + k) * w..][..w]);
    let it = p.iter();
    assert_eq!(it.len(), n);
    let mut count = 0;
    for (i, x) in p.iter().enumerate() {
        assert!((0..N).all(|k| x[k].to_bits() == at(i, k)), "vector {i}");
        count += 1;
    }
    assert_eq!(count, n);
    for i in samples(n) {
        let want: Vec<u64> = (0..N).map(|k| at(i, k)).collect();
        let get: Vec<u64> = p.get(i).unwrap().iter().map(|x| x.to_bits()).collect();
        let nth: Vec<u64> = p
            .iter()
            .nth(i)
            .unwrap()
            .iter()
            .map(|x| x.to_bits())
            .collect();
        assert_eq!((&get, &nth), (&want, &want));
    }
    assert!(p.get(n).is_none());
    prec
}

/// Packed strings: each string block is where our own reading of the bytes puts it.
fn strings(p: PackedStrings<'_>) {
    let n = p.len();
    assert_eq!(p.is_empty(), n == 0);
    let bytes = p.as_bytes();
    let mut pos = 0;
    let mut count = 0;
    for s in p.iter() {
        let len = u32::from_le_bytes(bytes[pos..pos + 4].try_into().unwrap()) as usize;
        let raw = &bytes[pos + 4..pos + 4 + len];
        assert_eq!((s.raw().as_ptr(), s.raw().len()), (raw.as_ptr(), len));
        text(s);
        pos += 4 + len + (4 - len % 4) % 4;
        count += 1;
    }
    assert_eq!((count, pos), (n, bytes.len()));
    for i in samples(n) {
        let got = p.get(i).unwrap().raw();
        let nth = p.iter().nth(i).unwrap().raw();
        assert_eq!((got.as_ptr(), got.len()), (nth.as_ptr(), nth.len()));
    }
    assert!(p.get(n).is_none());
    assert!(reflexive(p));
}

fn node_path(p: NodePathRef<'_>) {
    let parts = p.parts();
    strings(parts);
    let (names, subnames) = (p.name_count(), p.subname_count());
    assert_eq!(names, p.names().count());
    assert_eq!(subnames, p.subnames().count());
    assert_eq!(parts.len(), names + subnames);
    assert!(p
        .names()
        .chain(p.subnames())
        .map(|s| s.raw().as_ptr())
        .eq(parts.iter().map(|s| s.raw().as_ptr())));
    assert_eq!(p.has_property_flag(), p.flags() & 2 != 0);
    // The absolute bit decides, except for a path with no parts: Godot 4 keeps it absolute
    // (`NodePath("/")`), Godot 3 and Pandemonium do not (engine fixtures of each check which).
    if p.flags() & 1 == 0 || !parts.is_empty() {
        assert_eq!(p.is_absolute(), p.flags() & 1 != 0);
    }
    assert!(reflexive(p));
}

fn signal(s: SignalRef<'_>) {
    text(s.name());
    let _ = s.object_id();
    assert!(reflexive(s));
}

fn object<'a>(o: ObjectRef<'a>, stack: &mut Vec<VariantRef<'a>>) {
    match o {
        ObjectRef::Id(id) => assert_eq!(o.is_null(), id == 0),
        ObjectRef::Null => assert!(o.is_null()),
        ObjectRef::Full(f) => {
            assert!(!o.is_null());
            full_object(f, stack);
        }
    }
}

fn full_object<'a>(o: FullObjectRef<'a>, stack: &mut Vec<VariantRef<'a>>) {
    let class = o.class();
    text(class);
    // A class that reads as empty text decodes as a null object, never as a full one.
    assert!(!class.is_empty());
    let n = o.len();
    assert_eq!(o.is_empty(), n == 0);
    let mut it = o.properties();
    if n > 0 {
        assert!(it.walked().is_none());
    }
    drain_exact(&mut it, n, |_, (name, value)| {
        text(name);
        stack.push(value);
    });
    assert!(it.walked().is_some());
    assert_eq!(o.try_properties().filter(|p| p.is_ok()).count(), n);
}

fn array<'a>(a: ArrayRef<'a>, stack: &mut Vec<VariantRef<'a>>) -> VariantType {
    let n = a.len();
    assert_eq!(a.is_empty(), n == 0);
    let ty = a.variant_type();
    let want = match a.kind() {
        ArrayKind::Array => VariantType::Array,
        ArrayKind::TypedArray => VariantType::TypedArray,
        ArrayKind::PackedTypedArray => VariantType::PackedTypedArray,
    };
    assert_eq!(ty, want);
    if let Some(t) = a.element_type() {
        container_type(t);
    }
    let mut picked = Vec::with_capacity(3);
    let mut it = a.iter();
    if n > 0 {
        assert!(it.walked().is_none());
    }
    drain_exact(&mut it, n, |taken, item| {
        if samples(n).any(|i| i == taken) {
            picked.push((taken, shallow(&item)));
        }
        stack.push(item);
    });
    assert!(it.next().is_none());
    assert!(it.walked().is_some());
    for (i, want) in picked {
        let got = a.get(i).expect("index in range");
        assert_eq!(shallow(&got), want, "get({i})");
    }
    assert!(a.get(n).is_none());
    assert_eq!(a.into_iter().len(), n);
    // Validated: the fallible form agrees item for item and never fails.
    assert!(a.is_validated());
    assert!(a
        .try_iter()
        .zip(a.iter())
        .all(|(t, x)| shallow(&t.expect("validated")) == shallow(&x)));
    assert_eq!(a.try_iter().count(), n);
    ty
}

/// Takes every item of a validated container's iterator, checking at each step that it says
/// exactly how many are left (`len` and `size_hint`), and that there were `n`; `each` gets
/// every item with its index.
fn drain_exact<I: ExactSizeIterator>(it: &mut I, n: usize, mut each: impl FnMut(usize, I::Item)) {
    let mut taken = 0;
    loop {
        assert_eq!(
            (it.len(), it.size_hint()),
            (n - taken, (n - taken, Some(n - taken)))
        );
        let Some(item) = it.next() else { break };
        each(taken, item);
        taken += 1;
    }
    assert_eq!(taken, n);
}

/// A container's items taken to the end (children skipped, not walked): its `Walked` token.
fn walked_end<'a>(v: &VariantRef<'a>) -> Option<Walked<'a>> {
    match v {
        VariantRef::Array(a) => {
            let mut it = a.iter();
            for _ in it.by_ref() {}
            it.walked()
        }
        VariantRef::Dictionary(d) => {
            let mut it = d.iter();
            for _ in it.by_ref() {}
            it.walked()
        }
        VariantRef::Object(ObjectRef::Full(o)) => {
            let mut it = o.properties();
            for _ in it.by_ref() {}
            it.walked()
        }
        _ => None,
    }
}

fn dict<'a>(d: DictRef<'a>, stack: &mut Vec<VariantRef<'a>>) {
    const LOOKUPS: usize = 4;
    let n = d.len();
    assert_eq!(d.is_empty(), n == 0);
    for t in [d.key_type(), d.value_type()].into_iter().flatten() {
        container_type(t);
    }
    assert_eq!(d.keys_and_values().len(), 2 * n);
    assert_eq!(d.into_iter().len(), n);
    // The first few text and int keys with the value of their last entry (the one the
    // lookups must find), and bounds that make a key certainly absent.
    let mut str_keys: Vec<(&'a str, VariantRef<'a>)> = Vec::new();
    let mut int_keys: Vec<(i64, VariantRef<'a>)> = Vec::new();
    let mut longest = 0;
    let (mut lo, mut hi) = (i64::MAX, i64::MIN);
    let mut second = None; // the second key
    let mut it = d.iter();
    drain_exact(&mut it, n, |taken, (k, v)| {
        if let VariantRef::String(s) | VariantRef::StringName(s) = k {
            longest = longest.max(s.bytes().len());
            if let Some(text) = s.as_str() {
                match str_keys.iter().position(|(key, _)| *key == text) {
                    Some(i) => str_keys[i].1 = v,
                    None if str_keys.len() < LOOKUPS => str_keys.push((text, v)),
                    None => {}
                }
            }
        }
        if let VariantRef::Int(i) = k {
            (lo, hi) = (lo.min(i), hi.max(i));
            match int_keys.iter().position(|(key, _)| *key == i) {
                Some(at) => int_keys[at].1 = v,
                None if int_keys.len() < LOOKUPS => int_keys.push((i, v)),
                None => {}
            }
        }
        if taken == 1 {
            second = Some(shallow(&k));
        }
        stack.push(k);
        stack.push(v);
    });
    assert!(it.walked().is_some());
    // Hand the first entry's value back walked to its end: iteration goes on after it.
    let mut it = d.iter();
    if let Some(w) = it.next().and_then(|e| walked_end(&e.1)) {
        assert!(it.resume(w), "the dictionary refused its own child");
        assert_eq!(it.len(), n - 1);
        let next = it.next().map(|e| shallow(&e.0));
        assert_eq!(next, second);
    }
    for (key, last) in &str_keys {
        let got = d.get(key).expect("a present key");
        assert_eq!(shallow(&got), shallow(last), "get({key:?})");
        // The typed lookup finds the same value, or says which type it found.
        match i64::try_from(*last) {
            Ok(i) => assert_eq!(d.get_as::<i64>(key), Ok(i)),
            Err(e) => assert_eq!(
                d.get_as::<i64>(key),
                Err(gdwire::read::GetError::WrongType { key, wrong: e })
            ),
        }
    }
    for (key, last) in &int_keys {
        let got = d.get_by_int_key(*key).expect("a present key");
        assert_eq!(shallow(&got), shallow(last), "get_by_int_key({key})");
    }
    // Longer than every text key: absent.
    let absent = "x".repeat(longest + 1);
    assert!(d.get(&absent).is_none());
    assert!(matches!(
        d.get_as::<bool>(&absent),
        Err(gdwire::read::GetError::Missing { .. })
    ));
    assert!(d.is_validated());
    assert!(d.try_iter().zip(d.iter()).all(|(t, (k, v))| {
        let (tk, tv) = t.expect("validated");
        shallow(&tk) == shallow(&k) && shallow(&tv) == shallow(&v)
    }));
    let absent = if lo > hi {
        Some(0)
    } else if lo > i64::MIN {
        Some(lo - 1)
    } else {
        hi.checked_add(1)
    };
    if let Some(key) = absent {
        assert!(d.get_by_int_key(key).is_none());
    }
}
