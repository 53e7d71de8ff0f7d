//! Reading one `SceneMultiplayer` packet into views that borrow from it.

use crate::error::{Error, ErrorKind, Expected, PacketField, PacketProblem, Result};
use crate::multiplayer::values::Values;
use crate::multiplayer::{Command, IdWidth, SysCommand};
use crate::read::{Decoder, VariantRef};
use crate::Dialect;

fn short(field: PacketField, at: usize) -> Error {
    Error::new(ErrorKind::Truncated(Expected::Packet(field)), at)
}

fn bad(problem: PacketProblem, at: usize) -> Error {
    Error::new(ErrorKind::InvalidPacket(problem), at)
}

fn u16_field(b: &[u8], at: usize, field: PacketField) -> Result<u16> {
    let s = b.get(at..).and_then(|s| s.first_chunk::<2>());
    s.map(|s| u16::from_le_bytes(*s)).ok_or(short(field, at))
}

fn u32_field(b: &[u8], at: usize, field: PacketField) -> Result<u32> {
    let s = b.get(at..).and_then(|s| s.first_chunk::<4>());
    s.map(|s| u32::from_le_bytes(*s)).ok_or(short(field, at))
}

fn u64_field(b: &[u8], at: usize, field: PacketField) -> Result<u64> {
    let s = b.get(at..).and_then(|s| s.first_chunk::<8>());
    s.map(|s| u64::from_le_bytes(*s)).ok_or(short(field, at))
}

fn exact_len(b: &[u8], len: usize) -> Result<()> {
    if b.len() > len {
        return Err(bad(PacketProblem::Length, len));
    }
    Ok(())
}

/// UTF-8 text, without one trailing NUL if there is one.
fn text(b: &[u8], at: usize) -> Result<&str> {
    let b = b.strip_suffix(&[0]).unwrap_or(b);
    core::str::from_utf8(b).map_err(|_| bad(PacketProblem::Text, at))
}

