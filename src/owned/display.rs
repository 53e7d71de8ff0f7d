//! The engine's text form of owned values.

use alloc::string::String;
use core::fmt;

use crate::dialect::Dialect;
use crate::owned::Variant;
use crate::read::{Decoder, MAX_DEPTH};
use crate::text::{self, TextError};

/// The text form of a [`Variant`] in a dialect's engine (`var_to_str` / `var2str`), from
/// [`Variant::display`].
///
/// The text module works on views, so the value is encoded first and its view printed: the
/// text is exactly what [`crate::text`] prints for the same bytes. A value the dialect
/// cannot encode (a type it lacks, Godot 3 text that is not UTF-8 for a strict dialect)
/// prints as `<error: …>`; [`Variant::to_text`] returns that error instead.
///
/// ```
/// use gdwire::owned::Variant;
/// use gdwire::Dialect;
/// let v = Variant::from(vec![Variant::from(1), Variant::from("a")]);
/// assert_eq!(format!("{}", v.display(Dialect::GODOT_4)), "[1, \"a\"]");
/// assert_eq!(format!("{}", v.display(Dialect::GODOT_3)), "[ 1, \"a\" ]");
/// ```
pub struct Text<'v> {
    value: &'v Variant,
    dialect: Dialect,
}

impl fmt::Display for Text<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match write_text(f, self.value, self.dialect) {
            Err(TextError::Decode(e)) => write!(f, "<error: {e}>"),
            Err(_) => Err(fmt::Error),
            Ok(()) => Ok(()),
        }
    }
}

impl fmt::Debug for Text<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

fn write_text<W: fmt::Write>(out: &mut W, v: &Variant, dialect: Dialect) -> Result<(), TextError> {
    let bytes = v.to_vec(dialect)?;
    let dec = Decoder::new(dialect)
        .with_allow_objects(true)
        .with_max_depth(MAX_DEPTH);
    let view = dec.decode(&bytes)?;
    text::write_text(out, dialect, &view)
}

impl Variant {
    /// The engine's text form in `dialect`, for `{}` formatting (see [`Text`]).
    ///
    /// ```
    /// use gdwire::math::Vector2;
    /// use gdwire::owned::Variant;
    /// use gdwire::Dialect;
    /// let v = Variant::from(Vector2 { x: 1.0, y: 2.5 });
    /// assert_eq!(v.display(Dialect::GODOT_4).to_string(), "Vector2(1, 2.5)");
    /// assert_eq!(v.display(Dialect::GODOT_3).to_string(), "Vector2( 1, 2.5 )");
    /// ```
    pub fn display(&self, dialect: Dialect) -> Text<'_> {
        Text {
            value: self,
            dialect,
        }
    }

    /// The engine's text form in `dialect` as a `String`, or why it cannot be written.
    ///
    /// ```
    /// use gdwire::owned::Variant;
    /// use gdwire::Dialect;
    /// assert_eq!(Variant::from("hi").to_text(Dialect::GODOT_4)?, "\"hi\"");
    /// assert!(Variant::Callable.to_text(Dialect::GODOT_3).is_err()); // no Callable there
    /// # Ok::<(), gdwire::text::TextError>(())
    /// ```
    pub fn to_text(&self, dialect: Dialect) -> Result<String, TextError> {
        let mut out = String::new();
        write_text(&mut out, self, dialect)?;
        Ok(out)
    }
}
