//! Writes a parsed tree through the crate's [`Writer`], without recursion.

use alloc::vec::Vec;

use crate::error::{Error, ErrorKind};
use crate::math::Color;
use crate::read::StrRef;
use crate::text::parse::tree::{ArrayForm, Kind, Span, Spec, Tree};
use crate::write::{split_node_path, ContainerTypeSpec, Sink, Writer};
use crate::{ContainerType, VariantType};

use VariantType as T;

/// The writer's error and where in the text the value it refused starts.
pub(super) struct Refused {
    pub(super) error: Error,
    pub(super) at: usize,
}

/// A parsed container whose children are being written.
struct OpenNode {
    kids: Span,
    next: usize,
    /// Object properties: names at even positions.
    props: bool,
}

fn utf8(w_err: impl Fn() -> Error, b: &[u8]) -> Result<&str, Error> {
    core::str::from_utf8(b).map_err(|_| w_err())
}

fn spec<'t>(tree: &'t Tree, s: Option<Spec>) -> Result<ContainerTypeSpec<'t>, Error> {
    let invalid = || Error::new(ErrorKind::InvalidText, 0);
    Ok(match s {
        None => ContainerTypeSpec::Builtin(T::Nil),
        Some(Spec::Builtin(t)) => ContainerTypeSpec::Builtin(t),
        Some(Spec::Class(c)) => ContainerTypeSpec::ClassName(utf8(invalid, tree.text(c))?),
        Some(Spec::Script(c)) => ContainerTypeSpec::Script(utf8(invalid, tree.text(c))?),
    })
}

/// Writes node `root` (and everything in it) as the next item of `w`.
pub(super) fn emit<S: Sink>(w: &mut Writer<S>, tree: &Tree, root: u32) -> Result<(), Refused> {
    let mut stack: Vec<OpenNode> = Vec::new();
    let mut next = Some(root);
    loop {
        if let Some(id) = next.take() {
            let node = tree.node(id);
            match put(w, tree, node.kind) {
                Ok(Some(frame)) => stack.push(frame),
                Ok(None) => {}
                Err(error) => return Err(Refused { error, at: node.at }),
            }
        }
        let Some(top) = stack.last_mut() else {
            return Ok(());
        };
        if top.next == top.kids.len {
            stack.pop();
            continue;
        }
        let kid = tree.kids[top.kids.at + top.next];
        let is_name = top.props && top.next % 2 == 0;
        top.next += 1;
        if is_name {
            let node = tree.node(kid);
            let result = match node.kind {
                Kind::String(s) => {
                    let invalid = || Error::new(ErrorKind::InvalidText, w.position());
                    utf8(invalid, tree.text(s)).and_then(|name| w.property_name(name))
                }
                _ => Err(Error::new(ErrorKind::PropertyNameExpected, w.position())),
            };
            result.map_err(|error| Refused { error, at: node.at })?;
            continue;
        }
        next = Some(kid);
    }
}

