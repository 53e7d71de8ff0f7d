//! From views and bytes to owned values, and `From` for Rust values.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result};
use crate::math::{
    Aabb, Basis, Color, Plane, Precision, Projection, Quaternion, Rect2, Rect2i, Transform2D,
    Transform3D, Vector2, Vector2i, Vector3, Vector3i, Vector4, Vector4i,
};
use crate::owned::array::Array;
use crate::owned::dictionary::Dictionary;
use crate::owned::parts::{FullObject, NodePath, Object, PackedVectors, Signal};
use crate::owned::string::GString;
use crate::owned::tree::Builder;
use crate::owned::Variant;
use crate::read::{Decoder, Event, ObjectRef, PackedReals, VariantRef, Walker};

/// The owned form of a view that holds no other values (containers: their empty head).
fn leaf(v: &VariantRef<'_>) -> Variant {
    use Variant as V;
    use VariantRef as R;
    match *v {
        R::Nil => V::Nil,
        R::Bool(b) => V::Bool(b),
        R::Int(i) => V::Int(i),
        R::Float(f) => V::Float(f),
        R::String(s) => V::String(GString::from_view(s)),
        R::StringName(s) => V::StringName(GString::from_view(s)),
        R::Vector2(m) => V::Vector2(m.get(), m.precision()),
        R::Rect2(m) => V::Rect2(m.get(), m.precision()),
        R::Vector3(m) => V::Vector3(m.get(), m.precision()),
        R::Transform2D(m) => V::Transform2D(Box::new(m.get()), m.precision()),
        R::Vector4(m) => V::Vector4(m.get(), m.precision()),
        R::Plane(m) => V::Plane(m.get(), m.precision()),
        R::Quaternion(m) => V::Quaternion(m.get(), m.precision()),
        R::Aabb(m) => V::Aabb(Box::new(m.get()), m.precision()),
        R::Basis(m) => V::Basis(Box::new(m.get()), m.precision()),
        R::Transform3D(m) => V::Transform3D(Box::new(m.get()), m.precision()),
        R::Projection(m) => V::Projection(Box::new(m.get()), m.precision()),
        R::Vector2i(x) => V::Vector2i(x),
        R::Rect2i(x) => V::Rect2i(x),
        R::Vector3i(x) => V::Vector3i(x),
        R::Vector4i(x) => V::Vector4i(x),
        R::Color(c) => V::Color(c),
        R::NodePath(p) => V::NodePath(NodePath::from_view(&p)),
        R::Rid(r) => V::Rid(r),
        R::Object(ObjectRef::Id(id)) => V::Object(Object::Id(id)),
        R::Object(ObjectRef::Null) => V::Object(Object::Null),
        R::Object(ObjectRef::Full(o)) => V::Object(Object::Full(Box::new(FullObject {
            class: GString::from_view(o.class()),
            properties: Vec::new(),
        }))),
        R::Callable => V::Callable,
        R::Signal(s) => V::Signal(Signal {
            name: GString::from_view(s.name()),
            object_id: s.object_id(),
        }),
        R::Dictionary(d) => {
            let mut out = Dictionary::new();
            out.set_types(d.key_type().map(Into::into), d.value_type().map(Into::into));
            V::Dictionary(out)
        }
        R::Array(a) => {
            let mut out = Array::new();
            out.set_type(a.element_type().map(|t| (a.kind(), t.into())));
            V::Array(out)
        }
        R::PackedByteArray(p) => V::PackedByteArray(p.as_bytes().to_vec()),
        R::PackedInt32Array(p) => V::PackedInt32Array(p.to_vec()),
        R::PackedInt64Array(p) => V::PackedInt64Array(p.to_vec()),
        R::PackedFloat32Array(p) => V::PackedFloat32Array(p.to_vec()),
        R::PackedFloat64Array(p) => V::PackedFloat64Array(p.to_vec()),
        R::PackedStringArray(p) => V::PackedStringArray(p.iter().map(GString::from_view).collect()),
        R::PackedVector2Array(p) => V::PackedVector2Array(vectors(&p)),
        R::PackedVector3Array(p) => V::PackedVector3Array(vectors(&p)),
        R::PackedVector4Array(p) => V::PackedVector4Array(vectors(&p)),
        R::PackedColorArray(p) => V::PackedColorArray(p.to_vec()),
        R::PackedVector2iArray(p) => V::PackedVector2iArray(p.to_vec()),
        R::PackedVector3iArray(p) => V::PackedVector3iArray(p.to_vec()),
        R::PackedVector4iArray(p) => V::PackedVector4iArray(p.to_vec()),
    }
}

