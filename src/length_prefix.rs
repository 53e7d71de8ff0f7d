//! The optional `u32` length prefix before a value (docs/wire-format.md §6): its byte order
//! and size, shared by the writer's prefix (`write`) and the framing rules (`frame`).

/// Bytes in a length prefix.
///
/// ```
/// use gdwire::frame::{Framing, PREFIX_LEN};
/// assert_eq!(Framing::default().prefix(0)?.len(), PREFIX_LEN);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const PREFIX_LEN: usize = 4;

/// Byte order of a length prefix (the payload is always little-endian).
///
/// ```
/// use gdwire::frame::Framing;
/// use gdwire::write::Endian;
/// assert_eq!(Framing::new(Endian::Big).prefix(8)?, [0, 0, 0, 8]);
/// assert_eq!(Framing::new(Endian::Little).prefix(8)?, [8, 0, 0, 0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Endian {
    /// Little-endian: the engine's default, and always for `PacketPeerStream`.
    #[default]
    Little,
    /// Big-endian: `StreamPeer.big_endian = true`, `FileAccess.big_endian = true` (Godot 3
    /// `File.endian_swap`).
    Big,
}

impl Endian {
    /// A prefix holding `len` in this byte order.
    #[inline]
    pub(crate) const fn encode(self, len: u32) -> [u8; PREFIX_LEN] {
        match self {
            Endian::Little => len.to_le_bytes(),
            Endian::Big => len.to_be_bytes(),
        }
    }

    /// The length a prefix in this byte order holds.
    #[inline]
    pub(crate) const fn decode(self, prefix: [u8; PREFIX_LEN]) -> u32 {
        match self {
            Endian::Little => u32::from_le_bytes(prefix),
            Endian::Big => u32::from_be_bytes(prefix),
        }
    }
}
