//! The serde error: what went wrong, where in the value (path) and where in the bytes.

use alloc::boxed::Box;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

/// One step of an [`Error`]'s path: a dictionary key (or struct field) or an array index.
///
/// ```
/// use std::collections::HashMap;
/// use gdwire::serde::PathSegment;
/// use gdwire::Dialect;
///
/// // Godot 4.6's var_to_bytes([[[1]]]): the innermost array is not a map.
/// let bytes = [0x1c,0,0,0, 1,0,0,0, 0x1c,0,0,0, 1,0,0,0, 0x1c,0,0,0, 1,0,0,0, 2,0,0,0, 1,0,0,0];
/// let err = gdwire::serde::from_bytes::<Vec<Vec<HashMap<String, i32>>>>(Dialect::GODOT_4, &bytes)
///     .unwrap_err();
/// let path: Vec<&PathSegment> = err.path_segments().collect();
/// assert_eq!(path, [&PathSegment::Index(0), &PathSegment::Index(0)]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathSegment {
    /// A dictionary key (String / StringName key, or another key in its text form), a
    /// struct field or an enum variant.
    Key(String),
    /// An array (or packed array) index.
    Index(usize),
}

/// What failed.
///
/// ```
/// use gdwire::serde::ErrorCode;
/// use gdwire::{Dialect, ErrorKind};
///
/// // Godot 4.6's var_to_bytes({"a": 1}).
/// let bytes = [0x1b,0,0,0, 1,0,0,0, 4,0,0,0, 1,0,0,0, b'a',0,0,0, 2,0,0,0, 1,0,0,0];
/// // Cut short: the reader's error.
/// type Map = std::collections::HashMap<String, i32>;
/// let err = gdwire::serde::from_bytes::<Map>(Dialect::GODOT_4, &bytes[..24]);
/// assert!(matches!(err.unwrap_err().code(), ErrorCode::Wire(ErrorKind::Truncated(_))));
/// // Whole, but not what the Rust type wants: a message.
/// let err = gdwire::serde::from_bytes::<Vec<i32>>(Dialect::GODOT_4, &bytes).unwrap_err();
/// let ErrorCode::Message(m) = err.code() else { panic!() };
/// assert_eq!(m, "invalid type: map, expected a sequence");
/// // The writer refused: a buffer too small.
/// let err = gdwire::serde::to_slice(Dialect::GODOT_4, &1, &mut [0u8; 4]).unwrap_err();
/// assert!(matches!(err.code(), ErrorCode::Write(ErrorKind::BufferFull { needed: 8 })));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum ErrorCode {
    /// The bytes are not a valid value of the dialect (the reader's error; its offset is the
    /// error's offset).
    Wire(crate::ErrorKind),
    /// The writer refused a call (an unsupported type in the dialect, a buffer too small,
    /// a count that does not match the items given, …).
    Write(crate::ErrorKind),
    /// A value does not fit the Rust type (message from serde or from this module, naming
    /// what was expected and what was found).
    Message(String),
}

#[derive(Clone, Debug, PartialEq)]
struct Inner {
    code: ErrorCode,
    offset: Option<usize>,
    /// Innermost segment first (pushed while the error travels outward).
    path: Vec<PathSegment>,
}

/// Error of [`crate::serde`]: the failure, the path to the value (`players[3].pos`) and, for
/// decoding, the byte offset of the value (or of the bad bytes).
///
/// ```
/// use serde::Deserialize;
/// use gdwire::{Dialect, Writer};
///
/// #[derive(Deserialize, Debug)]
/// struct Player { hp: i32 }
///
/// let mut bytes = Vec::new();
/// let mut w = Writer::new(&mut bytes, Dialect::GODOT_4);
/// w.begin_dictionary(1)?;
/// w.string("hp")?;
/// w.string("full")?; // not an int
/// w.finish()?;
///
/// let err = gdwire::serde::from_bytes::<Player>(Dialect::GODOT_4, &bytes).unwrap_err();
/// assert_eq!(err.path(), "hp");
/// assert_eq!(err.offset(), Some(20)); // where the String starts
/// assert_eq!(
///     err.to_string(),
///     "invalid type: string \"full\", expected i32 at hp (byte 20)"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq)]
pub struct Error {
    // Boxed: results stay one word wide on the hot (successful) path.
    inner: Box<Inner>,
}

impl Error {
    pub(crate) fn new(code: ErrorCode) -> Error {
        Error {
            inner: Box::new(Inner {
                code,
                offset: None,
                path: Vec::new(),
            }),
        }
    }

    pub(crate) fn message(msg: impl fmt::Display) -> Error {
        Error::new(ErrorCode::Message(msg.to_string()))
    }

    /// A reader error, at its own offset shifted by `base` (where the decoded bytes start
    /// in the caller's input).
    pub(crate) fn wire(e: crate::Error, base: usize) -> Error {
        let mut err = Error::new(ErrorCode::Wire(e.kind()));
        err.inner.offset = Some(base + e.offset());
        err
    }

    pub(crate) fn write(e: crate::Error) -> Error {
        Error::new(ErrorCode::Write(e.kind()))
    }

