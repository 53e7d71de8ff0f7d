//! NodePath views (docs/wire-format.md §4.5).

use crate::dialect::TextRules;
use crate::error::{Error, ErrorKind, Expected, Result};
use crate::read::input::take;
use crate::read::packed::PackedStrings;
use crate::read::str_ref::{StrRef, StrRun};

const NEW_FORMAT: u32 = 0x8000_0000;
const FLAG_ABSOLUTE: u32 = 1;
const FLAG_PROPERTY: u32 = 2;

/// A borrowed NodePath: names (`/`-separated) then subnames (`:`-separated).
///
/// ```
/// use gdwire::{from_bytes, Dialect};
/// // NodePath("/root/a:b") in Godot 4 (docs/wire-format.md §7).
/// let bytes = [0x16,0,0,0, 2,0,0,0x80, 1,0,0,0, 1,0,0,0,
///     4,0,0,0, b'r',b'o',b'o',b't', 1,0,0,0, b'a',0,0,0, 1,0,0,0, b'b',0,0,0];
/// let path = from_bytes(Dialect::GODOT_4, &bytes)?.as_node_path().unwrap();
/// assert!(path.is_absolute());
/// assert!(path.names().eq(["root", "a"]));
/// assert!(path.subnames().eq(["b"]));
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodePathRef<'a> {
    parts: PackedStrings<'a>,
    name_count: usize,
    flags: u32,
    /// Godot 4.3+ keeps the absolute bit of a path with no components; older engines build
    /// an empty path (`Dialect::keeps_empty_absolute_node_path`).
    keep_empty_absolute: bool,
}

impl<'a> NodePathRef<'a> {
    /// `StrRef::note_validated` for every name and subname.
    #[inline(always)]
    pub(crate) fn note_validated(&mut self, validated: bool) {
        self.parts.note_validated(validated);
    }

    /// Reads a NodePath payload at `pos`; returns the view and its end.
    pub(crate) fn read(
        data: &'a [u8],
        pos: usize,
        rules: TextRules,
        validate: bool,
        keep_empty_absolute: bool,
    ) -> Result<(NodePathRef<'a>, usize)> {
        let truncated = Error::new(ErrorKind::Truncated(Expected::NodePathHeader), pos);
        let first = take(data, pos, 4).ok_or(truncated)?;
        let names = u32::from_le_bytes([first[0], first[1], first[2], first[3]]);
        if names & NEW_FORMAT == 0 {
            return Err(Error::new(ErrorKind::OldNodePath, pos));
        }
        let words = take(data, pos, 12).ok_or(truncated)?;
        let word =
            |i: usize| u32::from_le_bytes([words[i], words[i + 1], words[i + 2], words[i + 3]]);
        let names = names & !NEW_FORMAT;
        let mut subnames = word(4);
        let flags = word(8);
        if flags & FLAG_PROPERTY != 0 {
            // Obsolete separate property name: read as one more subname, like the engine.
            subnames = subnames.wrapping_add(1);
        }
        // The engine's total is an unsigned 32-bit sum, wrapping included.
        let total = names.wrapping_add(subnames);
        let (run, end) = StrRun::read(data, pos + 12, total as usize, rules, validate)?;
        let parts = PackedStrings::new(run);
        let name_count = names.min(total) as usize;
        Ok((
            NodePathRef {
                parts,
                name_count,
                flags,
                keep_empty_absolute,
            },
            end,
        ))
    }

