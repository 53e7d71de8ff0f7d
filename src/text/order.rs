//! Dictionary keys the engine's way: duplicates merged as its hash map merges them, then
//! sorted with its `Variant <` and its introsort (`core/sort_array.h`), ties and all.
//!
//! The sort is a port of the engine's algorithm, not a call to `slice::sort`: with keys that
//! have no order (colours, node paths, dictionaries …) or an inconsistent one (NaN, Godot 3's
//! array `<`), the output order is whatever that algorithm leaves, and the engine's text shows
//! exactly that. Where the engine would read out of bounds, this stops at the edge instead.

use alloc::vec::Vec;
use core::cmp::Ordering;

use crate::dialect::Family;
use crate::error::{Error, ErrorKind};
use crate::read::{ArrayRef, DictRef, NodePathRef, ObjectRef, StrRef, VariantRef, MAX_DEPTH};
use crate::Dialect;

/// Which engine's comparison and equality rules apply.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyRules {
    /// Godot 3.2.3 (measured) and Pandemonium (taken to follow it).
    Godot3,
    /// Godot 4.0 – 4.3: `Variant <` by type id first.
    Godot4,
    /// Godot 4.4+: `StringLikeVariantOrder` (String and StringName compare as text).
    Godot4StringLike,
}

pub(crate) struct Keys {
    dialect: Dialect,
    rules: KeyRules,
}

/// Nesting limit for comparing and hashing keys (the decoder's own limit bounds real input).
const LIMIT: u32 = MAX_DEPTH + 8;

fn too_deep() -> Error {
    Error::new(ErrorKind::TooDeep { limit: LIMIT }, 0)
}

fn string_like<'a>(v: &VariantRef<'a>) -> Option<StrRef<'a>> {
    match v {
        VariantRef::String(s) | VariantRef::StringName(s) => Some(*s),
        _ => None,
    }
}

/// Code-point order, as `String::operator<` compares its 32-bit characters.
fn cmp_str(a: StrRef<'_>, b: StrRef<'_>) -> Ordering {
    match (a.as_str(), b.as_str()) {
        // UTF-8 byte order is code-point order.
        (Some(x), Some(y)) => x.as_bytes().cmp(y.as_bytes()),
        _ => a.code_points().cmp(b.code_points()),
    }
}

fn str_eq(a: StrRef<'_>, b: StrRef<'_>) -> bool {
    cmp_str(a, b) == Ordering::Equal
}

/// Godot 3 `Math::is_equal_approx(real_t, real_t)` with `real_t` = `float`.
fn approx_eq(a: f64, b: f64) -> bool {
    let (a, b) = (a as f32, b as f32);
    if a == b {
        return true;
    }
    const CMP_EPSILON: f32 = 0.00001;
    let tolerance = (CMP_EPSILON * a.abs()).max(CMP_EPSILON);
    (a - b).abs() < tolerance
}

/// `a == b`, or both NaN (`hash_compare_scalar`).
fn feq(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

fn feqs(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| feq(*x, *y))
}

/// Lexicographic `<` over components compared with `==` / `<` (Godot 4 vectors).
fn lex_less<T: PartialOrd + Copy>(a: &[T], b: &[T]) -> bool {
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return x < y;
        }
    }
    false
}

/// Real components of the math types, for equality and hashing.
fn reals(v: &VariantRef<'_>, out: &mut [f64; 16]) -> Option<usize> {
    use crate::math::WireReals;
    fn put<T: WireReals>(t: &T, out: &mut [f64; 16]) -> Option<usize> {
        t.to_wire(out.get_mut(..T::COUNT)?);
        Some(T::COUNT)
    }
    match v {
        VariantRef::Vector2(x) => put(&x.get(), out),
        VariantRef::Rect2(x) => put(&x.get(), out),
        VariantRef::Vector3(x) => put(&x.get(), out),
        VariantRef::Transform2D(x) => put(&x.get(), out),
        VariantRef::Vector4(x) => put(&x.get(), out),
        VariantRef::Plane(x) => put(&x.get(), out),
        VariantRef::Quaternion(x) => put(&x.get(), out),
        VariantRef::Aabb(x) => put(&x.get(), out),
        VariantRef::Basis(x) => put(&x.get(), out),
        VariantRef::Transform3D(x) => put(&x.get(), out),
        VariantRef::Projection(x) => put(&x.get(), out),
        VariantRef::Color(c) => {
            out[..4].copy_from_slice(&[c.r, c.g, c.b, c.a].map(f64::from));
            Some(4)
        }
        _ => None,
    }
}

