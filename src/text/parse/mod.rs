//! Reading the engine's text form back: Godot 3 `str2var`, Godot 4 `str_to_var`,
//! Pandemonium's `VariantParser`, chosen by the [`Dialect`].
//!
//! [`parse`] turns one value's text into the canonical wire bytes of that value (what the
//! engine's `var_to_bytes` writes for what its parser builds), [`parse_into`] writes it as the
//! next item of any [`Writer`], [`parse_many`] reads a text of several values (separated by
//! whitespace or newlines, as `gdwire dump --format text` prints them).
//!
//! What each engine line's parser accepts is followed: constructors (`Vector2( 1, 2 )`,
//! `Transform3D(...)`, `Quat(...)`, `Pool*Array(...)`/`Packed*Array(...)`, the old names
//! such as `Matrix32`), `NodePath("...")`, `&"name"` (Godot 4, Pandemonium), `RID(n)`,
//! `Callable()`, `Signal()`, typed `Array[int]([...])` and `Dictionary[String, int]({...})`
//! (Godot 4), `Object(Class,"prop":value,...)`, nested containers with keys of any type,
//! `;` comments, trailing commas where the engine allows them. Numbers: a `.` or an exponent
//! makes a float, otherwise an int (Godot 3 wraps past `i64`, Godot 4 clamps);
//! `inf`, `nan`, `inf_neg`, `-inf` where the dialect knows them. Strings: `\n \t \r \b \f
//! \uXXXX` (and `\UXXXXXX` in Godot 4, where UTF-16 pairs combine and lone surrogates are
//! errors; Godot 3 keeps surrogate code points), any other escaped character stands for
//! itself. Duplicate dictionary keys merge as in the engine (first position, last value).
//! Component values convert as the engine converts them (`float` components, `int32`
//! integer vectors, bytes modulo 256, an incomplete last packed element dropped).
//!
//! Where this differs from the engine, it refuses rather than guess: text after the value
//! (the engine ignores it, so Godot 3's `-inf.0` reads back there as the int 0), a `-` without
//! digits, colour literals (`#ff0000`), `Resource(...)` values. `Object(EncodedObjectAsID,
//! "object_id":N, ...)`, what the writers print for an object sent as an id, reads back as
//! that id (the engine would create a new object); other objects become full objects with the
//! properties as written (the engine keeps only those its class has).
//!
//! Nothing recurses: open containers wait on a heap stack (nesting is limited to
//! [`MAX_DEPTH`](crate::read::MAX_DEPTH) levels, as for the decoder), so any text is read
//! with a small, fixed amount of call stack.
//!
//! ```
//! use gdwire::{text, Dialect};
//!
//! let bytes = text::parse(Dialect::GODOT_4, "Vector2i(3, -4)")?;
//! assert_eq!(bytes, [6, 0, 0, 0, 3, 0, 0, 0, 0xfc, 0xff, 0xff, 0xff]);
//!
//! // The same text reads differently where the engines differ: Godot 3 has no Vector2i.
//! let err = text::parse(Dialect::GODOT_3, "Vector2i(3, -4)").unwrap_err();
//! assert_eq!((err.line(), err.column()), (1, 1));
//! # Ok::<(), gdwire::text::TextParseError>(())
//! ```

mod emit;
mod grammar;
mod lex;
mod merge;
mod number;
mod tree;

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::lines::{line_of, LineCounter};
use crate::write::{Sink, Writer};
use crate::{Dialect, Precision};

use grammar::Parser;

/// A syntax error inside the parser: byte offset and message.
#[derive(Debug)]
pub(crate) struct Syntax {
    pub(crate) at: usize,
    pub(crate) message: String,
}

/// Why a text could not be read as a value.
///
/// ```
/// use gdwire::{text, Dialect};
/// let err = text::parse(Dialect::GODOT_3, "Vector2( 1 )").unwrap_err();
/// assert!(matches!(err, text::TextParseError::Syntax { line: 1, .. }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TextParseError {
    /// The text is not the dialect's text form (the message says what was expected).
    #[error("line {line}, column {column}: {message}")]
    Syntax {
        /// What was expected and what was found.
        message: String,
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// Byte offset in the text.
        offset: usize,
    },
    /// The value was read, but the writer refused it (a type the dialect lacks, a full object
    /// on a writer without [`Writer::with_full_objects`], too many open containers, …).
    #[error("line {line}, column {column}: cannot encode the value: {error}")]
    Encode {
        /// The writer's error (its offset is in the output).
        error: crate::Error,
        /// 1-based line where the refused value starts.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// Byte offset in the text.
        offset: usize,
    },
}

