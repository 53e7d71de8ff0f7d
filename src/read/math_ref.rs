//! Real-valued math values as lazy views over their wire components.

use core::fmt;
use core::marker::PhantomData;

use crate::float_width::widen;
use crate::math::{Precision, WireReals};

/// A real-valued math value (Vector2, Transform3D, Projection, …) as sent: its components
/// stay in the input and are decoded by [`MathRef::get`].
///
/// Keeping the wire bytes instead of the decoded `f64`s keeps [`VariantRef`] small (a
/// Projection is 16 `f64`, 128 bytes; this view is 16), which is what makes handing views
/// out per element cheap. Decoding is exact: `f32` components widen bit for bit (NaN
/// payloads included).
///
/// [`VariantRef`]: crate::VariantRef
///
/// ```
/// use gdwire::math::{Precision, Vector2};
/// use gdwire::{from_bytes, Dialect, VariantRef};
/// // Vector2(1, 2) in Godot 4, single precision.
/// let bytes = [5, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40];
/// let VariantRef::Vector2(v) = from_bytes(Dialect::GODOT_4, &bytes)? else { panic!() };
/// assert_eq!(v.get(), Vector2 { x: 1.0, y: 2.0 });
/// assert_eq!(v.precision(), Precision::Single);
/// # Ok::<(), gdwire::Error>(())
/// ```
pub struct MathRef<'a, T> {
    raw: &'a [u8],
    _type: PhantomData<fn() -> T>,
}

impl<T> Clone for MathRef<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for MathRef<'_, T> {}

impl<'a, T: WireReals> MathRef<'a, T> {
    /// A view of `T`'s components in wire order: `T::COUNT` little-endian `f32` (single
    /// precision) or `f64` (double precision). `None` for any other length.
    ///
    /// ```
    /// use gdwire::math::{Precision, Vector2};
    /// use gdwire::read::MathRef;
    /// let bytes = [1.5f64.to_le_bytes(), (-2.0f64).to_le_bytes()].concat();
    /// let v = MathRef::<Vector2>::from_wire(&bytes).unwrap();
    /// assert_eq!((v.get(), v.precision()), (Vector2 { x: 1.5, y: -2.0 }, Precision::Double));
    /// assert!(MathRef::<Vector2>::from_wire(&bytes[..12]).is_none());
    /// ```
    pub fn from_wire(raw: &'a [u8]) -> Option<Self> {
        (raw.len() == T::COUNT * 4 || raw.len() == T::COUNT * 8).then_some(MathRef {
            raw,
            _type: PhantomData,
        })
    }

    /// `raw` must be `T::COUNT` components of `precision` (checked by the reader).
    #[inline]
    pub(crate) fn new(raw: &'a [u8]) -> Self {
        debug_assert!(raw.len() == T::COUNT * 4 || raw.len() == T::COUNT * 8);
        MathRef {
            raw,
            _type: PhantomData,
        }
    }

    /// The width the components were sent with.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, Precision, VariantRef};
    /// // Vector2(1, 2), single precision.
    /// let bytes = [5, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40];
    /// let VariantRef::Vector2(v) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
    /// assert_eq!(v.precision(), Precision::Single);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn precision(&self) -> Precision {
        if self.raw.len() == T::COUNT * 8 {
            Precision::Double
        } else {
            Precision::Single
        }
    }

    /// The components in wire order, widened to `f64`.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // Vector2(1, 2), single precision.
    /// let bytes = [5, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40];
    /// let VariantRef::Vector2(v) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
    /// assert_eq!(v.components().collect::<Vec<_>>(), [1.0, 2.0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn components(&self) -> impl ExactSizeIterator<Item = f64> + 'a {
        let size = self.precision().size();
        self.raw.chunks_exact(size).map(move |c| match *c {
            [a, b, c, d] => widen(f32::from_le_bytes([a, b, c, d])),
            [a, b, c, d, e, f, g, h] => f64::from_le_bytes([a, b, c, d, e, f, g, h]),
            _ => 0.0, // unreachable: chunks are 4 or 8 bytes
        })
    }

    /// The decoded value.
    ///
    /// ```
    /// use gdwire::math::Vector2;
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // Vector2(1, 2), single precision.
    /// let bytes = [5, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40];
    /// let VariantRef::Vector2(v) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
    /// assert_eq!(v.get(), Vector2 { x: 1.0, y: 2.0 });
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn get(&self) -> T {
        let mut out = [0.0f64; 16];
        for (slot, c) in out.iter_mut().zip(self.components()) {
            *slot = c;
        }
        T::from_wire(&out[..T::COUNT.min(16)])
    }

    /// The wire bytes of the components (no header).
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, VariantRef};
    /// // Vector2(1, 2), single precision.
    /// let bytes = [5, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40];
    /// let VariantRef::Vector2(v) = from_bytes(Dialect::GODOT_4, &bytes)? else { unreachable!() };
    /// assert_eq!(v.as_bytes(), [0, 0, 0x80, 0x3f, 0, 0, 0, 0x40]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn as_bytes(&self) -> &'a [u8] {
        self.raw
    }
}

impl<T: WireReals + PartialEq> PartialEq for MathRef<'_, T> {
    /// Same precision and equal components (as `f64`: NaN is unequal to itself).
    fn eq(&self, other: &Self) -> bool {
        self.precision() == other.precision() && self.get() == other.get()
    }
}

impl<T: WireReals + fmt::Debug> fmt::Debug for MathRef<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} ({:?})", self.get(), self.precision())
    }
}
