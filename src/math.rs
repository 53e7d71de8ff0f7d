//! Plain math value types, shared by reader and writer.
//!
//! Real components are `f64`: a single-precision value widens exactly, so nothing is lost and
//! a value read from a double-precision build keeps its bits. [`WireReals`] gives each type's
//! component order on the wire (docs/wire-format.md §4.3).
//!
//! ```
//! use gdwire::math::{Vector3, Basis, Transform3D};
//! use gdwire::{from_bytes, to_vec, Dialect, VariantRef};
//!
//! let v = |x, y, z| Vector3 { x, y, z };
//! let spawn = Transform3D {
//!     basis: Basis::from_columns(v(0.0, 0.0, -1.0), v(0.0, 1.0, 0.0), v(1.0, 0.0, 0.0)),
//!     origin: v(4.0, 0.0, -2.0),
//! };
//! let mut out = Vec::new();
//! let mut w = gdwire::Writer::new(&mut out, Dialect::GODOT_4);
//! w.transform3d(spawn)?;
//! w.finish()?;
//! let VariantRef::Transform3D(t) = from_bytes(Dialect::GODOT_4, &out)? else { unreachable!() };
//! assert_eq!(t.get(), spawn);
//! assert_eq!(to_vec(Dialect::GODOT_4, &VariantRef::Transform3D(t))?, out);
//! # Ok::<(), gdwire::Error>(())
//! ```
//!
//! Features `glam` and `mint`: their vector, quaternion and matrix types convert to and from
//! these (`From` both ways, and the trait `AsGodot`) in the wire's component order:
//!
//! | glam | mint | Godot |
//! |---|---|---|
//! | `Vec2` | `Vector2<f32>`, `Point2<f32>` | [`Vector2`] |
//! | `Vec3`, `Vec3A` | `Vector3<f32>`, `Point3<f32>` | [`Vector3`] |
//! | `Vec4` | `Vector4<f32>` | [`Vector4`] (Godot 4) |
//! | `IVec2`, `IVec3`, `IVec4` | `Vector2<i32>`, `Vector3<i32>`, `Vector4<i32>` | [`Vector2i`], [`Vector3i`], [`Vector4i`] (Godot 4) |
//! | `Quat` | `Quaternion<f32>` | [`Quaternion`] |
//! | `Mat3`, `Mat3A` | `ColumnMatrix3<f32>`, `RowMatrix3<f32>` | [`Basis`] (the same matrix) |
//! | `Affine2` | `ColumnMatrix2x3<f32>` | [`Transform2D`] (columns x, y, origin) |
//! | `Affine3A` | `ColumnMatrix3x4<f32>` | [`Transform3D`] (basis columns, then origin) |
//! | `Mat4` | `ColumnMatrix4<f32>` | [`Projection`] (Godot 4) |
//!
//! Rect2, AABB, Plane and Color have no counterpart there.

#[cfg(any(feature = "glam", feature = "mint"))]
#[cfg_attr(docsrs, doc(cfg(any(feature = "glam", feature = "mint"))))]
pub use crate::math_ext::AsGodot;

/// Width of the real components of a math value on the wire.
///
/// ```
/// use gdwire::{from_bytes, Dialect, Precision};
/// // Vector2(1.5, -2) from a double-precision Godot 4 build: header bit 16 set.
/// let bytes = [5, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0xc0];
/// let v = from_bytes(Dialect::GODOT_4, &bytes)?;
/// assert_eq!(v.precision(), Some(Precision::Double));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Precision {
    /// `f32` components (every single-precision build; always in Godot 3 and Pandemonium).
    #[default]
    Single,
    /// `f64` components, header bit 16 set (Godot 4 double-precision builds).
    Double,
}

impl Precision {
    /// Bytes per component.
    ///
    /// ```
    /// use gdwire::Precision;
    /// assert_eq!(Precision::Single.size(), 4);
    /// assert_eq!(Precision::Double.size(), 8);
    /// ```
    pub const fn size(self) -> usize {
        match self {
            Precision::Single => 4,
            Precision::Double => 8,
        }
    }
}

