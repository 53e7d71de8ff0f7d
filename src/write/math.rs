//! Math types: real vectors and matrices in the writer's precision, integer vectors, Color.

use crate::error::Result;
use crate::float_width::{narrow, widen};
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
pub trait Real: Copy + sealed::Sealed {
    /// Widens (exactly) to `f64`.
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
    pub fn vector2(&mut self, v: Vector2) -> Result<()> {
        self.comps(T::Vector2, [v.x, v.y])
    }

    /// A Rect2.
    pub fn rect2(&mut self, v: Rect2) -> Result<()> {
        self.reals(T::Rect2, &v)
    }

    /// A Vector3.
    pub fn vector3(&mut self, v: Vector3) -> Result<()> {
        self.comps(T::Vector3, [v.x, v.y, v.z])
    }

    /// A Transform2D.
    pub fn transform2d(&mut self, v: Transform2D) -> Result<()> {
        self.reals(T::Transform2D, &v)
    }

    /// A Vector4 (Godot 4, Pandemonium 3.8+).
    pub fn vector4(&mut self, v: Vector4) -> Result<()> {
        self.comps(T::Vector4, [v.x, v.y, v.z, v.w])
    }

    /// A Plane.
    pub fn plane(&mut self, v: Plane) -> Result<()> {
        self.reals(T::Plane, &v)
    }

    /// A Quaternion (Godot 3 `Quat`).
    pub fn quaternion(&mut self, v: Quaternion) -> Result<()> {
        self.reals(T::Quaternion, &v)
    }

    /// An AABB.
    pub fn aabb(&mut self, v: Aabb) -> Result<()> {
        self.reals(T::Aabb, &v)
    }

    /// A Basis (written row-major, like the engine).
    pub fn basis(&mut self, v: Basis) -> Result<()> {
        self.reals(T::Basis, &v)
    }

    /// A Transform3D (Godot 3 `Transform`).
    pub fn transform3d(&mut self, v: Transform3D) -> Result<()> {
        self.reals(T::Transform3D, &v)
    }

    /// A Projection (Godot 4, Pandemonium 3.8+; column-major).
    pub fn projection(&mut self, v: Projection) -> Result<()> {
        self.reals(T::Projection, &v)
    }

    /// A Vector2i.
    pub fn vector2i(&mut self, v: Vector2i) -> Result<()> {
        self.leaf(|w| w.put_ints(T::Vector2i, &[v.x, v.y]))
    }

    /// A Rect2i.
    pub fn rect2i(&mut self, v: Rect2i) -> Result<()> {
        let c = [v.position.x, v.position.y, v.size.x, v.size.y];
        self.leaf(|w| w.put_ints(T::Rect2i, &c))
    }

    /// A Vector3i.
    pub fn vector3i(&mut self, v: Vector3i) -> Result<()> {
        self.leaf(|w| w.put_ints(T::Vector3i, &[v.x, v.y, v.z]))
    }

    /// A Vector4i.
    pub fn vector4i(&mut self, v: Vector4i) -> Result<()> {
        self.leaf(|w| w.put_ints(T::Vector4i, &[v.x, v.y, v.z, v.w]))
    }

    /// A Color (always `f32`, whatever the precision).
    pub fn color(&mut self, c: Color) -> Result<()> {
        self.leaf(|w| w.put_color(c))
    }

    /// A real math type (`Vector2` … `Projection`, not Color) from its components in wire
    /// order, in the writer's precision; `comps.len()` must be the type's component count.
    /// For input whose type is only known at run time (the text form).
    pub(crate) fn real_math(&mut self, ty: VariantType, comps: &[f64]) -> Result<()> {
        let precision = self.precision();
        self.leaf(|w| match ty.real_components() {
            Some(n) if n == comps.len() => w.put_comps_slice(ty, comps, precision),
            _ => Err(w.err(crate::error::ErrorKind::Unsupported(ty))),
        })
    }

    /// An integer vector type (`Vector2i`, `Rect2i`, `Vector3i`, `Vector4i`) from its
    /// components in wire order.
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

    pub(super) fn put_reals<R: WireReals>(
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

    pub(super) fn put_ints(&mut self, ty: VariantType, c: &[i32]) -> Result<()> {
        self.header(ty, 0)?;
        for v in c {
            self.u32(*v as u32)?;
        }
        Ok(())
    }

    pub(super) fn put_color(&mut self, c: Color) -> Result<()> {
        self.header(T::Color, 0)?;
        for v in [c.r, c.g, c.b, c.a] {
            self.u32(v.to_bits())?;
        }
        Ok(())
    }
}
