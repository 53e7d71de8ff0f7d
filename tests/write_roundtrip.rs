//! Property tests: random values of every type of every dialect, nested, with large packed
//! arrays. For each: stream-encode, decode with the reader and compare the views with the
//! model (`decode(encode(v)) == v`), then re-encode the decoded view and require the same
//! bytes (`encode(decode(bytes)) == bytes`), through the Vec, slice and counting sinks.

use gdwire::math::{
    Aabb, Basis, Color, Plane, Precision, Projection, Quaternion, Rect2, Rect2i, Transform2D,
    Transform3D, Vector2, Vector2i, Vector3, Vector3i, Vector4, Vector4i, WireReals,
};
use gdwire::read::{ArrayKind, ObjectRef};
use gdwire::{
    encoded_len, to_slice, to_vec, ContainerType, ContainerTypeSpec, Decoder, Dialect, VariantRef,
    VariantType as T, Writer,
};
use proptest::prelude::*;
use proptest::strategy::Union;

#[derive(Clone, Debug)]
enum Elem {
    Builtin(T),
    Class(String),
}

#[derive(Clone, Debug)]
enum Val {
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Name(String),
    /// A real math type by its components in wire order.
    Reals(T, Vec<f64>),
    /// An integer vector type by its components.
    Ints(T, Vec<i32>),
    Color([f32; 4]),
    NodePath(Vec<String>, Vec<String>, bool),
    Rid(u64),
    ObjectId(u64),
    Callable,
    Signal(String, u64),
    Array(Vec<Val>),
    /// Element type, Pandemonium `PackedTypedArray` wanted, items.
    Typed(Elem, bool, Vec<Val>),
    Dict(Vec<(Val, Val)>),
    TypedDict(Option<Elem>, Option<Elem>, Vec<(Val, Val)>),
    Object(String, Vec<(String, Val)>),
    Bytes(Vec<u8>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    F32(Vec<f32>),
    F64(Vec<f64>),
    Strings(Vec<String>),
    /// Packed real vectors: type, components per element, flattened components.
    PReals(T, usize, Vec<f64>),
    Colors(Vec<[f32; 4]>),
    /// Packed integer vectors (Pandemonium): type, components per element, flattened.
    PInts(T, usize, Vec<i32>),
}

// ----- strategies -----------------------------------------------------------------------------

fn f32_no_nan() -> impl Strategy<Value = f32> + Clone {
    use proptest::num::f32;
    f32::NORMAL | f32::SUBNORMAL | f32::ZERO | f32::INFINITE | f32::NEGATIVE | f32::POSITIVE
}

/// A real component: exactly representable at the precision it will be written with.
fn real(double: bool) -> BoxedStrategy<f64> {
    if double {
        use proptest::num::f64;
        (f64::NORMAL | f64::SUBNORMAL | f64::ZERO | f64::INFINITE | f64::NEGATIVE).boxed()
    } else {
        f32_no_nan().prop_map(f64::from).boxed()
    }
}

fn any_float() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>(),
        any::<f32>().prop_map(f64::from),
        Just(f64::NAN),
        Just(-0.0),
        Just(0.1),
        Just(1e39),
    ]
}

fn int() -> impl Strategy<Value = i64> {
    prop_oneof![
        any::<i64>(),
        any::<i32>().prop_map(i64::from),
        Just(i32::MAX as i64),
        Just(i32::MAX as i64 + 1),
        Just(i32::MIN as i64),
        Just(i32::MIN as i64 - 1),
    ]
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![".{0,12}", any::<String>(), "[a-z]{0,40}"]
}

fn class_name() -> impl Strategy<Value = String> {
    "[A-Z][A-Za-z0-9]{0,10}"
}

const REAL_TYPES: [T; 11] = [
    T::Vector2,
    T::Rect2,
    T::Vector3,
    T::Transform2D,
    T::Vector4,
    T::Plane,
    T::Quaternion,
    T::Aabb,
    T::Basis,
    T::Transform3D,
    T::Projection,
];

