//! `Serialize` / `Deserialize` for the `gdwire::math` types.
//!
//! Each is a newtype struct with a private name (`$gdwire::Vector3`, …) around the tuple of
//! its components in wire order. This crate's serializer and deserializer recognise the name
//! and write / require the exact Godot type; any other format sees the tuple (`[x, y, z]`).

use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, SeqAccess, Visitor};
use serde::ser::{self, SerializeTuple};

use crate::math::{
    Aabb, Basis, Color, Plane, Projection, Quaternion, Rect2, Rect2i, Transform2D, Transform3D,
    Vector2, Vector2i, Vector3, Vector3i, Vector4, Vector4i, WireReals,
};

/// How each component is represented outside this crate's format.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Comp {
    /// `f64` (real components).
    Real,
    /// `f32` (Color, always 32-bit on the wire).
    F32,
    /// `i32` (integer vectors and Rect2i).
    I32,
}

/// A math type as its components (at most 16: Projection).
pub(crate) trait MathSerde: Sized {
    const MARKER: &'static str;
    const COUNT: usize;
    const COMP: Comp;
    fn to_comps(&self, out: &mut [f64; 16]);
    fn from_comps(c: &[f64]) -> Self;
}

macro_rules! real_math {
    ($($t:ident => $name:literal),*) => {$(
        impl MathSerde for $t {
            const MARKER: &'static str = concat!("$gdwire::", $name);
            const COUNT: usize = <$t as WireReals>::COUNT;
            const COMP: Comp = Comp::Real;
            #[inline]
            fn to_comps(&self, out: &mut [f64; 16]) {
                self.to_wire(&mut out[..<$t as WireReals>::COUNT]);
            }
            #[inline]
            fn from_comps(c: &[f64]) -> Self {
                <$t as WireReals>::from_wire(c)
            }
        }
    )*};
}

real_math!(
    Vector2 => "Vector2", Rect2 => "Rect2", Vector3 => "Vector3", Transform2D => "Transform2D",
    Vector4 => "Vector4", Plane => "Plane", Quaternion => "Quaternion", Aabb => "AABB",
    Basis => "Basis", Transform3D => "Transform3D", Projection => "Projection"
);

macro_rules! int_math {
    ($t:ident, $name:literal, $n:literal, |$s:ident| $flat:expr, |$c:ident| $build:expr) => {
        impl MathSerde for $t {
            const MARKER: &'static str = concat!("$gdwire::", $name);
            const COUNT: usize = $n;
            const COMP: Comp = Comp::I32;
            #[inline]
            fn to_comps(&self, out: &mut [f64; 16]) {
                let $s = self;
                let flat: [i32; $n] = $flat;
                for (o, v) in out.iter_mut().zip(flat) {
                    *o = v.into();
                }
            }
            #[inline]
            fn from_comps($c: &[f64]) -> Self {
                $build
            }
        }
    };
}

int_math!(Vector2i, "Vector2i", 2, |s| [s.x, s.y], |c| Vector2i {
    x: c[0] as i32,
    y: c[1] as i32
});
int_math!(Vector3i, "Vector3i", 3, |s| [s.x, s.y, s.z], |c| Vector3i {
    x: c[0] as i32,
    y: c[1] as i32,
    z: c[2] as i32
});
int_math!(Vector4i, "Vector4i", 4, |s| [s.x, s.y, s.z, s.w], |c| {
    Vector4i {
        x: c[0] as i32,
        y: c[1] as i32,
        z: c[2] as i32,
        w: c[3] as i32,
    }
});
int_math!(
    Rect2i,
    "Rect2i",
    4,
    |s| [s.position.x, s.position.y, s.size.x, s.size.y],
    |c| Rect2i {
        position: Vector2i {
            x: c[0] as i32,
            y: c[1] as i32
        },
        size: Vector2i {
            x: c[2] as i32,
            y: c[3] as i32
        },
    }
);

impl MathSerde for Color {
    const MARKER: &'static str = "$gdwire::Color";
    const COUNT: usize = 4;
    const COMP: Comp = Comp::F32;
    fn to_comps(&self, out: &mut [f64; 16]) {
        for (o, v) in out.iter_mut().zip([self.r, self.g, self.b, self.a]) {
            *o = crate::float_width::widen(v);
        }
    }
    fn from_comps(c: &[f64]) -> Self {
        Color {
            r: c[0] as f32,
            g: c[1] as f32,
            b: c[2] as f32,
            a: c[3] as f32,
        }
    }
}

