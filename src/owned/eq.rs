//! Equality of owned values: the views' definition, without recursion.

use crate::owned::array::Array;
use crate::owned::dictionary::Dictionary;
use crate::owned::parts::{FullObject, Object};
use crate::owned::tree::{Ev, Events};
use crate::owned::Variant;

impl PartialEq for Variant {
    /// As [`VariantRef`](crate::VariantRef)'s `==`: same type and equal contents. Floats
    /// compare as `f64` (NaN is unequal to itself, `-0.0 == 0.0`), math types also need the
    /// same precision, strings compare their text (a BOM and what follows a NUL are
    /// ignored), node paths their parts and flags word; containers need the same kind,
    /// element or key and value types (or class) and equal items in order. Linear time,
    /// no recursion.
    fn eq(&self, other: &Variant) -> bool {
        if self.is_container() || other.is_container() {
            lockstep(Events::new(self), Events::new(other))
        } else {
            leaf_eq(self, other)
        }
    }
}

impl PartialEq for Array {
    /// Same kind, element type and elements (see [`Variant`]'s `==`).
    fn eq(&self, other: &Array) -> bool {
        self.typed == other.typed
            && self.len() == other.len()
            && lockstep(Events::array(self), Events::array(other))
    }
}

impl PartialEq for Dictionary {
    /// Same types and entries in order (see [`Variant`]'s `==`).
    fn eq(&self, other: &Dictionary) -> bool {
        self.typed == other.typed
            && self.len() == other.len()
            && lockstep(Events::dictionary(self), Events::dictionary(other))
    }
}

impl PartialEq for FullObject {
    /// Same class and properties in order (see [`Variant`]'s `==`).
    fn eq(&self, other: &FullObject) -> bool {
        self.class == other.class
            && self.properties.len() == other.properties.len()
            && lockstep(Events::object(self), Events::object(other))
    }
}

fn lockstep(mut a: Events<'_>, mut b: Events<'_>) -> bool {
    loop {
        let same = match (a.next(), b.next()) {
            (None, None) => return true,
            (Some(Ev::Value(x)), Some(Ev::Value(y))) => leaf_eq(x, y),
            (Some(Ev::Begin(x)), Some(Ev::Begin(y))) => same_head(x, y),
            (Some(Ev::Property(x)), Some(Ev::Property(y))) => x == y,
            (Some(Ev::End), Some(Ev::End)) => true,
            _ => false,
        };
        if !same {
            return false;
        }
    }
}

/// Same container type, length and declared types (not the items).
fn same_head(a: &Variant, b: &Variant) -> bool {
    match (a, b) {
        (Variant::Array(x), Variant::Array(y)) => x.typed == y.typed && x.len() == y.len(),
        (Variant::Dictionary(x), Variant::Dictionary(y)) => {
            x.typed == y.typed && x.len() == y.len()
        }
        (Variant::Object(Object::Full(x)), Variant::Object(Object::Full(y))) => {
            x.class == y.class && x.properties.len() == y.properties.len()
        }
        _ => false,
    }
}

/// Equality of two values that hold no others (containers compare unequal here).
fn leaf_eq(a: &Variant, b: &Variant) -> bool {
    use Variant as V;
    match (a, b) {
        (V::Nil, V::Nil) | (V::Callable, V::Callable) => true,
        (V::Bool(x), V::Bool(y)) => x == y,
        (V::Int(x), V::Int(y)) => x == y,
        (V::Float(x), V::Float(y)) => x == y,
        (V::String(x), V::String(y)) | (V::StringName(x), V::StringName(y)) => x == y,
        (V::Vector2(x, p), V::Vector2(y, q)) => p == q && x == y,
        (V::Rect2(x, p), V::Rect2(y, q)) => p == q && x == y,
        (V::Vector3(x, p), V::Vector3(y, q)) => p == q && x == y,
        (V::Transform2D(x, p), V::Transform2D(y, q)) => p == q && x == y,
        (V::Vector4(x, p), V::Vector4(y, q)) => p == q && x == y,
        (V::Plane(x, p), V::Plane(y, q)) => p == q && x == y,
        (V::Quaternion(x, p), V::Quaternion(y, q)) => p == q && x == y,
        (V::Aabb(x, p), V::Aabb(y, q)) => p == q && x == y,
        (V::Basis(x, p), V::Basis(y, q)) => p == q && x == y,
        (V::Transform3D(x, p), V::Transform3D(y, q)) => p == q && x == y,
        (V::Projection(x, p), V::Projection(y, q)) => p == q && x == y,
        (V::Vector2i(x), V::Vector2i(y)) => x == y,
        (V::Vector3i(x), V::Vector3i(y)) => x == y,
        (V::Vector4i(x), V::Vector4i(y)) => x == y,
        (V::Rect2i(x), V::Rect2i(y)) => x == y,
        (V::Color(x), V::Color(y)) => x == y,
        (V::NodePath(x), V::NodePath(y)) => x == y,
        (V::Rid(x), V::Rid(y)) => x == y,
        (V::Object(Object::Id(x)), V::Object(Object::Id(y))) => x == y,
        (V::Object(Object::Null), V::Object(Object::Null)) => true,
        (V::Signal(x), V::Signal(y)) => x == y,
        (V::PackedByteArray(x), V::PackedByteArray(y)) => x == y,
        (V::PackedInt32Array(x), V::PackedInt32Array(y)) => x == y,
        (V::PackedInt64Array(x), V::PackedInt64Array(y)) => x == y,
        (V::PackedFloat32Array(x), V::PackedFloat32Array(y)) => x == y,
        (V::PackedFloat64Array(x), V::PackedFloat64Array(y)) => x == y,
        (V::PackedStringArray(x), V::PackedStringArray(y)) => x == y,
        (V::PackedVector2Array(x), V::PackedVector2Array(y)) => x == y,
        (V::PackedVector3Array(x), V::PackedVector3Array(y)) => x == y,
        (V::PackedVector4Array(x), V::PackedVector4Array(y)) => x == y,
        (V::PackedColorArray(x), V::PackedColorArray(y)) => x == y,
        (V::PackedVector2iArray(x), V::PackedVector2iArray(y)) => x == y,
        (V::PackedVector3iArray(x), V::PackedVector3iArray(y)) => x == y,
        (V::PackedVector4iArray(x), V::PackedVector4iArray(y)) => x == y,
        _ => false,
    }
}