/// One `SceneMultiplayer` packet (Godot 4.x), as a view into its bytes.
///
/// [`Packet::parse`] validates the whole packet, values included, in one pass without
/// allocating; iterating the views afterwards cannot meet malformed data.
///
/// ```
/// use gdwire::multiplayer::{Packet, Sys};
/// // The two bytes a peer sends when its side of authentication is complete.
/// let packet = Packet::parse(&[0x07, 0x00])?;
/// assert!(matches!(packet, Packet::Sys(Sys::Auth(b"")))); // empty payload = complete
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub enum Packet<'a> {
    /// REMOTE_CALL (0): an RPC.
    RemoteCall(RemoteCall<'a>),
    /// SIMPLIFY_PATH (1): the sender gives a node path a cache id.
    SimplifyPath(SimplifyPath<'a>),
    /// CONFIRM_PATH (2): the receiver of a SIMPLIFY_PATH answers.
    ConfirmPath(ConfirmPath),
    /// RAW (3): the payload of `send_bytes` (never empty).
    Raw(&'a [u8]),
    /// SPAWN (4): a `MultiplayerSpawner` spawned a node.
    Spawn(Spawn<'a>),
    /// DESPAWN (5): the net id of a despawned node.
    Despawn(u32),
    /// SYNC (6): `MultiplayerSynchronizer` state, full or delta.
    Sync(Sync<'a>),
    /// SYS (7): authentication, relayed peers, relay.
    Sys(Sys<'a>),
}

/// Where a remote call is aimed.
///
/// ```
/// use gdwire::multiplayer::{NodeRef, Packet};
/// // Two calls as Godot 4.6 sent them: one to a node whose path is not confirmed yet (the
/// // path "Game" follows the arguments, at offset 10), one to path-cache id 2.
/// let bytes = b"\x60\x0a\x00\x00\x80\x00\x80\x01\x02\x2aGame\0";
/// let Packet::RemoteCall(call) = Packet::parse(bytes)? else { panic!() };
/// assert_eq!(call.node, NodeRef::Path { offset: 10, path: "Game" });
/// let Packet::RemoteCall(call) = Packet::parse(&[0x80, 0x02, 0x03])? else { panic!() };
/// assert_eq!(call.node, NodeRef::Cached(2));
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeRef<'a> {
    /// A path-cache id the sender announced with SIMPLIFY_PATH.
    Cached(u32),
    /// The node path relative to the multiplayer root, appended after the arguments (sent
    /// until the receiver confirmed the path); `offset` is where it starts in the packet.
    Path {
        /// Packet offset of the path (bits 0–30 of the node id).
        offset: u32,
        /// The path.
        path: &'a str,
    },
}

/// A remote call's arguments.
///
/// ```
/// use gdwire::multiplayer::{Args, Packet};
/// // `rpc("dyn", 42)` as Godot 4.6 sent it: one compressed int, `0x02 0x2a`.
/// let bytes = b"\x60\x0a\x00\x00\x80\x00\x80\x01\x02\x2aGame\0";
/// let Packet::RemoteCall(call) = Packet::parse(bytes)? else { panic!() };
/// let Args::Values(mut args) = call.args else { panic!() };
/// assert_eq!(args.next().and_then(|v| v.as_int()), Some(42));
/// // A call without arguments, which the engine sends in the byte-only form (flag 0x80).
/// let Packet::RemoteCall(call) = Packet::parse(&[0x80, 0x02, 0x03])? else { panic!() };
/// assert!(matches!(call.args, Args::Bytes(b"")));
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub enum Args<'a> {
    /// `argc` compressed values.
    Values(Values<'a>),
    /// The byte-only form: the raw bytes of one PackedByteArray argument; empty means the
    /// call has no arguments (the engine sends both the same way).
    Bytes(&'a [u8]),
}

impl Args<'_> {
    /// How many arguments the engine passes to the method.
    ///
    /// ```
    /// use gdwire::multiplayer::{Packet, Target, packet_to_vec};
    /// let none = packet_to_vec(|w| w.remote_call(Target::Cached(1), 0, 0))?;
    /// let Packet::RemoteCall(call) = Packet::parse(&none)? else { panic!() };
    /// assert_eq!(call.args.count(), 0);
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn count(&self) -> usize {
        match self {
            Args::Values(v) => v.len(),
            Args::Bytes(b) => usize::from(!b.is_empty()),
        }
    }
}

/// REMOTE_CALL.
///
/// ```
/// use gdwire::multiplayer::{IdWidth, Packet};
/// // Godot 4.6 calling an `rpc_config()` method (id `0x8000`) of the node "Game" with the
/// // argument 42: a 32-bit node id, a 16-bit method id.
/// let bytes = b"\x60\x0a\x00\x00\x80\x00\x80\x01\x02\x2aGame\0";
/// let Packet::RemoteCall(call) = Packet::parse(bytes)? else { panic!() };
/// assert_eq!((call.flags, call.method, call.args.count()), (0x60, 0x8000, 1));
/// assert_eq!((call.node_width, call.method_width), (IdWidth::U32, IdWidth::U16));
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct RemoteCall<'a> {
    /// Byte 0 as sent (command and flags).
    pub flags: u8,
    /// Width of the node id field.
    pub node_width: IdWidth,
    /// Target node.
    pub node: NodeRef<'a>,
    /// Width of the method id field (`U8` or `U16`).
    pub method_width: IdWidth,
    /// Index of the method in the node's sorted RPC list; `0x8000 | index` for methods
    /// configured with `Node.rpc_config()`. Names need the node's configuration.
    pub method: u16,
    /// The arguments.
    pub args: Args<'a>,
}

/// SIMPLIFY_PATH.
///
/// ```
/// use gdwire::multiplayer::{Packet, SimplifyPath};
/// // Godot 4.6 announcing cache id 1 for the node "Game".
/// let bytes = b"\x012ae72a838ad90017c08d391df9ceeae2\0\x01\0\0\0Game\0";
/// let Packet::SimplifyPath(p) = Packet::parse(bytes)? else { panic!() };
/// let checksum = "2ae72a838ad90017c08d391df9ceeae2";
/// assert_eq!(p, SimplifyPath { checksum, cache_id: 1, path: "Game" });
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimplifyPath<'a> {
    /// md5 (32 hex digits) of the node's RPC method names concatenated in id order.
    pub checksum: &'a str,
    /// The cache id the sender will use for this node.
    pub cache_id: u32,
    /// Node path relative to the multiplayer root.
    pub path: &'a str,
}

/// CONFIRM_PATH.
///
/// ```
/// use gdwire::multiplayer::{ConfirmPath, Packet};
/// // Godot 4.6's answer to the announcement of cache id 1: the checksums match.
/// let Packet::ConfirmPath(c) = Packet::parse(&[0x02, 0x01, 1, 0, 0, 0])? else { panic!() };
/// assert_eq!(c, ConfirmPath { checksum_ok: true, cache_id: 1 });
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConfirmPath {
    /// Whether the receiver's checksum of the node's RPC names matched.
    pub checksum_ok: bool,
    /// The cache id being confirmed.
    pub cache_id: u32,
}

/// SPAWN.
///
/// ```
/// use gdwire::math::Vector2;
/// use gdwire::multiplayer::Packet;
/// // Godot 4.6 spawning scene 0 as "Enemy" (net id 1, one synchronizer with net id 2) from
/// // the spawner with path-cache id 302; its spawn state is position, label and hp.
/// let bytes = b"\x04\x00\x2e\x01\0\0\x01\0\0\0\x01\0\0\0\x06\0\0\0\x02\0\0\0Enemy\0\
///     \x05\0\0\0\0\0\xc0\x3f\0\0\0\xc0\x04\0\0\0\x04\0\0\0boss\x02\x64";
/// let Packet::Spawn(spawn) = Packet::parse(bytes)? else { panic!() };
/// assert_eq!((spawn.scene_id, spawn.spawner, spawn.net_id), (0, 302, 1));
/// assert_eq!((spawn.name, spawn.sync_ids.iter().next()), ("Enemy", Some(2)));
/// assert!(spawn.custom.is_none());
/// let state: Vec<_> = spawn.state.collect();
/// assert_eq!(Vector2::try_from(state[0]).ok(), Some(Vector2 { x: 1.5, y: -2.0 }));
/// assert_eq!((state[1].as_str(), state[2].as_int()), (Some("boss"), Some(100)));
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Spawn<'a> {
    /// Index of the scene in the spawner's spawnable list; `0xFF` = custom spawn.
    pub scene_id: u8,
    /// Path-cache id of the `MultiplayerSpawner`.
    pub spawner: u32,
    /// Net id of the spawned node.
    pub net_id: u32,
    /// Net ids of the node's synchronizers.
    pub sync_ids: U32s<'a>,
    /// Node name.
    pub name: &'a str,
    /// The custom spawn argument (`spawn(data)`), for a custom spawn.
    pub custom: Option<VariantRef<'a>>,
    /// The spawn state: one value per spawn property of the node's synchronizers, in their
    /// replication configs' order (the packet has no names).
    pub state: Values<'a>,
}

impl Spawn<'_> {
    /// Scene id of a custom spawn.
    ///
    /// ```
    /// assert_eq!(gdwire::multiplayer::Spawn::CUSTOM, 0xFF);
    /// ```
    pub const CUSTOM: u8 = 0xFF;

    /// True for a custom spawn (`MultiplayerSpawner.spawn(data)`).
    ///
    /// ```
    /// use gdwire::multiplayer::{Packet, Spawn};
    /// // Godot 4.6 after `spawner.spawn({"kind": "crate", "n": 3})`: scene id 0xFF, and the
    /// // custom argument (56 bytes, length-prefixed) before the spawn state.
    /// let bytes = b"\x04\xff\x2e\x01\0\0\x03\0\0\0\x01\0\0\0\x07\0\0\0\x04\0\0\0Enemy2\0\
    ///     \x38\0\0\0\x1b\0\0\0\x02\0\0\0\x04\0\0\0\x04\0\0\0kind\x04\0\0\0\x05\0\0\0crate\0\0\0\
    ///     \x04\0\0\0\x01\0\0\0n\0\0\0\x02\0\0\0\x03\0\0\0\
    ///     \x05\0\0\0\0\0\0\0\0\0\0\0\x04\0\0\0\x05\0\0\0crate\0\0\0\x02\x03";
    /// let Packet::Spawn(spawn) = Packet::parse(bytes)? else { panic!() };
    /// assert!(spawn.is_custom() && spawn.scene_id == Spawn::CUSTOM);
    /// let data = spawn.custom.and_then(|v| v.as_dictionary()).unwrap();
    /// assert_eq!(data.get("kind").and_then(|v| v.as_str()), Some("crate"));
    /// assert_eq!(data.get("n").and_then(|v| v.as_int()), Some(3));
    /// assert_eq!((spawn.name, spawn.state.len()), ("Enemy2", 3));
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn is_custom(&self) -> bool {
        self.scene_id == Self::CUSTOM
    }
}

