//! Godot 4's high-level multiplayer packets: what `SceneMultiplayer` sends for `@rpc` calls,
//! the node-path cache, `send_bytes`, `MultiplayerSpawner`, `MultiplayerSynchronizer`,
//! authentication and the server relay.
//!
//! [`Packet::parse`] reads one packet into views that borrow from it (no allocation, no
//! panic, a clean [`crate::Error`] with the byte offset for a malformed packet);
//! [`PacketWriter`] writes one into any [`crate::Sink`], `&mut [u8]` or `Vec<u8>`. Values
//! inside packets use the *compressed* Variant encoding: a bool is one byte (`0x01` false,
//! `0x81` true), an int is a type byte with its width in bits 6–7 then an i8/i16/i32/i64,
//! and every other type is plain `encode_variant` output read and written by the crate's
//! ordinary [`crate::Decoder`] and [`crate::Writer`] (Godot 4 dialect). Full objects are
//! decoded only when the [`crate::Decoder`] allows them
//! (`SceneMultiplayer.allow_object_decoding`), and then only in remote-call arguments: the
//! engine never decodes them in spawn and sync packets.
//!
//! ```
//! use gdwire::multiplayer::{Packet, PacketWriter, SpawnKind};
//!
//! // A custom spawn: the spawner is path-cache id 1, the node gets net id 7, its one
//! // synchronizer net id 8; custom argument 42, spawn state [true, "Bob"].
//! let mut packet = [0u8; 64];
//! let mut w = PacketWriter::new(&mut packet[..]);
//! w.spawn(SpawnKind::Custom, 1, 7, &[8], "Player")?;
//! w.int(42)?; // the custom argument (length-prefixed on the wire)
//! w.bool(true)?; // spawn state...
//! w.with(|v| v.string("Bob"))?;
//! let len = w.finish()?;
//!
//! let Packet::Spawn(spawn) = Packet::parse(&packet[..len])? else { unreachable!() };
//! assert!(spawn.is_custom());
//! assert_eq!((spawn.spawner, spawn.net_id, spawn.name), (1, 7, "Player"));
//! assert_eq!(spawn.sync_ids.iter().collect::<Vec<_>>(), [8]);
//! assert_eq!(spawn.custom.and_then(|v| v.as_int()), Some(42));
//! assert_eq!(spawn.state.len(), 2);
//! # Ok::<(), gdwire::Error>(())
//! ```
//!
//! # What the transport adds
//!
//! - **`ENetMultiplayerPeer`**: nothing. One ENet packet is one `SceneMultiplayer` packet.
//!   Channel and transfer mode travel in ENet itself: channel 0 reliable, 1 unreliable and
//!   unreliable-ordered, user channel `c > 0` on ENet channel `c + 1`. The client's peer id
//!   goes in the ENet connect data.
//! - **`WebSocketMultiplayerPeer`**: on connection the server sends one 4-byte message, the
//!   client's peer id as a little-endian int32 (the client closes if the size is not 4 or
//!   the id is below 2); afterwards one WebSocket message is one packet. Channels and
//!   transfer modes are not sent (WebSocket is reliable and ordered).
//!   [`peer_id_message`] and [`parse_peer_id_message`] handle that message.
//!
//! Godot 3's high-level multiplayer used other headers (12 bytes on ENet, 9 on WebSocket);
//! this module is for Godot 4.0 and later.
//!
//! # What needs the game's configuration
//!
//! Every value is self-delimiting, so arguments and sync entries decode without a schema.
//! Method and property *names* are not on the wire: a method id is the index in the node's
//! sorted RPC list (`0x8000 | index` for `Node.rpc_config()` methods), a sync value's
//! property is given by its position in the replication config (and by the mask in a delta
//! entry). A spawn state has no count: its values run to the end of the packet.

mod packet;
mod values;
mod writer;

pub use packet::{
    Args, ConfirmPath, NodeRef, Packet, Relay, RemoteCall, SimplifyPath, Spawn, Sync, SyncEntries,
    SyncEntry, Sys, U32s,
};
pub use values::Values;
pub use writer::{PacketWriter, SpawnKind, Target};

use crate::error::{Error, ErrorKind, Expected, PacketField, Result};

/// The command in the low 3 bits of byte 0.
///
/// ```
/// use gdwire::multiplayer::Command;
/// assert_eq!(Command::from_byte(0x16), Command::Sync); // delta flag 0x10 ignored
/// assert_eq!(Command::Sync.name(), "SYNC");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Command {
    /// An RPC.
    RemoteCall = 0,
    /// Path cache: announce a node path's cache id.
    SimplifyPath = 1,
    /// Path cache: confirm it.
    ConfirmPath = 2,
    /// `send_bytes`.
    Raw = 3,
    /// A spawned node.
    Spawn = 4,
    /// A despawned node.
    Despawn = 5,
    /// Synchronizer state.
    Sync = 6,
    /// Authentication, peers, relay.
    Sys = 7,
}

impl Command {
    /// The command of a packet whose byte 0 is `b0`.
    ///
    /// ```
    /// use gdwire::multiplayer::Command;
    /// assert_eq!(Command::from_byte(0x80), Command::RemoteCall);
    /// ```
    pub const fn from_byte(b0: u8) -> Command {
        match b0 & 7 {
            0 => Command::RemoteCall,
            1 => Command::SimplifyPath,
            2 => Command::ConfirmPath,
            3 => Command::Raw,
            4 => Command::Spawn,
            5 => Command::Despawn,
            6 => Command::Sync,
            _ => Command::Sys,
        }
    }

