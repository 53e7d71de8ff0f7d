//! Arrays: untyped, typed (Godot 4.3+) and Pandemonium 5 TypedArray / PackedTypedArray.

use crate::error::{ErrorKind, Result};
use crate::header::{Header, FLAG_OBJECT_AS_ID};
use crate::read::ContainerType;
use crate::variant_type::VariantType;
use crate::write::container_type::ContainerTypeSpec;
use crate::write::sink::Sink;
use crate::write::writer::Writer;

use VariantType as T;

impl<S: Sink> Writer<S> {
    /// Starts an untyped Array of `len` elements.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.begin_array(2)?;
    /// w.int(1)?;
    /// w.string("two")?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "[1, \"two\"]");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn begin_array(&mut self, len: usize) -> Result<()> {
        self.guard(|w| {
            let depth = w.item()?;
            let n = w.count(len)?;
            w.array_head(T::Array, n, None)?;
            w.open(depth, n, false)
        })
    }

    /// Starts a typed Array of `len` elements. Godot 4.3+: header bits 16–17 and a type block
    /// (docs/wire-format.md §4.10). Pandemonium 5: a `TypedArray` (docs/wire-format.md §4.12). Other dialects have no typed
    /// arrays: an untyped Array is written, as Godot 4.0–4.2 do.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// use gdwire::{ContainerTypeSpec, VariantType};
    /// w.begin_typed_array(2, ContainerTypeSpec::Builtin(VariantType::Int))?;
    /// w.int(1)?;
    /// w.int(2)?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "Array[int]([1, 2])");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn begin_typed_array(&mut self, len: usize, element: ContainerTypeSpec<'_>) -> Result<()> {
        self.typed_array(T::TypedArray, len, element)
    }

    /// Like [`Writer::begin_typed_array`], but a `PackedTypedArray` in Pandemonium 5.
    ///
    /// ```
    /// use gdwire::{from_bytes, ContainerTypeSpec, Dialect, VariantType, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::PANDEMONIUM_5);
    /// w.begin_packed_typed_array(2, ContainerTypeSpec::Builtin(VariantType::Int))?;
    /// w.int(1)?;
    /// w.int(2)?;
    /// w.finish()?;
    /// let array = from_bytes(Dialect::PANDEMONIUM_5, &out)?.as_array().unwrap();
    /// assert_eq!(array.len(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn begin_packed_typed_array(
        &mut self,
        len: usize,
        element: ContainerTypeSpec<'_>,
    ) -> Result<()> {
        self.typed_array(T::PackedTypedArray, len, element)
    }

    pub(super) fn typed_array(
        &mut self,
        pm: VariantType,
        len: usize,
        spec: ContainerTypeSpec,
    ) -> Result<()> {
        self.guard(|w| {
            let element = w.checked_spec(spec)?;
            w.array_of(pm, len, element)
        })
    }

    /// Starts an Array (`preferred`: `Array`, `TypedArray` or `PackedTypedArray`) whose element
    /// type may be what [`ContainerTypeSpec`] cannot name (an id, a class name that is not
    /// UTF-8, `Object` as a builtin id): JSON input can.
    pub(crate) fn array_of(
        &mut self,
        preferred: VariantType,
        len: usize,
        elem: Option<ContainerType<'_>>,
    ) -> Result<()> {
        self.guard(|w| {
            let depth = w.item()?;
            let n = w.count(len)?;
            w.array_head(preferred, n, elem)?;
            w.open(depth, n, false)
        })
    }

    /// Head of an array: `preferred` is `Array`, `TypedArray` or `PackedTypedArray`.
    pub(crate) fn array_head(
        &mut self,
        preferred: VariantType,
        n: u32,
        elem: Option<ContainerType<'_>>,
    ) -> Result<()> {
        let d = self.dialect;
        if let Some(elem) = elem {
            let pm = match preferred {
                T::PackedTypedArray => T::PackedTypedArray,
                _ => T::TypedArray,
            };
            if d.supports(pm) {
                return self.pm_typed_head(pm, n, elem);
            }
            if d.has_typed_arrays() {
                let (kind, block) = self.type_block(Some(elem))?;
                self.header(T::Array, Header::with_array_kind(0, kind).0)?;
                self.put_block(block)?;
                return self.u32(n);
            }
        }
        self.header_u32(T::Array, 0, n)
    }

    /// Pandemonium 5 TypedArray / PackedTypedArray head (docs/wire-format.md §4.12).
    pub(super) fn pm_typed_head(
        &mut self,
        ty: VariantType,
        n: u32,
        elem: ContainerType<'_>,
    ) -> Result<()> {
        let object =
            self.dialect
                .wire_id(T::Object)
                .ok_or_else(|| self.err(ErrorKind::Unsupported(T::Object)))? as u32;
        match elem {
            ContainerType::ClassName(name) if self.full_objects => {
                self.header(ty, 0)?;
                self.u32(object)?;
                self.header(T::StringName, 0)?;
                self.str_block(name.raw())?;
            }
            ContainerType::Builtin(T::Object)
            | ContainerType::ClassName(_)
            | ContainerType::Script(_) => {
                self.header(ty, FLAG_OBJECT_AS_ID)?;
                self.u32(object)?;
            }
            ContainerType::Builtin(t) => {
                let id = self
                    .dialect
                    .wire_id(t)
                    .ok_or_else(|| self.err(ErrorKind::Unsupported(t)))?;
                self.header(ty, 0)?;
                self.u32(id as u32)?;
            }
            ContainerType::UnknownBuiltin(id) => {
                self.header(ty, 0)?;
                self.u32(id)?;
            }
        }
        self.u32(n)
    }
}