/// A list of little-endian u32s in a packet (synchronizer net ids).
///
/// ```
/// use gdwire::multiplayer::{Packet, SpawnKind, packet_to_vec};
/// let msg = packet_to_vec(|w| w.spawn(SpawnKind::Scene(0), 1, 7, &[8, 9], "N"))?;
/// let Packet::Spawn(s) = Packet::parse(&msg)? else { panic!() };
/// assert_eq!((s.sync_ids.len(), s.sync_ids.is_empty()), (2, false));
/// assert_eq!(s.sync_ids.as_bytes(), [8, 0, 0, 0, 9, 0, 0, 0]);
/// assert_eq!(s.sync_ids.iter().collect::<Vec<_>>(), [8, 9]);
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct U32s<'a>(&'a [u8]);

impl<'a> U32s<'a> {
    /// The raw bytes.
    ///
    /// ```
    /// # use gdwire::multiplayer::Packet;
    /// # let bytes = b"\x04\x00\x2e\x01\0\0\x01\0\0\0\x01\0\0\0\x06\0\0\0\x02\0\0\0Enemy\0\
    /// #     \x05\0\0\0\0\0\xc0\x3f\0\0\0\xc0\x04\0\0\0\x04\0\0\0boss\x02\x64";
    /// # let Packet::Spawn(spawn) = Packet::parse(bytes)? else { panic!() };
    /// // `spawn`: Godot 4.6 spawning "Enemy" with one synchronizer, net id 2.
    /// assert_eq!(spawn.sync_ids.as_bytes(), [2, 0, 0, 0]);
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0
    }

    /// Number of ids.
    ///
    /// ```
    /// # use gdwire::multiplayer::Packet;
    /// # let bytes = b"\x04\x00\x2e\x01\0\0\x01\0\0\0\x01\0\0\0\x06\0\0\0\x02\0\0\0Enemy\0\
    /// #     \x05\0\0\0\0\0\xc0\x3f\0\0\0\xc0\x04\0\0\0\x04\0\0\0boss\x02\x64";
    /// # let Packet::Spawn(spawn) = Packet::parse(bytes)? else { panic!() };
    /// // `spawn`: Godot 4.6 spawning "Enemy" with one synchronizer, net id 2.
    /// assert_eq!(spawn.sync_ids.len(), 1);
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        self.0.len() / 4
    }

    /// True if there is none.
    ///
    /// ```
    /// # use gdwire::multiplayer::Packet;
    /// # let bytes = b"\x04\x00\x2e\x01\0\0\x01\0\0\0\x01\0\0\0\x06\0\0\0\x02\0\0\0Enemy\0\
    /// #     \x05\0\0\0\0\0\xc0\x3f\0\0\0\xc0\x04\0\0\0\x04\0\0\0boss\x02\x64";
    /// # let Packet::Spawn(spawn) = Packet::parse(bytes)? else { panic!() };
    /// // `spawn`: Godot 4.6 spawning "Enemy" with one synchronizer, net id 2.
    /// assert!(!spawn.sync_ids.is_empty());
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The ids.
    ///
    /// ```
    /// # use gdwire::multiplayer::Packet;
    /// # let bytes = b"\x04\x00\x2e\x01\0\0\x01\0\0\0\x01\0\0\0\x06\0\0\0\x02\0\0\0Enemy\0\
    /// #     \x05\0\0\0\0\0\xc0\x3f\0\0\0\xc0\x04\0\0\0\x04\0\0\0boss\x02\x64";
    /// # let Packet::Spawn(spawn) = Packet::parse(bytes)? else { panic!() };
    /// // `spawn`: Godot 4.6 spawning "Enemy" with one synchronizer, net id 2.
    /// assert_eq!(spawn.sync_ids.iter().collect::<Vec<u32>>(), [2]);
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = u32> + 'a {
        self.0
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
    }
}

