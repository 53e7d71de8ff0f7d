//! Writing owned values: `Writer::variant`, `Variant::to_vec` / `to_slice` / `encoded_len`.

use alloc::vec::Vec;

use crate::dialect::Dialect;
use crate::error::{ErrorKind, Result};
use crate::header::FLAG_64;
use crate::math::Precision;
use crate::owned::parts::{ElementType, Object, PackedVectors};
use crate::owned::tree::{Ev, Events};
use crate::owned::Variant;
use crate::read::{ArrayKind, MAX_DEPTH};
use crate::read::{ContainerType, StrRef};
use crate::variant_type::VariantType;
use crate::write::{put_i32s, CountingSink, Sink, Writer};

use VariantType as T;

impl<S: Sink> Writer<S> {
    /// Writes an owned value as one item (feature `alloc`), as [`Writer::value`] writes the
    /// equivalent view: in this writer's dialect (a type the dialect lacks is
    /// [`ErrorKind::Unsupported`]), each math value and packed vector array with its own
    /// precision (where the dialect has the 64-bit flag; [`Writer::with_precision`] does not
    /// apply), strings from their bytes, an object with id 0 or a null object as Nil, full
    /// objects only with [`Writer::with_full_objects`] (whose rule also applies to class
    /// names in typed containers). So engine bytes decoded into a [`Variant`] re-encode byte
    /// for byte (NodePath pad bytes aside, written as zeros).
    ///
    /// Nesting is walked with a heap stack, not recursion; depth above 1024 is
    /// [`ErrorKind::TooDeep`].
    ///
    /// ```
    /// use gdwire::owned::Variant;
    /// use gdwire::{Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.begin_array(2)?;
    /// w.variant(&Variant::from("a"))?;
    /// w.variant(&Variant::from(vec![Variant::Int(1)]))?;
    /// w.finish()?;
    /// assert_eq!(Variant::from_bytes(Dialect::GODOT_4, &out)?.as_array().unwrap().len(), 2);
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn variant(&mut self, v: &Variant) -> Result<()> {
        self.guard(|w| {
            let depth = w.item()? as usize;
            if !v.is_container() {
                return w.put_owned_leaf(v);
            }
            let mut events = Events::new(v);
            while let Some(ev) = events.next() {
                match ev {
                    Ev::Value(x) => {
                        w.check_owned_depth(depth + events.open())?;
                        w.put_owned_leaf(x)?;
                    }
                    Ev::Begin(x) => {
                        // `open` counts the container just begun.
                        w.check_owned_depth(depth + events.open() - 1)?;
                        w.put_owned_head(x)?;
                    }
                    Ev::Property(name) => {
                        w.str_block(name.raw())?;
                        // A `script` property's value is checked as the views' writer does.
                        w.property_named(name.raw());
                    }
                    Ev::End => {}
                }
            }
            Ok(())
        })
    }

    fn check_owned_depth(&self, depth: usize) -> Result<()> {
        if depth > MAX_DEPTH as usize {
            return Err(self.err(ErrorKind::TooDeep { limit: MAX_DEPTH }));
        }
        Ok(())
    }

    /// The head of an array, dictionary or full object, up to its items.
    fn put_owned_head(&mut self, v: &Variant) -> Result<()> {
        match v {
            Variant::Array(a) => {
                let n = self.count(a.len())?;
                let preferred = match a.kind() {
                    ArrayKind::Array => T::Array,
                    ArrayKind::TypedArray => T::TypedArray,
                    ArrayKind::PackedTypedArray => T::PackedTypedArray,
                };
                self.array_head(preferred, n, a.element_type().map(elem))
            }
            Variant::Dictionary(d) => {
                let n = self.count(d.len())?;
                self.dict_head(n, d.key_type().map(elem), d.value_type().map(elem))
            }
            Variant::Object(Object::Full(o)) => {
                if !self.full_objects {
                    return Err(self.err(ErrorKind::FullObjectsDisabled));
                }
                if o.class.is_empty() {
                    return Err(self.err(ErrorKind::EmptyClassName));
                }
                let n = self.count(o.properties.len())?;
                self.header(T::Object, 0)?;
                self.str_block(o.class.raw())?;
                self.u32(n)
            }
            other => self.put_owned_leaf(other),
        }
    }