/// A math type with a fixed number of real components in a fixed wire order.
///
/// ```
/// use gdwire::math::{Rect2, Vector2, WireReals};
/// let r = Rect2 { position: Vector2 { x: 1.0, y: 2.0 }, size: Vector2 { x: 3.0, y: 4.0 } };
/// let mut wire = [0.0; 4];
/// r.to_wire(&mut wire);
/// assert_eq!(wire, [1.0, 2.0, 3.0, 4.0]);
/// assert_eq!(Rect2::from_wire(&wire), r);
/// ```
pub trait WireReals: Sized {
    /// Number of components on the wire.
    ///
    /// ```
    /// use gdwire::math::{Transform3D, WireReals};
    /// assert_eq!(Transform3D::COUNT, 12);
    /// ```
    const COUNT: usize;
    /// Builds the value from its components in wire order (`reals.len() == COUNT`).
    ///
    /// ```
    /// use gdwire::math::{Vector3, WireReals};
    /// assert_eq!(Vector3::from_wire(&[1.0, 2.0, 3.0]), Vector3 { x: 1.0, y: 2.0, z: 3.0 });
    /// ```
    fn from_wire(reals: &[f64]) -> Self;
    /// Writes the components in wire order into `out` (`out.len() == COUNT`).
    ///
    /// ```
    /// use gdwire::math::{Basis, Vector3, WireReals};
    /// // The wire holds a Basis row by row.
    /// let v = |x, y, z| Vector3 { x, y, z };
    /// let b = Basis::from_columns(v(1.0, 2.0, 3.0), v(4.0, 5.0, 6.0), v(7.0, 8.0, 9.0));
    /// let mut wire = [0.0; 9];
    /// b.to_wire(&mut wire);
    /// assert_eq!(wire, [1.0, 4.0, 7.0, 2.0, 5.0, 8.0, 3.0, 6.0, 9.0]);
    /// ```
    fn to_wire(&self, out: &mut [f64]);
}

macro_rules! vector {
    ($(#[$doc:meta])* $name:ident, $t:ty, $($field:ident),+) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Default)]
        pub struct $name {
            $(#[allow(missing_docs)] pub $field: $t,)+
        }
    };
}

vector!(/// 2D vector of reals.
    ///
    /// ```
    /// let v = gdwire::math::Vector2 { x: 1.0, y: 2.0 };
    /// assert_eq!(v.x + v.y, 3.0);
    /// ```
    Vector2, f64, x, y);
vector!(/// 3D vector of reals.
    ///
    /// ```
    /// let v = gdwire::math::Vector3 { x: 1.0, y: 2.0, z: 3.0 };
    /// assert_eq!(v.z, 3.0);
    /// ```
    Vector3, f64, x, y, z);
vector!(/// 4D vector of reals.
    ///
    /// ```
    /// let v = gdwire::math::Vector4 { x: 1.0, y: 2.0, z: 3.0, w: 4.0 };
    /// assert_eq!(v.w, 4.0);
    /// ```
    Vector4, f64, x, y, z, w);
vector!(/// Quaternion.
    ///
    /// ```
    /// let identity = gdwire::math::Quaternion { x: 0.0, y: 0.0, z: 0.0, w: 1.0 };
    /// assert_eq!(identity.w, 1.0);
    /// ```
    Quaternion, f64, x, y, z, w);
vector!(/// 2D vector of `i32`.
    ///
    /// ```
    /// let v = gdwire::math::Vector2i { x: 3, y: -4 };
    /// assert_eq!(v.x * v.y, -12);
    /// ```
    Vector2i, i32, x, y);
vector!(/// 3D vector of `i32`.
    ///
    /// ```
    /// let v = gdwire::math::Vector3i { x: 1, y: 2, z: 3 };
    /// assert_eq!(v.z, 3);
    /// ```
    Vector3i, i32, x, y, z);
vector!(/// 4D vector of `i32`.
    ///
    /// ```
    /// let v = gdwire::math::Vector4i { x: 1, y: 2, z: 3, w: 4 };
    /// assert_eq!(v.w, 4);
    /// ```
    Vector4i, i32, x, y, z, w);

/// RGBA colour; always `f32` on the wire, in every dialect and build.
///
/// ```
/// use gdwire::math::Color;
/// use gdwire::{from_bytes, Dialect, VariantRef};
/// let bytes = [20, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x3f, 0, 0, 0, 0, 0, 0, 0x80, 0x3f];
/// let v = from_bytes(Dialect::GODOT_4, &bytes)?;
/// assert_eq!(v, VariantRef::Color(Color { r: 1.0, g: 0.5, b: 0.0, a: 1.0 }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Color {
    #[allow(missing_docs)]
    pub r: f32,
    #[allow(missing_docs)]
    pub g: f32,
    #[allow(missing_docs)]
    pub b: f32,
    #[allow(missing_docs)]
    pub a: f32,
}

/// Rectangle of reals.
///
/// ```
/// use gdwire::math::{Rect2, Vector2};
/// let r = Rect2 { position: Vector2 { x: 0.0, y: 0.0 }, size: Vector2 { x: 4.0, y: 3.0 } };
/// assert_eq!(r.size.x * r.size.y, 12.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Rect2 {
    /// Top-left corner.
    pub position: Vector2,
    /// Width and height.
    pub size: Vector2,
}

