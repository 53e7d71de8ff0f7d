//! The optional `u32` length prefix before the value (docs/wire-format.md §6).

use crate::error::{ErrorKind, Result};
use crate::length_prefix::Endian;
use crate::write::primitives::MAX_LEN;
use crate::write::sink::Sink;
use crate::write::writer::Writer;

impl<S: Sink> Writer<S> {
    /// Precedes the value with its `u32` length in `endian` order, as `StreamPeer.put_var`,
    /// `FileAccess.store_var` (Godot 3 `File.store_var`) and `PacketPeerStream` write (spec
    /// §6). The prefix is patched by [`Writer::finish`].
    ///
    /// ```
    /// use gdwire::write::Endian;
    /// use gdwire::{Dialect, Writer};
    /// let mut out = Vec::new();
    /// let mut w = Writer::new(&mut out, Dialect::GODOT_4).with_length_prefix(Endian::Little);
    /// w.int(7)?;
    /// w.finish()?;
    /// assert_eq!(out, [8, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0]); // StreamPeer.put_var(7)
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_length_prefix(mut self, endian: Endian) -> Self {
        self.prefix = Some(endian);
        self
    }

    /// Before the first item: room for the prefix, if any.
    pub(super) fn reserve_prefix(&mut self) -> Result<()> {
        if self.prefix.is_some() {
            self.prefix_at = self.sink.position();
            self.u32(0)?;
        }
        Ok(())
    }

    /// After the value: the prefix gets its length.
    pub(super) fn patch_prefix(&mut self) -> Result<()> {
        if let Some(endian) = self.prefix {
            let len = self.sink.position() - self.prefix_at - 4;
            if len > MAX_LEN {
                return Err(self.err(ErrorKind::TooLong { len }));
            }
            self.sink
                .patch(self.prefix_at, &endian.encode(len as u32))?;
        }
        Ok(())
    }
}