    /// A value that holds no others.
    fn put_owned_leaf(&mut self, v: &Variant) -> Result<()> {
        use Variant as V;
        match v {
            V::Nil => self.header(T::Nil, 0),
            V::Bool(b) => {
                self.header(T::Bool, 0)?;
                self.u32(*b as u32)
            }
            V::Int(i) => self.put_int(*i),
            V::Float(f) => self.put_float(*f),
            V::String(s) => {
                self.header(T::String, 0)?;
                self.str_block(s.raw())
            }
            V::StringName(s) => {
                self.header(T::StringName, 0)?;
                self.str_block(s.raw())
            }
            V::Vector2(x, p) => self.put_reals(T::Vector2, x, *p),
            V::Rect2(x, p) => self.put_reals(T::Rect2, x, *p),
            V::Vector3(x, p) => self.put_reals(T::Vector3, x, *p),
            V::Transform2D(x, p) => self.put_reals(T::Transform2D, &**x, *p),
            V::Vector4(x, p) => self.put_reals(T::Vector4, x, *p),
            V::Plane(x, p) => self.put_reals(T::Plane, x, *p),
            V::Quaternion(x, p) => self.put_reals(T::Quaternion, x, *p),
            V::Aabb(x, p) => self.put_reals(T::Aabb, &**x, *p),
            V::Basis(x, p) => self.put_reals(T::Basis, &**x, *p),
            V::Transform3D(x, p) => self.put_reals(T::Transform3D, &**x, *p),
            V::Projection(x, p) => self.put_reals(T::Projection, &**x, *p),
            V::Vector2i(x) => self.put_ints(T::Vector2i, &[x.x, x.y]),
            V::Vector3i(x) => self.put_ints(T::Vector3i, &[x.x, x.y, x.z]),
            V::Vector4i(x) => self.put_ints(T::Vector4i, &[x.x, x.y, x.z, x.w]),
            V::Rect2i(r) => {
                let c = [r.position.x, r.position.y, r.size.x, r.size.y];
                self.put_ints(T::Rect2i, &c)
            }
            V::Color(c) => self.put_color(*c),
            V::NodePath(p) => {
                let names = self.count(p.names().len())?;
                let subnames = self.count(p.subnames().len())?;
                // The absolute bit as sent, like `Writer::value`.
                self.node_path_head(names, subnames, p.flags() & 1 != 0)?;
                p.parts()
                    .iter()
                    .try_for_each(|part| self.str_block(part.raw()))
            }
            V::Rid(id) => self.put_rid(id.unwrap_or(0)),
            V::Object(Object::Id(id)) => self.put_object_id(*id),
            V::Object(Object::Null) => self.header(T::Nil, 0),
            V::Callable => self.header(T::Callable, 0),
            V::Signal(s) => {
                self.header(T::Signal, 0)?;
                self.str_block(s.name.raw())?;
                self.u64(s.object_id)
            }
            V::PackedByteArray(b) => self.put_packed_raw(T::PackedByteArray, 0, b.len(), b),
            V::PackedInt32Array(a) => self.owned_packed(T::PackedInt32Array, a, |v, out| {
                out.copy_from_slice(&v.to_le_bytes())
            }),
            V::PackedInt64Array(a) => self.owned_packed(T::PackedInt64Array, a, |v, out| {
                out.copy_from_slice(&v.to_le_bytes())
            }),
            V::PackedFloat32Array(a) => self.owned_packed(T::PackedFloat32Array, a, |v, out| {
                out.copy_from_slice(&v.to_le_bytes())
            }),
            V::PackedFloat64Array(a) => self.owned_packed(T::PackedFloat64Array, a, |v, out| {
                out.copy_from_slice(&v.to_le_bytes())
            }),
            V::PackedColorArray(a) => self.owned_packed(T::PackedColorArray, a, |c, out| {
                for (chunk, c) in out.chunks_exact_mut(4).zip(c) {
                    chunk.copy_from_slice(&c.to_le_bytes());
                }
            }),
            V::PackedVector2iArray(a) => self.owned_packed(T::PackedVector2iArray, a, put_i32s),
            V::PackedVector3iArray(a) => self.owned_packed(T::PackedVector3iArray, a, put_i32s),
            V::PackedVector4iArray(a) => self.owned_packed(T::PackedVector4iArray, a, put_i32s),
            V::PackedVector2Array(a) => self.owned_vectors(T::PackedVector2Array, a),
            V::PackedVector3Array(a) => self.owned_vectors(T::PackedVector3Array, a),
            V::PackedVector4Array(a) => self.owned_vectors(T::PackedVector4Array, a),
            V::PackedStringArray(a) => {
                let n = self.count(a.len())?;
                self.header(T::PackedStringArray, 0)?;
                self.u32(n)?;
                a.iter().try_for_each(|s| {
                    // Engine bytes carry the NUL in the length; add it where missing.
                    let raw = s.raw();
                    self.packed_string(raw, raw.last() != Some(&0))
                })
            }
            // Containers are written by `variant` through their heads.
            V::Array(_) | V::Dictionary(_) | V::Object(Object::Full(_)) => self.put_owned_head(v),
        }
    }