/// Rectangle of `i32`.
///
/// ```
/// use gdwire::math::{Rect2i, Vector2i};
/// let r = Rect2i { position: Vector2i { x: 1, y: 2 }, size: Vector2i { x: 3, y: 4 } };
/// assert_eq!(r.position.x + r.size.x, 4);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Rect2i {
    /// Top-left corner.
    pub position: Vector2i,
    /// Width and height.
    pub size: Vector2i,
}

/// 2D affine transform, as its three columns (GDScript `x`, `y`, `origin`).
///
/// ```
/// use gdwire::math::{Transform2D, Vector2};
/// let t = Transform2D { x: Vector2 { x: 1.0, y: 0.0 }, y: Vector2 { x: 0.0, y: 1.0 }, origin: Vector2 { x: 5.0, y: 6.0 } };
/// assert_eq!(t.origin, Vector2 { x: 5.0, y: 6.0 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Transform2D {
    /// First basis column.
    pub x: Vector2,
    /// Second basis column.
    pub y: Vector2,
    /// Translation.
    pub origin: Vector2,
}

/// Plane `normal · p = d`.
///
/// ```
/// use gdwire::math::{Plane, Vector3};
/// let floor = Plane { normal: Vector3 { x: 0.0, y: 1.0, z: 0.0 }, d: 0.0 };
/// assert_eq!(floor.normal.y, 1.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Plane {
    /// Normal.
    pub normal: Vector3,
    /// Distance from the origin.
    pub d: f64,
}

/// Axis-aligned bounding box.
///
/// ```
/// use gdwire::math::{Aabb, Vector3};
/// let unit = Aabb { position: Vector3::default(), size: Vector3 { x: 1.0, y: 1.0, z: 1.0 } };
/// assert_eq!(unit.size.x, 1.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Aabb {
    /// Minimum corner.
    pub position: Vector3,
    /// Extent.
    pub size: Vector3,
}

/// 3x3 matrix stored as **rows**, like the engine (`Basis::rows`); the wire is row-major.
///
/// GDScript's `basis.x` is column 0: use [`Basis::x`], [`Basis::y`], [`Basis::z`].
///
/// ```
/// use gdwire::math::{Basis, Vector3};
/// let v = |x, y, z| Vector3 { x, y, z };
/// let b = Basis::from_columns(v(1.0, 0.0, 0.0), v(0.0, 2.0, 0.0), v(0.0, 0.0, 3.0));
/// assert_eq!(b.rows[1], v(0.0, 2.0, 0.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Basis {
    /// The three rows.
    pub rows: [Vector3; 3],
}

