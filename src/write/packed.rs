//! Packed arrays: from slices and iterators, from encoded element bytes, from views.

use core::borrow::Borrow;

use crate::error::{ErrorKind, Result};
use crate::float_width::narrow;
use crate::header::FLAG_64;
use crate::math::Precision;
use crate::read::input::pad4;
use crate::read::PackedReals;
use crate::variant_type::VariantType;
use crate::write::math::Real;
use crate::write::primitives::MAX_LEN;
use crate::write::sink::Sink;
use crate::write::writer::Writer;

use VariantType as T;

impl<S: Sink> Writer<S> {
    /// A PackedByteArray (PoolByteArray), zero-padded to 4 bytes.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.packed_bytes(&[1, 2, 3])?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "PackedByteArray(1, 2, 3)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn packed_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        self.leaf(|w| w.put_packed_raw(T::PackedByteArray, 0, bytes.len(), bytes))
    }

    /// A PackedByteArray from an iterator of known length.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.packed_bytes_iter((1..=3u8).rev())?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "PackedByteArray(3, 2, 1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn packed_bytes_iter<I>(&mut self, items: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<u8>,
        I::IntoIter: ExactSizeIterator,
    {
        self.leaf(|w| {
            let len = w.put_packed(T::PackedByteArray, 0, items, 1, |b: &u8, out| out[0] = *b)?;
            w.pad(len)
        })
    }

    /// A PackedInt32Array (PoolIntArray), from a slice or any iterator of known length.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.packed_i32([1, -1])?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "PackedInt32Array(1, -1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn packed_i32<I>(&mut self, items: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<i32>,
        I::IntoIter: ExactSizeIterator,
    {
        self.leaf(|w| {
            w.put_packed(T::PackedInt32Array, 0, items, 4, |v: &i32, out| {
                out.copy_from_slice(&v.to_le_bytes())
            })
            .map(drop)
        })
    }

    /// A PackedInt64Array (Godot 4).
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.packed_i64([1i64 << 40])?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "PackedInt64Array(1099511627776)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn packed_i64<I>(&mut self, items: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<i64>,
        I::IntoIter: ExactSizeIterator,
    {
        self.leaf(|w| {
            w.put_packed(T::PackedInt64Array, 0, items, 8, |v: &i64, out| {
                out.copy_from_slice(&v.to_le_bytes())
            })
            .map(drop)
        })
    }

    /// A PackedFloat32Array (PoolRealArray); always `f32`.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.packed_f32([0.5f32, 2.0])?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "PackedFloat32Array(0.5, 2)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn packed_f32<I>(&mut self, items: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<f32>,
        I::IntoIter: ExactSizeIterator,
    {
        self.leaf(|w| {
            w.put_packed(T::PackedFloat32Array, 0, items, 4, |v: &f32, out| {
                out.copy_from_slice(&v.to_le_bytes())
            })
            .map(drop)
        })
    }

    /// A PackedFloat64Array (Godot 4).
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.packed_f64([0.1f64])?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "PackedFloat64Array(0.1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn packed_f64<I>(&mut self, items: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<f64>,
        I::IntoIter: ExactSizeIterator,
    {
        self.leaf(|w| {
            w.put_packed(T::PackedFloat64Array, 0, items, 8, |v: &f64, out| {
                out.copy_from_slice(&v.to_le_bytes())
            })
            .map(drop)
        })
    }

    /// A PackedStringArray (PoolStringArray): each element's length counts a NUL terminator
    /// that is written, then zero padding, like the engine.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.packed_strings(["a", "b"])?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "PackedStringArray(\"a\", \"b\")");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn packed_strings<I>(&mut self, items: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
        I::IntoIter: ExactSizeIterator,
    {
        self.leaf(|w| {
            let mut items = items.into_iter();
            let n = w.count(items.len())?;
            w.header_u32(T::PackedStringArray, 0, n)?;
            for _ in 0..n {
                let s = items
                    .next()
                    .ok_or_else(|| w.err(ErrorKind::MissingItems { count: n }))?;
                w.packed_block(s.as_ref().as_bytes(), true)?;
            }
            if items.next().is_some() {
                return Err(w.err(ErrorKind::TooManyItems));
            }
            Ok(())
        })
    }

    /// A PackedVector2Array from `[x, y]` items of `f32` or `f64`, written with the writer's
    /// [`Writer::precision`].
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.packed_vector2([[1.0f32, 2.0]])?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "PackedVector2Array(1, 2)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn packed_vector2<R: Real, I>(&mut self, items: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<[R; 2]>,
        I::IntoIter: ExactSizeIterator,
    {
        self.packed_reals_in(T::PackedVector2Array, items, self.precision())
    }

    /// A PackedVector3Array from `[x, y, z]` items, written with the writer's precision.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.packed_vector3([[1.0f32, 2.0, 3.0]])?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "PackedVector3Array(1, 2, 3)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn packed_vector3<R: Real, I>(&mut self, items: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<[R; 3]>,
        I::IntoIter: ExactSizeIterator,
    {
        self.packed_reals_in(T::PackedVector3Array, items, self.precision())
    }

    /// A PackedVector4Array (Godot 4.3+, Pandemonium 3.8+ `PoolVector4Array`), written with
    /// the writer's precision.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.packed_vector4([[1.0f32, 2.0, 3.0, 4.0]])?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "PackedVector4Array(1, 2, 3, 4)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn packed_vector4<R: Real, I>(&mut self, items: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<[R; 4]>,
        I::IntoIter: ExactSizeIterator,
    {
        self.packed_reals_in(T::PackedVector4Array, items, self.precision())
    }

    /// A PackedColorArray from `[r, g, b, a]` items; always `f32`.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.packed_color([[1.0, 0.5, 0.0, 1.0]])?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "PackedColorArray(1, 0.5, 0, 1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn packed_color<I>(&mut self, items: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<[f32; 4]>,
        I::IntoIter: ExactSizeIterator,
    {
        self.packed_ints_or_colors(T::PackedColorArray, items, |c: &[f32; 4], out| {
            for (chunk, c) in out.chunks_exact_mut(4).zip(c) {
                chunk.copy_from_slice(&c.to_le_bytes());
            }
        })
    }

    /// A Pandemonium PoolVector2iArray.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantType, Writer};
    /// // Pandemonium 3.8+ has integer vector pool arrays; Godot has none.
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::PANDEMONIUM_3_8);
    /// w.packed_vector2i([[1, 2], [3, 4]])?;
    /// w.finish()?;
    /// let v = from_bytes(Dialect::PANDEMONIUM_3_8, &out)?;
    /// assert_eq!(v.variant_type(), VariantType::PackedVector2iArray);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn packed_vector2i<I>(&mut self, items: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<[i32; 2]>,
        I::IntoIter: ExactSizeIterator,
    {
        self.packed_ints_or_colors(T::PackedVector2iArray, items, put_i32s::<2>)
    }

    /// A Pandemonium PoolVector3iArray.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantType, Writer};
    /// // Pandemonium 3.8+ has integer vector pool arrays; Godot has none.
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::PANDEMONIUM_3_8);
    /// w.packed_vector3i([[1, 2, 3]])?;
    /// w.finish()?;
    /// let v = from_bytes(Dialect::PANDEMONIUM_3_8, &out)?;
    /// assert_eq!(v.variant_type(), VariantType::PackedVector3iArray);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn packed_vector3i<I>(&mut self, items: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<[i32; 3]>,
        I::IntoIter: ExactSizeIterator,
    {
        self.packed_ints_or_colors(T::PackedVector3iArray, items, put_i32s::<3>)
    }

    /// A Pandemonium 3.8+ PoolVector4iArray. The true `w` is written; the Pandemonium encoder
    /// writes `z` in that slot and its decoder reads `w` from the `z` slot (docs/wire-format.md
    /// §4.12), so the engine sees `w == z` either way.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantType, Writer};
    /// // Pandemonium 3.8+ has integer vector pool arrays; Godot has none.
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::PANDEMONIUM_3_8);
    /// w.packed_vector4i([[1, 2, 3, 4]])?;
    /// w.finish()?;
    /// let v = from_bytes(Dialect::PANDEMONIUM_3_8, &out)?;
    /// assert_eq!(v.variant_type(), VariantType::PackedVector4iArray);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn packed_vector4i<I>(&mut self, items: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<[i32; 4]>,
        I::IntoIter: ExactSizeIterator,
    {
        self.packed_ints_or_colors(T::PackedVector4iArray, items, put_i32s::<4>)
    }

    /// Header, count and elements of a fixed-size packed array; returns the byte length of
    /// the elements.
    pub(crate) fn put_packed<E: ?Sized, I>(
        &mut self,
        ty: VariantType,
        flags: u32,
        items: I,
        size: usize,
        encode: impl Fn(&E, &mut [u8]),
    ) -> Result<usize>
    where
        I: IntoIterator,
        I::Item: Borrow<E>,
        I::IntoIter: ExactSizeIterator,
    {
        let mut items = items.into_iter();
        let n = items.len();
        let total = self.packed_len(n, size)?;
        self.header_u32(ty, flags, n as u32)?;
        // Elements are encoded a buffer at a time (a tight loop over fixed-size slots, which
        // the compiler unrolls and vectorises), then handed to the sink in one write. Small
        // arrays get a small buffer: zeroing 2 KiB cost more than encoding a few elements.
        let mut small = [0u8; 256];
        let mut large;
        let buf: &mut [u8] = if total <= small.len() {
            &mut small
        } else {
            large = [0u8; 2048];
            &mut large
        };
        let per_buf = buf.len() / size;
        let mut done = 0;
        while done < n {
            let k = per_buf.min(n - done);
            for (i, slot) in buf[..k * size].chunks_exact_mut(size).enumerate() {
                let Some(item) = items.next() else {
                    let count = (n - done - i) as u32;
                    return Err(self.err(ErrorKind::MissingItems { count }));
                };
                encode(item.borrow(), slot);
            }
            self.bytes(&buf[..k * size])?;
            done += k;
        }
        if items.next().is_some() {
            return Err(self.err(ErrorKind::TooManyItems));
        }
        Ok(total)
    }

    pub(super) fn packed_len(&self, n: usize, size: usize) -> Result<usize> {
        if n > MAX_LEN {
            return Err(self.err(ErrorKind::TooLong { len: n }));
        }
        match n.checked_mul(size) {
            Some(total) if total <= MAX_LEN => Ok(total),
            _ => {
                let kind = ErrorKind::SizeOverflow {
                    count: n as u32,
                    size: size as u32,
                };
                Err(self.err(kind))
            }
        }
    }

    /// A packed array whose element bytes are already encoded.
    pub(crate) fn put_packed_raw(
        &mut self,
        ty: VariantType,
        flags: u32,
        n: usize,
        b: &[u8],
    ) -> Result<()> {
        self.packed_len(n, b.len().checked_div(n).unwrap_or(1))?;
        let pad = if ty == T::PackedByteArray {
            pad4(b.len())
        } else {
            0
        };
        self.header_block(ty, flags, n as u32, b, pad)
    }

    /// A packed vector array in precision `p`: the writer's, or that of input that carries
    /// its own (JSON's `"precision"`); single where the dialect has no 64-bit flag.
    pub(crate) fn packed_reals_in<R: Real, const N: usize, I>(
        &mut self,
        ty: VariantType,
        items: I,
        p: Precision,
    ) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<[R; N]>,
        I::IntoIter: ExactSizeIterator,
    {
        let p = self.precision_of(p);
        self.leaf(|w| w.put_packed_reals::<R, N, I>(ty, items, p))
    }

    /// A PackedStringArray of string blocks as they are sent (a `GString`'s raw bytes), each
    /// checked for this dialect's reader; the engine's terminating NUL is added where missing,
    /// as for views and owned values.
    #[cfg(feature = "serde")]
    pub(crate) fn packed_string_blocks<B: AsRef<[u8]>>(&mut self, items: &[B]) -> Result<()> {
        self.leaf(|w| {
            let n = w.count(items.len())?;
            w.header_u32(T::PackedStringArray, 0, n)?;
            for s in items {
                let s = s.as_ref();
                w.packed_string(s, s.last() != Some(&0))?;
            }
            Ok(())
        })
    }

    /// A PackedStringArray of byte strings, each checked for this dialect's reader (the
    /// engine's terminating NUL is added).
    #[cfg(feature = "json")]
    pub(crate) fn packed_string_bytes<B: AsRef<[u8]>>(&mut self, items: &[B]) -> Result<()> {
        self.leaf(|w| {
            let n = w.count(items.len())?;
            w.header_u32(T::PackedStringArray, 0, n)?;
            for s in items {
                w.packed_string(s.as_ref(), true)?;
            }
            Ok(())
        })
    }

    pub(crate) fn put_packed_reals<R: Real, const N: usize, I>(
        &mut self,
        ty: VariantType,
        items: I,
        p: Precision,
    ) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<[R; N]>,
        I::IntoIter: ExactSizeIterator,
    {
        match p {
            Precision::Single => self.put_packed(ty, 0, items, 4 * N, |v: &[R; N], out| {
                for (chunk, c) in out.chunks_exact_mut(4).zip(v) {
                    chunk.copy_from_slice(&narrow(c.to_f64()).to_le_bytes());
                }
            }),
            Precision::Double => self.put_packed(ty, FLAG_64, items, 8 * N, |v: &[R; N], out| {
                for (chunk, c) in out.chunks_exact_mut(8).zip(v) {
                    chunk.copy_from_slice(&c.to_f64().to_le_bytes());
                }
            }),
        }
        .map(drop)
    }

    pub(super) fn packed_ints_or_colors<E: Copy, const N: usize, I>(
        &mut self,
        ty: VariantType,
        items: I,
        encode: fn(&[E; N], &mut [u8]),
    ) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Borrow<[E; N]>,
        I::IntoIter: ExactSizeIterator,
    {
        self.leaf(|w| w.put_packed(ty, 0, items, 4 * N, encode).map(drop))
    }

    pub(super) fn put_packed_reals_view<const N: usize>(
        &mut self,
        ty: VariantType,
        p: &PackedReals<'_, N>,
    ) -> Result<()> {
        let flag64 = self.dialect.math_follows_flag_64();
        match p {
            PackedReals::Single(s) => self.put_packed_raw(ty, 0, s.len(), s.as_bytes()),
            PackedReals::Double(d) if flag64 => {
                self.put_packed_raw(ty, FLAG_64, d.len(), d.as_bytes())
            }
            PackedReals::Double(d) => {
                let items = d.iter();
                self.put_packed_reals::<f64, N, _>(ty, items, Precision::Single)
            }
        }
    }
}

pub(crate) fn put_i32s<const N: usize>(v: &[i32; N], out: &mut [u8]) {
    for (chunk, c) in out.chunks_exact_mut(4).zip(v) {
        chunk.copy_from_slice(&c.to_le_bytes());
    }
}
