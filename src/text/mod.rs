//! The engine's own text form of a value: Godot 3 `var2str`, Godot 4 `var_to_str`, and the
//! Pandemonium writer, chosen by the [`Dialect`].
//!
//! - **Godot 3** output is byte-identical to a real Godot 3.2.3 engine's `var2str` (checked
//!   against the engine on every fixture): floats through 32-bit `real_t` and `%g` with six
//!   significant digits, `-0.0` as `0.0`, `-inf.0`, `Vector2( 1, 2 )`, dictionary keys merged
//!   and sorted exactly as the engine does, an RID prints as nothing.
//! - **Godot 4** follows `core/variant/variant_parser.cpp` (`Vector2(1, 2)`, `&"name"`,
//!   `RID(5)`, `Array[int]([1, 2])`, `Dictionary[String, int]({...})`, shortest round-trip
//!   floats from 4.4 on); byte-identical to real Godot 4.2, 4.3 and 4.6 engines on their
//!   fixtures, the other minors derived from source.
//! - **Pandemonium** follows its own `VariantWriter`, a Godot 3 descendant (`TypedArray( int ,
//!   1, 2 )`, base64 byte arrays from 4.3, `Quat` before 3.8); byte-identical to real 5.3,
//!   4.9 and 3.7 engines on their fixtures.
//!
//! `docs/text.md` lists what was checked against an engine and what was derived from source.
//!
//! ```
//! use gdwire::{from_bytes, text, Dialect};
//!
//! // var2bytes({"hp": 87.5, "pos": Vector2(1, 2)}) in Godot 3.
//! let bytes = [
//!     0x12, 0, 0, 0, 2, 0, 0, 0, // Dictionary, 2 entries
//!     4, 0, 0, 0, 3, 0, 0, 0, b'p', b'o', b's', 0, // "pos"
//!     5, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40, // Vector2(1, 2)
//!     4, 0, 0, 0, 2, 0, 0, 0, b'h', b'p', 0, 0, // "hp"
//!     3, 0, 0, 0, 0, 0, 0xaf, 0x42, // 87.5
//! ];
//! let value = from_bytes(Dialect::GODOT_3, &bytes)?;
//! assert_eq!(
//!     text::to_text(Dialect::GODOT_3, &value)?,
//!     "{\n\"hp\": 87.5,\n\"pos\": Vector2( 1, 2 )\n}"
//! );
//! # Ok::<(), gdwire::text::TextError>(())
//! ```

mod base64;
mod ends;
mod escape;
mod format;
mod godot3;
mod godot4;
mod grisu2;
mod leaf;
mod number;
mod order;
mod parse;
mod render;
mod same;
mod sort;

use alloc::string::String;

use core::fmt;
pub use parse::{parse, parse_into, parse_many, ParseMany, TextParseError};

use crate::dialect::Family;
use crate::error::{Error, ErrorKind};
use crate::read::{VariantRef, MAX_DEPTH};
use crate::Dialect;

/// Why a value could not be written as text.
///
/// ```
/// use core::fmt;
/// use gdwire::{from_bytes, text, Dialect};
/// // A sink that refuses every write.
/// struct Full;
/// impl fmt::Write for Full {
///     fn write_str(&mut self, _: &str) -> fmt::Result {
///         Err(fmt::Error)
///     }
/// }
/// let v = from_bytes(Dialect::GODOT_4, &[0, 0, 0, 0])?;
/// assert_eq!(text::write_text(&mut Full, Dialect::GODOT_4, &v), Err(text::TextError::Fmt));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TextError {
    /// A part of the value failed to decode while it was being walked (views decode lazily),
    /// or it nests deeper than [`MAX_DEPTH`] levels.
    #[error(transparent)]
    Decode(#[from] Error),
    /// The output sink reported an error.
    #[error("the text output failed")]
    Fmt,
}

impl From<fmt::Error> for TextError {
    fn from(_: fmt::Error) -> Self {
        TextError::Fmt
    }
}

/// Deepest nesting written (a few levels above the decoder's default limit, so that every
/// value the default decoder accepts is written, and the heap stack of open containers and
/// key comparisons stay bounded).
const TEXT_DEPTH: u32 = MAX_DEPTH + 8;

fn check_depth(depth: u32) -> Result<(), TextError> {
    if depth > TEXT_DEPTH {
        return Err(Error::new(ErrorKind::TooDeep { limit: TEXT_DEPTH }, 0).into());
    }
    Ok(())
}

/// Writes `value` in the text form of `dialect`'s engine into `out`.
///
/// Dictionaries are collected and sorted (that is what the engines print), which allocates;
/// everything else streams. Values nested deeper than the decoder's default limit
/// ([`MAX_DEPTH`]) plus a small margin are refused with [`ErrorKind::TooDeep`].
///
/// ```
/// use gdwire::{from_bytes, text::write_text, Dialect};
///
/// // var_to_bytes(Vector2i(3, -4)) in Godot 4.
/// let value = from_bytes(Dialect::GODOT_4, &[6, 0, 0, 0, 3, 0, 0, 0, 0xfc, 0xff, 0xff, 0xff])?;
/// let mut out = String::new();
/// write_text(&mut out, Dialect::GODOT_4, &value)?;
/// assert_eq!(out, "Vector2i(3, -4)");
/// # Ok::<(), gdwire::text::TextError>(())
/// ```
pub fn write_text<W: fmt::Write>(
    out: &mut W,
    dialect: Dialect,
    value: &VariantRef<'_>,
) -> Result<(), TextError> {
    let pandemonium = match dialect.family() {
        Family::Godot4 => return render::write(out, &godot4::Godot4 { dialect }, value),
        Family::Godot3 => false,
        Family::Pandemonium => true,
    };
    let format = godot3::Godot3 {
        dialect,
        pandemonium,
    };
    render::write(out, &format, value)
}

/// The text form of `value` as a `String` (see [`write_text`]).
///
/// ```
/// use gdwire::{from_bytes, text::to_text, Dialect};
///
/// // var2bytes(-0.0) is a 32-bit float; var2str prints it as 0.0.
/// let value = from_bytes(Dialect::GODOT_3, &[3, 0, 0, 0, 0, 0, 0, 0x80])?;
/// assert_eq!(to_text(Dialect::GODOT_3, &value)?, "0.0");
/// assert_eq!(to_text(Dialect::GODOT_4, &value)?, "0.0");
/// # Ok::<(), gdwire::text::TextError>(())
/// ```
pub fn to_text(dialect: Dialect, value: &VariantRef<'_>) -> Result<String, TextError> {
    let mut out = String::new();
    write_text(&mut out, dialect, value)?;
    Ok(out)
}
