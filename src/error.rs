//! One small `Copy` error type: what went wrong and the byte offset where it did.

use core::fmt;

use crate::variant_type::VariantType;

/// What the decoder expected to find where the input ended or went wrong.
///
/// ```
/// use gdwire::{from_bytes, Dialect, ErrorKind, Expected, VariantType};
/// let err = from_bytes(Dialect::GODOT_4, &[2, 0, 0, 0, 1]).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Truncated(Expected::Payload(VariantType::Int)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Expected {
    /// A 4-byte value header.
    Header,
    /// The fixed-size payload of a value of this type.
    Payload(VariantType),
    /// A 4-byte string length.
    StringLength,
    /// The three 4-byte words after a NodePath header.
    NodePathHeader,
    /// A 4-byte element or entry count.
    Count,
    /// The elements of a packed array of this type.
    Elements(VariantType),
    /// A 4-byte container element type id.
    ContainerType,
    /// An object's 4-byte property count.
    PropertyCount,
    /// A string-typed value naming a class (Pandemonium typed arrays).
    ClassName,
    /// A 4-byte frame length prefix (`StreamPeer.put_var`, `store_var`, `PacketPeerStream`).
    LengthPrefix,
    /// The rest of a frame whose length prefix was read.
    FramePayload,
    /// A field of a high-level multiplayer packet ([`crate::multiplayer`]).
    Packet(PacketField),
}

/// A field of a `SceneMultiplayer` packet, named in [`Expected::Packet`].
///
/// ```
/// use gdwire::multiplayer::Packet;
/// use gdwire::{ErrorKind, Expected, PacketField};
/// // An empty SceneMultiplayer packet: byte 0 (command and flags) is missing.
/// let err = Packet::parse(&[]).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Truncated(Expected::Packet(PacketField::Command)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PacketField {
    /// Byte 0: command and flags.
    Command,
    /// A remote call's node id (8, 16 or 32 bits).
    NodeId,
    /// A remote call's method id (8 or 16 bits).
    MethodId,
    /// A remote call's argument count byte.
    ArgumentCount,
    /// A compressed variant (argument, spawn state, custom spawn argument, synced property).
    Value,
    /// A path-cache checksum (32 hex digits and a NUL).
    Checksum,
    /// A path-cache id, spawner id or net id (u32).
    Id,
    /// The checksum-ok byte of CONFIRM_PATH.
    Confirmation,
    /// The payload of RAW or the inner packet of a relay.
    Payload,
    /// SPAWN's scene id byte.
    SceneId,
    /// SPAWN's count of synchronizer ids or name length (u32).
    Count,
    /// A node name or node path.
    Name,
    /// The u32 size before a custom spawn argument or a sync entry's values.
    Size,
    /// SYNC's u16 sync time.
    SyncTime,
    /// A delta sync entry's u64 changed-property mask.
    Mask,
    /// SYS's sub-command byte.
    SysCommand,
    /// A peer id (i32) in SYS.
    PeerId,
}

impl fmt::Display for PacketField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PacketField::Command => "the command byte",
            PacketField::NodeId => "the node id",
            PacketField::MethodId => "the method id",
            PacketField::ArgumentCount => "the argument count",
            PacketField::Value => "a compressed value",
            PacketField::Checksum => "the 33-byte path checksum",
            PacketField::Id => "a 4-byte id",
            PacketField::Confirmation => "the confirmation byte",
            PacketField::Payload => "a non-empty payload",
            PacketField::SceneId => "the scene id",
            PacketField::Count => "a 4-byte count",
            PacketField::Name => "a name",
            PacketField::Size => "a 4-byte size",
            PacketField::SyncTime => "the 2-byte sync time",
            PacketField::Mask => "the 8-byte property mask",
            PacketField::SysCommand => "the SYS sub-command",
            PacketField::PeerId => "a 4-byte peer id",
        })
    }
}

/// Why a `SceneMultiplayer` packet is malformed (other than running short), in
/// [`ErrorKind::InvalidPacket`].
///
/// ```
/// use gdwire::multiplayer::Packet;
/// use gdwire::{ErrorKind, PacketProblem};
/// // A packet whose length field does not match its bytes.
/// let err = Packet::parse(&[0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::InvalidPacket(PacketProblem::Length));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PacketProblem {
    /// A remote call whose node-id width bits say 3 (only 0, 1, 2 exist).
    NodeIdWidth,
    /// A SYS sub-command other than AUTH, ADD_PEER, DEL_PEER, RELAY.
    SysCommand(u8),
    /// A relay whose inner packet is itself SYS (the engine rejects it).
    RelayedSys,
    /// A spawn whose name length is zero.
    EmptyName,
    /// A node path offset (bit 31 of a remote call's node id) outside the packet or inside
    /// the call's header.
    PathOffset,
    /// A size-prefixed block (custom spawn argument, sync entry) whose values do not fill it
    /// exactly.
    SizeMismatch,
    /// A delta sync entry whose value count differs from the bits set in its mask, or whose
    /// mask is zero.
    ValueCount,
    /// A fixed-size packet (CONFIRM_PATH, DESPAWN, ADD_PEER, DEL_PEER) with bytes after it.
    Length,
    /// A node name, node path or checksum that is not UTF-8.
    Text,
    /// A WebSocket peer id message with an id below 2.
    PeerId,
    /// Writer: a scene spawn with scene id 255 (that value means a custom spawn).
    SceneId,
}

