//! Duplicate dictionary keys merged as the engine's hash map merges them: keys equal under its
//! `hash_compare` become one entry, at the first one's position with the last one's value.
//!
//! Instead of hashing, keys are sorted by a total order whose ties are exactly the engine's
//! key equality, so equal keys end up side by side: O(k log k) comparisons for k keys whatever
//! they are (a hash lets crafted or merely alike keys, e.g. dictionaries of one length, pile
//! into one bucket and be compared pairwise). The order reads each key as a sequence of
//! tokens (type, length, contents, then the items of a container, in wire order) and compares
//! the sequences lexicographically; a value the engine never finds equal to another key (a
//! Godot 3 dictionary, a non-null object, a Godot 3 packed array of reals holding NaN) reads
//! as a token holding its entry's index, which no other key shares. Up to [`SMALL`] keys are
//! compared pairwise instead (cheaper for the usual small dictionary; same result).

use alloc::vec::Vec;
use core::cmp::Ordering;
use core::mem::take;

use crate::error::Error;
use crate::read::compare::lockstep;
use crate::read::{ContainerType, Event, NodePathRef, VariantRef};
use crate::text::ends::Node;
use crate::text::order::{
    cmp_str, ints, reals, string_like, too_deep, Entry, KeyRules, Keys, LIMIT,
};
use crate::text::sort::SortArray;
use crate::VariantType;

/// Up to this many keys are merged by comparing pairs instead of sorting.
const SMALL: usize = 8;

/// What comparing two values' own tokens (not their items) says.
enum Head {
    Differ(Ordering),
    Same,
    /// The same so far; their items come next.
    Open,
}

fn by(o: Ordering) -> Head {
    match o {
        Ordering::Equal => Head::Same,
        o => Head::Differ(o),
    }
}

/// Equal when `==` or both NaN (`hash_compare_scalar`); ±0 and every NaN normalised.
fn real_cmp(a: f64, b: f64) -> Ordering {
    let norm = |x: f64| match x {
        _ if x == 0.0 => 0.0,
        _ if x.is_nan() => f64::NAN,
        _ => x,
    };
    norm(a).total_cmp(&norm(b))
}

fn reals_cmp(a: &[f64], b: &[f64]) -> Ordering {
    a.len()
        .cmp(&b.len())
        .then_with(|| lex(a.iter().zip(b), |(x, y)| real_cmp(*x, *y)))
}

/// The first unequal pair decides.
fn lex<T>(pairs: impl Iterator<Item = T>, mut cmp: impl FnMut(T) -> Ordering) -> Ordering {
    for pair in pairs {
        match cmp(pair) {
            Ordering::Equal => {}
            o => return o,
        }
    }
    Ordering::Equal
}

fn path_cmp(a: &NodePathRef<'_>, b: &NodePathRef<'_>) -> Ordering {
    let shape = |p: &NodePathRef<'_>| (p.is_absolute(), p.name_count(), p.subname_count());
    shape(a).cmp(&shape(b)).then_with(|| {
        lex(a.parts().iter().zip(b.parts().iter()), |(x, y)| {
            cmp_str(x, y)
        })
    })
}

/// Typed arrays are equal keys only with equal element types (as `PartialEq` compares them).
fn type_cmp(a: Option<ContainerType<'_>>, b: Option<ContainerType<'_>>) -> Ordering {
    use ContainerType as C;
    let rank = |t: &C<'_>| match t {
        C::Builtin(_) => 0,
        C::ClassName(_) => 1,
        C::Script(_) => 2,
        C::UnknownBuiltin(_) => 3,
    };
    match (a, b) {
        (Some(x), Some(y)) => rank(&x).cmp(&rank(&y)).then(match (x, y) {
            (C::Builtin(p), C::Builtin(q)) => p.cmp(&q),
            (C::ClassName(p), C::ClassName(q)) | (C::Script(p), C::Script(q)) => {
                p.bytes().cmp(q.bytes())
            }
            (C::UnknownBuiltin(p), C::UnknownBuiltin(q)) => p.cmp(&q),
            _ => Ordering::Equal,
        }),
        (x, y) => x.is_some().cmp(&y.is_some()),
    }
}