fn leaf(d: Dialect, double: bool) -> BoxedStrategy<Val> {
    // Math values are exact at the precision they are written with (always single where the
    // dialect has no 64-bit math flag).
    let double = double && d.math_follows_flag_64();
    let mut s: Vec<BoxedStrategy<Val>> = vec![
        Just(Val::Nil).boxed(),
        any::<bool>().prop_map(Val::Bool).boxed(),
        int().prop_map(Val::Int).boxed(),
        any_float().prop_map(Val::Float).boxed(),
        text().prop_map(Val::Str).boxed(),
        prop::array::uniform4(f32_no_nan())
            .prop_map(Val::Color)
            .boxed(),
        (
            prop::collection::vec(text(), 0..4),
            prop::collection::vec(text(), 0..3),
            any::<bool>(),
        )
            .prop_map(|(n, s, a)| Val::NodePath(n, s, a))
            .boxed(),
        any::<u64>().prop_map(Val::Rid).boxed(),
        prop_oneof![Just(0u64), any::<u64>()]
            .prop_map(Val::ObjectId)
            .boxed(),
        prop::collection::vec(any::<u8>(), 0..3000)
            .prop_map(Val::Bytes)
            .boxed(),
        prop::collection::vec(any::<i32>(), 0..600)
            .prop_map(Val::I32)
            .boxed(),
        prop::collection::vec(f32_no_nan(), 0..300)
            .prop_map(Val::F32)
            .boxed(),
        prop::collection::vec(text(), 0..8)
            .prop_map(Val::Strings)
            .boxed(),
        prop::collection::vec(prop::array::uniform4(f32_no_nan()), 0..50)
            .prop_map(Val::Colors)
            .boxed(),
    ];
    for ty in REAL_TYPES.into_iter().filter(|t| d.supports(*t)) {
        let n = ty.real_components().unwrap();
        s.push(
            prop::collection::vec(real(double), n)
                .prop_map(move |c| Val::Reals(ty, c))
                .boxed(),
        );
    }
    for ty in [T::Vector2i, T::Rect2i, T::Vector3i, T::Vector4i] {
        if d.supports(ty) {
            let n = ty.int_components().unwrap();
            s.push(
                prop::collection::vec(any::<i32>(), n)
                    .prop_map(move |c| Val::Ints(ty, c))
                    .boxed(),
            );
        }
    }
    for (ty, n) in [
        (T::PackedVector2Array, 2),
        (T::PackedVector3Array, 3),
        (T::PackedVector4Array, 4),
    ] {
        if d.supports(ty) {
            s.push(
                (0..100usize)
                    .prop_flat_map(move |len| prop::collection::vec(real(double), len * n))
                    .prop_map(move |c| Val::PReals(ty, n, c))
                    .boxed(),
            );
        }
    }
    for (ty, n) in [
        (T::PackedVector2iArray, 2),
        (T::PackedVector3iArray, 3),
        (T::PackedVector4iArray, 4),
    ] {
        if d.supports(ty) {
            s.push(
                (0..100usize)
                    .prop_flat_map(move |len| prop::collection::vec(any::<i32>(), len * n))
                    .prop_map(move |c| Val::PInts(ty, n, c))
                    .boxed(),
            );
        }
    }
    if d.supports(T::StringName) {
        s.push(text().prop_map(Val::Name).boxed());
    }
    if d.supports(T::Callable) {
        s.push(Just(Val::Callable).boxed());
    }
    if d.supports(T::Signal) {
        s.push(
            (text(), any::<u64>())
                .prop_map(|(n, id)| Val::Signal(n, id))
                .boxed(),
        );
    }
    if d.supports(T::PackedInt64Array) {
        s.push(
            prop::collection::vec(any::<i64>(), 0..300)
                .prop_map(Val::I64)
                .boxed(),
        );
    }
    if d.supports(T::PackedFloat64Array) {
        s.push(
            prop::collection::vec(any::<f64>(), 0..300)
                .prop_map(Val::F64)
                .boxed(),
        );
    }
    Union::new(s).boxed()
}