impl fmt::Display for PacketProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PacketProblem::NodeIdWidth => f.write_str("node id width code 3"),
            PacketProblem::SysCommand(c) => write!(f, "unknown SYS sub-command {c}"),
            PacketProblem::RelayedSys => f.write_str("relayed packet is a SYS packet"),
            PacketProblem::EmptyName => f.write_str("empty spawn name"),
            PacketProblem::PathOffset => f.write_str("node path offset out of range"),
            PacketProblem::SizeMismatch => f.write_str("values do not fill their size"),
            PacketProblem::ValueCount => f.write_str("value count differs from the mask"),
            PacketProblem::Length => f.write_str("bytes after a fixed-size packet"),
            PacketProblem::Text => f.write_str("name or path is not UTF-8"),
            PacketProblem::PeerId => f.write_str("peer id below 2"),
            PacketProblem::SceneId => f.write_str("scene id 255 is reserved for custom spawns"),
        }
    }
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::Header => f.write_str("a 4-byte value header"),
            Expected::Payload(ty) => write!(f, "the {ty} payload"),
            Expected::StringLength => f.write_str("a 4-byte string length"),
            Expected::NodePathHeader => f.write_str("NodePath name count, subname count and flags"),
            Expected::Count => f.write_str("a 4-byte element count"),
            Expected::Elements(ty) => write!(f, "the {ty} elements"),
            Expected::ContainerType => f.write_str("a 4-byte container element type"),
            Expected::PropertyCount => f.write_str("a 4-byte object property count"),
            Expected::ClassName => f.write_str("a String or StringName class name"),
            Expected::LengthPrefix => f.write_str("a 4-byte frame length prefix"),
            Expected::FramePayload => f.write_str("the rest of the frame"),
            Expected::Packet(field) => write!(f, "{field}"),
        }
    }
}