/// Packed arrays of one type: equal element by element. Godot 3 compares float elements with
/// `==` (a NaN equals nothing: `never` decides); Godot 4 with `hash_compare_scalar`.
fn packed_cmp(a: &VariantRef<'_>, b: &VariantRef<'_>, godot3: bool, never: Ordering) -> Ordering {
    use VariantRef as V;
    let f = |x: f64, y: f64| match (godot3, x.is_nan(), y.is_nan()) {
        (true, true, true) => never,
        (true, true, false) => Ordering::Greater,
        (true, false, true) => Ordering::Less,
        _ => real_cmp(x, y),
    };
    let each = |n: usize, m: usize, rest: &mut dyn FnMut() -> Ordering| n.cmp(&m).then_with(rest);
    match (a, b) {
        (V::PackedByteArray(x), V::PackedByteArray(y)) => x.as_bytes().cmp(y.as_bytes()),
        (V::PackedInt32Array(x), V::PackedInt32Array(y)) => x.as_bytes().cmp(y.as_bytes()),
        (V::PackedInt64Array(x), V::PackedInt64Array(y)) => x.as_bytes().cmp(y.as_bytes()),
        (V::PackedVector2iArray(x), V::PackedVector2iArray(y)) => x.as_bytes().cmp(y.as_bytes()),
        (V::PackedVector3iArray(x), V::PackedVector3iArray(y)) => x.as_bytes().cmp(y.as_bytes()),
        (V::PackedVector4iArray(x), V::PackedVector4iArray(y)) => x.as_bytes().cmp(y.as_bytes()),
        (V::PackedStringArray(x), V::PackedStringArray(y)) => each(x.len(), y.len(), &mut || {
            lex(x.iter().zip(y.iter()), |(p, q)| cmp_str(p, q))
        }),
        (V::PackedFloat32Array(x), V::PackedFloat32Array(y)) => each(x.len(), y.len(), &mut || {
            lex(x.iter().zip(y.iter()), |(p, q)| f(p.into(), q.into()))
        }),
        (V::PackedFloat64Array(x), V::PackedFloat64Array(y)) => each(x.len(), y.len(), &mut || {
            lex(x.iter().zip(y.iter()), |(p, q)| f(p, q))
        }),
        (V::PackedColorArray(x), V::PackedColorArray(y)) => each(x.len(), y.len(), &mut || {
            lex(x.iter().zip(y.iter()), |(p, q)| {
                lex(p.iter().zip(q.iter()), |(s, t)| f((*s).into(), (*t).into()))
            })
        }),
        (V::PackedVector2Array(x), V::PackedVector2Array(y)) => each(x.len(), y.len(), &mut || {
            lex(x.iter().zip(y.iter()), |(p, q)| {
                lex(p.iter().zip(&q), |(s, t)| f(*s, *t))
            })
        }),
        (V::PackedVector3Array(x), V::PackedVector3Array(y)) => each(x.len(), y.len(), &mut || {
            lex(x.iter().zip(y.iter()), |(p, q)| {
                lex(p.iter().zip(&q), |(s, t)| f(*s, *t))
            })
        }),
        (V::PackedVector4Array(x), V::PackedVector4Array(y)) => each(x.len(), y.len(), &mut || {
            lex(x.iter().zip(y.iter()), |(p, q)| {
                lex(p.iter().zip(&q), |(s, t)| f(*s, *t))
            })
        }),
        // No equality for anything else.
        _ => never,
    }
}

impl<'a> Keys<'a> {
    /// The type a key is compared as (4.4+: a StringName as a String).
    fn tag(&self, v: &VariantRef<'_>) -> VariantType {
        match (self.rules, v) {
            (KeyRules::Godot4StringLike, VariantRef::StringName(_)) => VariantType::String,
            _ => v.variant_type(),
        }
    }

