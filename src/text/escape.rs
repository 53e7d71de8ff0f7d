//! The engines' `String::c_escape` and `c_escape_multiline`, applied while writing.
//!
//! Both are a chain of `replace` calls with the backslash first, so they act as a per-character
//! mapping. Code points `char` cannot hold (Godot 3 accepts surrogates and values above
//! U+10FFFF) are written as U+FFFD.

use core::fmt::{self, Write};

use crate::read::StrRef;

/// How much to escape.
#[derive(Clone, Copy)]
pub(crate) enum Escape {
    /// `c_escape` (NodePath, StringName, packed strings): `\\ \a \b \f \n \r \t \v \' \"`,
    /// and `\?` with `question` (Godot 3 and Pandemonium; Godot 4 stopped escaping `?` before
    /// 4.0, PR #68229).
    Full { question: bool },
    /// `c_escape_multiline`: only `\\` and `\"` (String values).
    Multiline,
}

fn escaped(c: u32, mode: Escape) -> Option<&'static str> {
    match (c, mode) {
        (0x5C, _) => Some("\\\\"),
        (0x22, _) => Some("\\\""),
        (_, Escape::Multiline) => None,
        (0x3F, Escape::Full { question }) => question.then_some("\\?"),
        (0x07, _) => Some("\\a"),
        (0x08, _) => Some("\\b"),
        (0x0C, _) => Some("\\f"),
        (0x0A, _) => Some("\\n"),
        (0x0D, _) => Some("\\r"),
        (0x09, _) => Some("\\t"),
        (0x0B, _) => Some("\\v"),
        (0x27, _) => Some("\\'"),
        _ => None,
    }
}

fn write_code_point<W: Write>(out: &mut W, c: u32, mode: Escape) -> fmt::Result {
    match escaped(c, mode) {
        Some(e) => out.write_str(e),
        None => out.write_char(char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER)),
    }
}

/// Writes the text of `s` escaped (no quotes).
pub(crate) fn write_escaped<W: Write>(out: &mut W, s: StrRef<'_>, mode: Escape) -> fmt::Result {
    match s.as_str() {
        Some(text) => {
            // Copy unescaped runs in one call: most text has nothing to escape.
            let mut start = 0;
            for (i, c) in text.char_indices() {
                if let Some(e) = escaped(c as u32, mode) {
                    out.write_str(&text[start..i])?;
                    out.write_str(e)?;
                    start = i + c.len_utf8();
                }
            }
            out.write_str(&text[start..])
        }
        None => s
            .code_points()
            .try_for_each(|c| write_code_point(out, c, mode)),
    }
}

/// Writes `s` verbatim (class and property names), U+FFFD for what `char` cannot hold.
pub(crate) fn write_plain<W: Write>(out: &mut W, s: StrRef<'_>) -> fmt::Result {
    match s.as_str() {
        Some(text) => out.write_str(text),
        None => s.code_points().try_for_each(|c| {
            out.write_char(char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER))
        }),
    }
}
