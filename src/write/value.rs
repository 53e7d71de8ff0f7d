//! `Writer::value`: re-encoding a decoded view.

use crate::error::{ErrorKind, Result};
use crate::read::decoder::Decoder;
use crate::read::head::{quick_container, read_value, Next};
use crate::read::items::Items;
use crate::read::quick_leaf;
use crate::read::skip::{traverse, Visit};
use crate::read::{ArrayKind, ObjectRef, VariantRef, MAX_DEPTH};
use crate::variant_type::VariantType;
use crate::write::copy::canonical_end;
use crate::write::sink::Sink;
use crate::write::writer::Writer;

use VariantType as T;

impl<S: Sink> Writer<S> {
    /// Re-encodes a decoded view as one item, in this writer's dialect (so a view can also be
    /// transcoded between dialects; a type the dialect lacks is [`ErrorKind::Unsupported`]).
    ///
    /// Each math value and packed vector array keeps the precision it was read with (where
    /// the dialect has the 64-bit flag); strings are written from their raw bytes; NodePath
    /// pads are zeros; an object with id 0 or an empty class is written as Nil; full objects
    /// need [`Writer::with_full_objects`]; typed container classes follow the full-objects
    /// rule of [`Writer::with_full_objects`]. So engine-made bytes re-encode byte for byte
    /// (NodePath pads aside).
    ///
    /// A validated container (from `decode`, `Cursor::read` or their iterators) whose bytes
    /// are already what this writer would write in the same dialect is copied as it stands;
    /// anything else is re-encoded item by item in one linear pass over its bytes (the
    /// reader's traversal, `read/skip.rs`), whose nesting stack continues in a nested call
    /// every 32 levels with items pending. Depth above 1024 is [`ErrorKind::TooDeep`].
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// // Re-encode a decoded value inside a new array.
    /// let old = from_bytes(Dialect::GODOT_4, &[2, 0, 0, 0, 7, 0, 0, 0])?;
    /// w.begin_array(1)?;
    /// w.value(&old)?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "[7]");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn value(&mut self, v: &VariantRef<'_>) -> Result<()> {
        self.guard(|w| {
            let depth = w.item()?;
            match v.items() {
                Some(items) => w.put_container_view(items, depth),
                None if depth > MAX_DEPTH => Err(w.err(ErrorKind::TooDeep { limit: MAX_DEPTH })),
                None => w.put_view_head(v),
            }
        })
    }

    /// Writes the container whose items are `items`, as an item at nesting `depth`.
    fn put_container_view(&mut self, items: &Items<'_>, depth: u32) -> Result<()> {
        // Copy when the bytes are canonical and no depth can exceed the writer's limit:
        // the container's decode depth is `items.depth - 1` and its contents were checked
        // against `max_depth` counted from the decode's root.
        let decoded_at = items.depth.saturating_sub(1);
        let deepest = u64::from(depth) + u64::from(items.dec.max_depth()) - u64::from(decoded_at);
        if items.checked
            && items.dec.dialect() == self.dialect
            && deepest <= u64::from(MAX_DEPTH)
            && !self.force_streaming()
        {
            if let Some(end) = canonical_end(items) {
                return self.bytes(&items.data[items.header..end]);
            }
        }
        // The limit is the writer's (checked per value in `Reencode`), not the decoder's.
        let dec = items.dec.with_max_depth(u32::MAX);
        let mut visit = Reencode { w: self };
        traverse(&dec, items.data, items.header, depth, &mut visit)?;
        Ok(())
    }

    /// Writes a view's header and, for a container, everything up to its items (which
    /// follow in the traversal).
    pub(super) fn put_view_head(&mut self, v: &VariantRef<'_>) -> Result<()> {
        use VariantRef as V;
        match *v {
            V::Nil => self.header(T::Nil, 0)?,
            V::Bool(b) => {
                self.header(T::Bool, 0)?;
                self.u32(b as u32)?;
            }
            V::Int(i) => self.put_int(i)?,
            V::Float(f) => self.put_float(f)?,
            V::String(s) => {
                self.header(T::String, 0)?;
                self.str_block(s.raw())?;
            }
            V::StringName(s) => {
                self.header(T::StringName, 0)?;
                self.str_block(s.raw())?;
            }
            V::Vector2(x) => self.put_reals(T::Vector2, &x.get(), x.precision())?,
            V::Rect2(x) => self.put_reals(T::Rect2, &x.get(), x.precision())?,
            V::Vector3(x) => self.put_reals(T::Vector3, &x.get(), x.precision())?,
            V::Transform2D(x) => self.put_reals(T::Transform2D, &x.get(), x.precision())?,
            V::Vector4(x) => self.put_reals(T::Vector4, &x.get(), x.precision())?,
            V::Plane(x) => self.put_reals(T::Plane, &x.get(), x.precision())?,
            V::Quaternion(x) => self.put_reals(T::Quaternion, &x.get(), x.precision())?,
            V::Aabb(x) => self.put_reals(T::Aabb, &x.get(), x.precision())?,
            V::Basis(x) => self.put_reals(T::Basis, &x.get(), x.precision())?,
            V::Transform3D(x) => self.put_reals(T::Transform3D, &x.get(), x.precision())?,
            V::Projection(x) => self.put_reals(T::Projection, &x.get(), x.precision())?,
            V::Vector2i(x) => self.put_ints(T::Vector2i, &[x.x, x.y])?,
            V::Vector3i(x) => self.put_ints(T::Vector3i, &[x.x, x.y, x.z])?,
            V::Vector4i(x) => self.put_ints(T::Vector4i, &[x.x, x.y, x.z, x.w])?,
            V::Rect2i(r) => {
                let c = [r.position.x, r.position.y, r.size.x, r.size.y];
                self.put_ints(T::Rect2i, &c)?
            }
            V::Color(c) => self.put_color(c)?,
            V::NodePath(p) => self.put_node_path_view(&p)?,
            V::Rid(id) => self.put_rid(id.unwrap_or(0))?,
            V::Object(ObjectRef::Id(id)) => self.put_object_id(id)?,
            V::Object(ObjectRef::Null) => self.header(T::Nil, 0)?,
            V::Object(ObjectRef::Full(obj)) => {
                if !self.full_objects {
                    return Err(self.err(ErrorKind::FullObjectsDisabled));
                }
                if obj.class().bytes().is_empty() {
                    return Err(self.err(ErrorKind::EmptyClassName));
                }
                let n = self.count(obj.len())?;
                self.header(T::Object, 0)?;
                self.str_block(obj.class().raw())?;
                self.u32(n)?;
            }
            V::Callable => self.header(T::Callable, 0)?,
            V::Signal(s) => {
                self.header(T::Signal, 0)?;
                self.str_block(s.name().raw())?;
                self.u64(s.object_id())?;
            }
            V::Dictionary(d) => {
                let n = self.count(d.len())?;
                let key = d.key_type();
                let value = d.value_type();
                self.dict_head(n, key, value)?;
            }
            V::Array(a) => {
                let n = self.count(a.len())?;
                let elem = a.element_type();
                let preferred = match a.kind() {
                    ArrayKind::Array => T::Array,
                    ArrayKind::TypedArray => T::TypedArray,
                    ArrayKind::PackedTypedArray => T::PackedTypedArray,
                };
                self.array_head(preferred, n, elem)?;
            }
            V::PackedByteArray(p) => {
                self.put_packed_raw(T::PackedByteArray, 0, p.len(), p.as_bytes())?
            }
            V::PackedInt32Array(p) => {
                self.put_packed_raw(T::PackedInt32Array, 0, p.len(), p.as_bytes())?
            }
            V::PackedInt64Array(p) => {
                self.put_packed_raw(T::PackedInt64Array, 0, p.len(), p.as_bytes())?
            }
            V::PackedFloat32Array(p) => {
                self.put_packed_raw(T::PackedFloat32Array, 0, p.len(), p.as_bytes())?
            }
            V::PackedFloat64Array(p) => {
                self.put_packed_raw(T::PackedFloat64Array, 0, p.len(), p.as_bytes())?
            }
            V::PackedColorArray(p) => {
                self.put_packed_raw(T::PackedColorArray, 0, p.len(), p.as_bytes())?
            }
            V::PackedVector2iArray(p) => {
                self.put_packed_raw(T::PackedVector2iArray, 0, p.len(), p.as_bytes())?
            }
            V::PackedVector3iArray(p) => {
                self.put_packed_raw(T::PackedVector3iArray, 0, p.len(), p.as_bytes())?
            }
            V::PackedVector4iArray(p) => {
                self.put_packed_raw(T::PackedVector4iArray, 0, p.len(), p.as_bytes())?
            }
            V::PackedVector2Array(p) => self.put_packed_reals_view(T::PackedVector2Array, &p)?,
            V::PackedVector3Array(p) => self.put_packed_reals_view(T::PackedVector3Array, &p)?,
            V::PackedVector4Array(p) => self.put_packed_reals_view(T::PackedVector4Array, &p)?,
            V::PackedStringArray(s) => {
                let n = self.count(s.len())?;
                self.header(T::PackedStringArray, 0)?;
                self.u32(n)?;
                for item in s.iter() {
                    // Engine bytes carry the NUL in the length; add it where missing.
                    let raw = item.raw();
                    self.packed_string(raw, raw.last() != Some(&0))?;
                }
            }
        }
        Ok(())
    }
}