fn ints(v: &VariantRef<'_>) -> Option<([i64; 4], usize)> {
    let i = i64::from;
    Some(match v {
        VariantRef::Vector2i(a) => ([i(a.x), i(a.y), 0, 0], 2),
        VariantRef::Vector3i(a) => ([i(a.x), i(a.y), i(a.z), 0], 3),
        VariantRef::Vector4i(a) => ([i(a.x), i(a.y), i(a.z), i(a.w)], 4),
        VariantRef::Rect2i(r) => (
            [i(r.position.x), i(r.position.y), i(r.size.x), i(r.size.y)],
            4,
        ),
        _ => return None,
    })
}

fn path_eq(a: &NodePathRef<'_>, b: &NodePathRef<'_>) -> bool {
    a.is_absolute() == b.is_absolute()
        && a.name_count() == b.name_count()
        && a.subname_count() == b.subname_count()
        && a.parts()
            .iter()
            .zip(b.parts().iter())
            .all(|(x, y)| str_eq(x, y))
}

struct Fnv(u64);

impl Fnv {
    fn new(tag: u64) -> Fnv {
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        h.u64(tag);
        h
    }
    fn u64(&mut self, x: u64) {
        for b in x.to_le_bytes() {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn real(&mut self, x: f64) {
        // Normalised so that equal keys (±0, any NaN) hash alike.
        let x = if x == 0.0 {
            0.0
        } else if x.is_nan() {
            f64::NAN
        } else {
            x
        };
        self.u64(x.to_bits());
    }
    fn text(&mut self, s: StrRef<'_>) {
        match s.as_str() {
            Some(t) => t.chars().for_each(|c| self.u64(c as u64)),
            None => s.code_points().for_each(|c| self.u64(u64::from(c))),
        }
        self.u64(u64::MAX);
    }
}

impl Keys {
    pub(crate) fn new(dialect: Dialect, rules: KeyRules) -> Keys {
        Keys { dialect, rules }
    }

    fn godot3(&self) -> bool {
        self.rules == KeyRules::Godot3
    }

    fn rank(&self, v: &VariantRef<'_>) -> u8 {
        self.dialect.wire_id(v.variant_type()).unwrap_or(u8::MAX)
    }

    /// The engine's `Variant::operator<` (or `StringLikeVariantOrder` for 4.4+).
    pub(crate) fn less(
        &self,
        a: &VariantRef<'_>,
        b: &VariantRef<'_>,
        depth: u32,
    ) -> Result<bool, Error> {
        if depth > LIMIT {
            return Err(too_deep());
        }
        Ok(match self.same_kind_arrays(a, b) {
            Some((x, y)) => self.array_order(x, y, depth)?.0,
            None => self.shallow_less(a, b),
        })
    }

    /// `(a < b, b < a)`. Godot 4's `Array <` asks both of an element pair; asked one at a
    /// time, nested arrays would take time exponential in their depth.
    fn order(
        &self,
        a: &VariantRef<'_>,
        b: &VariantRef<'_>,
        depth: u32,
    ) -> Result<(bool, bool), Error> {
        if depth > LIMIT {
            return Err(too_deep());
        }
        Ok(match self.same_kind_arrays(a, b) {
            Some((x, y)) => self.array_order(x, y, depth)?,
            None => (self.shallow_less(a, b), self.shallow_less(b, a)),
        })
    }

    /// Two arrays that `<` compares element by element.
    fn same_kind_arrays<'v, 'a>(
        &self,
        a: &'v VariantRef<'a>,
        b: &'v VariantRef<'a>,
    ) -> Option<(&'v ArrayRef<'a>, &'v ArrayRef<'a>)> {
        match (a, b) {
            (VariantRef::Array(x), VariantRef::Array(y)) if self.rank(a) == self.rank(b) => {
                Some((x, y))
            }
            _ => None,
        }
    }

    /// `<` of anything but two arrays of one kind.
    fn shallow_less(&self, a: &VariantRef<'_>, b: &VariantRef<'_>) -> bool {
        use VariantRef as V;
        if self.rules == KeyRules::Godot4StringLike {
            if let (Some(x), Some(y)) = (string_like(a), string_like(b)) {
                return cmp_str(x, y) == Ordering::Less;
            }
        }
        let (ra, rb) = (self.rank(a), self.rank(b));
        if ra != rb {
            return ra < rb;
        }
        match (a, b) {
            (V::Bool(x), V::Bool(y)) => !*x && *y,
            (V::Int(x), V::Int(y)) => x < y,
            (V::Float(x), V::Float(y)) => x < y,
            (V::String(x), V::String(y)) | (V::StringName(x), V::StringName(y)) => {
                cmp_str(*x, *y) == Ordering::Less
            }
            (V::Vector2(x), V::Vector2(y)) => {
                let (x, y) = (x.get(), y.get());
                if self.godot3() {
                    // 3.2.3 Vector2 <: x compared with is_equal_approx (engine-checked).
                    if approx_eq(x.x, y.x) {
                        x.y < y.y
                    } else {
                        x.x < y.x
                    }
                } else {
                    lex_less(&[x.x, x.y], &[y.x, y.y])
                }
            }
            (V::Vector3(x), V::Vector3(y)) => {
                let (x, y) = (x.get(), y.get());
                if self.godot3() {
                    if !approx_eq(x.x, y.x) {
                        x.x < y.x
                    } else if !approx_eq(x.y, y.y) {
                        x.y < y.y
                    } else {
                        x.z < y.z
                    }
                } else {
                    lex_less(&[x.x, x.y, x.z], &[y.x, y.y, y.z])
                }
            }
            (V::Vector4(x), V::Vector4(y)) => {
                let (x, y) = (x.get(), y.get());
                lex_less(&[x.x, x.y, x.z, x.w], &[y.x, y.y, y.z, y.w])
            }
            (V::Vector2i(_) | V::Vector3i(_) | V::Vector4i(_), _) => match (ints(a), ints(b)) {
                (Some((x, n)), Some((y, _))) => lex_less(&x[..n], &y[..n]),
                _ => false,
            },
            (V::Rid(x), V::Rid(y)) => x.unwrap_or(0) < y.unwrap_or(0),
            // Arrays of one kind are compared by `order`. No `<` for the other types (the engine's evaluate fails: not less). Objects
            // compare by heap address in the engine, which a decoder cannot know.
            _ => false,
        }
    }

    /// `(a < b, b < a)` of two arrays, each element pair compared once.
    fn array_order(
        &self,
        a: &ArrayRef<'_>,
        b: &ArrayRef<'_>,
        depth: u32,
    ) -> Result<(bool, bool), Error> {
        let godot3 = self.godot3();
        // 3.2.3's OP_LESS for arrays, kept as it is (engine-checked): false when the other
        // array is shorter, else true as soon as an element is *not* less than its partner.
        let (mut lt, mut gt) = match godot3 {
            true => (
                (b.len() < a.len()).then_some(false),
                (a.len() < b.len()).then_some(false),
            ),
            false => (None, None),
        };
        for (x, y) in a.iter().zip(b.iter()) {
            if lt.is_some() && gt.is_some() {
                break;
            }
            let (l, g) = self.order(&x?, &y?, depth + 1)?;
            if godot3 {
                lt = lt.or((!l).then_some(true));
                gt = gt.or((!g).then_some(true));
            } else if l || g {
                // Godot 4 `Array::operator<`: the first pair where either is less decides.
                (lt, gt) = (Some(l), Some(g));
            }
        }
        Ok(match godot3 {
            true => (lt.unwrap_or(false), gt.unwrap_or(false)),
            // Godot 4: all pairs equal-ish, then shorter first.
            false => (
                lt.unwrap_or(a.len() < b.len()),
                gt.unwrap_or(b.len() < a.len()),
            ),
        })
    }

    /// The engine's `hash_compare`: when two keys are the same dictionary key.
    pub(crate) fn same_key(
        &self,
        a: &VariantRef<'_>,
        b: &VariantRef<'_>,
        depth: u32,
    ) -> Result<bool, Error> {
        use VariantRef as V;
        if depth > LIMIT {
            return Err(too_deep());
        }
        if matches!(self.rules, KeyRules::Godot4StringLike) {
            if let (Some(x), Some(y)) = (string_like(a), string_like(b)) {
                return Ok(str_eq(x, y));
            }
        }
        if a.variant_type() != b.variant_type() {
            return Ok(false);
        }
        let (mut ba, mut bb) = ([0.0; 16], [0.0; 16]);
        if let (Some(n), Some(m)) = (reals(a, &mut ba), reals(b, &mut bb)) {
            return Ok(feqs(&ba[..n], &bb[..m]));
        }
        if let (Some(x), Some(y)) = (ints(a), ints(b)) {
            return Ok(x == y);
        }
        Ok(match (a, b) {
            (V::Nil, V::Nil) | (V::Callable, V::Callable) => true,
            (V::Bool(x), V::Bool(y)) => x == y,
            (V::Int(x), V::Int(y)) => x == y,
            (V::Float(x), V::Float(y)) => feq(*x, *y),
            (V::String(x), V::String(y)) | (V::StringName(x), V::StringName(y)) => str_eq(*x, *y),
            (V::NodePath(x), V::NodePath(y)) => path_eq(x, y),
            (V::Rid(x), V::Rid(y)) => x == y,
            (V::Signal(x), V::Signal(y)) => {
                str_eq(x.name(), y.name()) && x.object_id() == y.object_id()
            }
            // Every decoded object is a new instance: only null equals null.
            (V::Object(x), V::Object(y)) => x.is_null() && y.is_null(),
            (V::Array(x), V::Array(y)) => {
                if x.len() != y.len() || x.element_type() != y.element_type() {
                    return Ok(false);
                }
                for (p, q) in x.iter().zip(y.iter()) {
                    if !self.same_key(&p?, &q?, depth + 1)? {
                        return Ok(false);
                    }
                }
                true
            }
            (V::Dictionary(x), V::Dictionary(y)) => {
                // Godot 3 compares dictionaries by identity; Godot 4 by content (taken here
                // entry by entry in wire order).
                if self.godot3() || x.len() != y.len() {
                    return Ok(false);
                }
                for (p, q) in x.iter().zip(y.iter()) {
                    let ((pk, pv), (qk, qv)) = (p?, q?);
                    if !self.same_key(&pk, &qk, depth + 1)?
                        || !self.same_key(&pv, &qv, depth + 1)?
                    {
                        return Ok(false);
                    }
                }
                true
            }
            _ => packed_eq(a, b, self.godot3()),
        })
    }

    /// A hash consistent with [`Keys::same_key`].
    fn hash(&self, v: &VariantRef<'_>, depth: u32) -> Result<u64, Error> {
        use VariantRef as V;
        if depth > LIMIT {
            return Err(too_deep());
        }
        let tag = match (self.rules, v) {
            (KeyRules::Godot4StringLike, V::StringName(_)) => crate::VariantType::String as u64,
            _ => v.variant_type() as u64,
        };
        let mut h = Fnv::new(tag);
        let mut buf = [0.0; 16];
        if let Some(n) = reals(v, &mut buf) {
            buf[..n].iter().for_each(|x| h.real(*x));
            return Ok(h.0);
        }
        if let Some((x, n)) = ints(v) {
            x[..n].iter().for_each(|x| h.u64(*x as u64));
            return Ok(h.0);
        }
        match v {
            V::Bool(b) => h.u64(u64::from(*b)),
            V::Int(i) => h.u64(*i as u64),
            V::Float(f) => h.real(*f),
            V::String(s) | V::StringName(s) => h.text(*s),
            V::NodePath(p) => {
                h.u64(u64::from(p.is_absolute()));
                p.parts().iter().for_each(|s| h.text(s));
            }
            V::Rid(r) => h.u64(r.unwrap_or(0)),
            V::Object(ObjectRef::Id(id)) => h.u64(*id),
            V::Array(a) => {
                h.u64(a.len() as u64);
                for x in a.iter() {
                    h.u64(self.hash(&x?, depth + 1)?);
                }
            }
            V::Dictionary(d) => h.u64(d.len() as u64),
            V::PackedByteArray(p) => h.u64(p.len() as u64),
            V::PackedInt32Array(p) => p.iter().for_each(|x| h.u64(x as u64)),
            V::PackedInt64Array(p) => p.iter().for_each(|x| h.u64(x as u64)),
            V::PackedStringArray(p) => p.iter().for_each(|s| h.text(s)),
            other => h.u64(packed_len(other) as u64),
        }
        Ok(h.0)
    }

    /// The dictionary's entries as the engine holds them (duplicate keys merged: first
    /// position, last value) in the order its text writer prints them.
    pub(crate) fn entries<'a>(
        &self,
        dict: &DictRef<'a>,
        depth: u32,
    ) -> Result<Vec<(VariantRef<'a>, VariantRef<'a>)>, Error> {
        let mut entries = Vec::with_capacity(dict.len());
        for e in dict.iter() {
            entries.push(e?);
        }
        self.merge_duplicates(&mut entries, depth)?;
        let mut order: Vec<usize> = (0..entries.len()).collect();
        let mut failed = None;
        let mut less = |x: usize, y: usize| -> bool {
            if failed.is_some() {
                return false;
            }
            match self.less(&entries[x].0, &entries[y].0, depth + 1) {
                Ok(b) => b,
                Err(e) => {
                    failed = Some(e);
                    false
                }
            }
        };
        SortArray { less: &mut less }.sort(&mut order);
        if let Some(e) = failed {
            return Err(e);
        }
        Ok(order.into_iter().map(|i| entries[i]).collect())
    }

    fn merge_duplicates(
        &self,
        entries: &mut Vec<(VariantRef<'_>, VariantRef<'_>)>,
        depth: u32,
    ) -> Result<(), Error> {
        if entries.len() < 2 {
            return Ok(());
        }
        let mut by_hash = Vec::with_capacity(entries.len());
        for (i, (k, _)) in entries.iter().enumerate() {
            by_hash.push((self.hash(k, depth + 1)?, i));
        }
        by_hash.sort_unstable();
        let mut keep = alloc::vec![true; entries.len()];
        for group in by_hash.chunk_by(|a, b| a.0 == b.0) {
            for (n, &(_, later)) in group.iter().enumerate() {
                // Indices ascend within a group: compare with earlier kept keys only.
                for &(_, first) in &group[..n] {
                    if keep[first]
                        && self.same_key(&entries[first].0, &entries[later].0, depth + 1)?
                    {
                        entries[first].1 = entries[later].1;
                        keep[later] = false;
                        break;
                    }
                }
            }
        }
        let mut i = 0;
        entries.retain(|_| {
            i += 1;
            keep[i - 1]
        });
        Ok(())
    }
}

fn packed_len(v: &VariantRef<'_>) -> usize {
    use VariantRef as V;
    match v {
        V::PackedFloat32Array(p) => p.len(),
        V::PackedFloat64Array(p) => p.len(),
        V::PackedVector2Array(p) => p.len(),
        V::PackedVector3Array(p) => p.len(),
        V::PackedVector4Array(p) => p.len(),
        V::PackedColorArray(p) => p.len(),
        V::PackedVector2iArray(p) => p.len(),
        V::PackedVector3iArray(p) => p.len(),
        V::PackedVector4iArray(p) => p.len(),
        _ => 0,
    }
}

/// Packed array equality: element-wise; float elements with `==` in Godot 3 (NaN never
/// equal), NaN-equal in Godot 4 (`hash_compare` of packed arrays).
fn packed_eq(a: &VariantRef<'_>, b: &VariantRef<'_>, godot3: bool) -> bool {
    use VariantRef as V;
    let f = |x: f64, y: f64| if godot3 { x == y } else { feq(x, y) };
    match (a, b) {
        (V::PackedByteArray(x), V::PackedByteArray(y)) => x.as_bytes() == y.as_bytes(),
        (V::PackedInt32Array(x), V::PackedInt32Array(y)) => x.as_bytes() == y.as_bytes(),
        (V::PackedInt64Array(x), V::PackedInt64Array(y)) => x.as_bytes() == y.as_bytes(),
        (V::PackedVector2iArray(x), V::PackedVector2iArray(y)) => x.as_bytes() == y.as_bytes(),
        (V::PackedVector3iArray(x), V::PackedVector3iArray(y)) => x.as_bytes() == y.as_bytes(),
        (V::PackedVector4iArray(x), V::PackedVector4iArray(y)) => x.as_bytes() == y.as_bytes(),
        (V::PackedStringArray(x), V::PackedStringArray(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| str_eq(p, q))
        }
        (V::PackedFloat32Array(x), V::PackedFloat32Array(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| f(p.into(), q.into()))
        }
        (V::PackedFloat64Array(x), V::PackedFloat64Array(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| f(p, q))
        }
        (V::PackedColorArray(x), V::PackedColorArray(y)) => {
            x.len() == y.len()
                && x.iter().zip(y.iter()).all(|(p, q)| {
                    p.iter()
                        .zip(q.iter())
                        .all(|(s, t)| f((*s).into(), (*t).into()))
                })
        }
        (V::PackedVector2Array(x), V::PackedVector2Array(y)) => reals_eq(x.iter(), y.iter(), f),
        (V::PackedVector3Array(x), V::PackedVector3Array(y)) => reals_eq(x.iter(), y.iter(), f),
        (V::PackedVector4Array(x), V::PackedVector4Array(y)) => reals_eq(x.iter(), y.iter(), f),
        _ => false,
    }
}

fn reals_eq<const N: usize>(
    x: impl ExactSizeIterator<Item = [f64; N]>,
    y: impl ExactSizeIterator<Item = [f64; N]>,
    f: impl Fn(f64, f64) -> bool,
) -> bool {
    x.len() == y.len()
        && x.zip(y)
            .all(|(p, q)| p.iter().zip(&q).all(|(s, t)| f(*s, *t)))
}

/// The engine's `SortArray` (introsort, median of three, heap sort fallback, final insertion
/// sort with a threshold of 16) over entry indices.
struct SortArray<'c, F: FnMut(usize, usize) -> bool> {
    less: &'c mut F,
}