/// The kind of failure. Each maps to the Godot `Error` code the engine returns for the same
/// input ([`ErrorKind::engine_code`]).
///
/// ```
/// use gdwire::{Decoder, Dialect, ErrorKind};
/// let err = Decoder::new(Dialect::GODOT_4).decode_exact(&[0, 0, 0, 0, 9]).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::TrailingBytes { count: 1 });
/// assert_eq!(err.kind().engine_code(), None); // the engine ignores trailing bytes
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended before a complete value.
    #[error("input ends early: expected {0}")]
    Truncated(Expected),
    /// The header's type id is not a type of the dialect (`>= VARIANT_MAX`).
    #[error("unknown type id {id} (this dialect has ids 0..{max})")]
    UnknownType {
        /// The type id read.
        id: u8,
        /// The dialect's `VARIANT_MAX`.
        max: u8,
    },
    /// A string block's length is negative or, with its padding, runs past the input.
    #[error("string length {len} is negative or runs past the end of input (padding included)")]
    StringLength {
        /// The length as the engine reads it (`i32`).
        len: i32,
    },
    /// String text the dialect's UTF-8 parser rejects.
    #[error("string text is not valid UTF-8 for this dialect")]
    InvalidText,
    /// A packed array count that is negative.
    #[error("negative element count {count}")]
    NegativeCount {
        /// The count as read (`i32`).
        count: i32,
    },
    /// A packed array whose `count * element size` overflows the engine's 32-bit `int`.
    #[error("{count} elements of {size} bytes overflow a 32-bit size")]
    SizeOverflow {
        /// The element count.
        count: u32,
        /// Bytes per element.
        size: u32,
    },
    /// A NodePath in the pre-3.0 "just a string" form (bit 31 of the first word clear).
    #[error("NodePath in the obsolete string form (bit 31 of the name count clear)")]
    OldNodePath,
    /// A full (class and properties) object while objects are not allowed.
    #[error("full object encoding is not allowed (enable allow_objects)")]
    ObjectsNotAllowed,
    /// A typed container's builtin element type is outside `0..VARIANT_MAX`.
    #[error("invalid container element type {id}")]
    InvalidContainerType {
        /// The id as read (`i32`).
        id: i32,
    },
    /// A script-typed container whose path is empty or not a `res://` path.
    #[error("typed container script path is empty or not a res:// path")]
    InvalidScriptPath,
    /// A full object's `script` property that is neither nil nor a String holding a
    /// `res://` path (Godot 4.3+ check it when decoding; the writer refuses to write one).
    #[error("object script property is not nil or a res:// path string")]
    InvalidScriptProperty,
    /// A Pandemonium typed array whose class name is not a StringName value.
    #[error("typed array class name is not a StringName")]
    InvalidClassName,
    /// Nesting deeper than the configured limit (engine: 1024).
    #[error("nesting deeper than {limit} levels")]
    TooDeep {
        /// The configured maximum depth.
        limit: u32,
    },
    /// Bytes left after the value where none were allowed.
    #[error("{count} trailing bytes after the value")]
    TrailingBytes {
        /// How many bytes are left.
        count: usize,
    },
    /// The output buffer is too small; `needed` is the size of the whole value being written.
    #[error("output buffer full: {needed} bytes needed")]
    BufferFull {
        /// Bytes the whole output needs.
        needed: usize,
    },
    /// Writer: a value was written where no item was pending (the value, or the container it
    /// belongs to, is already complete), or an iterator yielded more items than it announced.
    #[error("more items than announced")]
    TooManyItems,
    /// Writer: the output was finished (or an iterator ended) while items were still owed.
    #[error("{count} announced items missing")]
    MissingItems {
        /// Items still owed by the innermost unfinished container (1 when no value was
        /// written at all).
        count: u32,
    },
    /// Writer: an object property value was written without its name first.
    #[error("object property name expected before the value")]
    PropertyNameExpected,
    /// Writer: a property name was written outside a full object, or twice in a row.
    #[error("property name outside an object property list")]
    UnexpectedPropertyName,
    /// Writer: a length or count the engine cannot represent (above `i32::MAX`).
    #[error("length {len} exceeds the engine's 32-bit limit")]
    TooLong {
        /// The length or count asked for.
        len: usize,
    },
    /// Writer: the type does not exist in the target dialect.
    #[error("{0} is not a type of this dialect")]
    Unsupported(VariantType),
    /// Writer: more nested containers with pending items than the streaming writer tracks.
    #[error("more than {limit} open containers with pending items")]
    TooManyOpenContainers {
        /// The writer's fixed capacity.
        limit: u32,
    },
    /// Writer: a full object was written while full objects are disabled.
    #[error("full objects are disabled (enable with_full_objects)")]
    FullObjectsDisabled,
    /// Writer: a full object needs a non-empty class name (the engine writes a null object
    /// as Nil).
    #[error("empty object class name")]
    EmptyClassName,
    /// Framing: a length prefix above the maximum frame size (a prefix of 2^31 or more is a
    /// negative length to the engine's signed `get_32`). Rejected before waiting for the
    /// frame's bytes; the stream cannot be resynchronised after it.
    #[error("frame length {len} exceeds the maximum frame size {max}")]
    FrameTooLarge {
        /// The length prefix as an unsigned number.
        len: u32,
        /// The configured maximum.
        max: u32,
    },
    /// Writer: a NodePath string the engine's `NodePath(String)` rejects (an empty subname
    /// between two `:`).
    #[error("invalid NodePath string")]
    InvalidNodePath,
    /// A malformed high-level multiplayer packet ([`crate::multiplayer`]).
    #[error("invalid multiplayer packet: {0}")]
    InvalidPacket(PacketProblem),
}

impl ErrorKind {
    /// The Godot `Error` code the engine's `decode_variant` returns for the same input
    /// (`ERR_INVALID_DATA` = 30, `ERR_FILE_EOF` = 18, `ERR_UNAUTHORIZED` = 4,
    /// `ERR_OUT_OF_MEMORY` = 6), or `None` where the engine has no such failure (trailing
    /// bytes, writer errors).
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// let err = from_bytes(Dialect::GODOT_3, &[0xff, 0, 0, 0]).unwrap_err();
    /// assert_eq!(err.kind().engine_code(), Some(30)); // ERR_INVALID_DATA
    /// ```
    pub const fn engine_code(self) -> Option<i32> {
        const ERR_UNAUTHORIZED: i32 = 4;
        const ERR_OUT_OF_MEMORY: i32 = 6;
        const ERR_FILE_EOF: i32 = 18;
        const ERR_INVALID_DATA: i32 = 30;
        match self {
            ErrorKind::StringLength { .. } => Some(ERR_FILE_EOF),
            ErrorKind::ObjectsNotAllowed => Some(ERR_UNAUTHORIZED),
            ErrorKind::TooDeep { .. } => Some(ERR_OUT_OF_MEMORY),
            ErrorKind::TrailingBytes { .. }
            | ErrorKind::BufferFull { .. }
            | ErrorKind::TooManyItems
            | ErrorKind::MissingItems { .. }
            | ErrorKind::PropertyNameExpected
            | ErrorKind::UnexpectedPropertyName
            | ErrorKind::TooLong { .. }
            | ErrorKind::Unsupported(_)
            | ErrorKind::TooManyOpenContainers { .. }
            | ErrorKind::FullObjectsDisabled
            | ErrorKind::EmptyClassName
            | ErrorKind::InvalidNodePath
            | ErrorKind::FrameTooLarge { .. }
            | ErrorKind::Truncated(Expected::LengthPrefix | Expected::FramePayload) => None,
            _ => Some(ERR_INVALID_DATA),
        }
    }
}