impl TextParseError {
    /// 1-based line of the error.
    ///
    /// ```
    /// use gdwire::{text, Dialect};
    /// let err = text::parse(Dialect::GODOT_4, "[\n1,\n?]").unwrap_err();
    /// assert_eq!(err.line(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn line(&self) -> usize {
        match self {
            TextParseError::Syntax { line, .. } | TextParseError::Encode { line, .. } => *line,
        }
    }

    /// 1-based column of the error, in characters.
    ///
    /// ```
    /// use gdwire::{text, Dialect};
    /// let err = text::parse(Dialect::GODOT_4, "[1, ?]").unwrap_err();
    /// assert_eq!(err.column(), 5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn column(&self) -> usize {
        match self {
            TextParseError::Syntax { column, .. } | TextParseError::Encode { column, .. } => {
                *column
            }
        }
    }

    /// Byte offset of the error in the text.
    ///
    /// ```
    /// use gdwire::{text, Dialect};
    /// let err = text::parse(Dialect::GODOT_4, "[1, ?]").unwrap_err();
    /// assert_eq!(err.offset(), 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn offset(&self) -> usize {
        match self {
            TextParseError::Syntax { offset, .. } | TextParseError::Encode { offset, .. } => {
                *offset
            }
        }
    }
}

/// Line and column (1-based, columns in characters) of byte `at` of `text`.
fn locate(text: &str, at: usize) -> (usize, usize) {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let (line, line_start) = line_of(text.as_bytes(), at);
    let column = text.get(line_start..at).map_or(0, |s| s.chars().count()) + 1;
    (line, column)
}

fn syntax_error(text: &str, e: Syntax) -> TextParseError {
    let (line, column) = locate(text, e.at);
    TextParseError::Syntax {
        message: e.message,
        line,
        column,
        offset: e.at,
    }
}

fn encode_error(text: &str, error: crate::Error, at: usize) -> TextParseError {
    let (line, column) = locate(text, at);
    TextParseError::Encode {
        error,
        line,
        column,
        offset: at,
    }
}

/// Reads one value in `dialect`'s text form and returns its canonical wire bytes (full
/// objects allowed, as many open containers as the nesting needs). Whitespace and `;`
/// comments may surround the value; anything else after it is an error. Math is single
/// precision, as most builds read it; [`parse_into`] with a double-precision [`Writer`]
/// reads as a double-precision build does (so does [`ParseMany::with_precision`]).
///
/// ```
/// use gdwire::{from_bytes, text, Dialect};
///
/// let bytes = text::parse(Dialect::GODOT_3, "{\n\"hp\": 87.5,\n\"pos\": Vector2( 1, 2 )\n}")?;
/// let dict = from_bytes(Dialect::GODOT_3, &bytes).unwrap().as_dictionary().unwrap();
/// assert_eq!(dict.get_str("hp").unwrap().and_then(|v| v.as_float()), Some(87.5));
///
/// let err = text::parse(Dialect::GODOT_4, "[1, 2").unwrap_err();
/// assert_eq!(err.to_string(), "line 1, column 6: expected ',' or ']', found the end of the text");
/// # Ok::<(), gdwire::text::TextParseError>(())
/// ```
pub fn parse(dialect: Dialect, text: &str) -> Result<Vec<u8>, TextParseError> {
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, dialect)
        .with_full_objects(true)
        .with_heap_spill(true);
    parse_into(&mut w, text)?;
    w.finish().map_err(|e| encode_error(text, e, 0))?;
    Ok(out)
}

/// Reads one value in the writer's dialect's text form and writes it as the next item of
/// `w`, into any [`Sink`]. Objects need [`Writer::with_full_objects`] (except
/// `Object(EncodedObjectAsID, ...)`, an object id), and values with more than
/// [`MAX_OPEN_CONTAINERS`](crate::write::MAX_OPEN_CONTAINERS) containers owing items at once
/// [`Writer::with_heap_spill`] ([`parse`] sets both).
///
/// Real math components are read as the engine build of the writer's precision reads them:
/// `float` by default, `double` with [`Writer::with_precision`]`(`[`Precision::Double`]`)`
/// (a Godot 4 double-precision build's `str_to_var`), which also decides which dictionary
/// keys are the same key.
///
/// ```
/// use gdwire::{text, Dialect, Precision, Writer};
///
/// let mut out = Vec::new();
/// let mut w = Writer::new(&mut out, Dialect::GODOT_4).with_precision(Precision::Double);
/// text::parse_into(&mut w, "Vector2(0.1, 2)")?;
/// w.finish()?;
/// assert_eq!(out[4..12], 0.1f64.to_le_bytes()); // not 0.1f32 widened
///
/// let mut buf = [0u8; 64];
/// let mut w = Writer::new(&mut buf[..], Dialect::GODOT_4);
/// w.begin_array(2)?;
/// text::parse_into(&mut w, "&\"jump\"")?;
/// text::parse_into(&mut w, "Color(1, 0.5, 0, 1)")?;
/// let n = w.finish()?;
/// assert_eq!(n, 8 + 12 + 20);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_into<S: Sink>(w: &mut Writer<S>, text: &str) -> Result<(), TextParseError> {
    let mut p = Parser::new(w.dialect(), text);
    p.set_precision(w.precision());
    let root = p.value().map_err(|e| syntax_error(text, e))?;
    if p.lex.skip_blank() {
        let at = p.lex.offset();
        let found = match p.lex.next() {
            Ok(tok) => tok.describe(),
            Err(_) => "more text".into(),
        };
        let message = alloc::format!("expected the end of the text after the value, found {found}");
        return Err(syntax_error(text, Syntax { at, message }));
    }
    emit::emit(w, &p.tree, root).map_err(|r| encode_error(text, r.error, r.at))
}

