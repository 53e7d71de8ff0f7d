//! Math types: real vectors and matrices in the writer's precision, integer vectors, Color.

use crate::error::Result;
use crate::float_width::{f32_bits_are_nan, narrow, widen};
use crate::header::FLAG_64;
use crate::math::{
    Aabb, Basis, Color, Plane, Precision, Projection, Quaternion, Rect2, Rect2i, Transform2D,
    Transform3D, Vector2, Vector2i, Vector3, Vector3i, Vector4, Vector4i, WireReals,
};
use crate::variant_type::VariantType;
use crate::write::sink::Sink;
use crate::write::writer::Writer;

use VariantType as T;

/// A real component type accepted by the packed vector calls (`f32` or `f64`).
///
/// ```
/// use gdwire::write::Real;
/// assert_eq!(0.1f32.to_f64(), f64::from(0.1f32));
/// ```
pub trait Real: Copy + sealed::Sealed {
    /// Widens (exactly) to `f64`.
    ///
    /// ```
    /// use gdwire::write::Real;
    /// assert_eq!(Real::to_f64(2.5f64), 2.5);
    /// ```
    fn to_f64(self) -> f64;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

impl Real for f32 {
    #[inline]
    fn to_f64(self) -> f64 {
        widen(self)
    }
}
impl Real for f64 {
    #[inline]
    fn to_f64(self) -> f64 {
        self
    }
}

impl<S: Sink> Writer<S> {
    /// A Vector2.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.vector2(gdwire::math::Vector2 { x: 1.0, y: 2.0 })?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "Vector2(1, 2)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn vector2(&mut self, v: Vector2) -> Result<()> {
        self.comps(T::Vector2, [v.x, v.y])
    }

