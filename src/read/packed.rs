//! Packed (pool) array views: O(1) to obtain, elements read on demand from the input.

use core::fmt;
use core::marker::PhantomData;

use zerocopy::little_endian::{F32, F64, I32, I64};
use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};

use crate::math::Precision;
use crate::read::str_ref::{StrRef, StrRun};

mod sealed {
    pub trait Sealed {}
}

/// An element type of a fixed-size packed array.
///
/// `Le` is its unaligned little-endian wire form (from `zerocopy`), usable at any offset on
/// any host.
///
/// ```
/// use gdwire::read::Element;
/// assert_eq!(<i64 as Element>::SIZE, 8);
/// assert_eq!(<[f32; 4] as Element>::SIZE, 16);
/// ```
pub trait Element: Copy + bytemuck::Pod + sealed::Sealed {
    /// Unaligned little-endian wire representation.
    ///
    /// ```
    /// use gdwire::read::Element;
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// let bytes = [30, 0, 0, 0, 1, 0, 0, 0, 1, 2, 0, 0]; // PackedInt32Array([513])
    /// let VariantRef::PackedInt32Array(ints) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
    /// let le: <i32 as Element>::Le = ints.as_le_slice()[0];
    /// assert_eq!(<i32 as Element>::from_le(le), 513);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    type Le: FromBytes + Unaligned + KnownLayout + Immutable + Copy;
    /// Bytes per element on the wire.
    ///
    /// ```
    /// use gdwire::read::Element;
    /// assert_eq!(<f64 as Element>::SIZE, 8);
    /// ```
    const SIZE: usize = core::mem::size_of::<Self::Le>();
    /// Converts from the wire form.
    ///
    /// ```
    /// use gdwire::read::Element;
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// let bytes = [30, 0, 0, 0, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]; // PackedInt32Array([-1])
    /// let VariantRef::PackedInt32Array(ints) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
    /// assert_eq!(<i32 as Element>::from_le(ints.as_le_slice()[0]), -1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn from_le(le: Self::Le) -> Self;
}

impl sealed::Sealed for u8 {}
impl Element for u8 {
    type Le = u8;
    #[inline]
    fn from_le(le: u8) -> u8 {
        le
    }
}

macro_rules! scalar_element {
    ($t:ty, $le:ty) => {
        impl sealed::Sealed for $t {}
        impl Element for $t {
            type Le = $le;
            #[inline]
            fn from_le(le: $le) -> $t {
                le.get()
            }
        }
        impl<const N: usize> sealed::Sealed for [$t; N] {}
        impl<const N: usize> Element for [$t; N] {
            type Le = [$le; N];
            #[inline]
            fn from_le(le: [$le; N]) -> [$t; N] {
                le.map(|c| c.get())
            }
        }
    };
}

scalar_element!(i32, I32);
scalar_element!(i64, I64);
scalar_element!(f32, F32);
scalar_element!(f64, F64);

/// A borrowed packed array of fixed-size elements.
///
/// ```
/// use gdwire::{from_bytes, Dialect, VariantRef};
/// // PackedInt32Array([1, -2]) in Godot 4.
/// let bytes = [30, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff];
/// let VariantRef::PackedInt32Array(a) = from_bytes(Dialect::GODOT_4, &bytes)? else { panic!() };
/// assert_eq!(a.len(), 2);
/// assert_eq!(a.get(1), Some(-2));
/// assert_eq!(a.iter().sum::<i32>(), -1);
/// assert_eq!(a.as_le_slice()[0].get(), 1); // zero-copy, unaligned little-endian
/// let mut out = [0; 2];
/// a.copy_to_slice(&mut out);
/// assert_eq!(out, [1, -2]);
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct PackedRef<'a, T: Element> {
    bytes: &'a [u8],
    _element: PhantomData<T>,
}