impl Basis {
    /// Builds a basis from its columns (GDScript `Basis(x, y, z)`).
    ///
    /// ```
    /// use gdwire::math::{Basis, Vector3};
    /// let v = |x, y, z| Vector3 { x, y, z };
    /// let b = Basis::from_columns(v(1.0, 2.0, 3.0), v(4.0, 5.0, 6.0), v(7.0, 8.0, 9.0));
    /// assert_eq!(b.rows[0], v(1.0, 4.0, 7.0));
    /// ```
    pub fn from_columns(x: Vector3, y: Vector3, z: Vector3) -> Basis {
        Basis {
            rows: [
                Vector3 {
                    x: x.x,
                    y: y.x,
                    z: z.x,
                },
                Vector3 {
                    x: x.y,
                    y: y.y,
                    z: z.y,
                },
                Vector3 {
                    x: x.z,
                    y: y.z,
                    z: z.z,
                },
            ],
        }
    }

    fn column(&self, i: usize) -> Vector3 {
        let pick = |r: &Vector3| [r.x, r.y, r.z][i];
        Vector3 {
            x: pick(&self.rows[0]),
            y: pick(&self.rows[1]),
            z: pick(&self.rows[2]),
        }
    }

    /// Column 0 (GDScript `basis.x`).
    ///
    /// ```
    /// use gdwire::math::{Basis, Vector3};
    /// let v = |x, y, z| Vector3 { x, y, z };
    /// assert_eq!(Basis::from_columns(v(1.0, 2.0, 3.0), v(0.0, 1.0, 0.0), v(0.0, 0.0, 1.0)).x(), v(1.0, 2.0, 3.0));
    /// ```
    pub fn x(&self) -> Vector3 {
        self.column(0)
    }

    /// Column 1 (GDScript `basis.y`).
    ///
    /// ```
    /// use gdwire::math::{Basis, Vector3};
    /// let v = |x, y, z| Vector3 { x, y, z };
    /// assert_eq!(Basis::from_columns(v(1.0, 0.0, 0.0), v(4.0, 5.0, 6.0), v(0.0, 0.0, 1.0)).y(), v(4.0, 5.0, 6.0));
    /// ```
    pub fn y(&self) -> Vector3 {
        self.column(1)
    }

    /// Column 2 (GDScript `basis.z`).
    ///
    /// ```
    /// use gdwire::math::{Basis, Vector3};
    /// let v = |x, y, z| Vector3 { x, y, z };
    /// assert_eq!(Basis::from_columns(v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0), v(7.0, 8.0, 9.0)).z(), v(7.0, 8.0, 9.0));
    /// ```
    pub fn z(&self) -> Vector3 {
        self.column(2)
    }
}

/// 3D affine transform.
///
/// ```
/// use gdwire::math::{Basis, Transform3D, Vector3};
/// let v = |x, y, z| Vector3 { x, y, z };
/// let t = Transform3D { basis: Basis::from_columns(v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0), v(0.0, 0.0, 1.0)), origin: v(1.0, 2.0, 3.0) };
/// assert_eq!(t.origin.z, 3.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Transform3D {
    /// Rotation and scale.
    pub basis: Basis,
    /// Translation.
    pub origin: Vector3,
}

/// 4x4 projection matrix stored as **columns**, like the engine; the wire is column-major.
///
/// ```
/// use gdwire::math::{Projection, Vector4};
/// let p = Projection::default();
/// assert_eq!(p.columns[3], Vector4::default());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Projection {
    /// The four columns.
    pub columns: [Vector4; 4],
}

macro_rules! wire_reals {
    ($ty:ty, $n:literal, |$r:ident| $build:expr, |$s:ident| $flat:expr) => {
        impl WireReals for $ty {
            const COUNT: usize = $n;
            #[inline]
            fn from_wire($r: &[f64]) -> Self {
                $build
            }
            #[inline]
            fn to_wire(&self, out: &mut [f64]) {
                let $s = self;
                let flat: [f64; $n] = $flat;
                out.copy_from_slice(&flat);
            }
        }
    };
}