/// Writes one node; a container with items returns its frame.
fn put<S: Sink>(w: &mut Writer<S>, tree: &Tree, kind: Kind) -> Result<Option<OpenNode>, Error> {
    let invalid = || Error::new(ErrorKind::InvalidText, w.position());
    let frame = |kids: Span, props: bool| {
        (kids.len > 0).then_some(OpenNode {
            kids,
            next: 0,
            props,
        })
    };
    match kind {
        Kind::Nil => w.nil()?,
        Kind::Bool(b) => w.bool(b)?,
        Kind::Int(i) => w.int(i)?,
        Kind::Float(f) => w.float(f)?,
        Kind::String(s) => {
            let b = tree.text(s);
            match core::str::from_utf8(b) {
                Ok(s) => w.string(s)?,
                // Godot 3 text holding surrogates: checked against the dialect's reader.
                Err(_) => w.string_bytes(b)?,
            }
        }
        Kind::StringName(s) => w.string_name(utf8(invalid, tree.text(s))?)?,
        Kind::NodePath(s) => {
            // The engine's `NodePath(String)` prints an error for an empty subname before the
            // end (`a::b`) and leaves the path empty: engine-checked with 4.6.
            let text = utf8(invalid, tree.text(s))?;
            w.node_path_str(if split_node_path(text).is_some() {
                text
            } else {
                ""
            })?
        }
        Kind::Real(ty, s) => w.real_math(ty, &tree.reals[s.range()])?,
        Kind::IntVec(ty, s) => {
            let mut c = [0i32; 4];
            for (o, v) in c.iter_mut().zip(&tree.ints[s.range()]) {
                *o = *v as i32;
            }
            w.int_math(ty, &c[..s.len.min(4)])?
        }
        Kind::Color(s) => {
            let c = &tree.reals[s.range()];
            let get = |i: usize| c.get(i).copied().unwrap_or(0.0) as f32;
            w.color(Color {
                r: get(0),
                g: get(1),
                b: get(2),
                a: get(3),
            })?
        }
        Kind::Rid(id) => w.rid(id)?,
        Kind::ObjectId(id) => w.object_id(id)?,
        Kind::Callable => w.callable()?,
        Kind::Signal => w.signal("", 0)?,
        Kind::PackedReals(ty, s) => {
            let r = &tree.reals[s.range()];
            match ty {
                T::PackedFloat64Array => w.packed_f64(r)?,
                T::PackedVector2Array => w.packed_vector2(r.chunks_exact(2).map(arr::<2>))?,
                T::PackedVector3Array => w.packed_vector3(r.chunks_exact(3).map(arr::<3>))?,
                T::PackedVector4Array => w.packed_vector4(r.chunks_exact(4).map(arr::<4>))?,
                T::PackedColorArray => w.packed_color(r.chunks_exact(4).map(|c| {
                    let a = arr::<4>(c);
                    [a[0] as f32, a[1] as f32, a[2] as f32, a[3] as f32]
                }))?,
                _ => w.packed_f32(r.iter().map(|&x| x as f32))?,
            }
        }
        Kind::PackedInts(ty, s) => {
            let v = &tree.ints[s.range()];
            match ty {
                T::PackedByteArray => w.packed_bytes_iter(v.iter().map(|&x| x as u8))?,
                T::PackedInt64Array => w.packed_i64(v)?,
                T::PackedVector2iArray => w.packed_vector2i(v.chunks_exact(2).map(|c| {
                    let mut o = [0; 2];
                    o.iter_mut().zip(c).for_each(|(o, x)| *o = *x as i32);
                    o
                }))?,
                T::PackedVector3iArray => w.packed_vector3i(v.chunks_exact(3).map(|c| {
                    let mut o = [0; 3];
                    o.iter_mut().zip(c).for_each(|(o, x)| *o = *x as i32);
                    o
                }))?,
                T::PackedVector4iArray => w.packed_vector4i(v.chunks_exact(4).map(|c| {
                    let mut o = [0; 4];
                    o.iter_mut().zip(c).for_each(|(o, x)| *o = *x as i32);
                    o
                }))?,
                _ => w.packed_i32(v.iter().map(|&x| x as i32))?,
            }
        }
        Kind::PackedStrings(s) => {
            let mut items = Vec::with_capacity(s.len);
            for &k in tree.kids(s) {
                if let Kind::String(t) = tree.node(k).kind {
                    items.push(utf8(invalid, tree.text(t))?);
                }
            }
            w.packed_strings(items)?
        }
        Kind::Array(ArrayForm::Array, elem, kids) => {
            match elem {
                None => w.begin_array(kids.len)?,
                Some(_) => w.begin_typed_array(kids.len, spec(tree, elem)?)?,
            }
            return Ok(frame(kids, false));
        }
        Kind::Array(form, elem, kids) => {
            // Pandemonium 5: a Nil element type is a type of its own here, which a
            // `ContainerTypeSpec` cannot name.
            let ty = match form {
                ArrayForm::PackedTypedArray => T::PackedTypedArray,
                _ => T::TypedArray,
            };
            let rules = w.dialect().text_rules();
            let elem = match elem {
                None => None,
                Some(Spec::Builtin(t)) => Some(ContainerType::Builtin(t)),
                Some(Spec::Class(c) | Spec::Script(c)) => {
                    Some(ContainerType::ClassName(StrRef::new(tree.text(c), rules)))
                }
            };
            w.array_of(ty, kids.len, elem)?;
            return Ok(frame(kids, false));
        }
        Kind::Dictionary(key, value, kids) => {
            let n = kids.len / 2;
            if key.is_none() && value.is_none() {
                w.begin_dictionary(n)?
            } else {
                w.begin_typed_dictionary(n, spec(tree, key)?, spec(tree, value)?)?
            }
            return Ok(frame(kids, false));
        }
        Kind::Object(class, kids) => {
            w.begin_object(utf8(invalid, tree.text(class))?, kids.len / 2)?;
            return Ok(frame(kids, true));
        }
    }
    Ok(None)
}

fn arr<const N: usize>(c: &[f64]) -> [f64; N] {
    let mut o = [0.0; N];
    o.iter_mut().zip(c).for_each(|(o, x)| *o = *x);
    o
}