fn elem(d: Dialect) -> BoxedStrategy<Elem> {
    let builtins: Vec<T> = T::ALL
        .into_iter()
        .filter(|t| {
            d.supports(*t) && !matches!(t, T::Nil | T::Object | T::TypedArray | T::PackedTypedArray)
        })
        .collect();
    prop_oneof![
        3 => prop::sample::select(builtins).prop_map(Elem::Builtin),
        1 => class_name().prop_map(Elem::Class),
    ]
    .boxed()
}

fn value(d: Dialect, double: bool) -> BoxedStrategy<Val> {
    leaf(d, double)
        .prop_recursive(4, 48, 6, move |inner| {
            let items = prop::collection::vec(inner.clone(), 0..6);
            let pairs = prop::collection::vec((inner.clone(), inner.clone()), 0..4);
            prop_oneof![
                items.clone().prop_map(Val::Array),
                (elem(d), any::<bool>(), items).prop_map(|(e, p, v)| Val::Typed(e, p, v)),
                pairs.clone().prop_map(Val::Dict),
                (prop::option::of(elem(d)), prop::option::of(elem(d)), pairs)
                    .prop_map(|(k, v, p)| Val::TypedDict(k, v, p)),
                (class_name(), prop::collection::vec((text(), inner), 0..4))
                    .prop_map(|(c, p)| Val::Object(c, p)),
            ]
        })
        .boxed()
}

// ----- encoding the model with the streaming API ------------------------------------------------

fn spec(e: &Elem) -> ContainerTypeSpec<'_> {
    match e {
        Elem::Builtin(t) => ContainerTypeSpec::Builtin(*t),
        Elem::Class(c) => ContainerTypeSpec::ClassName(c),
    }
}

fn spec_opt(e: &Option<Elem>) -> ContainerTypeSpec<'_> {
    e.as_ref().map_or(ContainerTypeSpec::Builtin(T::Nil), spec)
}

fn write_reals<S: gdwire::Sink>(w: &mut Writer<S>, ty: T, c: &[f64]) -> gdwire::Result<()> {
    match ty {
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
        T::Projection => w.projection(Projection::from_wire(c)),
        _ => unreachable!(),
    }
}