fn vectors<const N: usize>(p: &PackedReals<'_, N>) -> PackedVectors<N> {
    match p {
        PackedReals::Single(s) => PackedVectors::Single(s.to_vec()),
        PackedReals::Double(d) => PackedVectors::Double(d.to_vec()),
    }
}

/// Walks the value at the start of `bytes` and builds it. Returns the value (what was built
/// before an error, if any), the error, and how far the walk got.
fn walk_and_build(dec: Decoder, bytes: &[u8]) -> (Variant, Option<Error>, usize) {
    let mut walker = Walker::new(dec, bytes);
    let len = bytes.len();
    let mut b = Builder::default();
    while let Some(event) = walker.next() {
        match event {
            Ok(Event::Value(v)) => b.leaf(leaf(&v)),
            Ok(Event::Begin(v)) => {
                let mut head = leaf(&v);
                // Room for the announced items, but no more than the bytes left could hold
                // (an item takes at least 4 bytes): a hostile count allocates nothing big.
                let room = len.saturating_sub(walker.offset()) / 4;
                match &mut head {
                    Variant::Array(a) => a.reserve(v.as_array().map_or(0, |a| a.len()).min(room)),
                    Variant::Dictionary(d) => d
                        .entries
                        .reserve(v.as_dictionary().map_or(0, |d| d.len()).min(room / 2)),
                    Variant::Object(Object::Full(o)) => {
                        let n = v.as_object().map_or(0, |o| match o {
                            ObjectRef::Full(o) => o.len(),
                            _ => 0,
                        });
                        o.properties.reserve(n.min(room / 2));
                    }
                    _ => {}
                }
                b.begin(head);
            }
            Ok(Event::Property(name)) => b.property(GString::from_view(name)),
            Ok(Event::End) => b.end(),
            Err(e) => return (b.finish(), Some(e), walker.offset()),
        }
    }
    (b.finish(), None, walker.offset())
}

impl Decoder {
    /// Decodes the value at the start of `bytes` into an owned [`Variant`], ignoring anything
    /// after it (like [`Decoder::decode`]). Validation and building are one linear pass
    /// without recursion; the same inputs are accepted and rejected as by
    /// [`Decoder::decode`], with the same errors. Feature `alloc`.
    ///
    /// ```
    /// use gdwire::owned::Variant;
    /// use gdwire::{Decoder, Dialect};
    /// let bytes = [0x1c, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0]; // [7]
    /// let v = Decoder::new(Dialect::GODOT_4).decode_owned(&bytes)?;
    /// assert_eq!(v, Variant::from(vec![Variant::Int(7)]));
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn decode_owned(&self, bytes: &[u8]) -> Result<Variant> {
        self.decode_owned_prefix(bytes).map(|(v, _)| v)
    }

    /// Like [`Decoder::decode_owned`], and also returns the number of bytes the value used
    /// (as [`Decoder::decode_prefix`]).
    ///
    /// ```
    /// use gdwire::{Decoder, Dialect};
    /// let (v, used) = Decoder::new(Dialect::GODOT_4).decode_owned_prefix(&[0, 0, 0, 0, 9])?;
    /// assert!(v.is_nil());
    /// assert_eq!(used, 4);
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn decode_owned_prefix(&self, bytes: &[u8]) -> Result<(Variant, usize)> {
        match walk_and_build(*self, bytes) {
            (v, None, used) => Ok((v, used)),
            (_, Some(e), _) => Err(e),
        }
    }

    /// Like [`Decoder::decode_owned`], but `bytes` must hold exactly one value.
    ///
    /// ```
    /// use gdwire::{Decoder, Dialect, ErrorKind};
    /// let err = Decoder::new(Dialect::GODOT_4).decode_owned_exact(&[0, 0, 0, 0, 9]).unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::TrailingBytes { count: 1 });
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn decode_owned_exact(&self, bytes: &[u8]) -> Result<Variant> {
        let (value, used) = self.decode_owned_prefix(bytes)?;
        match bytes.len() - used {
            0 => Ok(value),
            count => Err(Error::new(ErrorKind::TrailingBytes { count }, used)),
        }
    }
}

