//! JSON in the convention of Godot 4.4+ `JSON.from_native` / `JSON.to_native`, made lossless.
//! Feature `json`.
//!
//! [`write_json`] turns a decoded [`VariantRef`](crate::VariantRef) into one JSON document;
//! [`from_json_str`] / [`write_json_value`] turn such a document back into wire bytes
//! ([`documents`] a text of many documents, one per line), and the
//! bytes are the canonical encoding of the value (what [`crate::to_vec`] writes for the view),
//! NaN payloads, `-0.0`, 64-bit math and ids included. Input is strict RFC 8259 JSON by
//! default; [`Options::ENGINE`] ([`from_json_str_with`], [`documents_with`]) also reads what
//! Godot's `JSON.stringify` writes beyond it (`1e99999` for inf, `null` for NaN, raw control
//! characters), the way the engine reads it.
//!
//! | value | JSON |
//! |---|---|
//! | Nil, bool | `null`, `true`, `false` |
//! | int | `"i:5"` |
//! | float | `"f:1.5"`, `"f:-0.0"`, `"f:1e100"`, `"f:inf"`, `"f:-inf"`, `"f:nan"`, `"f:nan:0x7ff8000000000001"` |
//! | String / StringName / NodePath | `"s:text"` / `"sn:name"` / `"np:/root/a:b"` |
//! | math types, Color | `{"type":"Vector2","args":[1.5,2.0]}` (Basis and Transform list the basis columns, like the engine) |
//! | 64-bit math (Godot 4 double builds) | the same plus `"precision":"double"` |
//! | RID | `{"type":"RID"}`; Godot 4 adds `"id":"<u64>"` |
//! | Object as id | `{"type":"Object","id":"<u64>"}` (`"0"` = null object) |
//! | full Object | `{"type":"Node","props":["name",value,…]}` |
//! | Callable / Signal | `{"type":"Callable"}` / `{"type":"Signal","name":"…","id":"<u64>"}` |
//! | Array | `[…]`; typed: `{"type":"Array","elem_type":"int","args":[…]}` |
//! | Dictionary | `{"type":"Dictionary","args":[k,v,…]}` (+ `key_type` / `value_type`) |
//! | packed arrays | `{"type":"PackedInt32Array","args":[…]}` (flattened components) |
//!
//! Type names are the dialect's own (`Transform`, `Quat`, `PoolIntArray` in Godot 3); the
//! Godot 4 names are accepted too. Numbers in `args` are written in the shortest form that
//! reads back to the same bits at the value's width; non-finite ones are the strings `"inf"`,
//! `"-inf"`, `"nan"` or `"nan:0x…"` (raw bits of that width). Text that is not UTF-8 (Godot 3
//! accepts some) is written as hex: `{"type":"String","hex":"…"}`, or `{"hex":"…"}` where a
//! name is expected. `docs/json.md` in the repository has the full description.
//!
//! ```
//! use gdwire::{from_bytes, json, Dialect};
//! // var2bytes({"hp": 100}) in Godot 4.
//! let packet = [
//!     0x1b, 0, 0, 0, 1, 0, 0, 0,
//!     4, 0, 0, 0, 2, 0, 0, 0, b'h', b'p', 0, 0,
//!     2, 0, 0, 0, 100, 0, 0, 0,
//! ];
//! let value = from_bytes(Dialect::GODOT_4, &packet)?;
//! let text = json::to_json_string(Dialect::GODOT_4, &value)?;
//! assert_eq!(text, r#"{"type":"Dictionary","args":["s:hp","i:100"]}"#);
//! assert_eq!(json::from_json_str(Dialect::GODOT_4, &text)?, packet);
//! # Ok::<(), gdwire::json::JsonError>(())
//! ```

mod float;
mod from_json;
mod names;
mod parse;
mod to_json;

use crate::math::Precision;
use alloc::string::{String, ToString};

pub use from_json::{
    documents, documents_with, from_json_str, from_json_str_with, from_json_value,
    from_json_value_with, write_json_value, Documents,
};
pub use parse::MAX_JSON_DEPTH;
pub use to_json::{to_json_string, write_json};

