//! Seeded random owned values of every Godot 4 type the engine keeps as sent, nested: the
//! values a real engine reads back from gdwire's bytes in the random interop runs
//! (`tests/godot4_interop.rs`). "Kept as sent" rules out what the engine changes on the way
//! through by design: objects (without `allow_objects` an id becomes an `EncodedObjectAsID`
//! instance), typed containers of elements of another type (converted or dropped), class and
//! script element types (checked against live classes), double-precision math (a single
//! build keeps `f32`) and dictionaries with two keys the engine holds equal.

use gdwire::math::{
    Aabb, Basis, Color, Plane, Precision, Projection, Quaternion, Rect2, Rect2i, Transform2D,
    Transform3D, Vector2, Vector2i, Vector3, Vector3i, Vector4, Vector4i, WireReals,
};
use gdwire::owned::{Array, Dictionary, ElementType, NodePath, PackedVectors, Signal, Variant};
use gdwire::{Dialect, VariantType as T};

/// A small seeded generator (xorshift64*): the same values for the same seed on every machine.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }

    fn pick<'a, X>(&mut self, from: &'a [X]) -> &'a X {
        &from[self.below(from.len())]
    }
}

/// Whether the generator makes values of type `ty` without nesting: every type but the
/// containers and objects.
fn is_leaf(ty: T) -> bool {
    !matches!(
        ty,
        T::Object | T::Dictionary | T::Array | T::TypedArray | T::PackedTypedArray
    )
}

/// Edge values mixed into the uniform draws.
const EDGE_INTS: [i64; 9] = [
    0,
    1,
    -1,
    i32::MAX as i64,
    i32::MAX as i64 + 1,
    i32::MIN as i64,
    i32::MIN as i64 - 1,
    i64::MAX,
    i64::MIN,
];

fn int(rng: &mut Rng) -> i64 {
    match rng.below(4) {
        0 => *rng.pick(&EDGE_INTS),
        1 => rng.next() as i32 as i64,
        2 => (rng.next() % 2000) as i64 - 1000,
        _ => rng.next() as i64,
    }
}

/// Any `f32`, edge values (zeros, infinities, NaN, subnormals) included.
fn f32_any(rng: &mut Rng) -> f32 {
    match rng.below(6) {
        0 => *rng.pick(&[
            0.0,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            f32::MIN_POSITIVE / 4.0,
            1.0 / 3.0,
            0.1,
            16_777_217.0,
        ]),
        1 => (rng.next() % 20_001) as f32 / 100.0 - 100.0,
        2 => rng.next() as i16 as f32,
        _ => f32::from_bits(rng.next() as u32),
    }
}

/// Any `f64`: a Float, or a PackedFloat64Array element.
fn f64_any(rng: &mut Rng) -> f64 {
    match rng.below(6) {
        0 => *rng.pick(&[
            0.0,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            5e-324,
            0.1,
            1.0 / 3.0,
            1e300,
        ]),
        1 => f64::from(f32_any(rng)),
        2 => (rng.next() % 2_000_001) as f64 / 1000.0 - 1000.0,
        _ => f64::from_bits(rng.next()),
    }
}

/// Text the engine keeps: any characters but NUL (where its strings end), with quotes,
/// backslashes, control characters, multi-byte and astral characters and byte-order marks,
/// but not one first (the engine drops a leading BOM when it reads a string:
/// `string_leading_bom` in tests/fixtures/godot4/malformed.jsonl).
pub fn text(rng: &mut Rng) -> String {
    const SPECIAL: [char; 18] = [
        '"', '\\', '\n', '\t', '\r', '\u{1}', '\u{7f}', 'é', 'ß', '中', '😀', '\u{FEFF}', ' ', '&',
        '?', '\'', '/', ':',
    ];
    let len = if rng.chance(8) {
        rng.below(40)
    } else {
        rng.below(9)
    };
    let text: String = (0..len)
        .map(|_| match rng.below(10) {
            0..=5 => char::from(b'a' + rng.below(26) as u8),
            6 => char::from(b'0' + rng.below(10) as u8),
            7 => *rng.pick(&SPECIAL),
            8 => char::from_u32(1 + rng.below(0x7FF) as u32).unwrap_or('?'),
            _ => char::from_u32(1 + rng.below(0x10FFFF) as u32).unwrap_or('x'),
        })
        .collect();
    no_leading_bom(text)
}

