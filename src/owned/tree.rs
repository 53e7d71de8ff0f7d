//! Walking and building owned trees without recursion: the one traversal behind cloning,
//! comparing, printing and encoding, the one builder behind decoding and cloning, and an
//! iterative drop.
//!
//! A derived `Clone`, `PartialEq`, `Debug` or `Drop` recurses once per nesting level (a few
//! hundred bytes of stack each in a debug build), which 1024 levels, the engine's limit,
//! turn into an overflow on small thread stacks.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::slice;

use crate::owned::array::Array;
use crate::owned::dictionary::Dictionary;
use crate::owned::parts::{FullObject, Object};
use crate::owned::string::GString;
use crate::owned::Variant;

/// One step of a walk over an owned value: the same shape as [`crate::read::Event`].
pub(crate) enum Ev<'v> {
    /// A value that holds no others.
    Value(&'v Variant),
    /// An array, dictionary or full object starts; its items follow, then `End`.
    Begin(&'v Variant),
    /// A full object's next property name; its value follows.
    Property(&'v GString),
    End,
}

/// What is left of an open container's children.
enum Children<'v> {
    Items(slice::Iter<'v, Variant>),
    /// Entries, and the value of the entry whose key was handed out last.
    Entries(slice::Iter<'v, (Variant, Variant)>, Option<&'v Variant>),
    /// Properties, and the value of the property whose name was handed out last.
    Props(slice::Iter<'v, (GString, Variant)>, Option<&'v Variant>),
}

/// A linear walk over an owned value, with a heap stack of open containers.
pub(crate) struct Events<'v> {
    root: Option<&'v Variant>,
    stack: Vec<Children<'v>>,
}

impl<'v> Events<'v> {
    pub(crate) fn new(root: &'v Variant) -> Self {
        Events {
            root: Some(root),
            stack: Vec::new(),
        }
    }

    /// The items of an array, then `End` (the array's own `Begin` is the caller's).
    pub(crate) fn array(a: &'v Array) -> Self {
        Events::inside(Children::Items(a.items.iter()))
    }

    /// The keys and values of a dictionary, then `End`.
    pub(crate) fn dictionary(d: &'v Dictionary) -> Self {
        Events::inside(Children::Entries(d.entries.iter(), None))
    }

    /// The properties of a full object, then `End`.
    pub(crate) fn object(o: &'v FullObject) -> Self {
        Events::inside(Children::Props(o.properties.iter(), None))
    }

    fn inside(frame: Children<'v>) -> Self {
        Events {
            root: None,
            stack: alloc::vec![frame],
        }
    }

    /// Containers open around the next item (after a `Begin`: including that one).
    pub(crate) fn open(&self) -> usize {
        self.stack.len()
    }
}

impl<'v> Iterator for Events<'v> {
    type Item = Ev<'v>;

    fn next(&mut self) -> Option<Ev<'v>> {
        let v = match self.root.take() {
            Some(root) => root,
            None => {
                let top = self.stack.last_mut()?;
                let next = match top {
                    Children::Items(it) => it.next(),
                    Children::Entries(it, pending) => match pending.take() {
                        Some(v) => Some(v),
                        None => it.next().map(|(k, v)| {
                            *pending = Some(v);
                            k
                        }),
                    },
                    Children::Props(it, pending) => match pending.take() {
                        Some(v) => Some(v),
                        None => {
                            if let Some((name, v)) = it.next() {
                                *pending = Some(v);
                                return Some(Ev::Property(name));
                            }
                            None
                        }
                    },
                };
                match next {
                    Some(v) => v,
                    None => {
                        self.stack.pop();
                        return Some(Ev::End);
                    }
                }
            }
        };
        let frame = match v {
            Variant::Array(a) => Children::Items(a.items.iter()),
            Variant::Dictionary(d) => Children::Entries(d.entries.iter(), None),
            Variant::Object(Object::Full(o)) => Children::Props(o.properties.iter(), None),
            _ => return Some(Ev::Value(v)),
        };
        self.stack.push(frame);
        Some(Ev::Begin(v))
    }
}

/// A container being built, and the key or property name waiting for its value.
struct Open {
    container: Variant,
    key: Option<Variant>,
    name: Option<GString>,
}

/// Builds an owned tree from a linear walk: `begin` (an empty container), `leaf`,
/// `property`, `end`, in the order of [`Ev`] / [`crate::read::Event`].
///
/// The innermost open container is kept apart from the enclosing ones, so a value with one
/// level of containers (most packets) needs no stack allocation.
#[derive(Default)]
pub(crate) struct Builder {
    top: Option<Open>,
    saved: Vec<Open>,
    root: Option<Variant>,
}

