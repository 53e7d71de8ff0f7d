//! `GString`: an owned string block, kept byte for byte.

use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};

use crate::dialect::TextRules;
use crate::read::{text_is_valid, visible_text, StrRef};

/// An owned String or StringName (also node-path parts, property and class names and
/// PackedStringArray elements), kept as the block's bytes exactly as sent.
///
/// Keeping the bytes rather than a Rust `String` is what makes an owned value lossless:
/// Godot 3 strings may hold surrogates, code points above U+10FFFF and 5- or 6-byte forms,
/// which `str` cannot, and any string block may carry a leading BOM or bytes after a NUL,
/// which the engine drops when it reads the text but which re-encoding reproduces.
///
/// Equality, ordering, hashing, `Debug` and `Display` use the text the engine sees
/// ([`GString::bytes`]: BOM skipped, cut at the first NUL), like [`StrRef`]'s.
///
/// ```
/// use gdwire::owned::GString;
/// let s = GString::from("héllo");
/// assert_eq!(s.as_str(), Some("héllo"));
/// assert_eq!(s, "héllo");
/// assert_eq!(format!("{s:?} {s}"), "\"héllo\" héllo");
///
/// // A Godot 3 surrogate: not a `str`, but kept and shown as code points.
/// let odd = GString::from_raw(b"a\xED\xA0\x80".to_vec()).unwrap();
/// assert_eq!(odd.as_str(), None);
/// assert!(odd.code_points().eq([0x61, 0xD800]));
/// assert!(GString::from_raw(vec![0xFF]).is_none()); // no engine reads this
/// ```
#[derive(Clone, Default)]
pub struct GString {
    raw: Vec<u8>,
}

impl GString {
    /// The empty string.
    ///
    /// ```
    /// use gdwire::owned::{GString, Variant};
    /// use gdwire::Dialect;
    ///
    /// let empty = GString::new();
    /// assert_eq!((empty.as_str(), empty.raw().len()), (Some(""), 0));
    /// // Godot 4.6's var_to_bytes(""): the type, then length 0.
    /// assert_eq!(Variant::String(empty).to_vec(Dialect::GODOT_4)?, [4, 0, 0, 0, 0, 0, 0, 0]);
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub const fn new() -> GString {
        GString { raw: Vec::new() }
    }

    /// The block's bytes exactly as they will be sent, if some engine's reader accepts them
    /// (Godot 3's parser, the most lenient; the writer checks them again for strict-UTF-8
    /// dialects). `None` otherwise.
    ///
    /// ```
    /// use gdwire::owned::GString;
    /// let s = GString::from_raw(b"\xEF\xBB\xBFab\0cd".to_vec()).unwrap();
    /// assert_eq!(s.bytes(), b"ab"); // what the engine keeps
    /// assert_eq!(s.raw(), b"\xEF\xBB\xBFab\0cd"); // what is sent
    /// ```
    pub fn from_raw(raw: Vec<u8>) -> Option<GString> {
        text_is_valid(&raw, TextRules::Godot3).then_some(GString { raw })
    }

    /// Bytes of a block already read by a decoder (valid for its dialect).
    pub(crate) fn from_view(s: StrRef<'_>) -> GString {
        GString {
            raw: s.raw().to_vec(),
        }
    }

    /// The block's bytes as they are sent.
    ///
    /// ```
    /// assert_eq!(gdwire::owned::GString::from("ab").raw(), b"ab");
    /// ```
    pub fn raw(&self) -> &[u8] {
        &self.raw
    }

    /// Gives the block's bytes back.
    ///
    /// ```
    /// assert_eq!(gdwire::owned::GString::from("ab").into_raw(), b"ab".to_vec());
    /// ```
    pub fn into_raw(self) -> Vec<u8> {
        self.raw
    }

    /// The text bytes the engine keeps: a leading BOM skipped, cut at the first NUL.
    ///
    /// ```
    /// assert_eq!(gdwire::owned::GString::from("a\0b").bytes(), b"a");
    /// ```
    pub fn bytes(&self) -> &[u8] {
        visible_text(&self.raw)
    }

    /// The text as `&str`, or `None` if it is not strict UTF-8 (only Godot 3 sends such).
    ///
    /// ```
    /// assert_eq!(gdwire::owned::GString::from("ab").as_str(), Some("ab"));
    /// ```
    pub fn as_str(&self) -> Option<&str> {
        core::str::from_utf8(self.bytes()).ok()
    }

    /// True when the text is empty.
    ///
    /// ```
    /// assert!(gdwire::owned::GString::from("\0x").is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.bytes().is_empty()
    }

    /// The code points as the engine decodes them (surrogates and values above U+10FFFF
    /// included).
    ///
    /// ```
    /// assert!(gdwire::owned::GString::from("é").code_points().eq([0xE9]));
    /// ```
    pub fn code_points(&self) -> impl Iterator<Item = u32> + '_ {
        self.as_view().code_points()
    }

    /// A view of the string, as the reader hands them out.
    ///
    /// ```
    /// let s = gdwire::owned::GString::from("ab");
    /// assert_eq!(s.as_view(), "ab");
    /// ```
    pub fn as_view(&self) -> StrRef<'_> {
        // Godot 3's rules decode every strict sequence the same way and also the rest.
        StrRef::new(&self.raw, TextRules::Godot3)
    }
}

impl PartialEq for GString {
    fn eq(&self, other: &Self) -> bool {
        self.bytes() == other.bytes()
    }
}

impl Eq for GString {}

impl PartialEq<str> for GString {
    fn eq(&self, other: &str) -> bool {
        self.bytes() == other.as_bytes()
    }
}

impl PartialEq<&str> for GString {
    fn eq(&self, other: &&str) -> bool {
        self.bytes() == other.as_bytes()
    }
}

impl PartialOrd for GString {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for GString {
    /// By the text's bytes.
    fn cmp(&self, other: &Self) -> Ordering {
        self.bytes().cmp(other.bytes())
    }
}

impl Hash for GString {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.bytes().hash(state)
    }
}

impl fmt::Debug for GString {
    /// As [`StrRef`]'s: the quoted text, or `StrRef([..])` with the bytes when it is not
    /// strict UTF-8.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.as_view(), f)
    }
}

impl fmt::Display for GString {
    /// The text; code points `char` cannot hold are written as U+FFFD.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.as_view(), f)
    }
}

impl From<&str> for GString {
    fn from(s: &str) -> GString {
        GString {
            raw: s.as_bytes().to_vec(),
        }
    }
}

impl From<String> for GString {
    fn from(s: String) -> GString {
        GString {
            raw: s.into_bytes(),
        }
    }
}

impl From<&String> for GString {
    fn from(s: &String) -> GString {
        GString::from(s.as_str())
    }
}

impl From<StrRef<'_>> for GString {
    /// Copies the block's bytes.
    fn from(s: StrRef<'_>) -> GString {
        GString::from_view(s)
    }
}