    fn owned_packed<E>(
        &mut self,
        ty: VariantType,
        items: &[E],
        encode: fn(&E, &mut [u8]),
    ) -> Result<()> {
        let size = core::mem::size_of::<E>();
        self.put_packed(ty, 0, items, size, encode).map(drop)
    }

    fn owned_vectors<const N: usize>(
        &mut self,
        ty: VariantType,
        a: &PackedVectors<N>,
    ) -> Result<()> {
        match a {
            // The `f32` bits as they are (a signalling NaN stays one; a round trip through
            // `f64` would quiet it).
            PackedVectors::Single(v) => self
                .put_packed(ty, 0, v, 4 * N, |c: &[f32; N], out: &mut [u8]| {
                    for (chunk, c) in out.chunks_exact_mut(4).zip(c) {
                        chunk.copy_from_slice(&c.to_le_bytes());
                    }
                })
                .map(drop),
            PackedVectors::Double(v) if self.dialect().math_follows_flag_64() => self
                .put_packed(ty, FLAG_64, v, 8 * N, |c: &[f64; N], out: &mut [u8]| {
                    for (chunk, c) in out.chunks_exact_mut(8).zip(c) {
                        chunk.copy_from_slice(&c.to_le_bytes());
                    }
                })
                .map(drop),
            PackedVectors::Double(v) => {
                self.put_packed_reals::<f64, N, _>(ty, v, Precision::Single)
            }
        }
    }
}

fn elem(t: &ElementType) -> ContainerType<'_> {
    // Only the bytes are written (and checked by the writer for its dialect).
    let text = |raw| StrRef::new(raw, crate::TextRules::Godot3);
    match t {
        ElementType::Builtin(ty) => ContainerType::Builtin(*ty),
        ElementType::UnknownBuiltin(id) => ContainerType::UnknownBuiltin(*id),
        ElementType::ClassName(s) => ContainerType::ClassName(text(s.raw())),
        ElementType::Script(s) => ContainerType::Script(text(s.raw())),
    }
}

impl Variant {
    /// Encodes the value into a new `Vec` in `dialect`, full objects and typed-container
    /// classes kept (as [`crate::to_vec`] does for views). See [`Writer::variant`].
    ///
    /// ```
    /// use gdwire::owned::Variant;
    /// use gdwire::Dialect;
    /// assert_eq!(Variant::from("asd").to_vec(Dialect::GODOT_4)?, [
    ///     4, 0, 0, 0, 3, 0, 0, 0, b'a', b's', b'd', 0,
    /// ]);
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn to_vec(&self, dialect: Dialect) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        let mut w = Writer::new(&mut out, dialect).with_full_objects(true);
        w.variant(self)?;
        w.finish()?;
        Ok(out)
    }

    /// Encodes the value into `buf` and returns the length written; never writes past the
    /// end (too small: [`ErrorKind::BufferFull`] with the length needed). As
    /// [`crate::to_slice`] does for views.
    ///
    /// ```
    /// use gdwire::owned::Variant;
    /// use gdwire::{Dialect, ErrorKind};
    /// let mut buf = [0u8; 8];
    /// assert_eq!(Variant::from(true).to_slice(Dialect::GODOT_3, &mut buf)?, 8);
    /// let err = Variant::from("asd").to_slice(Dialect::GODOT_3, &mut buf).unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::BufferFull { needed: 12 });
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn to_slice(&self, dialect: Dialect, buf: &mut [u8]) -> Result<usize> {
        let mut w = Writer::new(buf, dialect).with_full_objects(true);
        w.variant(self)?;
        w.finish()
    }

    /// The length [`Variant::to_vec`] would write; no output.
    ///
    /// ```
    /// use gdwire::owned::Variant;
    /// assert_eq!(Variant::from(1i64 << 40).encoded_len(gdwire::Dialect::GODOT_4)?, 12);
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn encoded_len(&self, dialect: Dialect) -> Result<usize> {
        let mut w = Writer::new(CountingSink::new(), dialect).with_full_objects(true);
        w.variant(self)?;
        w.finish()
    }
}