/// The re-encoding visitor: each value read from the source (trusted: it was validated, or
/// is a walker's view whose text the writer checks anyway) and written at once.
struct Reencode<'w, S: Sink> {
    w: &'w mut Writer<S>,
}

impl<'a, S: Sink> Visit<'a> for Reencode<'_, S> {
    #[inline]
    fn value(&mut self, dec: &Decoder, data: &'a [u8], pos: usize, depth: u32) -> Result<Next> {
        if depth > MAX_DEPTH {
            return Err(self.w.err(ErrorKind::TooDeep { limit: MAX_DEPTH }));
        }
        if let Some((v, end)) = quick_leaf(dec, data, pos, false) {
            // The commonest leaves without the general `put_view_head` (a large function
            // whose frame setup costs as much as writing an int).
            match v {
                VariantRef::Int(i) => self.w.put_int(i)?,
                VariantRef::Float(f) => self.w.put_float(f)?,
                VariantRef::String(s) => {
                    self.w.header(T::String, 0)?;
                    self.w.str_block(s.raw())?;
                }
                _ => self.w.put_view_head(&v)?,
            }
            return Ok(Next::Leaf(end));
        }
        if let Some((v, next)) = quick_container(dec, data, pos, depth) {
            self.w.put_view_head(&v)?;
            return Ok(next);
        }
        let mut next = Next::Leaf(pos);
        let v = read_value(dec, data, pos, depth, false, &mut next)?;
        self.w.put_view_head(&v)?;
        Ok(next)
    }

    #[inline]
    fn name(&mut self, dec: &Decoder, data: &'a [u8], pos: usize) -> Result<usize> {
        let rules = dec.dialect().text_rules();
        let (name, end) = crate::read::input::string_block(data, pos, rules, false)?;
        self.w.str_block(name.raw())?;
        self.w.property_named(name.raw());
        Ok(end)
    }
}