/// SYNC: full (unreliable, with a sync time) or delta (reliable, with property masks).
///
/// ```
/// use gdwire::math::Vector2;
/// use gdwire::multiplayer::Packet;
/// // A full sync from Godot 4.6 (sync time 1): the positions of two synchronizers.
/// let bytes = b"\x06\x01\x00\x02\0\0\0\x0c\0\0\0\x05\0\0\0\0\0\xc0\x3f\0\0\0\xc0\
///     \x04\0\0\0\x0c\0\0\0\x05\0\0\0\0\0\0\0\0\0\0\0";
/// let Packet::Sync(sync) = Packet::parse(bytes)? else { panic!() };
/// assert_eq!((sync.time, sync.entries.len()), (Some(1), 2));
/// let ids: Vec<u32> = sync.entries.map(|e| e.net_id).collect();
/// assert_eq!(ids, [2, 4]);
/// let first = sync.entries.clone().next().unwrap().values.next().unwrap();
/// assert_eq!(Vector2::try_from(first).ok(), Some(Vector2 { x: 1.5, y: -2.0 }));
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Sync<'a> {
    /// `Some(time)` for a full sync, `None` for a delta.
    pub time: Option<u16>,
    /// The entries, one per synchronizer.
    pub entries: SyncEntries<'a>,
}

impl Sync<'_> {
    /// True for a delta sync.
    ///
    /// ```
    /// use gdwire::multiplayer::Packet;
    /// // A delta sync from Godot 4.6 (flag 0x10): property 0 of two synchronizers changed.
    /// let bytes = b"\x16\x02\0\0\0\x01\0\0\0\0\0\0\0\x02\0\0\0\x02\x64\
    ///     \x04\0\0\0\x01\0\0\0\0\0\0\0\x02\0\0\0\x02\x03";
    /// let Packet::Sync(sync) = Packet::parse(bytes)? else { panic!() };
    /// assert!(sync.is_delta() && sync.time.is_none());
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn is_delta(&self) -> bool {
        self.time.is_none()
    }
}

/// One synchronizer's state in a SYNC packet.
///
/// ```
/// use gdwire::multiplayer::Packet;
/// // A delta sync from Godot 4.6: hp (property 0) of synchronizer 2 is now 100, that of
/// // synchronizer 4 is 3.
/// let bytes = b"\x16\x02\0\0\0\x01\0\0\0\0\0\0\0\x02\0\0\0\x02\x64\
///     \x04\0\0\0\x01\0\0\0\0\0\0\0\x02\0\0\0\x02\x03";
/// let Packet::Sync(sync) = Packet::parse(bytes)? else { panic!() };
/// let mut entry = sync.entries.clone().next().unwrap();
/// assert_eq!((entry.net_id, entry.mask), (2, Some(0b1)));
/// assert_eq!(entry.values.next().and_then(|v| v.as_int()), Some(100));
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SyncEntry<'a> {
    /// The synchronizer's net id; with bit 31 set, `0x80000000 | path-cache id` of a
    /// synchronizer that is not part of a spawned node.
    pub net_id: u32,
    /// Delta only: bit `i` set = sync property `i` changed; one value per set bit.
    pub mask: Option<u64>,
    /// The values: all sync properties of the replication config (full) or the changed ones
    /// (delta), in config order.
    pub values: Values<'a>,
}