    /// Sets the offset if none is known yet (the innermost value that failed wins).
    #[cold]
    pub(crate) fn at(mut self, offset: usize) -> Error {
        if self.inner.offset.is_none() {
            self.inner.offset = Some(offset);
        }
        self
    }

    #[cold]
    pub(crate) fn in_index(mut self, index: usize) -> Error {
        self.inner.path.push(PathSegment::Index(index));
        self
    }

    #[cold]
    pub(crate) fn in_key(mut self, key: String) -> Error {
        self.inner.path.push(PathSegment::Key(key));
        self
    }

    /// What failed.
    ///
    /// ```
    /// use gdwire::serde::ErrorCode;
    /// use gdwire::{Dialect, ErrorKind};
    ///
    /// // Godot 4.6's var_to_bytes(1) with its last byte missing.
    /// let bytes = [2, 0, 0, 0, 1, 0, 0];
    /// let err = gdwire::serde::from_bytes::<i32>(Dialect::GODOT_4, &bytes).unwrap_err();
    /// assert!(matches!(err.code(), ErrorCode::Wire(ErrorKind::Truncated(_))));
    /// ```
    pub fn code(&self) -> &ErrorCode {
        &self.inner.code
    }

    /// Byte offset (in the input given to the deserializer) of the value that failed or of
    /// the malformed bytes; `None` for serialization errors.
    ///
    /// ```
    /// use gdwire::Dialect;
    ///
    /// #[derive(serde::Deserialize, Debug)]
    /// struct Named { a: String }
    ///
    /// // Godot 4.6's var_to_bytes({"a": 1}): the int at byte 20 is not a String.
    /// let bytes = [0x1b,0,0,0, 1,0,0,0, 4,0,0,0, 1,0,0,0, b'a',0,0,0, 2,0,0,0, 1,0,0,0];
    /// let err = gdwire::serde::from_bytes::<Named>(Dialect::GODOT_4, &bytes).unwrap_err();
    /// assert_eq!(err.offset(), Some(20));
    /// let err = gdwire::serde::to_slice(Dialect::GODOT_4, &1, &mut [0u8; 4]).unwrap_err();
    /// assert_eq!(err.offset(), None);
    /// ```
    pub fn offset(&self) -> Option<usize> {
        self.inner.offset
    }

    /// The path from the top-level value to the one that failed, outermost first.
    ///
    /// ```
    /// use gdwire::serde::PathSegment;
    /// use gdwire::Dialect;
    ///
    /// #[derive(serde::Deserialize, Debug)]
    /// struct Named { a: Vec<i32> }
    ///
    /// // Godot 4.6's var_to_bytes({"a": 1}): `a` is not a list.
    /// let bytes = [0x1b,0,0,0, 1,0,0,0, 4,0,0,0, 1,0,0,0, b'a',0,0,0, 2,0,0,0, 1,0,0,0];
    /// let err = gdwire::serde::from_bytes::<Named>(Dialect::GODOT_4, &bytes).unwrap_err();
    /// assert!(err.path_segments().eq([&PathSegment::Key("a".into())]));
    /// ```
    pub fn path_segments(&self) -> impl Iterator<Item = &PathSegment> {
        self.inner.path.iter().rev()
    }

    /// The path as text: `players[3].pos`; empty for the top-level value.
    ///
    /// ```
    /// use gdwire::Dialect;
    ///
    /// // Godot 4.6's var_to_bytes([[[1]]]): the 1 is not a String.
    /// let bytes = [
    ///     0x1c,0,0,0, 1,0,0,0, 0x1c,0,0,0, 1,0,0,0, 0x1c,0,0,0, 1,0,0,0, 2,0,0,0, 1,0,0,0,
    /// ];
    /// let err = gdwire::serde::from_bytes::<Vec<Vec<Vec<String>>>>(Dialect::GODOT_4, &bytes);
    /// let err = err.unwrap_err();
    /// assert_eq!(err.path(), "[0][0][0]");
    /// assert_eq!(err.offset(), Some(24));
    /// ```
    pub fn path(&self) -> String {
        let mut out = String::new();
        for seg in self.path_segments() {
            match seg {
                PathSegment::Key(k) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(k);
                }
                PathSegment::Index(i) => {
                    out.push('[');
                    out.push_str(&i.to_string());
                    out.push(']');
                }
            }
        }
        out
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.inner.code {
            ErrorCode::Wire(kind) => write!(f, "malformed input: {kind}")?,
            ErrorCode::Write(kind) => write!(f, "cannot encode: {kind}")?,
            ErrorCode::Message(m) => f.write_str(m)?,
        }
        if !self.inner.path.is_empty() {
            write!(f, " at {}", self.path())?;
        }
        if let Some(offset) = self.inner.offset {
            write!(f, " (byte {offset})")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("code", &self.inner.code)
            .field("path", &self.path())
            .field("offset", &self.inner.offset)
            .finish()
    }
}

impl serde::de::StdError for Error {}

impl serde::de::Error for Error {
    #[cold]
    fn custom<T: fmt::Display>(msg: T) -> Error {
        Error::message(msg)
    }
}

impl serde::ser::Error for Error {
    #[cold]
    fn custom<T: fmt::Display>(msg: T) -> Error {
        Error::message(msg)
    }
}

/// `Result` with the serde [`Error`].
pub type Result<T, E = Error> = core::result::Result<T, E>;