impl Builder {
    pub(crate) fn leaf(&mut self, v: Variant) {
        let Some(open) = self.top.as_mut() else {
            self.root = Some(v);
            return;
        };
        match &mut open.container {
            Variant::Array(a) => a.items.push(v),
            Variant::Dictionary(d) => match open.key.take() {
                Some(key) => d.entries.push((key, v)),
                None => open.key = Some(v),
            },
            Variant::Object(Object::Full(o)) => {
                let name = open.name.take().unwrap_or_default();
                o.properties.push((name, v));
            }
            _ => {}
        }
    }

    /// An empty container whose items follow.
    pub(crate) fn begin(&mut self, container: Variant) {
        let open = Open {
            container,
            key: None,
            name: None,
        };
        if let Some(outer) = self.top.replace(open) {
            self.saved.push(outer);
        }
    }

    pub(crate) fn property(&mut self, name: GString) {
        if let Some(open) = self.top.as_mut() {
            open.name = Some(name);
        }
    }

    pub(crate) fn end(&mut self) {
        if let Some(open) = self.top.take() {
            self.top = self.saved.pop();
            self.leaf(open.container);
        }
    }

    /// The value built; containers still open (after a failed walk) are closed as they are.
    pub(crate) fn finish(mut self) -> Variant {
        while self.top.is_some() {
            self.end();
        }
        self.root.take().unwrap_or_default()
    }
}

/// An empty container like `v` (same kind, types and class), with room for its items.
fn empty_like(v: &Variant) -> Variant {
    match v {
        Variant::Array(a) => Variant::Array(a.empty_like(a.len())),
        Variant::Dictionary(d) => Variant::Dictionary(d.empty_like(d.len())),
        Variant::Object(Object::Full(o)) => Variant::Object(Object::Full(Box::new(FullObject {
            class: o.class.clone(),
            properties: Vec::with_capacity(o.properties.len()),
        }))),
        other => other.clone(),
    }
}

/// Copies what `events` walks into `b`.
fn copy(b: &mut Builder, events: Events<'_>) {
    for ev in events {
        match ev {
            Ev::Value(v) => b.leaf(v.clone()),
            Ev::Begin(v) => b.begin(empty_like(v)),
            Ev::Property(name) => b.property(name.clone()),
            Ev::End => b.end(),
        }
    }
}

impl Clone for Variant {
    /// A deep copy, without recursion.
    fn clone(&self) -> Variant {
        use Variant as V;
        match self {
            V::Array(_) | V::Dictionary(_) | V::Object(Object::Full(_)) => {
                let mut b = Builder::default();
                copy(&mut b, Events::new(self));
                b.finish()
            }
            V::Nil => V::Nil,
            V::Bool(b) => V::Bool(*b),
            V::Int(i) => V::Int(*i),
            V::Float(f) => V::Float(*f),
            V::String(s) => V::String(s.clone()),
            V::Vector2(x, p) => V::Vector2(*x, *p),
            V::Vector2i(x) => V::Vector2i(*x),
            V::Rect2(x, p) => V::Rect2(*x, *p),
            V::Rect2i(x) => V::Rect2i(*x),
            V::Vector3(x, p) => V::Vector3(*x, *p),
            V::Vector3i(x) => V::Vector3i(*x),
            V::Transform2D(x, p) => V::Transform2D(x.clone(), *p),
            V::Vector4(x, p) => V::Vector4(*x, *p),
            V::Vector4i(x) => V::Vector4i(*x),
            V::Plane(x, p) => V::Plane(*x, *p),
            V::Quaternion(x, p) => V::Quaternion(*x, *p),
            V::Aabb(x, p) => V::Aabb(x.clone(), *p),
            V::Basis(x, p) => V::Basis(x.clone(), *p),
            V::Transform3D(x, p) => V::Transform3D(x.clone(), *p),
            V::Projection(x, p) => V::Projection(x.clone(), *p),
            V::Color(c) => V::Color(*c),
            V::StringName(s) => V::StringName(s.clone()),
            V::NodePath(p) => V::NodePath(p.clone()),
            V::Rid(r) => V::Rid(*r),
            V::Object(Object::Id(id)) => V::Object(Object::Id(*id)),
            V::Object(Object::Null) => V::Object(Object::Null),
            V::Callable => V::Callable,
            V::Signal(s) => V::Signal(s.clone()),
            V::PackedByteArray(a) => V::PackedByteArray(a.clone()),
            V::PackedInt32Array(a) => V::PackedInt32Array(a.clone()),
            V::PackedInt64Array(a) => V::PackedInt64Array(a.clone()),
            V::PackedFloat32Array(a) => V::PackedFloat32Array(a.clone()),
            V::PackedFloat64Array(a) => V::PackedFloat64Array(a.clone()),
            V::PackedStringArray(a) => V::PackedStringArray(a.clone()),
            V::PackedVector2Array(a) => V::PackedVector2Array(a.clone()),
            V::PackedVector3Array(a) => V::PackedVector3Array(a.clone()),
            V::PackedColorArray(a) => V::PackedColorArray(a.clone()),
            V::PackedVector4Array(a) => V::PackedVector4Array(a.clone()),
            V::PackedVector2iArray(a) => V::PackedVector2iArray(a.clone()),
            V::PackedVector3iArray(a) => V::PackedVector3iArray(a.clone()),
            V::PackedVector4iArray(a) => V::PackedVector4iArray(a.clone()),
        }
    }
}