fn encode<S: gdwire::Sink>(w: &mut Writer<S>, v: &Val) -> gdwire::Result<()> {
    match v {
        Val::Nil => w.nil(),
        Val::Bool(b) => w.bool(*b),
        Val::Int(i) => w.int(*i),
        Val::Float(f) => w.float(*f),
        Val::Str(s) => w.string(s),
        Val::Name(s) => w.string_name(s),
        Val::Reals(ty, c) => write_reals(w, *ty, c),
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
            T::Rect2i => w.rect2i(Rect2i {
                position: Vector2i { x: c[0], y: c[1] },
                size: Vector2i { x: c[2], y: c[3] },
            }),
            _ => unreachable!(),
        },
        Val::Color(c) => w.color(Color {
            r: c[0],
            g: c[1],
            b: c[2],
            a: c[3],
        }),
        Val::NodePath(n, s, a) => w.node_path(n, s, *a),
        Val::Rid(id) => w.rid(*id),
        Val::ObjectId(id) => w.object_id(*id),
        Val::Callable => w.callable(),
        Val::Signal(n, id) => w.signal(n, *id),
        Val::Array(items) => {
            w.begin_array(items.len())?;
            items.iter().try_for_each(|i| encode(w, i))
        }
        Val::Typed(e, packed, items) => {
            if *packed {
                w.begin_packed_typed_array(items.len(), spec(e))?;
            } else {
                w.begin_typed_array(items.len(), spec(e))?;
            }
            items.iter().try_for_each(|i| encode(w, i))
        }
        Val::Dict(pairs) => {
            w.begin_dictionary(pairs.len())?;
            pairs.iter().try_for_each(|(k, v)| {
                encode(w, k)?;
                encode(w, v)
            })
        }
        Val::TypedDict(k, vt, pairs) => {
            w.begin_typed_dictionary(pairs.len(), spec_opt(k), spec_opt(vt))?;
            pairs.iter().try_for_each(|(k, v)| {
                encode(w, k)?;
                encode(w, v)
            })
        }
        Val::Object(class, props) => {
            w.begin_object(class, props.len())?;
            props.iter().try_for_each(|(n, v)| {
                w.property_name(n)?;
                encode(w, v)
            })
        }
        Val::Bytes(b) => w.packed_bytes(b),
        Val::I32(a) => w.packed_i32(a),
        Val::I64(a) => w.packed_i64(a.iter().copied()),
        Val::F32(a) => w.packed_f32(a),
        Val::F64(a) => w.packed_f64(a),
        Val::Strings(a) => w.packed_strings(a),
        Val::PReals(ty, n, c) => match (ty, n) {
            (T::PackedVector2Array, 2) => w.packed_vector2(c.chunks_exact(2).map(|c| [c[0], c[1]])),
            (T::PackedVector3Array, 3) => {
                w.packed_vector3(c.chunks_exact(3).map(|c| [c[0], c[1], c[2]]))
            }
            (T::PackedVector4Array, 4) => {
                w.packed_vector4(c.chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]]))
            }
            _ => unreachable!(),
        },
        Val::Colors(c) => w.packed_color(c),
        Val::PInts(ty, n, c) => match (ty, n) {
            (T::PackedVector2iArray, 2) => {
                w.packed_vector2i(c.chunks_exact(2).map(|c| [c[0], c[1]]))
            }
            (T::PackedVector3iArray, 3) => {
                w.packed_vector3i(c.chunks_exact(3).map(|c| [c[0], c[1], c[2]]))
            }
            (T::PackedVector4iArray, 4) => {
                w.packed_vector4i(c.chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]]))
            }
            _ => unreachable!(),
        },
    }
}

// ----- comparing the reader's views with the model ----------------------------------------------

struct Ctx {
    d: Dialect,
    precision: Precision,
}

fn reals_of(v: &VariantRef<'_>) -> Option<(T, Vec<f64>, Precision)> {
    fn flat<R: WireReals>(r: &R) -> Vec<f64> {
        let mut out = vec![0.0; R::COUNT];
        r.to_wire(&mut out);
        out
    }
    use VariantRef as V;
    Some(match v {
        V::Vector2(r) => {
            let p = r.precision();
            let r = r.get();
            (T::Vector2, flat(&r), p)
        }
        V::Rect2(r) => {
            let p = r.precision();
            let r = r.get();
            (T::Rect2, flat(&r), p)
        }
        V::Vector3(r) => {
            let p = r.precision();
            let r = r.get();
            (T::Vector3, flat(&r), p)
        }
        V::Transform2D(r) => {
            let p = r.precision();
            let r = r.get();
            (T::Transform2D, flat(&r), p)
        }
        V::Vector4(r) => {
            let p = r.precision();
            let r = r.get();
            (T::Vector4, flat(&r), p)
        }
        V::Plane(r) => {
            let p = r.precision();
            let r = r.get();
            (T::Plane, flat(&r), p)
        }
        V::Quaternion(r) => {
            let p = r.precision();
            let r = r.get();
            (T::Quaternion, flat(&r), p)
        }
        V::Aabb(r) => {
            let p = r.precision();
            let r = r.get();
            (T::Aabb, flat(&r), p)
        }
        V::Basis(r) => {
            let p = r.precision();
            let r = r.get();
            (T::Basis, flat(&r), p)
        }
        V::Transform3D(r) => {
            let p = r.precision();
            let r = r.get();
            (T::Transform3D, flat(&r), p)
        }
        V::Projection(r) => {
            let p = r.precision();
            let r = r.get();
            (T::Projection, flat(&r), p)
        }
        _ => return None,
    })
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|f| f.to_bits()).collect()
}