/// The components as a tuple.
struct Comps<'a> {
    c: &'a [f64],
    comp: Comp,
}

impl ser::Serialize for Comps<'_> {
    fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut t = s.serialize_tuple(self.c.len())?;
        for &c in self.c {
            match self.comp {
                Comp::Real => t.serialize_element(&c)?,
                Comp::F32 => t.serialize_element(&(c as f32))?,
                Comp::I32 => t.serialize_element(&(c as i32))?,
            }
        }
        t.end()
    }
}

#[inline]
fn serialize_math<T: MathSerde, S: ser::Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
    let mut c = [0.0; 16];
    v.to_comps(&mut c);
    let comps = Comps {
        c: &c[..T::COUNT],
        comp: T::COMP,
    };
    s.serialize_newtype_struct(T::MARKER, &comps)
}

struct MathVisitor<T>(PhantomData<T>);

impl<'de, T: MathSerde> Visitor<'de> for MathVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&T::MARKER[crate::serde::leaf::PREFIX.len()..])
    }

    #[inline]
    fn visit_newtype_struct<D: de::Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        d.deserialize_tuple(T::COUNT, self)
    }

    /// From this crate's deserializer: the wire components, `COUNT` little-endian `f32`
    /// or `f64`.
    #[inline]
    fn visit_borrowed_bytes<E: de::Error>(self, b: &'de [u8]) -> Result<T, E> {
        let mut c = [0.0f64; 16];
        let n = T::COUNT;
        if T::COMP != Comp::Real || n > 16 {
            return Err(E::invalid_type(de::Unexpected::Bytes(b), &self));
        }
        // Indexed by the constant `n` (not zipped over `b`'s chunks) so the loops unroll.
        if b.len() == n * 4 {
            for (i, slot) in c[..n].iter_mut().enumerate() {
                // Copied whole (not byte by byte, which compiles to four loads and shifts).
                let mut w = [0u8; 4];
                w.copy_from_slice(&b[4 * i..4 * i + 4]);
                *slot = crate::float_width::widen(f32::from_le_bytes(w));
            }
        } else if b.len() == n * 8 {
            for (i, slot) in c[..n].iter_mut().enumerate() {
                let mut a = [0u8; 8];
                a.copy_from_slice(&b[8 * i..8 * i + 8]);
                *slot = f64::from_le_bytes(a);
            }
        } else {
            return Err(E::invalid_length(b.len(), &self));
        }
        Ok(T::from_comps(&c[..n]))
    }

    #[inline]
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<T, A::Error> {
        let mut c = [0.0f64; 16];
        for (i, slot) in c.iter_mut().enumerate().take(T::COUNT) {
            let v = match T::COMP {
                Comp::Real => seq.next_element::<f64>()?,
                Comp::F32 => seq.next_element::<f32>()?.map(crate::float_width::widen),
                Comp::I32 => seq.next_element::<i32>()?.map(f64::from),
            };
            *slot = v.ok_or_else(|| de::Error::invalid_length(i, &self))?;
        }
        if seq.next_element::<de::IgnoredAny>()?.is_some() {
            return Err(de::Error::invalid_length(T::COUNT + 1, &self));
        }
        Ok(T::from_comps(&c[..T::COUNT]))
    }
}

macro_rules! serde_impls {
    ($($t:ident)*) => {$(
        /// Feature `serde`: the exact Godot type in [`crate::serde`]; the tuple of its
        /// components in wire order in other formats.
        impl ser::Serialize for $t {
            fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                serialize_math(self, s)
            }
        }

        /// Feature `serde`: requires the exact Godot type in [`crate::serde`]; the tuple of
        /// its components in wire order in other formats.
        impl<'de> de::Deserialize<'de> for $t {
            // Inline: returned through memory, the value's component stores cannot be
            // forwarded to the caller's wider loads of it.
            #[inline]
            fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                d.deserialize_newtype_struct(<$t as MathSerde>::MARKER, MathVisitor(PhantomData))
            }
        }
    )*};
}

serde_impls!(
    Vector2 Vector2i Rect2 Rect2i Vector3 Vector3i Transform2D Vector4 Vector4i Plane
    Quaternion Aabb Basis Transform3D Projection Color
);