fn no_leading_bom(text: String) -> String {
    match text.strip_prefix('\u{FEFF}') {
        Some(rest) => format!("b{rest}"),
        None => text,
    }
}

fn ints<const N: usize>(rng: &mut Rng) -> [i32; N] {
    std::array::from_fn(|_| int(rng) as i32)
}

fn list<X>(rng: &mut Rng, most: usize, mut item: impl FnMut(&mut Rng) -> X) -> Vec<X> {
    let len = rng.below(most + 1);
    (0..len).map(|_| item(rng)).collect()
}

/// A leaf value of type `ty` ([`is_leaf`]) as the engine of `g` keeps it.
fn leaf(rng: &mut Rng, ty: T, g: &Values) -> Variant {
    let (dialect, s) = (g.dialect, g.precision);
    // Real math components: any `f32` in a single-precision build, any `f64` in a double one.
    let reals = |rng: &mut Rng| match s {
        Precision::Single => f64::from(f32_any(rng)),
        Precision::Double => f64_any(rng),
    };
    fn math<W: WireReals>(rng: &mut Rng, real: impl Fn(&mut Rng) -> f64) -> W {
        let wire: Vec<f64> = (0..W::COUNT).map(|_| real(rng)).collect();
        W::from_wire(&wire)
    }
    fn vectors<const N: usize>(
        rng: &mut Rng,
        s: Precision,
        real: impl Fn(&mut Rng) -> f64,
    ) -> PackedVectors<N> {
        let items: Vec<[f64; N]> = list(rng, 4, |r| std::array::from_fn(|_| real(r)));
        match s {
            Precision::Single => {
                PackedVectors::Single(items.iter().map(|c| c.map(|x| x as f32)).collect())
            }
            Precision::Double => PackedVectors::Double(items),
        }
    }
    match ty {
        T::Nil => Variant::Nil,
        T::Bool => Variant::Bool(rng.chance(2)),
        T::Int => Variant::Int(int(rng)),
        T::Float => Variant::Float(f64_any(rng)),
        T::String => Variant::from(text(rng)),
        T::Vector2 => Variant::Vector2(math::<Vector2>(rng, reals), s),
        T::Vector2i => {
            let [x, y] = ints(rng);
            Variant::Vector2i(Vector2i { x, y })
        }
        T::Rect2 => Variant::Rect2(math::<Rect2>(rng, reals), s),
        T::Rect2i => {
            let [a, b, c, d] = ints(rng);
            Variant::Rect2i(Rect2i {
                position: Vector2i { x: a, y: b },
                size: Vector2i { x: c, y: d },
            })
        }
        T::Vector3 => Variant::Vector3(math::<Vector3>(rng, reals), s),
        T::Vector3i => {
            let [x, y, z] = ints(rng);
            Variant::Vector3i(Vector3i { x, y, z })
        }
        T::Transform2D => Variant::Transform2D(Box::new(math::<Transform2D>(rng, reals)), s),
        T::Vector4 => Variant::Vector4(math::<Vector4>(rng, reals), s),
        T::Vector4i => {
            let [x, y, z, w] = ints(rng);
            Variant::Vector4i(Vector4i { x, y, z, w })
        }
        T::Plane => Variant::Plane(math::<Plane>(rng, reals), s),
        T::Quaternion => Variant::Quaternion(math::<Quaternion>(rng, reals), s),
        T::Aabb => Variant::Aabb(Box::new(math::<Aabb>(rng, reals)), s),
        T::Basis => Variant::Basis(Box::new(math::<Basis>(rng, reals)), s),
        T::Transform3D => Variant::Transform3D(Box::new(math::<Transform3D>(rng, reals)), s),
        T::Projection => Variant::Projection(Box::new(math::<Projection>(rng, reals)), s),
        T::Color => Variant::Color(Color {
            r: f32_any(rng),
            g: f32_any(rng),
            b: f32_any(rng),
            a: f32_any(rng),
        }),
        T::StringName => Variant::StringName(text(rng).into()),
        T::NodePath => {
            // Parts may hold `/` and `:`: the text form is then ambiguous, but the engine's
            // and gdwire's are still the same text.
            let names = list(rng, 3, text);
            let subnames = list(rng, 2, text);
            // Godot 3 reads an absolute path without parts as a relative one.
            let bare = names.is_empty() && subnames.is_empty();
            let absolute = rng.chance(2) && (!bare || dialect.keeps_empty_absolute_node_path());
            Variant::NodePath(NodePath::new(names, subnames, absolute))
        }
        T::Rid => Variant::Rid(Some(rng.next() >> rng.below(64))),
        T::Callable => Variant::Callable,
        T::Signal => Variant::Signal(Signal {
            name: text(rng).into(),
            object_id: rng.next() >> rng.below(64),
        }),
        T::PackedByteArray => Variant::PackedByteArray(list(rng, 9, |r| r.next() as u8)),
        T::PackedInt32Array => Variant::PackedInt32Array(list(rng, 6, |r| int(r) as i32)),
        T::PackedInt64Array => Variant::PackedInt64Array(list(rng, 6, int)),
        T::PackedFloat32Array => Variant::PackedFloat32Array(list(rng, 6, f32_any)),
        T::PackedFloat64Array => Variant::PackedFloat64Array(list(rng, 6, f64_any)),
        T::PackedStringArray => {
            Variant::PackedStringArray(list(rng, 4, text).into_iter().map(Into::into).collect())
        }
        T::PackedVector2Array => Variant::PackedVector2Array(vectors(rng, s, reals)),
        T::PackedVector3Array => Variant::PackedVector3Array(vectors(rng, s, reals)),
        T::PackedColorArray => Variant::PackedColorArray(list(rng, 4, |r| {
            [f32_any(r), f32_any(r), f32_any(r), f32_any(r)]
        })),
        T::PackedVector4Array => Variant::PackedVector4Array(vectors(rng, s, reals)),
        T::PackedVector2iArray => Variant::PackedVector2iArray(list(rng, 4, ints)),
        T::PackedVector3iArray => Variant::PackedVector3iArray(list(rng, 4, ints)),
        T::PackedVector4iArray => Variant::PackedVector4iArray(list(rng, 4, ints)),
        other => unreachable!("not a leaf type of the generator: {other:?}"),
    }
}