    /// Compares two values' own tokens; `never` is the order of two values that are never
    /// equal keys (their entries' order).
    fn head_cmp(&self, a: &VariantRef<'_>, b: &VariantRef<'_>, never: Ordering) -> Head {
        use VariantRef as V;
        let (ta, tb) = (self.tag(a), self.tag(b));
        if ta != tb {
            return Head::Differ(ta.cmp(&tb));
        }
        if let (Some(x), Some(y)) = (string_like(a), string_like(b)) {
            return by(cmp_str(x, y));
        }
        let (mut ra, mut rb) = ([0.0; 16], [0.0; 16]);
        if let (Some(n), Some(m)) = (reals(a, &mut ra), reals(b, &mut rb)) {
            return by(reals_cmp(&ra[..n], &rb[..m]));
        }
        if let (Some(x), Some(y)) = (ints(a), ints(b)) {
            return by(x.cmp(&y));
        }
        let open = |len: Ordering, empty: bool| match len {
            Ordering::Equal if empty => Head::Same,
            Ordering::Equal => Head::Open,
            o => Head::Differ(o),
        };
        match (a, b) {
            (V::Nil, V::Nil) | (V::Callable, V::Callable) => Head::Same,
            (V::Bool(x), V::Bool(y)) => by(x.cmp(y)),
            (V::Int(x), V::Int(y)) => by(x.cmp(y)),
            (V::Float(x), V::Float(y)) => by(real_cmp(*x, *y)),
            (V::NodePath(x), V::NodePath(y)) => by(path_cmp(x, y)),
            (V::Rid(x), V::Rid(y)) => by(x.cmp(y)),
            (V::Signal(x), V::Signal(y)) => {
                by(cmp_str(x.name(), y.name()).then_with(|| x.object_id().cmp(&y.object_id())))
            }
            // Every decoded object is a new instance: only null equals null.
            (V::Object(x), V::Object(y)) => match (x.is_null(), y.is_null()) {
                (true, true) => Head::Same,
                (false, false) => by(never),
                (x_null, _) => Head::Differ(if x_null {
                    Ordering::Less
                } else {
                    Ordering::Greater
                }),
            },
            (V::Array(x), V::Array(y)) => open(
                x.len()
                    .cmp(&y.len())
                    .then_with(|| type_cmp(x.element_type(), y.element_type())),
                x.is_empty(),
            ),
            // Godot 3 compares dictionaries by identity; Godot 4 by content (taken here
            // entry by entry in wire order).
            (V::Dictionary(_), V::Dictionary(_)) if self.godot3() => by(never),
            (V::Dictionary(x), V::Dictionary(y)) => open(x.len().cmp(&y.len()), x.is_empty()),
            _ => by(packed_cmp(a, b, self.godot3(), never)),
        }
    }

    /// A total order on the keys of one dictionary whose ties are exactly the engine's key
    /// equality. `ai`, `bi`: the keys' entry indices. Two containers with the same head are
    /// compared item by item in wire order, walked side by side (`read::compare::lockstep`:
    /// linear, no recursion).
    fn key_cmp(
        &mut self,
        a: &Node<'a>,
        ai: usize,
        b: &Node<'a>,
        bi: usize,
        depth: u32,
    ) -> Result<Ordering, Error> {
        if depth > LIMIT {
            return Err(too_deep());
        }
        let never = ai.cmp(&bi);
        match self.head_cmp(&a.v, &b.v, never) {
            Head::Differ(o) => return Ok(o),
            Head::Same => return Ok(Ordering::Equal),
            Head::Open => {}
        }
        let (Some(x), Some(y)) = (a.v.items(), b.v.items()) else {
            return Ok(Ordering::Equal);
        };
        lockstep(x, y, |x, y| match (x, y) {
            (None, None) => Some(Ok(Ordering::Equal)),
            (Some(Err(e)), _) | (_, Some(Err(e))) => Some(Err(e)),
            (Some(Ok(x)), Some(Ok(y))) => self.event_cmp(&x, &y, never).map(Ok),
            // Heads of equal lengths make both walks end together; kept total regardless.
            (Some(Ok(_)), None) => Some(Ok(Ordering::Greater)),
            (None, Some(Ok(_))) => Some(Ok(Ordering::Less)),
        })
    }