fn check_elem(got: Option<ContainerType<'_>>, want: &Elem) {
    match (got, want) {
        (Some(ContainerType::Builtin(t)), Elem::Builtin(w)) => assert_eq!(t, *w),
        (Some(ContainerType::ClassName(s)), Elem::Class(c)) => assert_eq!(s.raw(), c.as_bytes()),
        (got, want) => panic!("element type {got:?}, want {want:?}"),
    }
}

fn check(cx: &Ctx, v: &VariantRef<'_>, m: &Val) {
    use VariantRef as V;
    let d = cx.d;
    match m {
        Val::Nil => assert!(v.is_nil(), "{v:?}"),
        Val::Bool(b) => assert_eq!(v.as_bool(), Some(*b)),
        Val::Int(i) => assert_eq!(v.as_int(), Some(*i)),
        Val::Float(f) => assert_eq!(v.as_float().map(f64::to_bits), Some(f.to_bits())),
        Val::Str(s) => match v {
            V::String(r) => assert_eq!(r.raw(), s.as_bytes()),
            _ => panic!("{v:?}"),
        },
        Val::Name(s) => match v {
            V::StringName(r) => assert_eq!(r.raw(), s.as_bytes()),
            _ => panic!("{v:?}"),
        },
        Val::Reals(ty, c) => {
            let (t, got, p) = reals_of(v).expect("a real math value");
            assert_eq!(t, *ty);
            assert_eq!(p, cx.precision);
            assert_eq!(bits(&got), bits(c));
        }
        Val::Ints(ty, c) => {
            let got = match v {
                V::Vector2i(x) => vec![x.x, x.y],
                V::Vector3i(x) => vec![x.x, x.y, x.z],
                V::Vector4i(x) => vec![x.x, x.y, x.z, x.w],
                V::Rect2i(r) => vec![r.position.x, r.position.y, r.size.x, r.size.y],
                _ => panic!("{v:?}"),
            };
            assert_eq!(v.variant_type(), *ty);
            assert_eq!(&got, c);
        }
        Val::Color(c) => match v {
            V::Color(x) => assert_eq!([x.r, x.g, x.b, x.a].map(f32::to_bits), c.map(f32::to_bits)),
            _ => panic!("{v:?}"),
        },
        Val::NodePath(n, s, a) => {
            let p = v.as_node_path().expect("a NodePath");
            assert_eq!(p.flags() & 1 != 0, *a);
            assert!(p
                .names()
                .map(|x| x.raw())
                .eq(n.iter().map(|x| x.as_bytes())));
            assert!(p
                .subnames()
                .map(|x| x.raw())
                .eq(s.iter().map(|x| x.as_bytes())));
        }
        Val::Rid(id) => {
            let want = d.rid_has_payload().then_some(*id);
            assert_eq!(*v, V::Rid(want));
        }
        Val::ObjectId(0) => assert!(v.is_nil()),
        Val::ObjectId(id) => assert_eq!(*v, V::Object(ObjectRef::Id(*id))),
        Val::Callable => assert_eq!(*v, V::Callable),
        Val::Signal(n, id) => match v {
            V::Signal(s) => {
                assert_eq!(s.name().raw(), n.as_bytes());
                assert_eq!(s.object_id(), *id);
            }
            _ => panic!("{v:?}"),
        },
        Val::Array(items) => {
            let a = v.as_array().expect("an array");
            assert_eq!(a.kind(), ArrayKind::Array);
            assert!(a.element_type().is_none());
            check_items(cx, a.iter(), items);
        }
        Val::Typed(e, packed, items) => {
            let a = v.as_array().expect("an array");
            if d.supports(T::TypedArray) {
                let kind = if *packed {
                    ArrayKind::PackedTypedArray
                } else {
                    ArrayKind::TypedArray
                };
                assert_eq!(a.kind(), kind);
                check_elem(a.element_type(), e);
            } else if d.has_typed_arrays() {
                assert_eq!(a.kind(), ArrayKind::Array);
                check_elem(a.element_type(), e);
            } else {
                assert_eq!(a.kind(), ArrayKind::Array);
                assert!(a.element_type().is_none());
            }
            check_items(cx, a.iter(), items);
        }
        Val::Dict(pairs) => {
            let dict = v.as_dictionary().expect("a dictionary");
            assert!(dict.key_type().is_none() && dict.value_type().is_none());
            check_pairs(cx, dict, pairs);
        }
        Val::TypedDict(k, vt, pairs) => {
            let dict = v.as_dictionary().expect("a dictionary");
            if d.has_typed_dictionaries() {
                match k {
                    Some(k) => check_elem(dict.key_type(), k),
                    None => assert!(dict.key_type().is_none()),
                }
                match vt {
                    Some(vt) => check_elem(dict.value_type(), vt),
                    None => assert!(dict.value_type().is_none()),
                }
            } else {
                assert!(dict.key_type().is_none() && dict.value_type().is_none());
            }
            check_pairs(cx, dict, pairs);
        }
        Val::Object(class, props) => {
            let V::Object(ObjectRef::Full(o)) = v else {
                panic!("{v:?}")
            };
            assert_eq!(o.class().raw(), class.as_bytes());
            assert_eq!(o.len(), props.len());
            for (got, (name, want)) in o.properties().zip(props) {
                let (n, value) = got;
                assert_eq!(n.raw(), name.as_bytes());
                check(cx, &value, want);
            }
        }
        Val::Bytes(b) => match v {
            V::PackedByteArray(p) => assert_eq!(p.as_bytes(), &b[..]),
            _ => panic!("{v:?}"),
        },
        Val::I32(a) => match v {
            V::PackedInt32Array(p) => assert!(p.iter().eq(a.iter().copied())),
            _ => panic!("{v:?}"),
        },
        Val::I64(a) => match v {
            V::PackedInt64Array(p) => assert!(p.iter().eq(a.iter().copied())),
            _ => panic!("{v:?}"),
        },
        Val::F32(a) => match v {
            V::PackedFloat32Array(p) => {
                assert!(p.iter().map(f32::to_bits).eq(a.iter().map(|f| f.to_bits())))
            }
            _ => panic!("{v:?}"),
        },
        Val::F64(a) => match v {
            V::PackedFloat64Array(p) => {
                assert!(p.iter().map(f64::to_bits).eq(a.iter().map(|f| f.to_bits())))
            }
            _ => panic!("{v:?}"),
        },
        Val::Strings(a) => match v {
            V::PackedStringArray(p) => {
                assert_eq!(p.len(), a.len());
                for (got, want) in p.iter().zip(a) {
                    let mut w = want.as_bytes().to_vec();
                    w.push(0); // the engine's terminator, counted in the length
                    assert_eq!(got.raw(), &w[..]);
                }
            }
            _ => panic!("{v:?}"),
        },
        Val::PReals(ty, n, c) => {
            let (p, got): (Precision, Vec<f64>) = match v {
                V::PackedVector2Array(a) => (a.precision(), a.iter().flatten().collect()),
                V::PackedVector3Array(a) => (a.precision(), a.iter().flatten().collect()),
                V::PackedVector4Array(a) => (a.precision(), a.iter().flatten().collect()),
                _ => panic!("{v:?}"),
            };
            assert_eq!(v.variant_type(), *ty);
            assert_eq!(p, cx.precision);
            assert_eq!(got.len() % n, 0);
            assert_eq!(bits(&got), bits(c));
        }
        Val::Colors(c) => match v {
            V::PackedColorArray(p) => assert!(p
                .iter()
                .map(|x| x.map(f32::to_bits))
                .eq(c.iter().map(|x| x.map(f32::to_bits)))),
            _ => panic!("{v:?}"),
        },
        Val::PInts(ty, _, c) => {
            let got: Vec<i32> = match v {
                V::PackedVector2iArray(p) => p.iter().flatten().collect(),
                V::PackedVector3iArray(p) => p.iter().flatten().collect(),
                V::PackedVector4iArray(p) => p.iter().flatten().collect(),
                _ => panic!("{v:?}"),
            };
            assert_eq!(v.variant_type(), *ty);
            assert_eq!(&got, c);
        }
    }
}

