//! `Debug` of owned values: the views' text, printed through the same
//! [`Printer`](crate::read::show::Printer), without recursion.

use core::fmt;

use crate::math::Precision;
use crate::owned::array::Array;
use crate::owned::dictionary::Dictionary;
use crate::owned::parts::{ElementType, FullObject, Object};
use crate::owned::tree::{Ev, Events};
use crate::owned::Variant;
use crate::read::show::{Head, Printer};

impl fmt::Debug for Variant {
    /// Exactly what `Debug` of the equivalent [`VariantRef`](crate::VariantRef) prints
    /// (`Int(1)`, `Vector2(Vector2 { x: 1.0, y: 2.0 } (Single))`,
    /// `NodePath(NodePathRef { .. })`, `Array([Int(1)])`, …), in `{:?}` and `{:#?}` alike,
    /// so logs read the same whichever form was kept. Shows 64 levels of nesting.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Variant as V;
        let tuple = |f: &mut fmt::Formatter<'_>, name: &str, x: &dyn fmt::Debug| {
            f.debug_tuple(name).field(x).finish()
        };
        match self {
            V::Nil => f.write_str("Nil"),
            V::Callable => f.write_str("Callable"),
            V::Bool(x) => tuple(f, "Bool", x),
            V::Int(x) => tuple(f, "Int", x),
            V::Float(x) => tuple(f, "Float", x),
            V::String(x) => tuple(f, "String", x),
            V::StringName(x) => tuple(f, "StringName", x),
            V::Vector2(x, p) => tuple(f, "Vector2", &Math(x, *p)),
            V::Rect2(x, p) => tuple(f, "Rect2", &Math(x, *p)),
            V::Vector3(x, p) => tuple(f, "Vector3", &Math(x, *p)),
            V::Transform2D(x, p) => tuple(f, "Transform2D", &Math(&**x, *p)),
            V::Vector4(x, p) => tuple(f, "Vector4", &Math(x, *p)),
            V::Plane(x, p) => tuple(f, "Plane", &Math(x, *p)),
            V::Quaternion(x, p) => tuple(f, "Quaternion", &Math(x, *p)),
            V::Aabb(x, p) => tuple(f, "Aabb", &Math(&**x, *p)),
            V::Basis(x, p) => tuple(f, "Basis", &Math(&**x, *p)),
            V::Transform3D(x, p) => tuple(f, "Transform3D", &Math(&**x, *p)),
            V::Projection(x, p) => tuple(f, "Projection", &Math(&**x, *p)),
            V::Vector2i(x) => tuple(f, "Vector2i", x),
            V::Rect2i(x) => tuple(f, "Rect2i", x),
            V::Vector3i(x) => tuple(f, "Vector3i", x),
            V::Vector4i(x) => tuple(f, "Vector4i", x),
            V::Color(x) => tuple(f, "Color", x),
            V::NodePath(x) => tuple(
                f,
                "NodePath",
                &AsView(|f: &mut fmt::Formatter<'_>| x.fmt_as_view(f)),
            ),
            V::Rid(x) => tuple(f, "Rid", x),
            V::Object(x) => tuple(f, "Object", x),
            V::Signal(s) => tuple(
                f,
                "Signal",
                &AsView(|f: &mut fmt::Formatter<'_>| {
                    f.debug_struct("SignalRef")
                        .field("name", &s.name)
                        .field("object_id", &s.object_id)
                        .finish()
                }),
            ),
            V::Dictionary(x) => tuple(f, "Dictionary", x),
            V::Array(x) => tuple(f, "Array", x),
            V::PackedByteArray(x) => tuple(f, "PackedByteArray", x),
            V::PackedInt32Array(x) => tuple(f, "PackedInt32Array", x),
            V::PackedInt64Array(x) => tuple(f, "PackedInt64Array", x),
            V::PackedFloat32Array(x) => tuple(f, "PackedFloat32Array", x),
            V::PackedFloat64Array(x) => tuple(f, "PackedFloat64Array", x),
            V::PackedStringArray(x) => tuple(f, "PackedStringArray", x),
            V::PackedVector2Array(x) => tuple(f, "PackedVector2Array", x),
            V::PackedVector3Array(x) => tuple(f, "PackedVector3Array", x),
            V::PackedColorArray(x) => tuple(f, "PackedColorArray", x),
            V::PackedVector4Array(x) => tuple(f, "PackedVector4Array", x),
            V::PackedVector2iArray(x) => tuple(f, "PackedVector2iArray", x),
            V::PackedVector3iArray(x) => tuple(f, "PackedVector3iArray", x),
            V::PackedVector4iArray(x) => tuple(f, "PackedVector4iArray", x),
        }
    }
}

/// A math value as [`MathRef`](crate::read::MathRef) prints it.
struct Math<'a, T>(&'a T, Precision);

impl<T: fmt::Debug> fmt::Debug for Math<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} ({:?})", self.0, self.1)
    }
}

struct AsView<F>(F);

impl<F: Fn(&mut fmt::Formatter<'_>) -> fmt::Result> fmt::Debug for AsView<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (self.0)(f)
    }
}

impl fmt::Debug for Object {
    /// As [`ObjectRef`](crate::ObjectRef): `Id(5)`, `Null`, `Full("Node" {..})`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Object::Id(id) => f.debug_tuple("Id").field(id).finish(),
            Object::Null => f.write_str("Null"),
            Object::Full(o) => f.debug_tuple("Full").field(o).finish(),
        }
    }
}

impl fmt::Debug for Array {
    /// As [`ArrayRef`](crate::ArrayRef): `[Int(1), String("a")]`, a typed array prefixed
    /// with its kind and element type. Shows 64 levels of nesting.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let head = Head::Array(self.kind(), self.element_type().map(dbg));
        show(f, head, Events::array(self))
    }
}

impl fmt::Debug for Dictionary {
    /// As [`DictRef`](crate::DictRef): `{String("a"): Int(1)}`. Shows 64 levels of nesting.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let head = Head::Dictionary(self.key_type().map(dbg), self.value_type().map(dbg));
        show(f, head, Events::dictionary(self))
    }
}

impl fmt::Debug for FullObject {
    /// As [`FullObjectRef`](crate::read::FullObjectRef): `"Node" {"name": String("a")}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        show(f, Head::Object(&self.class), Events::object(self))
    }
}

fn dbg(t: &ElementType) -> &dyn fmt::Debug {
    t
}

/// Prints a container whose head is `head` and whose items (then `End`) `events` walks.
fn show(f: &mut fmt::Formatter<'_>, head: Head<'_>, events: Events<'_>) -> fmt::Result {
    let mut p = Printer::new(f);
    p.begin(head)?;
    for ev in events {
        match ev {
            Ev::Value(v) => p.value(v)?,
            Ev::Property(name) => p.property(name)?,
            Ev::Begin(v) => match v {
                Variant::Array(a) => p.begin(Head::Array(a.kind(), a.element_type().map(dbg)))?,
                Variant::Dictionary(d) => p.begin(Head::Dictionary(
                    d.key_type().map(dbg),
                    d.value_type().map(dbg),
                ))?,
                Variant::Object(Object::Full(o)) => p.begin(Head::Object(&o.class))?,
                other => p.value(other)?,
            },
            Ev::End => p.end()?,
        }
    }
    p.finish()
}