/// Dictionary key types: ones whose equality in the engine is their text form's (no float
/// zero signs, no NaN, no approximate compares), so that keys can be kept distinct.
const KEYS: [T; 6] = [
    T::Int,
    T::String,
    T::StringName,
    T::Vector2i,
    T::Bool,
    T::Nil,
];

/// The generator for one dialect: the leaf and key types it has (a Godot 3 RID carries no id,
/// so it is left out there), typed containers where it has them.
pub struct Values {
    dialect: Dialect,
    precision: Precision,
    leaves: Vec<T>,
    keys: Vec<T>,
}

impl Values {
    pub fn new(dialect: Dialect) -> Values {
        let has = |t: &&T| dialect.supports(**t) && (**t != T::Rid || dialect.rid_has_payload());
        Values {
            dialect,
            precision: Precision::Single,
            // Nil first (`value` takes element types after it).
            leaves: T::ALL
                .iter()
                .filter(|t| is_leaf(**t))
                .filter(has)
                .copied()
                .collect(),
            keys: KEYS.iter().filter(has).copied().collect(),
        }
    }

    /// Real math values with `f64` components of any value, as a double-precision build keeps
    /// them (Colors stay `f32`).
    pub fn with_precision(self, precision: Precision) -> Values {
        Values { precision, ..self }
    }