    /// Compares one pair of events of two keys walked side by side: `None` while they are the
    /// same so far.
    fn event_cmp(&self, x: &Event<'_>, y: &Event<'_>, never: Ordering) -> Option<Ordering> {
        let order = match (x, y) {
            (Event::Value(p) | Event::Begin(p), Event::Value(q) | Event::Begin(q)) => {
                match self.head_cmp(p, q, never) {
                    Head::Differ(o) => o,
                    Head::Same | Head::Open => Ordering::Equal,
                }
            }
            (Event::Property(p), Event::Property(q)) => cmp_str(*p, *q),
            (Event::End, Event::End) => Ordering::Equal,
            // Only after unequal heads, which decide before: a fixed order all the same.
            _ => {
                let rank = |e: &Event<'_>| match e {
                    Event::End => 0,
                    Event::Property(_) => 1,
                    Event::Value(_) | Event::Begin(_) => 2,
                };
                rank(x).cmp(&rank(y))
            }
        };
        (order != Ordering::Equal).then_some(order)
    }

    /// Merges keys the engine takes for one key: the first one's position, the last one's
    /// value (the engine's hash map keeps the first insertion and overwrites its value).
    /// Afterwards `self.keep[i]` says whether entry `i` is kept. `depth`: the dictionary's.
    pub(crate) fn merge_duplicates(
        &mut self,
        entries: &mut [Entry<'a>],
        depth: u32,
    ) -> Result<(), Error> {
        let n = entries.len();
        let (mut order, mut keep) = (take(&mut self.order), take(&mut self.keep));
        keep.clear();
        keep.resize(n, true);
        let result = match n {
            0 | 1 => Ok(()),
            2..=SMALL => self.merge_pairwise(entries, depth, &mut keep),
            _ => self.merge_with(entries, depth, &mut order, &mut keep),
        };
        (self.order, self.keep) = (order, keep);
        result
    }

    /// Few keys: each compared with the kept ones before it (at most `SMALL²/2` comparisons,
    /// fewer than sorting and comparing neighbours for such small `n`).
    fn merge_pairwise(
        &mut self,
        entries: &mut [Entry<'a>],
        depth: u32,
        keep: &mut [bool],
    ) -> Result<(), Error> {
        for later in 1..entries.len() {
            for first in 0..later {
                if !keep.get(first).copied().unwrap_or(false) {
                    continue;
                }
                let (Some(a), Some(b)) = (entries.get(first), entries.get(later)) else {
                    continue;
                };
                if self.key_cmp(&a.key, first, &b.key, later, depth + 1)? == Ordering::Equal {
                    let value = b.value;
                    if let Some(e) = entries.get_mut(first) {
                        e.value = value;
                    }
                    if let Some(k) = keep.get_mut(later) {
                        *k = false;
                    }
                    break;
                }
            }
        }
        Ok(())
    }

    fn merge_with(
        &mut self,
        entries: &mut [Entry<'a>],
        depth: u32,
        order: &mut Vec<usize>,
        keep: &mut [bool],
    ) -> Result<(), Error> {
        let n = entries.len();
        // Sorted by key, ties by position: equal keys are neighbours, first one first.
        order.clear();
        order.extend(0..n);
        let mut failed = None;
        let mut less = |i: usize, j: usize| -> bool {
            let (Some(a), Some(b)) = (entries.get(i), entries.get(j)) else {
                return false;
            };
            if failed.is_some() {
                return false;
            }
            match self.key_cmp(&a.key, i, &b.key, j, depth + 1) {
                Ok(o) => o.then(i.cmp(&j)) == Ordering::Less,
                Err(e) => {
                    failed = Some(e);
                    false
                }
            }
        };
        SortArray { less: &mut less }.sort(order);
        if let Some(e) = failed {
            return Err(e);
        }
        let mut group = 0; // where the current run of equal keys starts in `order`
        for w in 1..=n {
            let same = match (order.get(w - 1), order.get(w)) {
                (Some(&i), Some(&j)) => match (entries.get(i), entries.get(j)) {
                    (Some(a), Some(b)) => {
                        self.key_cmp(&a.key, i, &b.key, j, depth + 1)? == Ordering::Equal
                    }
                    _ => false,
                },
                _ => false,
            };
            if same {
                continue;
            }
            if let (Some(&first), Some(&last)) = (order.get(group), order.get(w - 1)) {
                if first != last {
                    if let Some(value) = entries.get(last).map(|e| e.value) {
                        if let Some(e) = entries.get_mut(first) {
                            e.value = value;
                        }
                    }
                    for &i in order.get(group + 1..w).unwrap_or(&[]) {
                        if let Some(k) = keep.get_mut(i) {
                            *k = false;
                        }
                    }
                }
            }
            group = w;
        }
        Ok(())
    }
}
