//! Features `glam` / `mint` with `serde`: their math types as the exact Godot math type.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::math::AsGodot;

/// `#[serde(with = "gdwire::serde::godot_math")]` on a glam or mint field (features `glam`,
/// `mint`): written as the exact Godot math type (the table is in the
/// [`math`](crate::math) module docs) and read back from it, like a
/// [`gdwire::math`](crate::math) field. Inside containers, use [`Godot`].
///
/// ```
/// # #[cfg(feature = "glam")] {
/// use serde::{Deserialize, Serialize};
/// use gdwire::Dialect;
///
/// #[derive(Serialize, Deserialize, Debug, PartialEq)]
/// struct Spawn {
///     #[serde(with = "gdwire::serde::godot_math")]
///     at: glam::Vec3,
///     #[serde(with = "gdwire::serde::godot_math")]
///     facing: glam::Quat,
/// }
///
/// let spawn = Spawn { at: glam::Vec3::new(1.0, 2.0, 3.0), facing: glam::Quat::IDENTITY };
/// let bytes = gdwire::serde::to_vec(Dialect::GODOT_4, &spawn)?;
/// let view = gdwire::from_bytes(Dialect::GODOT_4, &bytes)?.as_dictionary().unwrap();
/// assert_eq!(view.get("at").map(|v| v.variant_type()), Some(gdwire::VariantType::Vector3));
/// assert_eq!(gdwire::serde::from_bytes::<Spawn>(Dialect::GODOT_4, &bytes)?, spawn);
/// # }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub mod godot_math {
    use super::*;

    /// Writes `value` as its Godot math type.
    ///
    /// ```
    /// # #[cfg(feature = "glam")] {
    /// use gdwire::serde::{godot_math, Serializer};
    /// use gdwire::Dialect;
    ///
    /// let mut buf = [0u8; 12];
    /// let mut ser = Serializer::new(&mut buf[..], Dialect::GODOT_4);
    /// godot_math::serialize(&glam::Vec2::new(1.0, 2.0), &mut ser)?;
    /// assert_eq!(ser.finish()?, 12);
    /// // What Godot 4.6's `var_to_bytes(Vector2(1, 2))` returns.
    /// assert_eq!(buf, [5, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40]);
    /// # }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn serialize<T, S>(value: &T, s: S) -> Result<S::Ok, S::Error>
    where
        T: AsGodot,
        T::Godot: Serialize,
        S: Serializer,
    {
        value.to_godot().serialize(s)
    }

    /// Reads the Godot math type and converts it.
    ///
    /// ```
    /// # #[cfg(feature = "glam")] {
    /// use gdwire::serde::{godot_math, Deserializer};
    /// use gdwire::Dialect;
    ///
    /// // Godot 4.6's `var_to_bytes(Vector2(1, 2))`.
    /// let bytes = [5, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40];
    /// let mut de = Deserializer::from_bytes(Dialect::GODOT_4, &bytes);
    /// let v: glam::Vec2 = godot_math::deserialize(&mut de)?;
    /// assert_eq!(v, glam::Vec2::new(1.0, 2.0));
    /// # }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        T: AsGodot,
        T::Godot: Deserialize<'de>,
        D: Deserializer<'de>,
    {
        T::Godot::deserialize(d).map(T::from_godot)
    }
}

/// A glam or mint value written as its exact Godot math type (features `glam`, `mint`):
/// for elements of containers (`Vec<Godot<glam::Vec2>>` is an Array of Vector2), where
/// [`godot_math`] cannot reach.
///
/// ```
/// # #[cfg(feature = "mint")] {
/// use gdwire::serde::Godot;
/// use gdwire::Dialect;
/// let path = vec![Godot(mint::Vector2 { x: 0.0f32, y: 1.0 }), Godot(mint::Vector2 { x: 2.0, y: 3.0 })];
/// let bytes = gdwire::serde::to_vec(Dialect::GODOT_4, &path)?;
/// assert_eq!(bytes[8], 5); // the first element is a Vector2
/// let back: Vec<Godot<mint::Vector2<f32>>> = gdwire::serde::from_bytes(Dialect::GODOT_4, &bytes)?;
/// assert_eq!(back, path);
/// # }
/// # Ok::<(), gdwire::serde::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Godot<T>(pub T);

impl<T: AsGodot> Serialize for Godot<T>
where
    T::Godot: Serialize,
{
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        godot_math::serialize(&self.0, s)
    }
}

impl<'de, T: AsGodot> Deserialize<'de> for Godot<T>
where
    T::Godot: Deserialize<'de>,
{
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        godot_math::deserialize(d).map(Godot)
    }
}