fn check_items<'a>(cx: &Ctx, got: impl ExactSizeIterator<Item = VariantRef<'a>>, want: &[Val]) {
    assert_eq!(got.len(), want.len());
    for (g, w) in got.zip(want) {
        check(cx, &g, w);
    }
}

fn check_pairs(cx: &Ctx, d: gdwire::DictRef<'_>, want: &[(Val, Val)]) {
    assert_eq!(d.len(), want.len());
    for (g, (wk, wv)) in d.iter().zip(want) {
        let (k, v) = g;
        check(cx, &k, wk);
        check(cx, &v, wv);
    }
}

// ----- the properties -------------------------------------------------------------------------

fn case() -> impl Strategy<Value = (usize, bool, Val)> {
    (0..Dialect::ALL.len(), any::<bool>())
        .prop_flat_map(|(i, double)| (Just(i), Just(double), value(Dialect::ALL[i], double)))
}

fn round_trip(i: usize, double: bool, model: &Val) {
    let d = Dialect::ALL[i];
    let precision = if double && d.math_follows_flag_64() {
        Precision::Double
    } else {
        Precision::Single
    };
    let requested = if double {
        Precision::Double
    } else {
        Precision::Single
    };

    // Stream-encode the model.
    let mut bytes = Vec::new();
    let mut w = Writer::new(&mut bytes, d)
        .with_precision(requested)
        .with_full_objects(true);
    encode(&mut w, model).unwrap();
    let len = w.finish().unwrap();
    assert_eq!(len, bytes.len());
    assert_eq!(len % 4, 0);

    // decode(encode(v)) == v
    let view = Decoder::new(d)
        .with_allow_objects(true)
        .decode_exact(&bytes)
        .unwrap_or_else(|e| panic!("{d}: {e}"));
    check(&Ctx { d, precision }, &view, model);

    // encode(decode(bytes)) == bytes, through every sink.
    assert_eq!(to_vec(d, &view).unwrap(), bytes, "{d}");
    assert_eq!(encoded_len(d, &view).unwrap(), bytes.len());
    let mut buf = vec![0xAAu8; bytes.len() + 8];
    assert_eq!(to_slice(d, &view, &mut buf).unwrap(), bytes.len());
    assert_eq!(&buf[..bytes.len()], &bytes[..]);
    assert!(buf[bytes.len()..].iter().all(|&b| b == 0xAA));
    // Raw pass-through of the encoded value is the identity too.
    let mut raw = Vec::new();
    let mut w = Writer::new(&mut raw, d).with_full_objects(true);
    w.raw(&bytes).unwrap();
    w.finish().unwrap();
    assert_eq!(raw, bytes);
    // A too-small slice reports the full size and stays within bounds.
    if !bytes.is_empty() {
        let cut = bytes.len() / 2;
        let mut backing = vec![0x55u8; bytes.len()];
        let err = to_slice(d, &view, &mut backing[..cut]).unwrap_err();
        assert_eq!(
            err.kind(),
            gdwire::ErrorKind::BufferFull {
                needed: bytes.len()
            }
        );
        assert!(backing[cut..].iter().all(|&b| b == 0x55));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn every_dialect_round_trips((i, double, model) in case()) {
        round_trip(i, double, &model);
    }
}

#[test]
fn every_dialect_is_exercised() {
    // The property above picks dialects at random; make sure each one runs a nested sample.
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    for i in 0..Dialect::ALL.len() {
        for double in [false, true] {
            let strategy = value(Dialect::ALL[i], double);
            for _ in 0..40 {
                let model = strategy.new_tree(&mut runner).unwrap().current();
                round_trip(i, double, &model);
            }
        }
    }
}
