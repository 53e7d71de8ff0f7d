//! NodePath: from parts, from text, from a view.

use crate::error::{ErrorKind, Result};
use crate::read::NodePathRef;
use crate::variant_type::VariantType;
use crate::write::sink::Sink;
use crate::write::writer::Writer;

use VariantType as T;

pub(super) const NODE_PATH_NEW_FORMAT: u32 = 0x8000_0000;

impl<S: Sink> Writer<S> {
    /// A NodePath from its parts: names (`/`-separated in text), subnames (`:`-separated),
    /// and whether it is absolute. Pad bytes are written as zeros (the engine before 4.6.3
    /// leaves them uninitialised).
    ///
    /// ```
    /// use gdwire::{from_bytes, text, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.node_path(&["root", "Player"], &["position"], true)?;
    /// w.finish()?;
    /// assert_eq!(text::to_text(Dialect::GODOT_4, &from_bytes(Dialect::GODOT_4, &out)?)?, "NodePath(\"/root/Player:position\")");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn node_path<N: AsRef<str>, U: AsRef<str>>(
        &mut self,
        names: &[N],
        subnames: &[U],
        absolute: bool,
    ) -> Result<()> {
        self.leaf(|w| {
            let n = w.count(names.len())?;
            let s = w.count(subnames.len())?;
            w.node_path_head(n, s, absolute)?;
            for part in names {
                w.text_block(part.as_ref())?;
            }
            for part in subnames {
                w.text_block(part.as_ref())?;
            }
            Ok(())
        })
    }

    /// A NodePath parsed from text the way the engine's `NodePath(String)` does: absolute if
    /// it starts with `/`; names are the non-empty `/`-separated parts before the first `:`;
    /// subnames are the `:`-separated parts after it, where only a trailing empty one is
    /// allowed (`"a:b:"`); an empty subname elsewhere (`"a::b"`) is
    /// [`ErrorKind::InvalidNodePath`] (the engine prints an error and makes an empty path).
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4);
    /// w.node_path_str("/root//a:b")?;
    /// w.finish()?;
    /// let p = from_bytes(Dialect::GODOT_4, &out)?.as_node_path().unwrap();
    /// assert!(p.is_absolute());
    /// assert!(p.names().eq(["root", "a"]));
    /// assert!(p.subnames().eq(["b"]));
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn node_path_str(&mut self, path: &str) -> Result<()> {
        self.leaf(|w| {
            let (absolute, names, subnames) =
                split_node_path(path).ok_or_else(|| w.err(ErrorKind::InvalidNodePath))?;
            let names = names.split('/').filter(|s| !s.is_empty());
            let subnames = subnames.split(':').filter(|s| !s.is_empty());
            let n = w.count(names.clone().count())?;
            let s = w.count(subnames.clone().count())?;
            w.node_path_head(n, s, absolute)?;
            for part in names.chain(subnames) {
                w.text_block(part)?;
            }
            Ok(())
        })
    }

    /// A NodePath from its parts as raw bytes, each checked for this dialect's reader.
    #[cfg(any(feature = "json", feature = "serde"))]
    pub(crate) fn node_path_bytes<B: AsRef<[u8]>>(
        &mut self,
        absolute: bool,
        names: &[B],
        subnames: &[B],
    ) -> Result<()> {
        self.leaf(|w| {
            let n = w.count(names.len())?;
            let s = w.count(subnames.len())?;
            w.node_path_head(n, s, absolute)?;
            for part in names.iter().chain(subnames) {
                w.str_block(part.as_ref())?;
            }
            Ok(())
        })
    }

    pub(crate) fn node_path_head(
        &mut self,
        names: u32,
        subnames: u32,
        absolute: bool,
    ) -> Result<()> {
        self.header(T::NodePath, 0)?;
        self.u32(names | NODE_PATH_NEW_FORMAT)?;
        self.u32(subnames)?;
        self.u32(absolute as u32)
    }

    pub(super) fn put_node_path_view(&mut self, p: &NodePathRef<'_>) -> Result<()> {
        let names = self.count(p.name_count())?;
        let subnames = self.count(p.subname_count())?;
        // The absolute bit as sent (`is_absolute()` mirrors the engine's decoder, which in
        // Godot 3 drops it for a path without names), so engine bytes re-encode unchanged.
        self.node_path_head(names, subnames, p.flags() & 1 != 0)?;
        for part in p.parts().iter() {
            self.str_block(part.raw())?;
        }
        Ok(())
    }
}

/// Splits NodePath text like the engine's `NodePath(String)`: (absolute, names part,
/// subnames part), or `None` for an empty subname that is not at the end.
pub(crate) fn split_node_path(path: &str) -> Option<(bool, &str, &str)> {
    let absolute = path.starts_with('/');
    let (names, subnames) = match path.find(':') {
        Some(i) => (&path[..i], &path[i + 1..]),
        None => (path, ""),
    };
    let mut parts = subnames.split(':').peekable();
    while let Some(part) = parts.next() {
        if part.is_empty() && parts.peek().is_some() {
            return None;
        }
    }
    Some((absolute, names, subnames))
}