    /// True for a path starting at the root (`/root/...`). As in the engine of the dialect: a
    /// path with no names and no subnames stays absolute in Godot 4.3 and newer
    /// (`NodePath("/")`), but Godot 3, Godot 4.0–4.2 and Pandemonium decode it as the empty,
    /// relative path; [`NodePathRef::flags`] has the bit as sent.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// // NodePath("/root/a:b")
    /// let bytes = [22, 0, 0, 0, 2, 0, 0, 0x80, 1, 0, 0, 0, 1, 0, 0, 0,
    ///     4, 0, 0, 0, b'r', b'o', b'o', b't', 1, 0, 0, 0, b'a', 0, 0, 0, 1, 0, 0, 0, b'b', 0, 0, 0];
    /// let path = from_bytes(Dialect::GODOT_4, &bytes)?.as_node_path().unwrap();
    /// assert!(path.is_absolute());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_absolute(&self) -> bool {
        self.flags & FLAG_ABSOLUTE != 0 && (self.keep_empty_absolute || !self.parts.is_empty())
    }

    /// True when the obsolete "property" flag (bit 1) was set: the last subname was sent as a
    /// separate property name. The engine never writes it.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// // NodePath("/root/a:b")
    /// let bytes = [22, 0, 0, 0, 2, 0, 0, 0x80, 1, 0, 0, 0, 1, 0, 0, 0,
    ///     4, 0, 0, 0, b'r', b'o', b'o', b't', 1, 0, 0, 0, b'a', 0, 0, 0, 1, 0, 0, 0, b'b', 0, 0, 0];
    /// let path = from_bytes(Dialect::GODOT_4, &bytes)?.as_node_path().unwrap();
    /// assert!(!path.has_property_flag());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn has_property_flag(&self) -> bool {
        self.flags & FLAG_PROPERTY != 0
    }

    /// The flags word as sent.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// // NodePath("/root/a:b")
    /// let bytes = [22, 0, 0, 0, 2, 0, 0, 0x80, 1, 0, 0, 0, 1, 0, 0, 0,
    ///     4, 0, 0, 0, b'r', b'o', b'o', b't', 1, 0, 0, 0, b'a', 0, 0, 0, 1, 0, 0, 0, b'b', 0, 0, 0];
    /// let path = from_bytes(Dialect::GODOT_4, &bytes)?.as_node_path().unwrap();
    /// assert_eq!(path.flags(), 1); // bit 0: absolute
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn flags(&self) -> u32 {
        self.flags
    }

    /// Whether a path without components keeps its absolute bit (the Godot 4 reading).
    #[cfg(feature = "alloc")]
    pub(crate) fn keeps_empty_absolute(&self) -> bool {
        self.keep_empty_absolute
    }

    /// Number of names.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// // NodePath("/root/a:b")
    /// let bytes = [22, 0, 0, 0, 2, 0, 0, 0x80, 1, 0, 0, 0, 1, 0, 0, 0,
    ///     4, 0, 0, 0, b'r', b'o', b'o', b't', 1, 0, 0, 0, b'a', 0, 0, 0, 1, 0, 0, 0, b'b', 0, 0, 0];
    /// let path = from_bytes(Dialect::GODOT_4, &bytes)?.as_node_path().unwrap();
    /// assert_eq!(path.name_count(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn name_count(&self) -> usize {
        self.name_count
    }

    /// Number of subnames (including a legacy property name).
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// // NodePath("/root/a:b")
    /// let bytes = [22, 0, 0, 0, 2, 0, 0, 0x80, 1, 0, 0, 0, 1, 0, 0, 0,
    ///     4, 0, 0, 0, b'r', b'o', b'o', b't', 1, 0, 0, 0, b'a', 0, 0, 0, 1, 0, 0, 0, b'b', 0, 0, 0];
    /// let path = from_bytes(Dialect::GODOT_4, &bytes)?.as_node_path().unwrap();
    /// assert_eq!(path.subname_count(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn subname_count(&self) -> usize {
        self.parts.len() - self.name_count
    }

    /// The names, in order.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// // NodePath("/root/a:b")
    /// let bytes = [22, 0, 0, 0, 2, 0, 0, 0x80, 1, 0, 0, 0, 1, 0, 0, 0,
    ///     4, 0, 0, 0, b'r', b'o', b'o', b't', 1, 0, 0, 0, b'a', 0, 0, 0, 1, 0, 0, 0, b'b', 0, 0, 0];
    /// let path = from_bytes(Dialect::GODOT_4, &bytes)?.as_node_path().unwrap();
    /// assert!(path.names().eq(["root", "a"]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn names(&self) -> impl Iterator<Item = StrRef<'a>> + 'a {
        self.parts.iter().take(self.name_count)
    }

    /// The subnames, in order.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// // NodePath("/root/a:b")
    /// let bytes = [22, 0, 0, 0, 2, 0, 0, 0x80, 1, 0, 0, 0, 1, 0, 0, 0,
    ///     4, 0, 0, 0, b'r', b'o', b'o', b't', 1, 0, 0, 0, b'a', 0, 0, 0, 1, 0, 0, 0, b'b', 0, 0, 0];
    /// let path = from_bytes(Dialect::GODOT_4, &bytes)?.as_node_path().unwrap();
    /// assert!(path.subnames().eq(["b"]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn subnames(&self) -> impl Iterator<Item = StrRef<'a>> + 'a {
        self.parts.iter().skip(self.name_count)
    }

    /// Names then subnames, as string blocks on the wire.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// // NodePath("/root/a:b")
    /// let bytes = [22, 0, 0, 0, 2, 0, 0, 0x80, 1, 0, 0, 0, 1, 0, 0, 0,
    ///     4, 0, 0, 0, b'r', b'o', b'o', b't', 1, 0, 0, 0, b'a', 0, 0, 0, 1, 0, 0, 0, b'b', 0, 0, 0];
    /// let path = from_bytes(Dialect::GODOT_4, &bytes)?.as_node_path().unwrap();
    /// assert!(path.parts().iter().eq(["root", "a", "b"]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parts(&self) -> PackedStrings<'a> {
        self.parts
    }
}