    /// A Rect2.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// use gdwire::math::{Rect2, Vector2};
    /// w.rect2(Rect2 { position: Vector2 { x: 0.0, y: 0.0 }, size: Vector2 { x: 4.0, y: 3.0 } })?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "Rect2(0, 0, 4, 3)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn rect2(&mut self, v: Rect2) -> Result<()> {
        self.reals(T::Rect2, &v)
    }

    /// A Vector3.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.vector3(gdwire::math::Vector3 { x: 1.0, y: 2.0, z: 3.0 })?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "Vector3(1, 2, 3)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn vector3(&mut self, v: Vector3) -> Result<()> {
        self.comps(T::Vector3, [v.x, v.y, v.z])
    }

    /// A Transform2D.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// use gdwire::math::{Transform2D, Vector2};
    /// let v = |x, y| Vector2 { x, y };
    /// w.transform2d(Transform2D { x: v(1.0, 0.0), y: v(0.0, 1.0), origin: v(5.0, 6.0) })?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "Transform2D(1, 0, 0, 1, 5, 6)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn transform2d(&mut self, v: Transform2D) -> Result<()> {
        self.reals(T::Transform2D, &v)
    }

    /// A Vector4 (Godot 4, Pandemonium 3.8+).
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.vector4(gdwire::math::Vector4 { x: 1.0, y: 2.0, z: 3.0, w: 4.0 })?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "Vector4(1, 2, 3, 4)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn vector4(&mut self, v: Vector4) -> Result<()> {
        self.comps(T::Vector4, [v.x, v.y, v.z, v.w])
    }

    /// A Plane.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// use gdwire::math::{Plane, Vector3};
    /// w.plane(Plane { normal: Vector3 { x: 0.0, y: 1.0, z: 0.0 }, d: 2.0 })?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "Plane(0, 1, 0, 2)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn plane(&mut self, v: Plane) -> Result<()> {
        self.reals(T::Plane, &v)
    }

    /// A Quaternion (Godot 3 `Quat`).
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.quaternion(gdwire::math::Quaternion { x: 0.0, y: 0.0, z: 0.0, w: 1.0 })?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "Quaternion(0, 0, 0, 1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn quaternion(&mut self, v: Quaternion) -> Result<()> {
        self.reals(T::Quaternion, &v)
    }

    /// An AABB.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// use gdwire::math::{Aabb, Vector3};
    /// let one = Vector3 { x: 1.0, y: 1.0, z: 1.0 };
    /// w.aabb(Aabb { position: Vector3::default(), size: one })?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "AABB(0, 0, 0, 1, 1, 1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn aabb(&mut self, v: Aabb) -> Result<()> {
        self.reals(T::Aabb, &v)
    }

    /// A Basis (written row-major, like the engine).
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// use gdwire::math::{Basis, Vector3};
    /// let v = |x, y, z| Vector3 { x, y, z };
    /// w.basis(Basis::from_columns(v(1.0, 0.0, 0.0), v(0.0, 2.0, 0.0), v(0.0, 0.0, 3.0)))?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "Basis(1, 0, 0, 0, 2, 0, 0, 0, 3)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn basis(&mut self, v: Basis) -> Result<()> {
        self.reals(T::Basis, &v)
    }

    /// A Transform3D (Godot 3 `Transform`).
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// use gdwire::math::{Basis, Transform3D, Vector3};
    /// let v = |x, y, z| Vector3 { x, y, z };
    /// let basis = Basis::from_columns(v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0), v(0.0, 0.0, 1.0));
    /// w.transform3d(Transform3D { basis, origin: v(1.0, 2.0, 3.0) })?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 2, 3)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn transform3d(&mut self, v: Transform3D) -> Result<()> {
        self.reals(T::Transform3D, &v)
    }

    /// A Projection (Godot 4, Pandemonium 3.8+; column-major).
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// use gdwire::math::{Projection, Vector4};
    /// let c = |i: usize| { let mut v = [0.0; 4]; v[i] = 1.0; Vector4 { x: v[0], y: v[1], z: v[2], w: v[3] } };
    /// w.projection(Projection { columns: [c(0), c(1), c(2), c(3)] })?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "Projection(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn projection(&mut self, v: Projection) -> Result<()> {
        self.reals(T::Projection, &v)
    }

    /// A Vector2i.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.vector2i(gdwire::math::Vector2i { x: 3, y: -4 })?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "Vector2i(3, -4)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn vector2i(&mut self, v: Vector2i) -> Result<()> {
        self.leaf(|w| w.put_ints(T::Vector2i, &[v.x, v.y]))
    }

    /// A Rect2i.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// use gdwire::math::{Rect2i, Vector2i};
    /// w.rect2i(Rect2i { position: Vector2i { x: 1, y: 2 }, size: Vector2i { x: 3, y: 4 } })?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "Rect2i(1, 2, 3, 4)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn rect2i(&mut self, v: Rect2i) -> Result<()> {
        let c = [v.position.x, v.position.y, v.size.x, v.size.y];
        self.leaf(|w| w.put_ints(T::Rect2i, &c))
    }

    /// A Vector3i.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.vector3i(gdwire::math::Vector3i { x: 1, y: 2, z: 3 })?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "Vector3i(1, 2, 3)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn vector3i(&mut self, v: Vector3i) -> Result<()> {
        self.leaf(|w| w.put_ints(T::Vector3i, &[v.x, v.y, v.z]))
    }

    /// A Vector4i.
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.vector4i(gdwire::math::Vector4i { x: 1, y: 2, z: 3, w: 4 })?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "Vector4i(1, 2, 3, 4)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn vector4i(&mut self, v: Vector4i) -> Result<()> {
        self.leaf(|w| w.put_ints(T::Vector4i, &[v.x, v.y, v.z, v.w]))
    }

    /// A Color (always `f32`, whatever the precision).
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.color(gdwire::math::Color { r: 1.0, g: 0.5, b: 0.0, a: 1.0 })?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "Color(1, 0.5, 0, 1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn color(&mut self, c: Color) -> Result<()> {
        self.leaf(|w| w.put_color(c))
    }

    /// A real math type (`Vector2` … `Projection`, not Color) from its components in wire
    /// order, in the writer's precision; `comps.len()` must be the type's component count.
    /// For input whose type is only known at run time (the text form).
    #[cfg(feature = "alloc")]
    pub(crate) fn real_math(&mut self, ty: VariantType, comps: &[f64]) -> Result<()> {
        let precision = self.precision();
        self.leaf(|w| match ty.real_components() {
            Some(n) if n == comps.len() => w.put_comps_slice(ty, comps, precision),
            _ => Err(w.err(crate::error::ErrorKind::Unsupported(ty))),
        })
    }

    /// An integer vector type (`Vector2i`, `Rect2i`, `Vector3i`, `Vector4i`) from its
    /// components in wire order.
    #[cfg(feature = "alloc")]
    pub(crate) fn int_math(&mut self, ty: VariantType, comps: &[i32]) -> Result<()> {
        self.leaf(|w| match ty.int_components() {
            Some(n) if n == comps.len() => w.put_ints(ty, comps),
            _ => Err(w.err(crate::error::ErrorKind::Unsupported(ty))),
        })
    }

    pub(super) fn reals<R: WireReals>(&mut self, ty: VariantType, v: &R) -> Result<()> {
        let precision = self.precision();
        self.leaf(|w| w.put_reals(ty, v, precision))
    }

    /// A vector given by its components in wire order, in the writer's precision.
    #[inline]
    fn comps<const N: usize>(&mut self, ty: VariantType, c: [f64; N]) -> Result<()> {
        let precision = self.precision();
        self.leaf(|w| w.put_comps(ty, c, precision))
    }

    pub(crate) fn put_reals<R: WireReals>(
        &mut self,
        ty: VariantType,
        v: &R,
        p: Precision,
    ) -> Result<()> {
        let mut comps = [0.0f64; 16];
        v.to_wire(&mut comps[..R::COUNT]);
        // `R::COUNT` is a constant of each instance, so one arm remains and the components
        // are copied with a fixed size (stores, not a `memcpy` call).
        macro_rules! fixed {
            ($($n:literal)*) => {
                match R::COUNT {
                    $($n => {
                        if let Some(c) = comps.first_chunk::<$n>() {
                            return self.put_comps(ty, *c, p);
                        }
                    })*
                    _ => {}
                }
            };
        }
        fixed!(2 3 4 6 9 12 16);
        self.put_comps_slice(ty, &comps[..R::COUNT], p)
    }

    /// Header and components; `f32` unless double precision applies.
    #[inline]
    fn put_comps<const N: usize>(
        &mut self,
        ty: VariantType,
        c: [f64; N],
        p: Precision,
    ) -> Result<()> {
        // Plain loops: `array::map` is not always inlined.
        if p == Precision::Double && self.dialect.math_follows_flag_64() {
            let mut out = [[0u8; 8]; N];
            for (o, x) in out.iter_mut().zip(c) {
                *o = x.to_le_bytes();
            }
            self.header(ty, FLAG_64)?;
            self.bytes(out.as_flattened())
        } else {
            let mut out = [[0u8; 4]; N];
            for (o, x) in out.iter_mut().zip(c) {
                *o = narrow(x).to_le_bytes();
            }
            self.header_words(ty, 0, &out)
        }
    }

    /// A math value from its wire components `raw` (`N` of them, `f32` or `f64` each, as a
    /// view holds them), written exactly as [`Writer::put_reals`] writes the view's value
    /// at the view's precision, without converting through the math type.
    #[inline]
    pub(super) fn put_math_raw<const N: usize>(
        &mut self,
        ty: VariantType,
        raw: &[u8],
    ) -> Result<()> {
        if raw.len() == N * 8 {
            if self.dialect.math_follows_flag_64() {
                self.header(ty, FLAG_64)?;
                return self.bytes(raw);
            }
            let mut out = [[0u8; 4]; N];
            for (o, c) in out.iter_mut().zip(raw.chunks_exact(8)) {
                let mut b = [0u8; 8];
                b.copy_from_slice(c);
                *o = narrow(f64::from_le_bytes(b)).to_le_bytes();
            }
            return self.header_words(ty, 0, &out);
        }
        // `narrow(widen(x))` is `x` itself unless `x` is a NaN (which it quiets): without a
        // NaN the components are copied from the source as they stand. (Assembled in a
        // buffer of words, they were read back with wider loads than they were stored with,
        // a failed store forward per value.)
        if let Some(raw) = raw.get(..N * 4) {
            let no_nan = raw.chunks_exact(4).fold(true, |ok, c| {
                ok & !f32_bits_are_nan(u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            });
            if no_nan {
                self.header(ty, 0)?;
                return self.bytes(raw);
            }
        }
        let mut out = [[0u8; 4]; N];
        for (o, c) in out.iter_mut().zip(raw.chunks_exact(4)) {
            let x = f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            *o = narrow(widen(x)).to_le_bytes();
        }
        self.header_words(ty, 0, &out)
    }

    /// [`Writer::put_comps`] for any number of components (up to 16).
    fn put_comps_slice(&mut self, ty: VariantType, comps: &[f64], p: Precision) -> Result<()> {
        let p = if self.dialect.math_follows_flag_64() {
            p
        } else {
            Precision::Single
        };
        let mut buf = [0u8; 128];
        let len = comps.len() * p.size();
        for (c, out) in comps.iter().zip(buf.chunks_exact_mut(p.size())) {
            match p {
                Precision::Single => out.copy_from_slice(&narrow(*c).to_le_bytes()),
                Precision::Double => out.copy_from_slice(&c.to_le_bytes()),
            }
        }
        let flag = if p == Precision::Double { FLAG_64 } else { 0 };
        self.header(ty, flag)?;
        self.bytes(&buf[..len])
    }

    pub(crate) fn put_ints(&mut self, ty: VariantType, c: &[i32]) -> Result<()> {
        self.header(ty, 0)?;
        for v in c {
            self.u32(*v as u32)?;
        }
        Ok(())
    }

    pub(crate) fn put_color(&mut self, c: Color) -> Result<()> {
        self.header(T::Color, 0)?;
        for v in [c.r, c.g, c.b, c.a] {
            self.u32(v.to_bits())?;
        }
        Ok(())
    }
}