/// Copies a container's items after its own head, already begun in `b`.
fn clone_inside(head: Variant, events: Events<'_>) -> Variant {
    let mut b = Builder::default();
    b.begin(head);
    copy(&mut b, events);
    b.finish()
}

impl Clone for Array {
    /// A deep copy, without recursion.
    fn clone(&self) -> Array {
        let head = Variant::Array(self.empty_like(self.len()));
        match clone_inside(head, Events::array(self)) {
            Variant::Array(a) => a,
            _ => Array::new(),
        }
    }
}

impl Clone for Dictionary {
    /// A deep copy, without recursion.
    fn clone(&self) -> Dictionary {
        let head = Variant::Dictionary(self.empty_like(self.len()));
        match clone_inside(head, Events::dictionary(self)) {
            Variant::Dictionary(d) => d,
            _ => Dictionary::new(),
        }
    }
}

impl Clone for FullObject {
    /// A deep copy, without recursion.
    fn clone(&self) -> FullObject {
        let head = Variant::Object(Object::Full(Box::new(FullObject {
            class: self.class.clone(),
            properties: Vec::with_capacity(self.properties.len()),
        })));
        match clone_inside(head, Events::object(self)) {
            Variant::Object(Object::Full(o)) => *o,
            _ => FullObject::default(),
        }
    }
}

/// Moves the containers among `v`'s items out of it (each replaced by Nil), so that `v`'s
/// own drop is shallow; its leaves stay and drop with it.
fn take_containers(v: &mut Variant, out: &mut Vec<Variant>) {
    let mut take = |x: &mut Variant| {
        if x.is_container() {
            out.push(core::mem::take(x));
        }
    };
    match v {
        Variant::Array(a) => a.items.iter_mut().for_each(take),
        Variant::Dictionary(d) => d.entries.iter_mut().for_each(|(k, v)| {
            take(k);
            take(v);
        }),
        Variant::Object(Object::Full(o)) => o.properties.iter_mut().for_each(|(_, v)| take(v)),
        _ => {}
    }
}

/// Drops the containers inside `v` with a heap stack instead of recursion (only containers
/// move to the stack: a tree one level deep drops as usual).
fn drop_inside(v: &mut Variant) {
    let mut stack = Vec::new();
    take_containers(v, &mut stack);
    while let Some(mut inner) = stack.pop() {
        take_containers(&mut inner, &mut stack);
    }
}

impl Drop for Array {
    fn drop(&mut self) {
        if self.items.iter().any(Variant::is_container) {
            let mut v = Variant::Array(Array {
                items: core::mem::take(&mut self.items),
                typed: None,
            });
            drop_inside(&mut v);
        }
    }
}

impl Drop for Dictionary {
    fn drop(&mut self) {
        if self
            .entries
            .iter()
            .any(|(k, v)| k.is_container() || v.is_container())
        {
            let mut v = Variant::Dictionary(Dictionary {
                entries: core::mem::take(&mut self.entries),
                typed: None,
            });
            drop_inside(&mut v);
        }
    }
}

impl Drop for FullObject {
    fn drop(&mut self) {
        if self.properties.iter().any(|(_, v)| v.is_container()) {
            let mut v = Variant::Array(Array {
                items: self.properties.drain(..).map(|(_, v)| v).collect(),
                typed: None,
            });
            drop_inside(&mut v);
        }
    }
}