/// The entries of a SYNC packet (validated when the packet was parsed).
///
/// ```
/// use gdwire::multiplayer::Packet;
/// // The delta sync Godot 4.6 sent after setting hp to 100 and 3 on two nodes.
/// let bytes = b"\x16\x02\0\0\0\x01\0\0\0\0\0\0\0\x02\0\0\0\x02\x64\
///     \x04\0\0\0\x01\0\0\0\0\0\0\0\x02\0\0\0\x02\x03";
/// let Packet::Sync(sync) = Packet::parse(bytes)? else { panic!() };
/// let mut hp = Vec::new();
/// for mut entry in sync.entries {
///     hp.push((entry.net_id, entry.values.next().and_then(|v| v.as_int())));
/// }
/// assert_eq!(hp, [(2, Some(100)), (4, Some(3))]);
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SyncEntries<'a> {
    dec: Decoder,
    bytes: &'a [u8],
    pos: usize,
    delta: bool,
    left: u32,
}

impl<'a> Iterator for SyncEntries<'a> {
    type Item = SyncEntry<'a>;

    fn next(&mut self) -> Option<SyncEntry<'a>> {
        if self.left == 0 {
            return None;
        }
        let mut after = self.pos;
        let entry = parsed_entry(self.dec, self.bytes, self.pos, self.delta, &mut after);
        if entry.is_some() {
            self.pos = after;
            self.left -= 1;
        } else {
            // Parsing checked every entry; a failure here cannot happen, and ends the list.
            self.left = 0;
        }
        entry
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left as usize, Some(self.left as usize))
    }
}

impl ExactSizeIterator for SyncEntries<'_> {}

/// SYS sub-commands.
///
/// ```
/// use gdwire::multiplayer::{Packet, Sys};
/// // Sent by Godot 4.6: peer 2's authentication data, then the server telling a client
/// // that peer 3 joined and later left, then a packet peer 3 relays to peer 2.
/// let Packet::Sys(auth) = Packet::parse(b"\x07\x00hello from 2")? else { panic!() };
/// assert!(matches!(auth, Sys::Auth(b"hello from 2")));
/// let Packet::Sys(add) = Packet::parse(&[0x07, 0x01, 3, 0, 0, 0])? else { panic!() };
/// assert!(matches!(add, Sys::AddPeer(3)));
/// let Packet::Sys(del) = Packet::parse(&[0x07, 0x02, 3, 0, 0, 0])? else { panic!() };
/// assert!(matches!(del, Sys::DelPeer(3)));
/// let Packet::Sys(relay) = Packet::parse(&[0x07, 0x03, 2, 0, 0, 0, 0x03, 6, 5])? else {
///     panic!()
/// };
/// assert!(matches!(relay, Sys::Relay(r) if r.peer == 2));
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub enum Sys<'a> {
    /// AUTH (0): the authentication payload for the auth callback; empty = "my side of
    /// authentication is complete". There is no peer id.
    Auth(&'a [u8]),
    /// ADD_PEER (1): server to client, a peer joined (server relay).
    AddPeer(i32),
    /// DEL_PEER (2): server to client, a peer left (server relay).
    DelPeer(i32),
    /// RELAY (3): a packet relayed through the server.
    Relay(Relay<'a>),
}

/// A relayed packet.
///
/// ```
/// use gdwire::multiplayer::{Packet, Relay, Sys};
/// // Godot 4.6 client 3 asking the server to relay `send_bytes([6, 5])` to peer 2.
/// let bytes = [0x07, 0x03, 2, 0, 0, 0, 0x03, 6, 5];
/// let Packet::Sys(Sys::Relay(relay)) = Packet::parse(&bytes)? else { panic!() };
/// assert_eq!((relay.peer, relay.packet), (2, &[0x03, 6, 5][..]));
/// assert!(matches!(relay.inner()?, Packet::Raw([6, 5])));
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Relay<'a> {
    /// Client to server: the destination (0 = everyone including the server, `-id` =
    /// everyone but `id`); server to client: the original sender.
    pub peer: i32,
    /// The inner packet's bytes (validated; never a SYS packet).
    pub packet: &'a [u8],
    dec: Decoder,
}

