//! Dictionary keys the engine's way: duplicates merged as its hash map merges them
//! (`same.rs`), then sorted with its `Variant <` and its introsort (`sort.rs`), ties and all.
//!
//! `<` runs iteratively on a small heap stack (one frame per nesting level both keys share,
//! bounded by the depth limit), moving past nested containers through their recorded ends
//! ([`Ends`]): it never recurses and never skips a container twice, so it costs at most the
//! part of the two keys it looks at. Key equality walks two keys side by side
//! (`read::compare::lockstep`, as `==` of views does).

use alloc::vec::Vec;
use core::cmp::Ordering;

use crate::dialect::Family;
use crate::error::{Error, ErrorKind};
use crate::read::{StrRef, VariantRef, MAX_DEPTH};
use crate::text::ends::{Ends, Items, Node, Pair};
use crate::text::sort::SortArray;
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

/// One dictionary entry, with the container numbers of its key and value.
#[derive(Clone, Copy)]
pub(crate) struct Entry<'a> {
    pub(crate) key: Node<'a>,
    pub(crate) value: Node<'a>,
}

/// Orders the entries of every dictionary of one written value.
pub(crate) struct Keys<'a> {
    dialect: Dialect,
    pub(super) rules: KeyRules,
    /// Where the containers of the outermost dictionary being written end.
    pub(crate) ends: Ends<'a>,
    /// The `<` comparison's stack, kept between comparisons (no allocation per comparison).
    less_stack: Vec<LessFrame<'a>>,
    /// Scratch for merging one dictionary's duplicate keys.
    pub(super) order: Vec<usize>,
    pub(super) keep: Vec<bool>,
}

/// Nesting limit for comparing keys (the decoder's own limit bounds real input, and the
/// writer refuses deeper values before comparing anything).
pub(super) const LIMIT: u32 = MAX_DEPTH + 8;

pub(super) fn too_deep() -> Error {
    Error::new(ErrorKind::TooDeep { limit: LIMIT }, 0)
}

pub(super) fn string_like<'a>(v: &VariantRef<'a>) -> Option<StrRef<'a>> {
    match v {
        VariantRef::String(s) | VariantRef::StringName(s) => Some(*s),
        _ => None,
    }
}