impl<'a, T: Element> PackedRef<'a, T> {
    /// `bytes.len()` must be a multiple of `T::SIZE` (guaranteed by the decoder).
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        PackedRef {
            bytes,
            _element: PhantomData,
        }
    }

    /// Number of elements.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // PackedInt32Array([1, -1])
    /// let bytes = [30, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff];
    /// let VariantRef::PackedInt32Array(ints) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
    /// assert_eq!(ints.len(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.bytes.len() / T::SIZE
    }

    /// True when there are no elements.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // PackedInt32Array([1, -1])
    /// let bytes = [30, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff];
    /// let VariantRef::PackedInt32Array(ints) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
    /// assert!(!ints.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The elements' wire bytes (no count, no padding).
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // PackedInt32Array([1, -1])
    /// let bytes = [30, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff];
    /// let VariantRef::PackedInt32Array(ints) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
    /// assert_eq!(ints.as_bytes(), [1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Zero-copy slice of the elements in unaligned little-endian form.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // PackedInt32Array([1, -1])
    /// let bytes = [30, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff];
    /// let VariantRef::PackedInt32Array(ints) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
    /// assert_eq!(ints.as_le_slice()[1].get(), -1); // zerocopy's little-endian i32
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn as_le_slice(&self) -> &'a [T::Le] {
        // Cannot fail: `Le` is unaligned and the length is a whole number of elements.
        <[T::Le]>::ref_from_bytes(self.bytes).unwrap_or(&[])
    }

    /// The elements as a native slice, when the host is little-endian and the bytes happen to
    /// be aligned for `T` (`bytemuck`); `None` otherwise; then use [`Self::as_le_slice`],
    /// [`Self::iter`] or [`Self::copy_to_slice`].
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // PackedInt32Array([1, -1])
    /// let bytes = [30, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff];
    /// let VariantRef::PackedInt32Array(ints) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
    /// if let Some(slice) = ints.as_native_slice() {
    ///     assert_eq!(slice, [1, -1]); // little-endian host, aligned bytes
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn as_native_slice(&self) -> Option<&'a [T]> {
        if cfg!(target_endian = "little") {
            bytemuck::try_cast_slice(self.bytes).ok()
        } else {
            None
        }
    }

    /// Element `index`, if in range.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // PackedInt32Array([1, -1])
    /// let bytes = [30, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff];
    /// let VariantRef::PackedInt32Array(ints) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
    /// assert_eq!((ints.get(1), ints.get(2)), (Some(-1), None));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn get(&self, index: usize) -> Option<T> {
        self.as_le_slice().get(index).map(|le| T::from_le(*le))
    }

    /// Iterates the elements.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // PackedInt32Array([1, -1])
    /// let bytes = [30, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff];
    /// let VariantRef::PackedInt32Array(ints) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
    /// assert_eq!(ints.iter().rev().collect::<Vec<i32>>(), [-1, 1]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn iter(&self) -> impl ExactSizeIterator<Item = T> + DoubleEndedIterator + 'a {
        self.as_le_slice().iter().map(|le| T::from_le(*le))
    }

    /// Copies the first `min(self.len(), out.len())` elements into `out`; returns how many.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // PackedInt32Array([1, -1])
    /// let bytes = [30, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff];
    /// let VariantRef::PackedInt32Array(ints) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
    /// let mut out = [0i32; 8];
    /// assert_eq!(ints.copy_to_slice(&mut out), 2);
    /// assert_eq!(out[..2], [1, -1]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn copy_to_slice(&self, out: &mut [T]) -> usize {
        if let Some(native) = self.as_native_slice() {
            let n = native.len().min(out.len());
            out[..n].copy_from_slice(&native[..n]);
            return n;
        }
        let mut n = 0;
        for (slot, value) in out.iter_mut().zip(self.iter()) {
            *slot = value;
            n += 1;
        }
        n
    }

    /// Copies the elements into a new `Vec`.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // PackedInt32Array([1, -1])
    /// let bytes = [30, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff];
    /// let VariantRef::PackedInt32Array(ints) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
    /// assert_eq!(ints.to_vec(), [1, -1]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "alloc")]
    #[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
    pub fn to_vec(&self) -> alloc::vec::Vec<T> {
        self.iter().collect()
    }
}

impl<T: Element + fmt::Debug> fmt::Debug for PackedRef<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Element + PartialEq> PartialEq for PackedRef<'_, T> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

/// A packed array of real vectors: `f32` components, or `f64` when the Godot 4 header flag is
/// set (double-precision builds).
///
/// ```
/// use gdwire::read::PackedReals;
/// use gdwire::{from_bytes, Dialect, VariantRef};
/// let bytes = [36, 0, 0, 0, 0, 0, 0, 0]; // PackedVector3Array()
/// let VariantRef::PackedVector3Array(v) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
/// assert!(matches!(v, PackedReals::Single(_)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq)]
pub enum PackedReals<'a, const N: usize> {
    /// `f32` components.
    Single(PackedRef<'a, [f32; N]>),
    /// `f64` components.
    Double(PackedRef<'a, [f64; N]>),
}

impl<'a, const N: usize> PackedReals<'a, N> {
    pub(crate) fn new(bytes: &'a [u8], precision: Precision) -> Self {
        match precision {
            Precision::Single => PackedReals::Single(PackedRef::new(bytes)),
            Precision::Double => PackedReals::Double(PackedRef::new(bytes)),
        }
    }

    /// Component width on the wire.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, Precision, VariantRef};
    /// // PackedVector2Array([Vector2(1, 2)])
    /// let bytes = [35, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40];
    /// let VariantRef::PackedVector2Array(points) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
    /// assert_eq!(points.precision(), Precision::Single);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn precision(&self) -> Precision {
        match self {
            PackedReals::Single(_) => Precision::Single,
            PackedReals::Double(_) => Precision::Double,
        }
    }

    /// Number of vectors.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // PackedVector2Array([Vector2(1, 2)])
    /// let bytes = [35, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40];
    /// let VariantRef::PackedVector2Array(points) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
    /// assert_eq!(points.len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn len(&self) -> usize {
        match self {
            PackedReals::Single(p) => p.len(),
            PackedReals::Double(p) => p.len(),
        }
    }

    /// True when there are no vectors.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // PackedVector2Array([Vector2(1, 2)])
    /// let bytes = [35, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40];
    /// let VariantRef::PackedVector2Array(points) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
    /// assert!(!points.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The elements' wire bytes.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // PackedVector2Array([Vector2(1, 2)])
    /// let bytes = [35, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40];
    /// let VariantRef::PackedVector2Array(points) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
    /// assert_eq!(points.as_bytes().len(), 8);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn as_bytes(&self) -> &'a [u8] {
        match self {
            PackedReals::Single(p) => p.as_bytes(),
            PackedReals::Double(p) => p.as_bytes(),
        }
    }

    /// Vector `index`, widened to `f64` (exact).
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // PackedVector2Array([Vector2(1, 2)])
    /// let bytes = [35, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40];
    /// let VariantRef::PackedVector2Array(points) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
    /// assert_eq!(points.get(0), Some([1.0, 2.0]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn get(&self, index: usize) -> Option<[f64; N]> {
        match self {
            PackedReals::Single(p) => p.get(index).map(|v| v.map(crate::float_width::widen)),
            PackedReals::Double(p) => p.get(index),
        }
    }

    /// Iterates the vectors, widened to `f64`.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // PackedVector2Array([Vector2(1, 2)])
    /// let bytes = [35, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40];
    /// let VariantRef::PackedVector2Array(points) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
    /// assert_eq!(points.iter().collect::<Vec<_>>(), [[1.0, 2.0]]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = [f64; N]> + 'a {
        let this = *self;
        (0..self.len()).map(move |i| this.get(i).unwrap_or([0.0; N]))
    }
}