impl<'a> Relay<'a> {
    /// Parses the inner packet (already validated; this cannot fail on a parsed relay).
    ///
    /// ```
    /// use gdwire::multiplayer::{Packet, Relay, Sys};
    /// // Godot 4.6 client 3 asking the server to relay `send_bytes([6, 5])` to peer 2.
    /// let bytes = [0x07, 0x03, 2, 0, 0, 0, 0x03, 6, 5];
    /// let Packet::Sys(Sys::Relay(relay)) = Packet::parse(&bytes)? else { panic!() };
    /// let Packet::Raw(payload) = relay.inner()? else { panic!() };
    /// assert_eq!(payload, [6, 5]);
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn inner(&self) -> Result<Packet<'a>> {
        Packet::parse_with(self.dec, self.packet)
    }

    /// Packet offset of the inner packet.
    ///
    /// ```
    /// use gdwire::multiplayer::{Packet, Relay, Sys};
    /// // Godot 4.6 client 3 asking the server to relay `send_bytes([6, 5])` to peer 2.
    /// let bytes = [0x07, 0x03, 2, 0, 0, 0, 0x03, 6, 5];
    /// let Packet::Sys(Sys::Relay(relay)) = Packet::parse(&bytes)? else { panic!() };
    /// assert_eq!(relay.packet, &bytes[Relay::INNER_OFFSET..]);
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub const INNER_OFFSET: usize = 6;
}

impl<'a> Packet<'a> {
    /// Parses and validates a packet with engine defaults (Godot 4, objects not decoded).
    ///
    /// ```
    /// use gdwire::multiplayer::Packet;
    /// // Godot 4.6 despawning the node with net id 1.
    /// assert!(matches!(Packet::parse(&[0x05, 1, 0, 0, 0])?, Packet::Despawn(1)));
    /// // Errors give the offset: here the net id is cut short at byte 1.
    /// let err = Packet::parse(&[0x05, 1, 0]).unwrap_err();
    /// assert_eq!(err.offset(), 1);
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn parse(bytes: &'a [u8]) -> Result<Packet<'a>> {
        Packet::parse_with(Decoder::new(Dialect::GODOT_4), bytes)
    }

    /// Parses with decoding options for the embedded values: object decoding must be
    /// allowed to accept full objects (`SceneMultiplayer.allow_object_decoding`); like the
    /// engine, only remote-call arguments (relayed or not) can then hold them, spawn and sync
    /// values never do. The dialect should be [`Dialect::GODOT_4`] (or a 4.x dialect).
    ///
    /// Stricter than the engine in one respect: bytes the engine would ignore after a
    /// packet's last field are reported ([`ErrorKind::TrailingBytes`] or
    /// [`PacketProblem::Length`]), since the engine never sends them.
    ///
    /// ```
    /// use gdwire::multiplayer::{Args, Packet};
    /// use gdwire::{Decoder, Dialect};
    /// // `rpc("dyn", 42)` as Godot 4.6 sent it, read by a server that allows objects.
    /// let dec = Decoder::new(Dialect::GODOT_4).with_allow_objects(true);
    /// let bytes = b"\x60\x0a\x00\x00\x80\x00\x80\x01\x02\x2aGame\0";
    /// let Packet::RemoteCall(call) = Packet::parse_with(dec, bytes)? else { panic!() };
    /// let Args::Values(mut args) = call.args else { panic!() };
    /// assert_eq!(args.next().and_then(|v| v.as_int()), Some(42));
    /// // A byte after the last field (here of a despawn) is an error, at its offset.
    /// assert_eq!(Packet::parse_with(dec, &[0x05, 1, 0, 0, 0, 0]).unwrap_err().offset(), 5);
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn parse_with(dec: Decoder, bytes: &'a [u8]) -> Result<Packet<'a>> {
        let b0 = *bytes.first().ok_or(short(PacketField::Command, 0))?;
        match Command::from_byte(b0) {
            Command::RemoteCall => remote_call(dec, bytes, b0).map(Packet::RemoteCall),
            Command::SimplifyPath => simplify_path(bytes).map(Packet::SimplifyPath),
            Command::ConfirmPath => {
                let ok = *bytes.get(1).ok_or(short(PacketField::Confirmation, 1))?;
                let cache_id = u32_field(bytes, 2, PacketField::Id)?;
                exact_len(bytes, 6)?;
                Ok(Packet::ConfirmPath(ConfirmPath {
                    checksum_ok: ok != 0,
                    cache_id,
                }))
            }
            Command::Raw => match &bytes[1..] {
                [] => Err(short(PacketField::Payload, 1)),
                payload => Ok(Packet::Raw(payload)),
            },
            // The engine decodes spawn and sync values with objects off whatever the setting.
            Command::Spawn => spawn(dec.with_allow_objects(false), bytes).map(Packet::Spawn),
            Command::Despawn => {
                let id = u32_field(bytes, 1, PacketField::Id)?;
                exact_len(bytes, 5)?;
                Ok(Packet::Despawn(id))
            }
            Command::Sync => sync(dec.with_allow_objects(false), bytes, b0).map(Packet::Sync),
            Command::Sys => sys(dec, bytes).map(Packet::Sys),
        }
    }

    /// The command.
    ///
    /// ```
    /// use gdwire::multiplayer::{Command, Packet};
    /// assert_eq!(Packet::parse(&[0x05, 9, 0, 0, 0])?.command(), Command::Despawn);
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn command(&self) -> Command {
        match self {
            Packet::RemoteCall(_) => Command::RemoteCall,
            Packet::SimplifyPath(_) => Command::SimplifyPath,
            Packet::ConfirmPath(_) => Command::ConfirmPath,
            Packet::Raw(_) => Command::Raw,
            Packet::Spawn(_) => Command::Spawn,
            Packet::Despawn(_) => Command::Despawn,
            Packet::Sync(_) => Command::Sync,
            Packet::Sys(_) => Command::Sys,
        }
    }
}

fn remote_call<'a>(dec: Decoder, b: &'a [u8], b0: u8) -> Result<RemoteCall<'a>> {
    let node_width = match (b0 >> 4) & 3 {
        0 => IdWidth::U8,
        1 => IdWidth::U16,
        2 => IdWidth::U32,
        _ => return Err(bad(PacketProblem::NodeIdWidth, 0)),
    };
    let method_width = if b0 & 0x40 != 0 {
        IdWidth::U16
    } else {
        IdWidth::U8
    };
    let node_id = match node_width {
        IdWidth::U8 => u32::from(*b.get(1).ok_or(short(PacketField::NodeId, 1))?),
        IdWidth::U16 => u32::from(u16_field(b, 1, PacketField::NodeId)?),
        IdWidth::U32 => u32_field(b, 1, PacketField::NodeId)?,
    };
    let at = 1 + node_width.bytes();
    let method = match method_width {
        IdWidth::U16 => u16_field(b, at, PacketField::MethodId)?,
        _ => u16::from(*b.get(at).ok_or(short(PacketField::MethodId, at))?),
    };
    let header_end = at + method_width.bytes();
    // The arguments end where the appended node path starts, if there is one.
    let (node, end) = if node_id & 0x8000_0000 != 0 {
        let offset = node_id & 0x7FFF_FFFF;
        let start = offset as usize;
        if start >= b.len() || start < header_end {
            return Err(bad(PacketProblem::PathOffset, 1));
        }
        let path = text(&b[start..], start)?;
        (NodeRef::Path { offset, path }, start)
    } else {
        (NodeRef::Cached(node_id), b.len())
    };
    let args = if b0 & 0x80 != 0 {
        Args::Bytes(&b[header_end..end])
    } else {
        let argc = *b
            .get(..end)
            .and_then(|s| s.get(header_end))
            .ok_or(short(PacketField::ArgumentCount, header_end))?;
        let (values, after) = Values::check(dec, b, header_end + 1, end, Some(argc.into()))?;
        if after < end {
            let count = end - after;
            return Err(Error::new(ErrorKind::TrailingBytes { count }, after));
        }
        Args::Values(values)
    };
    Ok(RemoteCall {
        flags: b0,
        node_width,
        node,
        method_width,
        method,
        args,
    })
}

