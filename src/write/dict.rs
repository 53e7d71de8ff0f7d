//! Dictionaries: untyped and typed (Godot 4.4+).

use crate::error::Result;
use crate::header::Header;
use crate::read::ContainerType;
use crate::variant_type::VariantType;
use crate::write::container_type::ContainerTypeSpec;
use crate::write::sink::Sink;
use crate::write::writer::Writer;

use VariantType as T;

impl<S: Sink> Writer<S> {
    /// Starts an untyped Dictionary of `len` entries: then `len` × (key, value).
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.begin_dictionary(1)?;
    /// w.string("hp")?; // key
    /// w.int(100)?; // value
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "{\n\"hp\": 100\n}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn begin_dictionary(&mut self, len: usize) -> Result<()> {
        self.guard(|w| {
            let depth = w.item()?;
            let n = w.count(len)?;
            w.dict_head(n, None, None)?;
            w.open(depth, n * 2, false)
        })
    }

    /// Starts a typed Dictionary (Godot 4.4+: header bits 16–19 and type blocks, docs/wire-format.md §4.9).
    /// Elsewhere an untyped Dictionary is written. `Builtin(Nil)` leaves that side untyped.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// use gdwire::{ContainerTypeSpec, VariantType};
    /// let (s, i) = (ContainerTypeSpec::Builtin(VariantType::String), ContainerTypeSpec::Builtin(VariantType::Int));
    /// w.begin_typed_dictionary(1, s, i)?;
    /// w.string("hp")?;
    /// w.int(100)?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "Dictionary[String, int]({\n\"hp\": 100\n})");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn begin_typed_dictionary(
        &mut self,
        len: usize,
        key: ContainerTypeSpec<'_>,
        value: ContainerTypeSpec<'_>,
    ) -> Result<()> {
        self.guard(|w| {
            let (key, value) = (w.checked_spec(key)?, w.checked_spec(value)?);
            w.dictionary_of(len, key, value)
        })
    }

    /// Starts a Dictionary whose sides may be typed with what [`ContainerTypeSpec`] cannot
    /// name (an id, a class name that is not UTF-8, `Object` as a builtin id): JSON input can.
    pub(crate) fn dictionary_of(
        &mut self,
        len: usize,
        key: Option<ContainerType<'_>>,
        value: Option<ContainerType<'_>>,
    ) -> Result<()> {
        self.guard(|w| {
            let depth = w.item()?;
            let n = w.count(len)?;
            w.dict_head(n, key, value)?;
            w.open(depth, n * 2, false)
        })
    }

    pub(crate) fn dict_head(
        &mut self,
        n: u32,
        key: Option<ContainerType<'_>>,
        value: Option<ContainerType<'_>>,
    ) -> Result<()> {
        if self.dialect.has_typed_dictionaries() && (key.is_some() || value.is_some()) {
            let (kk, kb) = self.type_block(key)?;
            let (vk, vb) = self.type_block(value)?;
            self.header(T::Dictionary, Header::with_dict_kinds(0, kk, vk).0)?;
            self.put_block(kb)?;
            self.put_block(vb)?;
            return self.u32(n);
        }
        self.header_u32(T::Dictionary, 0, n)
    }
}