    /// The engine's name (`NETWORK_COMMAND_*` without the prefix).
    ///
    /// ```
    /// assert_eq!(gdwire::multiplayer::Command::RemoteCall.name(), "REMOTE_CALL");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Command::RemoteCall => "REMOTE_CALL",
            Command::SimplifyPath => "SIMPLIFY_PATH",
            Command::ConfirmPath => "CONFIRM_PATH",
            Command::Raw => "RAW",
            Command::Spawn => "SPAWN",
            Command::Despawn => "DESPAWN",
            Command::Sync => "SYNC",
            Command::Sys => "SYS",
        }
    }
}

/// SYS sub-commands (byte 1 of a SYS packet).
///
/// ```
/// use gdwire::multiplayer::SysCommand;
/// assert_eq!(SysCommand::from_byte(3), Some(SysCommand::Relay));
/// assert_eq!(SysCommand::from_byte(4), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum SysCommand {
    /// Authentication payload, or "complete" when empty.
    Auth = 0,
    /// A peer joined (server relay).
    AddPeer = 1,
    /// A peer left.
    DelPeer = 2,
    /// A relayed packet.
    Relay = 3,
}

impl SysCommand {
    /// The sub-command for byte 1, if it is one.
    ///
    /// ```
    /// use gdwire::multiplayer::SysCommand;
    /// assert_eq!(SysCommand::from_byte(1), Some(SysCommand::AddPeer));
    /// ```
    pub const fn from_byte(b: u8) -> Option<SysCommand> {
        Some(match b {
            0 => SysCommand::Auth,
            1 => SysCommand::AddPeer,
            2 => SysCommand::DelPeer,
            3 => SysCommand::Relay,
            _ => return None,
        })
    }
}

/// Width of an id field in a remote call.
///
/// ```
/// use gdwire::multiplayer::IdWidth;
/// assert_eq!([IdWidth::U8, IdWidth::U16, IdWidth::U32].map(IdWidth::bytes), [1, 2, 4]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IdWidth {
    /// 1 byte.
    U8,
    /// 2 bytes.
    U16,
    /// 4 bytes.
    U32,
}

impl IdWidth {
    /// Bytes on the wire.
    ///
    /// ```
    /// assert_eq!(gdwire::multiplayer::IdWidth::U16.bytes(), 2);
    /// ```
    pub const fn bytes(self) -> usize {
        match self {
            IdWidth::U8 => 1,
            IdWidth::U16 => 2,
            IdWidth::U32 => 4,
        }
    }
}

/// The message a `WebSocketMultiplayerPeer` server sends first on each connection: the
/// client's peer id, int32 little-endian. Peer ids are 2 or more (1 is the server).
///
/// ```
/// assert_eq!(gdwire::multiplayer::peer_id_message(1234), [0xd2, 0x04, 0, 0]);
/// ```
pub const fn peer_id_message(peer: i32) -> [u8; 4] {
    peer.to_le_bytes()
}

/// Reads the peer id message a `WebSocketMultiplayerPeer` client receives first; fails
/// (like the client, which then closes) unless it is exactly 4 bytes holding an id ≥ 2.
///
/// ```
/// use gdwire::multiplayer::parse_peer_id_message;
/// assert_eq!(parse_peer_id_message(&[0xd2, 0x04, 0, 0])?, 1234);
/// assert!(parse_peer_id_message(&[1, 0, 0, 0]).is_err());
/// # Ok::<(), gdwire::Error>(())
/// ```
pub fn parse_peer_id_message(msg: &[u8]) -> Result<i32> {
    let short = Error::new(
        ErrorKind::Truncated(Expected::Packet(PacketField::PeerId)),
        0,
    );
    let id = i32::from_le_bytes(*msg.first_chunk::<4>().ok_or(short)?);
    if msg.len() > 4 {
        return Err(Error::new(
            ErrorKind::TrailingBytes {
                count: msg.len() - 4,
            },
            4,
        ));
    }
    if id < 2 {
        return Err(Error::new(
            ErrorKind::InvalidPacket(crate::error::PacketProblem::PeerId),
            0,
        ));
    }
    Ok(id)
}

/// Writes one packet into a new `Vec` (a WebSocket message, a datagram): `write` makes the
/// packet with the [`PacketWriter`], this finishes it. Feature `alloc`.
///
/// ```
/// use gdwire::multiplayer::{packet_to_vec, Target};
/// let msg = packet_to_vec(|w| {
///     w.remote_call(Target::Cached(1), 0, 1)?;
///     w.int(5)
/// })?;
/// assert_eq!(msg, [0x00, 1, 0, 1, 0x02, 5]);
/// # Ok::<(), gdwire::Error>(())
/// ```
#[cfg(feature = "alloc")]
pub fn packet_to_vec<'p, F>(write: F) -> Result<alloc::vec::Vec<u8>>
where
    F: FnOnce(&mut PacketWriter<'p, alloc::vec::Vec<u8>>) -> Result<()>,
{
    let mut w = PacketWriter::new(alloc::vec::Vec::new());
    write(&mut w)?;
    w.finish()?;
    Ok(w.into_sink())
}

#[cfg(test)]
mod tests;