impl<F: FnMut(usize, usize) -> bool> SortArray<'_, F> {
    const THRESHOLD: usize = 16;

    fn sort(&mut self, a: &mut [usize]) {
        let n = a.len();
        if n == 0 {
            return;
        }
        let depth = 2 * (usize::BITS - 1 - n.leading_zeros()) as usize;
        self.introsort(a, 0, n, depth);
        self.final_insertion_sort(a, 0, n);
    }

    fn median_of_3(&mut self, a: usize, b: usize, c: usize) -> usize {
        if (self.less)(a, b) {
            if (self.less)(b, c) {
                b
            } else if (self.less)(a, c) {
                c
            } else {
                a
            }
        } else if (self.less)(a, c) {
            a
        } else if (self.less)(b, c) {
            c
        } else {
            b
        }
    }

    fn introsort(&mut self, a: &mut [usize], first: usize, mut last: usize, mut max_depth: usize) {
        while last - first > Self::THRESHOLD {
            if max_depth == 0 {
                self.partial_sort(a, first, last, last);
                return;
            }
            max_depth -= 1;
            let pivot = self.median_of_3(a[first], a[first + (last - first) / 2], a[last - 1]);
            let cut = self.partitioner(a, first, last, pivot);
            self.introsort(a, cut, last, max_depth);
            last = cut;
        }
    }

    fn partitioner(
        &mut self,
        a: &mut [usize],
        mut first: usize,
        mut last: usize,
        pivot: usize,
    ) -> usize {
        let (lo, hi) = (first, last);
        loop {
            while (self.less)(a[first], pivot) {
                if first + 1 >= hi {
                    break; // engine: out of bounds (newer engines: "bad comparison")
                }
                first += 1;
            }
            last -= 1;
            while (self.less)(pivot, a[last]) {
                if last == lo {
                    break;
                }
                last -= 1;
            }
            if first >= last {
                return first;
            }
            a.swap(first, last);
            first += 1;
        }
    }

    fn unguarded_linear_insert(&mut self, a: &mut [usize], mut last: usize, value: usize) {
        while last > 0 && (self.less)(value, a[last - 1]) {
            a[last] = a[last - 1];
            last -= 1;
        }
        a[last] = value;
    }

    fn linear_insert(&mut self, a: &mut [usize], first: usize, last: usize) {
        let value = a[last];
        if (self.less)(value, a[first]) {
            a.copy_within(first..last, first + 1);
            a[first] = value;
        } else {
            self.unguarded_linear_insert(a, last, value);
        }
    }

    fn insertion_sort(&mut self, a: &mut [usize], first: usize, last: usize) {
        for i in first + 1..last {
            self.linear_insert(a, first, i);
        }
    }

    fn final_insertion_sort(&mut self, a: &mut [usize], first: usize, last: usize) {
        if last - first > Self::THRESHOLD {
            self.insertion_sort(a, first, first + Self::THRESHOLD);
            for i in first + Self::THRESHOLD..last {
                let value = a[i];
                self.unguarded_linear_insert(a, i, value);
            }
        } else {
            self.insertion_sort(a, first, last);
        }
    }

    fn adjust_heap(
        &mut self,
        a: &mut [usize],
        first: usize,
        mut hole: usize,
        len: usize,
        value: usize,
    ) {
        let top = hole;
        let mut second = 2 * hole + 2;
        while second < len {
            if (self.less)(a[first + second], a[first + second - 1]) {
                second -= 1;
            }
            a[first + hole] = a[first + second];
            hole = second;
            second = 2 * (second + 1);
        }
        if second == len {
            a[first + hole] = a[first + second - 1];
            hole = second - 1;
        }
        self.push_heap(a, first, hole, top, value);
    }

    fn push_heap(
        &mut self,
        a: &mut [usize],
        first: usize,
        mut hole: usize,
        top: usize,
        value: usize,
    ) {
        while hole > top {
            let parent = (hole - 1) / 2;
            if !(self.less)(a[first + parent], value) {
                break;
            }
            a[first + hole] = a[first + parent];
            hole = parent;
        }
        a[first + hole] = value;
    }

    fn make_heap(&mut self, a: &mut [usize], first: usize, last: usize) {
        if last - first < 2 {
            return;
        }
        let len = last - first;
        let mut parent = (len - 2) / 2;
        loop {
            let value = a[first + parent];
            self.adjust_heap(a, first, parent, len, value);
            if parent == 0 {
                return;
            }
            parent -= 1;
        }
    }

    fn pop_heap_to(
        &mut self,
        a: &mut [usize],
        first: usize,
        last: usize,
        result: usize,
        value: usize,
    ) {
        a[result] = a[first];
        self.adjust_heap(a, first, 0, last - first, value);
    }

    fn partial_sort(&mut self, a: &mut [usize], first: usize, last: usize, middle: usize) {
        self.make_heap(a, first, middle);
        for i in middle..last {
            if (self.less)(a[i], a[first]) {
                let value = a[i];
                self.pop_heap_to(a, first, middle, i, value);
            }
        }
        // sort_heap
        let mut end = middle;
        while end - first > 1 {
            let value = a[end - 1];
            self.pop_heap_to(a, first, end - 1, end - 1, value);
            end -= 1;
        }
    }
}