/// Reads the values of a text of several (separated by whitespace, newlines or `;`
/// comments) one after another, each as [`parse`] does. After a syntax error the iterator
/// ends: there is no telling where the next value would start.
///
/// ```
/// use gdwire::{text, Dialect};
///
/// let mut values = text::parse_many(Dialect::GODOT_4, "1\n\"a\"\n[\n2\n]\n");
/// assert_eq!(values.next().unwrap()?, [2, 0, 0, 0, 1, 0, 0, 0]);
/// assert_eq!(values.next().unwrap()?.len(), 12);
/// assert_eq!(values.next().unwrap()?.len(), 16);
/// assert_eq!(values.line(), 3);
/// assert!(values.next().is_none());
/// # Ok::<(), gdwire::text::TextParseError>(())
/// ```
pub fn parse_many(dialect: Dialect, text: &str) -> ParseMany<'_> {
    ParseMany {
        parser: Parser::new(dialect, text),
        dialect,
        precision: Precision::Single,
        text,
        start: 0,
        ended: false,
        lines: LineCounter::new(),
    }
}

/// Iterator over the encoded values of a text; see [`parse_many`].
///
/// ```
/// use gdwire::{text, Dialect};
/// let values: Vec<Vec<u8>> = text::parse_many(Dialect::GODOT_3, "; a comment\n1\n2\n").collect::<Result<_, _>>()?;
/// assert_eq!(values.len(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ParseMany<'t> {
    parser: Parser<'t>,
    dialect: Dialect,
    precision: Precision,
    text: &'t str,
    start: usize,
    ended: bool,
    lines: LineCounter,
}

impl fmt::Debug for ParseMany<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ParseMany")
            .field("dialect", &self.dialect)
            .field("offset", &self.start)
            .field("ended", &self.ended)
            .finish_non_exhaustive()
    }
}

impl ParseMany<'_> {
    /// Reads real math as a build of `precision` does, as [`parse_into`] with a writer of
    /// that precision: [`Precision::Double`] for a Godot 4 double-precision build's text.
    ///
    /// ```
    /// use gdwire::{text, Dialect, Precision};
    /// let mut values = text::parse_many(Dialect::GODOT_4, "Vector2(0.1, 2)")
    ///     .with_precision(Precision::Double);
    /// assert_eq!(values.next().unwrap()?[4..12], 0.1f64.to_le_bytes());
    /// # Ok::<(), gdwire::text::TextParseError>(())
    /// ```
    pub fn with_precision(mut self, precision: Precision) -> Self {
        self.parser.set_precision(precision);
        self.precision = precision;
        self
    }

    /// Byte offset where the value last returned (or failed) starts.
    ///
    /// ```
    /// use gdwire::{text, Dialect};
    /// let mut values = text::parse_many(Dialect::GODOT_4, "1 22");
    /// values.next();
    /// values.next();
    /// assert_eq!(values.offset(), 2);
    /// ```
    pub fn offset(&self) -> usize {
        self.start
    }

    /// 1-based line where the value last returned (or failed) starts.
    ///
    /// ```
    /// use gdwire::{text, Dialect};
    /// let mut values = text::parse_many(Dialect::GODOT_4, "1\n\n[2,\n]");
    /// values.next();
    /// values.next();
    /// assert_eq!(values.line(), 3);
    /// ```
    pub fn line(&self) -> usize {
        self.lines.line_at(self.text.as_bytes(), self.start)
    }
}

impl Iterator for ParseMany<'_> {
    type Item = Result<Vec<u8>, TextParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.ended || !self.parser.lex.skip_blank() {
            self.ended = true;
            return None;
        }
        self.start = self.parser.lex.offset();
        let root = match self.parser.value() {
            Ok(root) => root,
            Err(e) => {
                self.ended = true;
                return Some(Err(syntax_error(self.text, e)));
            }
        };
        let mut out = Vec::new();
        let mut w = Writer::new(&mut out, self.dialect)
            .with_full_objects(true)
            .with_heap_spill(true)
            .with_precision(self.precision);
        let result = emit::emit(&mut w, &self.parser.tree, root)
            .map_err(|r| encode_error(self.text, r.error, r.at))
            .and_then(|()| {
                w.finish()
                    .map(drop)
                    .map_err(|e| encode_error(self.text, e, self.start))
            });
        Some(result.map(|()| out))
    }
}

impl core::iter::FusedIterator for ParseMany<'_> {}