/// A decoding or encoding error: a kind and the byte offset (from the start of the input, or
/// of the output for writer errors) where it happened.
///
/// ```
/// use gdwire::{from_bytes, Dialect, ErrorKind};
/// let err = from_bytes(Dialect::GODOT_4, &[0xff, 0, 0, 0]).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::UnknownType { id: 255, max: 39 });
/// assert_eq!(err.offset(), 0);
/// assert_eq!(err.to_string(), "unknown type id 255 (this dialect has ids 0..39) at byte 0");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{kind} at byte {offset}")]
pub struct Error {
    kind: ErrorKind,
    offset: usize,
}

impl Error {
    /// Creates an error.
    ///
    /// ```
    /// use gdwire::{Error, ErrorKind};
    /// let err = Error::new(ErrorKind::InvalidText, 8);
    /// assert_eq!(err.to_string(), "string text is not valid UTF-8 for this dialect at byte 8");
    /// ```
    pub const fn new(kind: ErrorKind, offset: usize) -> Error {
        Error { kind, offset }
    }

    /// What went wrong.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect, ErrorKind};
    /// let err = from_bytes(Dialect::GODOT_4, &[0xff, 0, 0, 0]).unwrap_err();
    /// assert!(matches!(err.kind(), ErrorKind::UnknownType { id: 255, .. }));
    /// ```
    pub const fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// Byte offset where it went wrong.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// // An Array of one element whose header is unknown: the error is at byte 8.
    /// let err = from_bytes(Dialect::GODOT_4, &[28, 0, 0, 0, 1, 0, 0, 0, 0xff, 0, 0, 0]).unwrap_err();
    /// assert_eq!(err.offset(), 8);
    /// ```
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// The same error with its offset moved by `base`: for an error met inside a frame or
    /// another part of a larger input, to report where it is in the whole.
    ///
    /// ```
    /// use gdwire::{from_bytes, Dialect};
    /// let frame = [0xee, 0, 0, 0];
    /// let err = from_bytes(Dialect::GODOT_4, &frame).unwrap_err().offset_by(4096);
    /// assert_eq!(err.offset(), 4096);
    /// ```
    pub const fn offset_by(self, base: usize) -> Error {
        Error {
            kind: self.kind,
            offset: self.offset.saturating_add(base),
        }
    }
}

/// Framing and decoding errors met while reading from an `std::io` source surface as
/// [`std::io::ErrorKind::InvalidData`] carrying the [`Error`].
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
impl From<Error> for std::io::Error {
    fn from(e: Error) -> std::io::Error {
        std::io::Error::new(std::io::ErrorKind::InvalidData, e)
    }
}

#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
impl Error {
    /// The [`Error`] inside an `std::io::Error` made from one (as
    /// [`crate::frame::FrameBuffer::read_from`] returns framing errors), if it is one.
    ///
    /// ```
    /// let err = gdwire::Error::new(gdwire::ErrorKind::InvalidText, 3);
    /// let io: std::io::Error = err.into();
    /// assert_eq!(gdwire::Error::from_io(&io), Some(err));
    /// ```
    pub fn from_io(e: &std::io::Error) -> Option<Error> {
        e.get_ref()?.downcast_ref::<Error>().copied()
    }
}

/// `Result` with this crate's [`Error`].
///
/// ```
/// fn first_int(bytes: &[u8]) -> gdwire::Result<Option<i64>> {
///     Ok(gdwire::from_bytes(gdwire::Dialect::GODOT_4, bytes)?.as_int())
/// }
/// assert_eq!(first_int(&[2, 0, 0, 0, 7, 0, 0, 0]), Ok(Some(7)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub type Result<T, E = Error> = core::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_is_small() {
        assert!(core::mem::size_of::<Error>() <= 24);
    }
}