impl<const N: usize> fmt::Debug for PackedReals<'_, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PackedReals::Single(p) => f.debug_tuple("Single").field(p).finish(),
            PackedReals::Double(p) => f.debug_tuple("Double").field(p).finish(),
        }
    }
}

/// A borrowed PackedStringArray / PoolStringArray. Elements are string blocks read in order,
/// so [`PackedStrings::get`] is O(index); [`PackedStrings::iter`] is the way to walk it.
///
/// ```
/// use gdwire::{from_bytes, Dialect, VariantRef};
/// let bytes = [23, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0, b'a', b'b', 0, 0]; // Godot 3 PoolStringArray(["ab"])
/// let VariantRef::PackedStringArray(s) = from_bytes(Dialect::GODOT_3, &bytes)? else { unreachable!() };
/// assert!(s.iter().eq(["ab"]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct PackedStrings<'a> {
    run: StrRun<'a>,
}

impl<'a> PackedStrings<'a> {
    pub(crate) fn new(run: StrRun<'a>) -> Self {
        PackedStrings { run }
    }

    /// `StrRef::note_validated` for every element.
    #[inline(always)]
    pub(crate) fn note_validated(&mut self, validated: bool) {
        self.run.note_validated(validated);
    }

    /// Number of strings.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // PackedStringArray(["a", "b"]): each element NUL-terminated and padded.
    /// let bytes = [34, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, b'a', 0, 0, 0, 2, 0, 0, 0, b'b', 0, 0, 0];
    /// let VariantRef::PackedStringArray(strings) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
    /// assert_eq!(strings.len(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn len(&self) -> usize {
        self.run.len()
    }

    /// True when there are no strings.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // PackedStringArray(["a", "b"]): each element NUL-terminated and padded.
    /// let bytes = [34, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, b'a', 0, 0, 0, 2, 0, 0, 0, b'b', 0, 0, 0];
    /// let VariantRef::PackedStringArray(strings) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
    /// assert!(!strings.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.run.len() == 0
    }

    /// The elements' wire bytes (each with its length word and padding).
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // PackedStringArray(["a", "b"]): each element NUL-terminated and padded.
    /// let bytes = [34, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, b'a', 0, 0, 0, 2, 0, 0, 0, b'b', 0, 0, 0];
    /// let VariantRef::PackedStringArray(strings) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
    /// assert_eq!(strings.as_bytes().len(), 16); // elements with lengths and padding
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn as_bytes(&self) -> &'a [u8] {
        self.run.as_bytes()
    }

    /// Iterates the strings. The engine writes each with a NUL terminator counted in its
    /// length; [`StrRef::bytes`] stops before it, [`StrRef::raw`] keeps it.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // PackedStringArray(["a", "b"]): each element NUL-terminated and padded.
    /// let bytes = [34, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, b'a', 0, 0, 0, 2, 0, 0, 0, b'b', 0, 0, 0];
    /// let VariantRef::PackedStringArray(strings) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
    /// assert!(strings.iter().eq(["a", "b"]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = StrRef<'a>> + 'a {
        self.run.iter()
    }

    /// String `index` (O(index)).
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // PackedStringArray(["a", "b"]): each element NUL-terminated and padded.
    /// let bytes = [34, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, b'a', 0, 0, 0, 2, 0, 0, 0, b'b', 0, 0, 0];
    /// let VariantRef::PackedStringArray(strings) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
    /// assert_eq!(strings.get(1).and_then(|s| s.as_str()), Some("b"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn get(&self, index: usize) -> Option<StrRef<'a>> {
        self.iter().nth(index)
    }
}

impl fmt::Debug for PackedStrings<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for PackedStrings<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}
