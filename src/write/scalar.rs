//! Nil, bool, int, float and RID.

use crate::error::Result;
use crate::header::FLAG_64;
use crate::variant_type::VariantType;
use crate::write::sink::Sink;
use crate::write::writer::Writer;

use VariantType as T;

impl<S: Sink> Writer<S> {
    /// Nil (`null`).
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.nil()?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "null");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn nil(&mut self) -> Result<()> {
        self.leaf(|w| w.header(T::Nil, 0))
    }

    /// A bool.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.bool(true)?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "true");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn bool(&mut self, v: bool) -> Result<()> {
        self.leaf(|w| w.header_u32(T::Bool, 0, v as u32))
    }

    /// An int: `i32` when in `[-2^31, 2^31-1]`, else bit 16 + `i64` (docs/wire-format.md §3.2).
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.int(1 << 40)?; // 64-bit on the wire: header bit 16 set
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "1099511627776");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn int(&mut self, v: i64) -> Result<()> {
        self.leaf(|w| w.put_int(v))
    }

    /// A float: `f32` when `f64::from(v as f32) == v`, else bit 16 + `f64`, the engine's rule
    /// (docs/wire-format.md §3.3): NaN is always 64-bit, `-0.0` and `±inf` are 32-bit.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.float(0.1)?; // not exact in f32: written as f64
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "0.1");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn float(&mut self, v: f64) -> Result<()> {
        self.leaf(|w| w.put_float(v))
    }

    /// An RID. The id is written only where the dialect has an RID payload (Godot 4); in
    /// Godot 3 and Pandemonium an RID is a bare header and `id` is dropped.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.rid(5)?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "RID(5)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn rid(&mut self, id: u64) -> Result<()> {
        self.leaf(|w| w.put_rid(id))
    }

    #[inline]
    pub(crate) fn put_int(&mut self, v: i64) -> Result<()> {
        if v > i32::MAX as i64 || v < i32::MIN as i64 {
            self.header_u64(T::Int, FLAG_64, v as u64)
        } else {
            self.header_u32(T::Int, 0, v as i32 as u32)
        }
    }

    #[inline]
    pub(crate) fn put_float(&mut self, v: f64) -> Result<()> {
        let narrow = v as f32;
        #[allow(clippy::float_cmp)] // the engine's exact rule: double(float(d)) != d
        if narrow as f64 != v {
            self.header_u64(T::Float, FLAG_64, v.to_bits())
        } else {
            self.header_u32(T::Float, 0, narrow.to_bits())
        }
    }

    pub(crate) fn put_rid(&mut self, id: u64) -> Result<()> {
        if self.dialect.rid_has_payload() {
            self.header_u64(T::Rid, 0, id)
        } else {
            self.header(T::Rid, 0)
        }
    }
}