impl Variant {
    /// Decodes the first value in `bytes` with engine defaults into an owned value; trailing
    /// bytes are ignored, as by [`crate::from_bytes`]. See [`Decoder::decode_owned`].
    ///
    /// ```
    /// use gdwire::owned::Variant;
    /// use gdwire::Dialect;
    /// let v = Variant::from_bytes(Dialect::GODOT_4, &[4, 0, 0, 0, 1, 0, 0, 0, b'a', 0, 0, 0])?;
    /// assert_eq!(v, "a");
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn from_bytes(dialect: Dialect, bytes: &[u8]) -> Result<Variant> {
        Decoder::new(dialect).decode_owned(bytes)
    }
}

impl VariantRef<'_> {
    /// An owned copy of this view and everything in it (feature `alloc`). Lossless:
    /// re-encoding the result writes what re-encoding the view writes, and `==` and `Debug`
    /// agree with the view's.
    ///
    /// This inherent method takes precedence over the blanket [`ToOwned`](alloc::borrow::ToOwned) (which, as
    /// `VariantRef` is `Copy`, would only copy the view); through `&&VariantRef` or in
    /// generic code `ToOwned` still applies, so `Variant::from(view)` is the unambiguous
    /// spelling.
    ///
    /// A view from a successful decode is validated and converts completely. A container
    /// view from a [`Walker`]'s `Begin` event is not validated yet: if its items turn out to
    /// be malformed, the copy ends at the bad item; [`VariantRef::try_to_owned`] reports the
    /// error instead.
    ///
    /// ```
    /// use gdwire::owned::Variant;
    /// use gdwire::{from_bytes, Dialect};
    /// let bytes = vec![0x1c, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, b'a', 0, 0, 0];
    /// let owned: Variant = from_bytes(Dialect::GODOT_4, &bytes)?.to_owned();
    /// drop(bytes); // the owned value does not borrow it
    /// assert_eq!(owned.as_array().unwrap()[0], "a");
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    #[allow(clippy::wrong_self_convention, clippy::should_implement_trait)]
    pub fn to_owned(&self) -> Variant {
        self.owned().0
    }

    /// Like [`VariantRef::to_owned`], but a malformed item inside a view that was not
    /// validated yet is an error.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// let v = from_bytes(Dialect::GODOT_4, &[1, 0, 0, 0, 1, 0, 0, 0])?.try_to_owned()?;
    /// assert_eq!(v.as_bool(), Some(true));
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn try_to_owned(&self) -> Result<Variant> {
        match self.owned() {
            (v, None) => Ok(v),
            (_, Some(e)) => Err(e),
        }
    }

    fn owned(&self) -> (Variant, Option<Error>) {
        let items = match self {
            VariantRef::Array(a) => a.items(),
            VariantRef::Dictionary(d) => d.items(),
            VariantRef::Object(ObjectRef::Full(o)) => o.items(),
            other => return (leaf(other), None),
        };
        let (v, e, _) = walk_and_build(items.dec, items.bytes_from_header());
        (v, e)
    }
}

impl From<VariantRef<'_>> for Variant {
    /// [`VariantRef::to_owned`].
    fn from(v: VariantRef<'_>) -> Variant {
        v.to_owned()
    }
}

impl From<&VariantRef<'_>> for Variant {
    /// [`VariantRef::to_owned`].
    fn from(v: &VariantRef<'_>) -> Variant {
        v.to_owned()
    }
}

macro_rules! from_via {
    ($($t:ty => |$x:ident| $e:expr;)*) => {$(
        impl From<$t> for Variant {
            #[inline]
            fn from($x: $t) -> Variant {
                $e
            }
        }
    )*};
}

