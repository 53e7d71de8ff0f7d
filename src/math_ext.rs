//! Features `glam` and `mint`: the other crates' math types as Godot math types.
//!
//! Each listed type (the table is in the `math` module docs) converts to and from one
//! `gdwire::math` type, component for component in the engine's wire order. Floats are
//! `f32`, the engine's default width: every value converts exactly both ways, NaN payloads
//! included. With feature `serde`, `gdwire::serde::godot_math` writes them as the exact
//! Godot type.

use crate::float_width::{narrow, widen};
use crate::math::{
    Basis, Projection, Quaternion, Transform2D, Transform3D, Vector2, Vector2i, Vector3, Vector3i,
    Vector4, Vector4i, WireReals,
};

/// A math type of another crate that is one Godot math type on the wire (features `glam`,
/// `mint`; the table is in the [`math`](crate::math) module docs).
///
/// ```
/// # #[cfg(feature = "glam")] {
/// use gdwire::math::{AsGodot, Vector3};
/// let v = glam::Vec3::new(1.0, 2.0, 3.0);
/// assert_eq!(v.to_godot(), Vector3 { x: 1.0, y: 2.0, z: 3.0 });
/// assert_eq!(glam::Vec3::from_godot(v.to_godot()), v);
/// # }
/// ```
pub trait AsGodot: Sized {
    /// The `gdwire::math` type it is.
    type Godot;

    /// The Godot value.
    ///
    /// ```
    /// # #[cfg(feature = "mint")] {
    /// use gdwire::math::{AsGodot, Vector2i};
    /// assert_eq!(mint::Vector2 { x: 3, y: -4 }.to_godot(), Vector2i { x: 3, y: -4 });
    /// # }
    /// ```
    fn to_godot(&self) -> Self::Godot;

    /// Back from the Godot value (`f64` components are rounded to `f32`, which is exact for
    /// whatever a single-precision engine sent).
    ///
    /// ```
    /// # #[cfg(feature = "glam")] {
    /// use gdwire::math::{AsGodot, Quaternion};
    /// let q = Quaternion { x: 0.0, y: 0.0, z: 0.0, w: 1.0 };
    /// assert_eq!(glam::Quat::from_godot(q), glam::Quat::IDENTITY);
    /// # }
    /// ```
    fn from_godot(g: Self::Godot) -> Self;
}

/// A real-valued type through its `N` `f32` components in the Godot type's wire order.
macro_rules! real {
    ($t:ty => $g:ident, $n:literal, |$v:ident| $flat:expr, |$a:ident| $build:expr) => {
        impl AsGodot for $t {
            type Godot = $g;
            fn to_godot(&self) -> $g {
                let $v = self;
                let flat: [f32; $n] = $flat;
                <$g as WireReals>::from_wire(&flat.map(widen))
            }
            fn from_godot(g: $g) -> Self {
                let mut wire = [0.0f64; $n];
                g.to_wire(&mut wire);
                let $a: [f32; $n] = wire.map(narrow);
                $build
            }
        }

        impl From<$t> for $g {
            fn from(v: $t) -> $g {
                v.to_godot()
            }
        }

        impl From<$g> for $t {
            fn from(g: $g) -> $t {
                <$t as AsGodot>::from_godot(g)
            }
        }
    };
}

/// An integer vector, field for field.
macro_rules! int {
    ($t:ty => $g:ident { $($f:ident),+ }, |$v:ident| $build:expr) => {
        impl AsGodot for $t {
            type Godot = $g;
            fn to_godot(&self) -> $g {
                $g { $($f: self.$f),+ }
            }
            fn from_godot($v: $g) -> Self {
                $build
            }
        }

        impl From<$t> for $g {
            fn from(v: $t) -> $g {
                v.to_godot()
            }
        }

        impl From<$g> for $t {
            fn from(g: $g) -> $t {
                <$t as AsGodot>::from_godot(g)
            }
        }
    };
}

#[cfg(feature = "glam")]
mod glam_types {
    use super::*;
    use glam::{Affine2, Affine3A, IVec2, IVec3, IVec4, Mat3, Mat3A, Mat4, Quat, Vec2, Vec3};
    use glam::{Vec3A, Vec4};

    real!(Vec2 => Vector2, 2, |v| v.to_array(), |a| Vec2::from_array(a));
    real!(Vec3 => Vector3, 3, |v| v.to_array(), |a| Vec3::from_array(a));
    real!(Vec3A => Vector3, 3, |v| v.to_array(), |a| Vec3A::from_array(a));
    real!(Vec4 => Vector4, 4, |v| v.to_array(), |a| Vec4::from_array(a));
    real!(Quat => Quaternion, 4, |v| v.to_array(), |a| Quat::from_array(a));
    // The wire holds a Basis row by row: the rows are the transpose's columns.
    real!(Mat3 => Basis, 9, |v| v.transpose().to_cols_array(), |a| {
        Mat3::from_cols_array(&a).transpose()
    });
    real!(Mat3A => Basis, 9, |v| v.transpose().to_cols_array(), |a| {
        Mat3A::from_cols_array(&a).transpose()
    });
    // Transform2D: columns x, y, then the origin, as glam stores an Affine2.
    real!(Affine2 => Transform2D, 6, |v| v.to_cols_array(), |a| Affine2::from_cols_array(&a));
    real!(Affine3A => Transform3D, 12, |v| {
        let mut flat = [0.0f32; 12];
        flat[..9].copy_from_slice(&v.matrix3.transpose().to_cols_array());
        flat[9..].copy_from_slice(&v.translation.to_array());
        flat
    }, |a| {
        let mut basis = [0.0f32; 9];
        basis.copy_from_slice(&a[..9]);
        Affine3A::from_mat3_translation(
            Mat3::from_cols_array(&basis).transpose(),
            Vec3::new(a[9], a[10], a[11]),
        )
    });
    // Projection: four columns, like glam's Mat4.
    real!(Mat4 => Projection, 16, |v| v.to_cols_array(), |a| Mat4::from_cols_array(&a));