/// Code-point order, as `String::operator<` compares its 32-bit characters.
pub(super) fn cmp_str(a: StrRef<'_>, b: StrRef<'_>) -> Ordering {
    match (a.as_str(), b.as_str()) {
        // UTF-8 byte order is code-point order.
        (Some(x), Some(y)) => x.as_bytes().cmp(y.as_bytes()),
        _ => a.code_points().cmp(b.code_points()),
    }
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
pub(super) fn reals(v: &VariantRef<'_>, out: &mut [f64; 16]) -> Option<usize> {
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

pub(super) fn ints(v: &VariantRef<'_>) -> Option<([i64; 4], usize)> {
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

/// Two arrays being compared by `<`: what is left of them and what is decided.
struct LessFrame<'a> {
    items: Pair<'a>,
    a_len: usize,
    b_len: usize,
    /// `a < b` and `b < a`, once decided.
    lt: Option<bool>,
    gt: Option<bool>,
}

impl LessFrame<'_> {
    fn decided(&self) -> bool {
        self.lt.is_some() && self.gt.is_some()
    }

    /// Takes `(x < y, y < x)` of the next element pair.
    fn feed(&mut self, (l, g): (bool, bool), godot3: bool) {
        if godot3 {
            self.lt = self.lt.or((!l).then_some(true));
            self.gt = self.gt.or((!g).then_some(true));
        } else if l || g {
            // Godot 4 `Array::operator<`: the first pair where either is less decides.
            (self.lt, self.gt) = (Some(l), Some(g));
        }
    }

    fn result(&self, godot3: bool) -> (bool, bool) {
        match godot3 {
            true => (self.lt.unwrap_or(false), self.gt.unwrap_or(false)),
            // Godot 4: all pairs equal-ish, then shorter first.
            false => (
                self.lt.unwrap_or(self.a_len < self.b_len),
                self.gt.unwrap_or(self.b_len < self.a_len),
            ),
        }
    }
}

impl<'a> Keys<'a> {
    pub(crate) fn new(dialect: Dialect) -> Keys<'a> {
        Keys {
            dialect,
            rules: rules_for(dialect),
            ends: Ends::new(),
            less_stack: Vec::new(),
            order: Vec::new(),
            keep: Vec::new(),
        }
    }

    pub(super) fn godot3(&self) -> bool {
        self.rules == KeyRules::Godot3
    }

    fn rank(&self, v: &VariantRef<'_>) -> u8 {
        self.dialect.wire_id(v.variant_type()).unwrap_or(u8::MAX)
    }

    /// The engine's `Variant::operator<` (or `StringLikeVariantOrder` for 4.4+).
    pub(crate) fn less(&mut self, a: &Node<'a>, b: &Node<'a>, depth: u32) -> Result<bool, Error> {
        if depth > LIMIT {
            return Err(too_deep());
        }
        Ok(match self.same_kind_arrays(&a.v, &b.v) {
            true => self.array_order(a, b, depth)?.0,
            false => self.shallow_less(&a.v, &b.v),
        })
    }

    /// Two arrays that `<` compares element by element.
    fn same_kind_arrays(&self, a: &VariantRef<'_>, b: &VariantRef<'_>) -> bool {
        matches!((a, b), (VariantRef::Array(_), VariantRef::Array(_)))
            && self.rank(a) == self.rank(b)
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
            // Arrays of one kind are compared by `array_order`. No `<` for the other types (the
            // engine's evaluate fails: not less). Objects compare by heap address in the
            // engine, which a decoder cannot know.
            _ => false,
        }
    }

    /// `(a < b, b < a)` of two arrays of one kind. Both questions are answered in one pass
    /// (Godot 4's `Array <` asks both of an element pair; asked one at a time, nested arrays
    /// would take time exponential in their depth), without recursion: nested array pairs
    /// are frames on a heap stack.
    fn array_order(
        &mut self,
        a: &Node<'a>,
        b: &Node<'a>,
        depth: u32,
    ) -> Result<(bool, bool), Error> {
        let mut stack = core::mem::take(&mut self.less_stack);
        stack.clear();
        let result = self.array_order_on(&mut stack, a, b, depth);
        self.less_stack = stack;
        result
    }

    fn less_frame(&self, a: &Node<'a>, b: &Node<'a>) -> Option<LessFrame<'a>> {
        let (VariantRef::Array(x), VariantRef::Array(y)) = (&a.v, &b.v) else {
            return None;
        };
        let (a_len, b_len) = (x.len(), y.len());
        // 3.2.3's OP_LESS for arrays, kept as it is (engine-checked): false when the other
        // array is shorter, else true as soon as an element is *not* less than its partner.
        let (lt, gt) = match self.godot3() {
            true => (
                (b_len < a_len).then_some(false),
                (a_len < b_len).then_some(false),
            ),
            false => (None, None),
        };
        Some(LessFrame {
            items: Pair::of(a, b)?,
            a_len,
            b_len,
            lt,
            gt,
        })
    }

    fn array_order_on(
        &self,
        stack: &mut Vec<LessFrame<'a>>,
        a: &Node<'a>,
        b: &Node<'a>,
        depth: u32,
    ) -> Result<(bool, bool), Error> {
        let godot3 = self.godot3();
        stack.extend(self.less_frame(a, b));
        loop {
            // The elements of the arrays on top are nested this deep.
            let element_depth = depth + stack.len() as u32;
            let Some(top) = stack.last_mut() else {
                return Ok((false, false));
            };
            let pair = match top.decided() {
                true => None,
                false => top.items.next(&self.ends),
            };
            let Some(pair) = pair else {
                let result = stack
                    .pop()
                    .map_or((false, false), |done| done.result(godot3));
                match stack.last_mut() {
                    Some(parent) => parent.feed(result, godot3),
                    None => return Ok(result),
                }
                continue;
            };
            if element_depth > LIMIT {
                return Err(too_deep());
            }
            let (x, y) = pair?;
            if self.same_kind_arrays(&x.v, &y.v) {
                if let Some(frame) = self.less_frame(&x, &y) {
                    stack.push(frame);
                    continue;
                }
            }
            let result = (self.shallow_less(&x.v, &y.v), self.shallow_less(&y.v, &x.v));
            top.feed(result, godot3);
        }
    }

    /// Appends the dictionary's entries to `entries` (wire order) and, to `order`, the
    /// positions in `entries` of those the engine holds (duplicate keys merged: first
    /// position, last value), in the order its text writer prints them. `dict` is at `depth`.
    /// Nested dictionaries append above the dictionaries around them and remove theirs when
    /// written, so both work as stacks: no allocation per dictionary, no entry moved.
    pub(crate) fn entries(
        &mut self,
        dict: &Node<'a>,
        depth: u32,
        entries: &mut Vec<Entry<'a>>,
        order: &mut Vec<usize>,
    ) -> Result<(), Error> {
        let start = entries.len();
        if dict.id == Some(0) {
            // The table's root: its items were collected while the table was built.
            let items = &self.ends.root_items;
            entries.reserve(items.len() / 2);
            for kv in items.chunks_exact(2) {
                if let [key, value] = kv {
                    entries.push(Entry {
                        key: *key,
                        value: *value,
                    });
                }
            }
        } else if let (VariantRef::Dictionary(d), Some(mut items)) = (&dict.v, Items::of(dict)) {
            entries.reserve(d.len());
            while let Some(key) = items.next(&self.ends) {
                let key = key?;
                let Some(value) = items.next(&self.ends) else {
                    break;
                };
                entries.push(Entry { key, value: value? });
            }
        }
        let mine = entries.get_mut(start..).unwrap_or_default();
        self.merge_duplicates(mine, depth)?;
        let first = order.len();
        let kept = self.keep.iter().enumerate().filter(|(_, &k)| k);
        order.extend(kept.map(|(i, _)| start + i));
        let mut failed = None;
        let mut less = |x: usize, y: usize| -> bool {
            if failed.is_some() {
                return false;
            }
            let (Some(a), Some(b)) = (entries.get(x), entries.get(y)) else {
                return false;
            };
            match self.less(&a.key, &b.key, depth + 1) {
                Ok(b) => b,
                Err(e) => {
                    failed = Some(e);
                    false
                }
            }
        };
        SortArray { less: &mut less }.sort(order.get_mut(first..).unwrap_or_default());
        match failed {
            Some(e) => Err(e),
            None => Ok(()),
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