fn simplify_path(b: &[u8]) -> Result<SimplifyPath<'_>> {
    // 32 bytes, then a NUL the engine skips without looking at it.
    b.get(1..34).ok_or(short(PacketField::Checksum, 1))?;
    let checksum = core::str::from_utf8(&b[1..33]).map_err(|_| bad(PacketProblem::Text, 1))?;
    let cache_id = u32_field(b, 34, PacketField::Id)?;
    let path = text(&b[38..], 38)?;
    Ok(SimplifyPath {
        checksum,
        cache_id,
        path,
    })
}

fn spawn(dec: Decoder, b: &[u8]) -> Result<Spawn<'_>> {
    let scene_id = *b.get(1).ok_or(short(PacketField::SceneId, 1))?;
    let spawner = u32_field(b, 2, PacketField::Id)?;
    let net_id = u32_field(b, 6, PacketField::Id)?;
    let n_sync = u32_field(b, 10, PacketField::Count)?;
    let name_len = u32_field(b, 14, PacketField::Count)?;
    let ids_len = (n_sync as usize).saturating_mul(4);
    let ids = b.get(18..18usize.saturating_add(ids_len));
    let sync_ids = U32s(ids.ok_or(short(PacketField::Id, 18))?);
    let at = 18 + ids_len;
    if name_len == 0 {
        return Err(bad(PacketProblem::EmptyName, 14));
    }
    let name_end = at.saturating_add(name_len as usize);
    let name = text(b.get(at..name_end).ok_or(short(PacketField::Name, at))?, at)?;
    let mut at = name_end;
    let custom = if scene_id == Spawn::CUSTOM {
        let size = u32_field(b, at, PacketField::Size)? as usize;
        let start = at + 4;
        let end = start.saturating_add(size);
        if end > b.len() {
            return Err(short(PacketField::Value, start));
        }
        let (mut one, after) = Values::check(dec, b, start, end, Some(1))?;
        if after != end {
            return Err(bad(PacketProblem::SizeMismatch, start - 4));
        }
        at = end;
        one.next()
    } else {
        None
    };
    let (state, _) = Values::check(dec, b, at, b.len(), None)?;
    Ok(Spawn {
        scene_id,
        spawner,
        net_id,
        sync_ids,
        name,
        custom,
        state,
    })
}