/// Godot 3's and Pandemonium's family share the 3.x rules; Godot 4 minors differ.
pub(crate) fn rules_for(dialect: Dialect) -> KeyRules {
    match dialect.family() {
        Family::Godot3 | Family::Pandemonium => KeyRules::Godot3,
        Family::Godot4 if dialect.has_typed_dictionaries() => KeyRules::Godot4StringLike,
        Family::Godot4 => KeyRules::Godot4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(values: &[i32]) -> Vec<i32> {
        let mut idx: Vec<usize> = (0..values.len()).collect();
        let mut less = |a: usize, b: usize| values[a] < values[b];
        SortArray { less: &mut less }.sort(&mut idx);
        idx.into_iter().map(|i| values[i]).collect()
    }

    #[test]
    fn sorts_like_a_sort() {
        // A consistent order must come out sorted, for every size around the thresholds
        // (insertion sort, introsort, and the heap-sort fallback with a zero depth budget).
        let mut seed = 7u32;
        for n in [0, 1, 2, 15, 16, 17, 33, 100, 1000] {
            let v: Vec<i32> = (0..n)
                .map(|_| {
                    seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
                    (seed >> 16) as i32 % 50
                })
                .collect();
            let mut want = v.clone();
            want.sort();
            assert_eq!(sorted(&v), want, "n = {n}");
        }
        let mut idx: Vec<usize> = (0..40).rev().collect();
        let mut less = |a: usize, b: usize| a < b;
        let mut s = SortArray { less: &mut less };
        s.partial_sort(&mut idx, 0, 40, 40);
        assert_eq!(idx, (0..40).collect::<Vec<_>>());
    }

    #[test]
    fn never_panics_on_inconsistent_comparisons() {
        for n in [3, 17, 64, 500] {
            let mut idx: Vec<usize> = (0..n).collect();
            let mut always = |_: usize, _: usize| true;
            SortArray { less: &mut always }.sort(&mut idx);
            let mut seed = 1u64;
            let mut random = |_: usize, _: usize| {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                seed >> 63 == 1
            };
            SortArray { less: &mut random }.sort(&mut idx);
            // Every step is a swap, shift or heap move: still a permutation.
            idx.sort();
            assert_eq!(idx, (0..n).collect::<Vec<_>>());
        }
    }
}