/// How JSON text is read: [`Options::STRICT`] (the default, what [`from_json_str`] and
/// [`documents`] use) or [`Options::ENGINE`].
///
/// Strict reading takes exactly RFC 8259 JSON. Godot's `JSON.stringify` goes beyond it, so
/// `JSON.stringify(JSON.from_native(v))` texts with non-finite floats or control characters
/// need [`Options::ENGINE`], which reads them the way the engine's `JSON.parse` +
/// `JSON.to_native` do:
///
/// - a number past the `f64` range (the engine writes ±inf as `1e99999` / `-1e99999`) is
///   ±inf, as the engine's `String::to_float` gives it (strict: "number out of range");
/// - raw control characters U+0001-U+001F inside strings are taken as they are (the engine
///   writes them unescaped); a raw NUL is still an error, as in the engine, whose text ends
///   there;
/// - `null` in a float slot of `args` (the engine writes NaN as `null`) is `0.0`, the value the
///   engine's `to_native` makes of it: the NaN is lost, as in the engine.
///
/// Everything else is read as in strict mode; text strict mode accepts gives the same bytes.
///
/// ```
/// use gdwire::{json, Dialect};
/// // What Godot 4.6 JSON.stringify(JSON.from_native(Vector2(INF, NAN))) writes.
/// let text = r#"{"type":"Vector2","args":[1e99999,null]}"#;
/// assert!(json::from_json_str(Dialect::GODOT_4, text).is_err());
/// let bytes = json::from_json_str_with(Dialect::GODOT_4, text, json::Options::ENGINE)?;
/// assert_eq!(bytes, [5, 0, 0, 0, 0, 0, 0x80, 0x7f, 0, 0, 0, 0]);
/// # Ok::<(), gdwire::json::JsonError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Read Godot's `JSON.stringify` extensions (see above).
    pub engine_compatible: bool,
    /// The precision of real math types and packed vector arrays whose JSON does not say
    /// (`"precision":"double"` always wins): single by default, as most builds read the
    /// engine's `JSON.to_native`; [`Precision::Double`] reads as a Godot 4 double-precision
    /// build does.
    pub precision: Precision,
}

impl Options {
    /// RFC 8259 JSON only (the default).
    pub const STRICT: Options = Options {
        engine_compatible: false,
        precision: Precision::Single,
    };
    /// Also what Godot's `JSON.stringify` writes, read as the engine reads it.
    pub const ENGINE: Options = Options {
        engine_compatible: true,
        precision: Precision::Single,
    };

    /// These options with unmarked math read in `precision`.
    ///
    /// ```
    /// use gdwire::{json, Dialect, Precision};
    /// // A double-precision build's JSON.stringify(JSON.from_native(Vector2(0.1, 2))).
    /// let text = r#"{"type":"Vector2","args":[0.1,2.0]}"#;
    /// let options = json::Options::ENGINE.with_precision(Precision::Double);
    /// let bytes = json::from_json_str_with(Dialect::GODOT_4, text, options)?;
    /// assert_eq!(bytes[..4], [5, 0, 1, 0]); // bit 16: 64-bit components
    /// assert_eq!(bytes[4..12], 0.1f64.to_le_bytes());
    /// # Ok::<(), gdwire::json::JsonError>(())
    /// ```
    pub const fn with_precision(mut self, precision: Precision) -> Options {
        self.precision = precision;
        self
    }
}

/// Why a value could not be converted to or from JSON.
///
/// ```
/// use gdwire::{json, Dialect};
/// let err = json::from_json_str(Dialect::GODOT_3, r#"{"type":"Vector2i","args":[1,2]}"#).unwrap_err();
/// assert!(err.to_string().contains("Vector2i")); // Godot 3 has no Vector2i
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum JsonError {
    /// A view could not be read (only for views not validated by the decoder).
    #[error("{0}")]
    Read(#[from] crate::Error),
    /// The text is not JSON (or nests deeper than [`MAX_JSON_DEPTH`], or repeats a key in
    /// one object).
    #[error("invalid JSON: {message} at line {line} column {column}")]
    Syntax {
        /// What is wrong.
        message: String,
        /// 1-based line.
        line: usize,
        /// 1-based column, in bytes.
        column: usize,
    },
    /// The JSON does not follow the convention; `path` locates it (`$.args[2]`).
    #[error("{message} at {path}")]
    Invalid {
        /// What is wrong.
        message: String,
        /// Where, from the document root `$`.
        path: String,
    },
    /// The writer refused the value (e.g. a type the dialect lacks); `path` locates it.
    #[error("cannot encode {path}: {error}")]
    Encode {
        /// The writer's error (its offset is in the output).
        error: crate::Error,
        /// Where, from the document root `$`.
        path: String,
    },
    /// The `fmt::Write` target failed.
    #[error("formatter error")]
    Fmt,
}

impl From<core::fmt::Error> for JsonError {
    fn from(_: core::fmt::Error) -> Self {
        JsonError::Fmt
    }
}

impl JsonError {
    fn invalid(message: String, path: String) -> JsonError {
        JsonError::Invalid { message, path }
    }

    fn encode(error: crate::Error, path: &str) -> JsonError {
        JsonError::Encode {
            error,
            path: path.to_string(),
        }
    }
}

#[cfg(test)]
mod tests;