/// A SYNC entry's head at `pos`: net id, delta mask, where the size word is, and the range
/// its values fill.
struct EntryHead {
    net_id: u32,
    mask: Option<u64>,
    size_at: usize,
    start: usize,
    end: usize,
}

fn entry_head(b: &[u8], pos: usize, delta: bool) -> Result<EntryHead> {
    let net_id = u32_field(b, pos, PacketField::Id)?;
    let (mask, size_at) = if delta {
        (Some(u64_field(b, pos + 4, PacketField::Mask)?), pos + 12)
    } else {
        (None, pos + 4)
    };
    let size = u32_field(b, size_at, PacketField::Size)? as usize;
    let start = size_at + 4;
    let end = start.saturating_add(size);
    if end > b.len() {
        return Err(short(PacketField::Value, start));
    }
    Ok(EntryHead {
        net_id,
        mask,
        size_at,
        start,
        end,
    })
}

/// Checks the SYNC entry at `pos` (header, then values filling its size exactly) and
/// returns where it ends.
fn sync_entry(dec: &Decoder, b: &[u8], pos: usize, delta: bool) -> Result<usize> {
    let head = entry_head(b, pos, delta)?;
    let (count, after) = Values::check_run(dec, b, head.start, head.end, None)?;
    if after != head.end {
        return Err(bad(PacketProblem::SizeMismatch, head.size_at));
    }
    if let Some(m) = head.mask {
        // The engine rejects a delta naming no property.
        if m == 0 || count != m.count_ones() {
            return Err(bad(PacketProblem::ValueCount, pos + 4));
        }
    }
    Ok(head.end)
}

/// The entry at `pos`, which [`sync_entry`] accepted before (the packet was parsed), and
/// where it ends, written to `after`; `None` where that parse would have failed. Its values
/// are read when asked for. The entry is returned as the iterator returns it (moved out of a
/// `Result` and a tuple, it was copied with wider loads than its fields were stored with).
fn parsed_entry<'a>(
    dec: Decoder,
    b: &'a [u8],
    pos: usize,
    delta: bool,
    after: &mut usize,
) -> Option<SyncEntry<'a>> {
    let head = entry_head(b, pos, delta).ok()?;
    *after = head.end;
    Some(SyncEntry {
        net_id: head.net_id,
        mask: head.mask,
        values: Values::parsed(dec, b, head.start, head.end),
    })
}

fn sync(dec: Decoder, b: &[u8], b0: u8) -> Result<Sync<'_>> {
    let delta = b0 & 0x10 != 0;
    let (time, first) = if delta {
        (None, 1)
    } else {
        (Some(u16_field(b, 1, PacketField::SyncTime)?), 3)
    };
    let mut pos = first;
    let mut n = 0u32;
    // The engine never sends a SYNC without an entry.
    while pos < b.len() || n == 0 {
        pos = sync_entry(&dec, b, pos, delta)?;
        n += 1;
    }
    let entries = SyncEntries {
        dec,
        bytes: b,
        pos: first,
        delta,
        left: n,
    };
    Ok(Sync { time, entries })
}

fn sys(dec: Decoder, b: &[u8]) -> Result<Sys<'_>> {
    let sub = *b.get(1).ok_or(short(PacketField::SysCommand, 1))?;
    let Some(cmd) = SysCommand::from_byte(sub) else {
        return Err(bad(PacketProblem::SysCommand(sub), 1));
    };
    if cmd == SysCommand::Auth {
        return Ok(Sys::Auth(&b[2..]));
    }
    let peer = u32_field(b, 2, PacketField::PeerId)? as i32;
    Ok(match cmd {
        SysCommand::AddPeer | SysCommand::DelPeer => {
            exact_len(b, 6)?;
            if cmd == SysCommand::AddPeer {
                Sys::AddPeer(peer)
            } else {
                Sys::DelPeer(peer)
            }
        }
        _ => {
            let packet = &b[Relay::INNER_OFFSET..];
            match packet.first() {
                None => return Err(short(PacketField::Payload, Relay::INNER_OFFSET)),
                Some(&c) if Command::from_byte(c) == Command::Sys => {
                    return Err(bad(PacketProblem::RelayedSys, Relay::INNER_OFFSET));
                }
                Some(_) => {}
            }
            Packet::parse_with(dec, packet).map_err(|e| e.offset_by(Relay::INNER_OFFSET))?;
            Sys::Relay(Relay { peer, packet, dec })
        }
    })
}