from_via! {
    bool => |x| Variant::Bool(x);
    i8 => |x| Variant::Int(x.into());
    i16 => |x| Variant::Int(x.into());
    i32 => |x| Variant::Int(x.into());
    i64 => |x| Variant::Int(x);
    u8 => |x| Variant::Int(x.into());
    u16 => |x| Variant::Int(x.into());
    u32 => |x| Variant::Int(x.into());
    f32 => |x| Variant::Float(crate::float_width::widen(x));
    f64 => |x| Variant::Float(x);
    &str => |x| Variant::String(x.into());
    String => |x| Variant::String(x.into());
    &String => |x| Variant::String(x.into());
    GString => |x| Variant::String(x);
    &[u8] => |x| Variant::PackedByteArray(x.to_vec());
    Vec<u8> => |x| Variant::PackedByteArray(x);
    &[i32] => |x| Variant::PackedInt32Array(x.to_vec());
    Vec<i32> => |x| Variant::PackedInt32Array(x);
    &[i64] => |x| Variant::PackedInt64Array(x.to_vec());
    Vec<i64> => |x| Variant::PackedInt64Array(x);
    &[f32] => |x| Variant::PackedFloat32Array(x.to_vec());
    Vec<f32> => |x| Variant::PackedFloat32Array(x);
    &[f64] => |x| Variant::PackedFloat64Array(x.to_vec());
    Vec<f64> => |x| Variant::PackedFloat64Array(x);
    &[&str] => |x| Variant::PackedStringArray(x.iter().map(|s| GString::from(*s)).collect());
    Vec<&str> => |x| Variant::PackedStringArray(x.into_iter().map(GString::from).collect());
    Vec<String> => |x| Variant::PackedStringArray(x.into_iter().map(GString::from).collect());
    Vec<GString> => |x| Variant::PackedStringArray(x);
    &[Vector2] => |x| Variant::PackedVector2Array(PackedVectors::Single(x.iter().map(|v| narrow([v.x, v.y])).collect()));
    &[Vector3] => |x| Variant::PackedVector3Array(PackedVectors::Single(x.iter().map(|v| narrow([v.x, v.y, v.z])).collect()));
    &[Vector4] => |x| Variant::PackedVector4Array(PackedVectors::Single(x.iter().map(|v| narrow([v.x, v.y, v.z, v.w])).collect()));
    &[Color] => |x| Variant::PackedColorArray(x.iter().map(|c| [c.r, c.g, c.b, c.a]).collect());
    &[Vector2i] => |x| Variant::PackedVector2iArray(x.iter().map(|v| [v.x, v.y]).collect());
    &[Vector3i] => |x| Variant::PackedVector3iArray(x.iter().map(|v| [v.x, v.y, v.z]).collect());
    &[Vector4i] => |x| Variant::PackedVector4iArray(x.iter().map(|v| [v.x, v.y, v.z, v.w]).collect());
    PackedVectors<2> => |x| Variant::PackedVector2Array(x);
    PackedVectors<3> => |x| Variant::PackedVector3Array(x);
    PackedVectors<4> => |x| Variant::PackedVector4Array(x);
    Vector2 => |x| Variant::Vector2(x, Precision::Single);
    Rect2 => |x| Variant::Rect2(x, Precision::Single);
    Vector3 => |x| Variant::Vector3(x, Precision::Single);
    Transform2D => |x| Variant::Transform2D(Box::new(x), Precision::Single);
    Vector4 => |x| Variant::Vector4(x, Precision::Single);
    Plane => |x| Variant::Plane(x, Precision::Single);
    Quaternion => |x| Variant::Quaternion(x, Precision::Single);
    Aabb => |x| Variant::Aabb(Box::new(x), Precision::Single);
    Basis => |x| Variant::Basis(Box::new(x), Precision::Single);
    Transform3D => |x| Variant::Transform3D(Box::new(x), Precision::Single);
    Projection => |x| Variant::Projection(Box::new(x), Precision::Single);
    Vector2i => |x| Variant::Vector2i(x);
    Rect2i => |x| Variant::Rect2i(x);
    Vector3i => |x| Variant::Vector3i(x);
    Vector4i => |x| Variant::Vector4i(x);
    Color => |x| Variant::Color(x);
    NodePath => |x| Variant::NodePath(x);
    Signal => |x| Variant::Signal(x);
    Object => |x| Variant::Object(x);
    FullObject => |x| Variant::Object(Object::Full(Box::new(x)));
    Array => |x| Variant::Array(x);
    Vec<Variant> => |x| Variant::Array(Array::from(x));
    Dictionary => |x| Variant::Dictionary(x);
}

impl<T: Into<Variant>> From<Option<T>> for Variant {
    /// `None` is Nil.
    fn from(x: Option<T>) -> Variant {
        x.map_or(Variant::Nil, Into::into)
    }
}

impl<T: Into<Variant>> FromIterator<T> for Variant {
    /// An untyped Array.
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Variant {
        Variant::Array(iter.into_iter().collect())
    }
}

/// `f64` components to `f32`, as a single-precision engine stores them.
fn narrow<const N: usize>(c: [f64; N]) -> [f32; N] {
    c.map(crate::float_width::narrow)
}