    int!(IVec2 => Vector2i { x, y }, |g| IVec2::new(g.x, g.y));
    int!(IVec3 => Vector3i { x, y, z }, |g| IVec3::new(g.x, g.y, g.z));
    int!(IVec4 => Vector4i { x, y, z, w }, |g| IVec4::new(g.x, g.y, g.z, g.w));
}

#[cfg(feature = "mint")]
mod mint_types {
    use super::*;
    use mint::{
        ColumnMatrix2x3, ColumnMatrix3, ColumnMatrix3x4, ColumnMatrix4, Point2, Point3,
        Quaternion as Quat, RowMatrix3,
    };

    type V2<T> = mint::Vector2<T>;
    type V3<T> = mint::Vector3<T>;
    type V4<T> = mint::Vector4<T>;

    fn v3(a: &[f32]) -> V3<f32> {
        V3 {
            x: a[0],
            y: a[1],
            z: a[2],
        }
    }

    real!(V2<f32> => Vector2, 2, |v| [v.x, v.y], |a| V2::from(a));
    real!(Point2<f32> => Vector2, 2, |v| [v.x, v.y], |a| Point2::from(a));
    real!(V3<f32> => Vector3, 3, |v| [v.x, v.y, v.z], |a| V3::from(a));
    real!(Point3<f32> => Vector3, 3, |v| [v.x, v.y, v.z], |a| Point3::from(a));
    real!(V4<f32> => Vector4, 4, |v| [v.x, v.y, v.z, v.w], |a| V4::from(a));
    real!(Quat<f32> => Quaternion, 4, |q| [q.v.x, q.v.y, q.v.z, q.s], |a| Quat {
        v: v3(&a),
        s: a[3],
    });
    // Basis rows on the wire: a RowMatrix3 as it is, a ColumnMatrix3 transposed.
    real!(RowMatrix3<f32> => Basis, 9, |m| {
        [m.x.x, m.x.y, m.x.z, m.y.x, m.y.y, m.y.z, m.z.x, m.z.y, m.z.z]
    }, |a| RowMatrix3 { x: v3(&a), y: v3(&a[3..]), z: v3(&a[6..]) });
    real!(ColumnMatrix3<f32> => Basis, 9, |m| {
        [m.x.x, m.y.x, m.z.x, m.x.y, m.y.y, m.z.y, m.x.z, m.y.z, m.z.z]
    }, |a| ColumnMatrix3 {
        x: V3 { x: a[0], y: a[3], z: a[6] },
        y: V3 { x: a[1], y: a[4], z: a[7] },
        z: V3 { x: a[2], y: a[5], z: a[8] },
    });
    real!(ColumnMatrix2x3<f32> => Transform2D, 6, |m| [m.x.x, m.x.y, m.y.x, m.y.y, m.z.x, m.z.y],
        |a| ColumnMatrix2x3 { x: V2::from([a[0], a[1]]), y: V2::from([a[2], a[3]]), z: V2::from([a[4], a[5]]) });
    real!(ColumnMatrix3x4<f32> => Transform3D, 12, |m| {
        [m.x.x, m.y.x, m.z.x, m.x.y, m.y.y, m.z.y, m.x.z, m.y.z, m.z.z, m.w.x, m.w.y, m.w.z]
    }, |a| ColumnMatrix3x4 {
        x: V3 { x: a[0], y: a[3], z: a[6] },
        y: V3 { x: a[1], y: a[4], z: a[7] },
        z: V3 { x: a[2], y: a[5], z: a[8] },
        w: v3(&a[9..]),
    });
    real!(ColumnMatrix4<f32> => Projection, 16, |m| {
        let c: [[f32; 4]; 4] = (*m).into();
        let mut flat = [0.0f32; 16];
        for (i, col) in c.iter().enumerate() {
            flat[i * 4..i * 4 + 4].copy_from_slice(col);
        }
        flat
    }, |a| {
        let col = |i: usize| V4::from([a[i * 4], a[i * 4 + 1], a[i * 4 + 2], a[i * 4 + 3]]);
        ColumnMatrix4 { x: col(0), y: col(1), z: col(2), w: col(3) }
    });

    int!(V2<i32> => Vector2i { x, y }, |g| V2 { x: g.x, y: g.y });
    int!(V3<i32> => Vector3i { x, y, z }, |g| V3 { x: g.x, y: g.y, z: g.z });
    int!(V4<i32> => Vector4i { x, y, z, w }, |g| V4 { x: g.x, y: g.y, z: g.z, w: g.w });
}