    /// `count` keys of type `ty` (any key type when `None`), distinct in the engine: a String
    /// and a StringName of the same text are one key there, so keys are told apart by their
    /// text without the StringName `&`.
    fn keys(&self, rng: &mut Rng, ty: Option<T>, count: usize) -> Vec<Variant> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for _ in 0..count {
            let ty = ty.unwrap_or_else(|| *rng.pick(&self.keys));
            let key = leaf(rng, ty, self);
            let text = key.to_text(self.dialect).unwrap();
            if seen.insert(text.trim_start_matches('&').to_owned()) {
                out.push(key);
            }
        }
        out
    }

    /// A random value nesting at most `levels` containers.
    pub fn value(&self, rng: &mut Rng, levels: u32) -> Variant {
        if levels == 0 || rng.below(3) != 0 {
            let ty = *rng.pick(&self.leaves);
            return leaf(rng, ty, self);
        }
        let inner = levels - 1;
        // Element types: any leaf type but Nil (the first).
        let element = &self.leaves[1..];
        match rng.below(4) {
            1 if self.dialect.has_typed_arrays() => {
                let ty = *rng.pick(element);
                let mut a = Array::typed(ElementType::Builtin(ty));
                a.extend(list(rng, 4, |r| leaf(r, ty, self)));
                Variant::from(a)
            }
            3 if self.dialect.has_typed_dictionaries() => {
                let key_type = rng.chance(2).then(|| *rng.pick(&self.keys[..4]));
                let value_type = rng.chance(2).then(|| *rng.pick(element));
                let n = rng.below(4);
                let entries = self
                    .keys(rng, key_type, n)
                    .into_iter()
                    .map(|k| {
                        let v = match value_type {
                            Some(ty) => leaf(rng, ty, self),
                            None => self.value(rng, inner),
                        };
                        (k, v)
                    })
                    .collect();
                let element = |t: Option<T>| t.map(ElementType::Builtin);
                let mut d = Dictionary::typed(element(key_type), element(value_type));
                *d.entries_mut() = entries;
                Variant::from(d)
            }
            0 | 1 => Variant::from(list(rng, 5, |r| self.value(r, inner))),
            _ => {
                let n = rng.below(5);
                let entries = self
                    .keys(rng, None, n)
                    .into_iter()
                    .map(|k| (k, self.value(rng, inner)))
                    .collect();
                let mut d = Dictionary::typed(None, None);
                *d.entries_mut() = entries;
                Variant::from(d)
            }
        }
    }
}

/// How many random values a run makes and from which seed: `GDWIRE_RANDOM_VALUES=COUNT[:SEED]`,
/// else 2,000 from seed 1.
pub fn count_and_seed() -> (usize, u64) {
    match std::env::var("GDWIRE_RANDOM_VALUES") {
        Ok(spec) => {
            let (count, seed) = spec.split_once(':').unwrap_or((&spec, "1"));
            (count.parse().unwrap(), seed.parse().unwrap())
        }
        Err(_) => (2000, 1),
    }
}

/// The run's random values for `dialect` in `precision` ([`count_and_seed`]), each nesting at
/// most four containers, with the seed they came from.
pub fn values(dialect: Dialect, precision: Precision) -> (u64, Vec<Variant>) {
    let (count, seed) = count_and_seed();
    let mut rng = Rng::new(seed);
    let generator = Values::new(dialect).with_precision(precision);
    (
        seed,
        (0..count).map(|_| generator.value(&mut rng, 4)).collect(),
    )
}

/// `text::parse` of `text` into canonical `dialect` bytes in `precision`, the error as text.
pub fn parse(dialect: Dialect, precision: Precision, text: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut w = gdwire::Writer::new(&mut out, dialect)
        .with_heap_spill(true)
        .with_precision(precision);
    gdwire::text::parse_into(&mut w, text).map_err(|e| e.to_string())?;
    w.finish().map_err(|e| e.to_string())?;
    Ok(out)
}