fn v2(r: &[f64]) -> Vector2 {
    Vector2 { x: r[0], y: r[1] }
}
fn v3(r: &[f64]) -> Vector3 {
    Vector3 {
        x: r[0],
        y: r[1],
        z: r[2],
    }
}
fn v4(r: &[f64]) -> Vector4 {
    Vector4 {
        x: r[0],
        y: r[1],
        z: r[2],
        w: r[3],
    }
}

wire_reals!(Vector2, 2, |r| v2(r), |s| [s.x, s.y]);
wire_reals!(Vector3, 3, |r| v3(r), |s| [s.x, s.y, s.z]);
wire_reals!(Vector4, 4, |r| v4(r), |s| [s.x, s.y, s.z, s.w]);
wire_reals!(
    Quaternion,
    4,
    |r| Quaternion {
        x: r[0],
        y: r[1],
        z: r[2],
        w: r[3]
    },
    |s| [s.x, s.y, s.z, s.w]
);
wire_reals!(
    Rect2,
    4,
    |r| Rect2 {
        position: v2(r),
        size: v2(&r[2..])
    },
    |s| [s.position.x, s.position.y, s.size.x, s.size.y]
);
wire_reals!(
    Plane,
    4,
    |r| Plane {
        normal: v3(r),
        d: r[3]
    },
    |s| [s.normal.x, s.normal.y, s.normal.z, s.d]
);
wire_reals!(
    Transform2D,
    6,
    |r| Transform2D {
        x: v2(r),
        y: v2(&r[2..]),
        origin: v2(&r[4..])
    },
    |s| [s.x.x, s.x.y, s.y.x, s.y.y, s.origin.x, s.origin.y]
);
wire_reals!(
    Aabb,
    6,
    |r| Aabb {
        position: v3(r),
        size: v3(&r[3..])
    },
    |s| [
        s.position.x,
        s.position.y,
        s.position.z,
        s.size.x,
        s.size.y,
        s.size.z
    ]
);
wire_reals!(
    Basis,
    9,
    |r| Basis {
        rows: [v3(r), v3(&r[3..]), v3(&r[6..])]
    },
    |s| {
        let [a, b, c] = s.rows;
        [a.x, a.y, a.z, b.x, b.y, b.z, c.x, c.y, c.z]
    }
);
wire_reals!(
    Transform3D,
    12,
    |r| Transform3D {
        basis: Basis::from_wire(&r[..9]),
        origin: v3(&r[9..])
    },
    |s| {
        let mut out = [0.0; 12];
        s.basis.to_wire(&mut out[..9]);
        out[9..].copy_from_slice(&[s.origin.x, s.origin.y, s.origin.z]);
        out
    }
);
wire_reals!(
    Projection,
    16,
    |r| Projection {
        columns: [v4(r), v4(&r[4..]), v4(&r[8..]), v4(&r[12..])]
    },
    |s| {
        let mut out = [0.0; 16];
        for (chunk, c) in out.chunks_exact_mut(4).zip(&s.columns) {
            chunk.copy_from_slice(&[c.x, c.y, c.z, c.w]);
        }
        out
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basis_wire_order_is_rows() {
        // GDScript Basis(Vector3(1,2,3), Vector3(4,5,6), Vector3(7,8,9)) is written 1,4,7,2,5,8,3,6,9.
        let b = Basis::from_columns(
            Vector3 {
                x: 1.0,
                y: 2.0,
                z: 3.0,
            },
            Vector3 {
                x: 4.0,
                y: 5.0,
                z: 6.0,
            },
            Vector3 {
                x: 7.0,
                y: 8.0,
                z: 9.0,
            },
        );
        let mut out = [0.0; 9];
        b.to_wire(&mut out);
        assert_eq!(out, [1.0, 4.0, 7.0, 2.0, 5.0, 8.0, 3.0, 6.0, 9.0]);
        assert_eq!(Basis::from_wire(&out), b);
        assert_eq!(
            b.y(),
            Vector3 {
                x: 4.0,
                y: 5.0,
                z: 6.0
            }
        );
    }
}
