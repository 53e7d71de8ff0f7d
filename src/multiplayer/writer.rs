//! Writing one `SceneMultiplayer` packet into a [`Sink`].

use crate::error::{Error, ErrorKind, PacketProblem, Result};
use crate::multiplayer::values::{bool_byte, int_bytes, Values};
use crate::multiplayer::{Args, Command, IdWidth, NodeRef, Packet, Sys, SysCommand};
use crate::read::VariantRef;
use crate::write::{IntoSink, Sink, Writer};
use crate::{Dialect, Precision};

/// Where a remote call is aimed, for [`PacketWriter::remote_call`].
///
/// ```
/// use gdwire::multiplayer::{packet_to_vec, Target};
/// // Cache id 300 needs 16 bits (flags 0x10); `Cached32` always takes 32 (flags 0x20).
/// let narrow = packet_to_vec(|w| w.remote_call(Target::Cached(300), 1, 0))?;
/// let wide = packet_to_vec(|w| w.remote_call(Target::Cached32(300), 1, 0))?;
/// assert_eq!(narrow, [0x90, 0x2c, 0x01, 1]);
/// assert_eq!(wide, [0xA0, 0x2c, 0x01, 0, 0, 1]);
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target<'p> {
    /// A path-cache id every receiver confirmed, in the narrowest of 8/16/32 bits (what the
    /// engine sends when all targets know the path).
    Cached(u32),
    /// A path-cache id always in 32 bits: what the engine sends to the peers that confirmed
    /// the path when some other target of the same call has not.
    Cached32(u32),
    /// The node path relative to the multiplayer root, appended after the arguments (what
    /// the engine sends to a peer that has not confirmed the path yet).
    Path(&'p str),
}

/// How a spawned node was made, for [`PacketWriter::spawn`].
///
/// ```
/// use gdwire::multiplayer::{Packet, PacketWriter, SpawnKind};
/// let mut w = PacketWriter::new(Vec::new());
/// w.spawn(SpawnKind::Scene(2), 1, 7, &[], "Enemy")?;
/// w.finish()?;
/// let out = w.into_sink();
/// let Packet::Spawn(s) = Packet::parse(&out)? else { panic!() };
/// assert_eq!((s.scene_id, s.is_custom(), s.state.len()), (2, false, 0));
/// # Ok::<(), gdwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpawnKind {
    /// Instanced from the spawner's spawnable scene at this index (`0..=254`).
    Scene(u8),
    /// `MultiplayerSpawner.spawn(data)`: the next value written is the custom argument.
    Custom,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Nothing written yet (or a relay header that waits for its inner packet).
    Start,
    /// A remote call with `argc` values; `argc_written` once the count byte is out.
    Call { argc: u8, argc_written: bool },
    /// Values until the end (spawn state); `custom` while the custom argument is owed.
    Spawn { custom: bool },
    /// A full (`delta == false`) or delta sync, entries follow.
    Sync { delta: bool },
    /// A packet without values, complete.
    Done,
}

/// Writes one `SceneMultiplayer` packet, byte for byte what the engine sends.
///
/// Start with one packet call (`remote_call`, `spawn`, `sync`, `raw`, …), write the
/// packet's values with [`PacketWriter::bool`], [`PacketWriter::int`],
/// [`PacketWriter::value`] or [`PacketWriter::with`], then [`PacketWriter::finish`], which
/// patches sizes and the node-path offset and checks that nothing is owed. Values use the
/// compressed encoding (bool in one byte, int in the narrowest of 1/2/4/8 bytes, anything
/// else through the crate's [`Writer`] in the Godot 4 dialect). One writer writes one packet
/// (a relay: the relay header, then one inner packet).
///
/// ```
/// use gdwire::multiplayer::{Args, NodeRef, Packet, PacketWriter, Target};
///
/// let mut out = Vec::new();
/// let mut w = PacketWriter::new(&mut out);
/// w.remote_call(Target::Path("Players/Bob"), 2, 2)?; // not confirmed yet: path form
/// w.int(300)?;
/// w.with(|v| v.string("hello"))?;
/// w.finish()?;
///
/// let Packet::RemoteCall(call) = Packet::parse(&out)? else { panic!() };
/// assert_eq!(call.method, 2);
/// assert!(matches!(call.node, NodeRef::Path { path: "Players/Bob", .. }));
/// let Args::Values(mut args) = call.args else { panic!() };
/// assert_eq!(args.next().unwrap().as_int(), Some(300));
/// assert_eq!(args.next().unwrap().as_str(), Some("hello"));
/// # Ok::<(), gdwire::Error>(())
/// ```
pub struct PacketWriter<'p, S: Sink> {
    sink: S,
    /// Where the current (possibly relayed) packet's byte 0 is.
    start: usize,
    state: State,
    /// Remote call in path form: the path to append at `finish`.
    path: Option<&'p str>,
    /// Values still owed (remote call arguments, delta entry values); `None` = any number.
    owed: Option<u32>,
    /// An open u32 size field (custom spawn argument, sync entry) to patch.
    size_at: Option<usize>,
    relay_open: bool,
    /// Byte 0 of a remote call (sinks cannot be read back; patched for the byte-only form).
    call_head: u8,
    full_objects: bool,
    precision: Precision,
    error: Option<Error>,
}

impl<S: Sink> core::fmt::Debug for PacketWriter<'_, S> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PacketWriter")
            .field("position", &self.sink.position())
            .field("state", &self.state)
            .field("owed", &self.owed)
            .field("precision", &self.precision)
            .field("error", &self.error)
            .finish()
    }
}

impl<'p, S: Sink> PacketWriter<'p, S> {
    /// A writer into `sink`: any [`Sink`] (a `Vec<u8>`, `&mut Vec<u8>`, a
    /// [`crate::SliceSink`]) or `&mut [u8]`.
    ///
    /// ```
    /// use gdwire::multiplayer::PacketWriter;
    /// let mut buf = [0u8; 8];
    /// let mut w = PacketWriter::new(&mut buf[..]);
    /// w.despawn(7)?;
    /// let len = w.finish()?;
    /// assert_eq!(buf[..len], [0x05, 7, 0, 0, 0]);
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn new<I: IntoSink<Sink = S>>(sink: I) -> PacketWriter<'p, S> {
        let sink = sink.into_sink();
        PacketWriter {
            start: sink.position(),
            sink,
            state: State::Start,
            path: None,
            owed: None,
            size_at: None,
            relay_open: false,
            call_head: 0,
            full_objects: false,
            precision: Precision::Single,
            error: None,
        }
    }

    /// Writes full objects (class and properties) instead of object ids, as the engine does
    /// with `SceneMultiplayer.allow_object_decoding`. Remote-call arguments only: the engine
    /// never writes full objects in spawn or sync packets.
    ///
    /// ```
    /// use gdwire::multiplayer::{PacketWriter, Target};
    /// let mut w = PacketWriter::new(Vec::new()).with_full_objects(true);
    /// w.remote_call(Target::Cached(1), 0, 1)?;
    /// w.int(1)?;
    /// w.finish()?;
    /// assert_eq!(w.into_sink(), [0x00, 1, 0, 1, 0x02, 1]);
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn with_full_objects(mut self, full: bool) -> Self {
        self.full_objects = full;
        self
    }

    /// Writes the math values of [`PacketWriter::with`] in `precision`: with
    /// [`Precision::Double`], header bit 16 and `f64` components, as a double-precision
    /// Godot 4 build sends them (docs/encoding.md). Views given to [`PacketWriter::value`]
    /// keep the precision they were read with.
    ///
    /// ```
    /// use gdwire::multiplayer::{PacketWriter, Target};
    /// use gdwire::{math::Vector2, Precision};
    /// let mut w = PacketWriter::new(Vec::new()).with_precision(Precision::Double);
    /// w.remote_call(Target::Cached(1), 0, 1)?;
    /// w.with(|v| v.vector2(Vector2 { x: 1.0, y: 2.0 }))?;
    /// w.finish()?;
    /// let out = w.into_sink();
    /// assert_eq!(out[4..8], [0x05, 0, 1, 0]); // Vector2, bit 16
    /// assert_eq!(out[8..], [&1f64.to_le_bytes()[..], &2f64.to_le_bytes()].concat());
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn with_precision(mut self, precision: Precision) -> Self {
        self.precision = precision;
        self
    }

    /// Gives the sink back.
    ///
    /// ```
    /// use gdwire::multiplayer::PacketWriter;
    /// let mut w = PacketWriter::new(Vec::new());
    /// w.raw(b"hi")?;
    /// w.finish()?;
    /// assert_eq!(w.into_sink(), [0x03, b'h', b'i']);
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn into_sink(self) -> S {
        self.sink
    }

    fn fail(&mut self, e: Error) -> Error {
        self.error = Some(e);
        e
    }

    fn guard(&mut self, f: impl FnOnce(&mut Self) -> Result<()>) -> Result<()> {
        if let Some(e) = self.error {
            return Err(e);
        }
        f(self).map_err(|e| self.fail(e))
    }

    fn here(&self) -> usize {
        self.sink.position()
    }

    fn put(&mut self, b: &[u8]) -> Result<()> {
        self.sink.write(b)
    }

    fn begin(&mut self, cmd: Command, state: State) -> Result<()> {
        if self.state != State::Start {
            return Err(Error::new(ErrorKind::TooManyItems, self.here()));
        }
        if self.relay_open && cmd == Command::Sys {
            return Err(Error::new(
                ErrorKind::InvalidPacket(PacketProblem::RelayedSys),
                self.here(),
            ));
        }
        self.start = self.here();
        self.state = state;
        Ok(())
    }

    /// REMOTE_CALL with `argc` compressed values to follow (at most 255). A cached node id
    /// must be below 2^31 ([`ErrorKind::TooLong`]): bit 31 marks the path form. Zero arguments
    /// are sent in the byte-only form, as the engine does; a single PackedByteArray argument
    /// written with [`PacketWriter::value`] is too (or use
    /// [`PacketWriter::remote_call_bytes`]).
    ///
    /// ```
    /// use gdwire::multiplayer::{Packet, PacketWriter, Target};
    /// let mut w = PacketWriter::new(Vec::new());
    /// w.remote_call(Target::Cached(4), 0x8001, 2)?; // an rpc_config() method: 16-bit id
    /// w.bool(true)?;
    /// w.int(-1)?;
    /// assert!(w.int(2).is_err()); // only 2 arguments were announced
    /// let out = w.into_sink();
    /// let Packet::RemoteCall(call) = Packet::parse(&out)? else { panic!() };
    /// assert_eq!((call.method, call.args.count()), (0x8001, 2));
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn remote_call(&mut self, target: Target<'p>, method: u16, argc: u8) -> Result<()> {
        self.guard(|w| {
            w.begin(
                Command::RemoteCall,
                State::Call {
                    argc,
                    argc_written: false,
                },
            )?;
            w.call_header(target, method, argc == 0)?;
            w.owed = Some(argc.into());
            if argc == 0 {
                w.state = State::Done;
            }
            Ok(())
        })
    }

    /// REMOTE_CALL in the byte-only form: one PackedByteArray argument sent as its raw bytes
    /// (empty `bytes` = a call without arguments, byte-identical to the engine's).
    ///
    /// ```
    /// use gdwire::multiplayer::{Args, Packet, PacketWriter, Target};
    /// let mut w = PacketWriter::new(Vec::new());
    /// w.remote_call_bytes(Target::Cached(1), 3, &[9, 8])?;
    /// w.finish()?;
    /// let out = w.into_sink();
    /// assert_eq!(out, [0x80, 1, 3, 9, 8]);
    /// let Packet::RemoteCall(call) = Packet::parse(&out)? else { panic!() };
    /// assert!(matches!(call.args, Args::Bytes(&[9, 8])));
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn remote_call_bytes(
        &mut self,
        target: Target<'p>,
        method: u16,
        bytes: &[u8],
    ) -> Result<()> {
        self.guard(|w| {
            w.begin(Command::RemoteCall, State::Done)?;
            w.call_header(target, method, true)?;
            w.put(bytes)
        })
    }

    fn call_header(&mut self, target: Target<'p>, method: u16, byte_only: bool) -> Result<()> {
        let mut head = Command::RemoteCall as u8;
        let mut id = [0u8; 4];
        let node_len = match target {
            Target::Cached(n) if n <= 0xFF => 1,
            Target::Cached(n) if n <= 0xFFFF => 2,
            Target::Cached(n) | Target::Cached32(n) if n & 0x8000_0000 == 0 => 4,
            Target::Cached(_) | Target::Cached32(_) => {
                return Err(Error::new(
                    ErrorKind::TooLong { len: usize::MAX },
                    self.here(),
                ))
            }
            Target::Path(p) => {
                self.path = Some(p);
                4
            }
        };
        if let Target::Cached(n) | Target::Cached32(n) = target {
            id = n.to_le_bytes();
        }
        head |= match node_len {
            1 => 0,
            2 => 1 << 4,
            _ => 2 << 4,
        };
        if method > 0xFF {
            head |= 0x40;
        }
        if byte_only {
            head |= 0x80;
        }
        self.call_head = head;
        self.put(&[head])?;
        self.put(&id[..node_len])?;
        if method > 0xFF {
            self.put(&method.to_le_bytes())
        } else {
            self.put(&[method as u8])
        }
    }

    /// SIMPLIFY_PATH: `checksum` is the md5 (32 hex digits) of the node's RPC method names
    /// concatenated in id order ([`ErrorKind::TooLong`] unless it is 32 bytes).
    ///
    /// ```
    /// use gdwire::multiplayer::{Packet, PacketWriter};
    /// let sum = "0123456789abcdef0123456789abcdef";
    /// let mut w = PacketWriter::new(Vec::new());
    /// w.simplify_path(sum, 5, "Main/Player")?;
    /// w.finish()?;
    /// let out = w.into_sink();
    /// let Packet::SimplifyPath(p) = Packet::parse(&out)? else { panic!() };
    /// assert_eq!((p.checksum, p.cache_id, p.path), (sum, 5, "Main/Player"));
    /// assert!(PacketWriter::new(Vec::new()).simplify_path("short", 5, "x").is_err());
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn simplify_path(&mut self, checksum: &str, cache_id: u32, path: &str) -> Result<()> {
        self.guard(|w| {
            if checksum.len() != 32 {
                return Err(Error::new(
                    ErrorKind::TooLong {
                        len: checksum.len(),
                    },
                    w.here(),
                ));
            }
            w.begin(Command::SimplifyPath, State::Done)?;
            w.put(&[Command::SimplifyPath as u8])?;
            w.put(checksum.as_bytes())?;
            w.put(&[0])?;
            w.put(&cache_id.to_le_bytes())?;
            w.put(path.as_bytes())?;
            w.put(&[0])
        })
    }

    /// CONFIRM_PATH.
    ///
    /// ```
    /// use gdwire::multiplayer::PacketWriter;
    /// let mut w = PacketWriter::new(Vec::new());
    /// w.confirm_path(true, 5)?;
    /// w.finish()?;
    /// assert_eq!(w.into_sink(), [0x02, 1, 5, 0, 0, 0]);
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn confirm_path(&mut self, checksum_ok: bool, cache_id: u32) -> Result<()> {
        self.guard(|w| {
            w.begin(Command::ConfirmPath, State::Done)?;
            w.put(&[Command::ConfirmPath as u8, checksum_ok as u8])?;
            w.put(&cache_id.to_le_bytes())
        })
    }

    /// RAW (`send_bytes`); the payload must not be empty ([`ErrorKind::MissingItems`]).
    ///
    /// ```
    /// use gdwire::multiplayer::{Packet, PacketWriter};
    /// let mut w = PacketWriter::new(Vec::new());
    /// w.raw(&[1, 2, 3])?;
    /// w.finish()?;
    /// let out = w.into_sink();
    /// assert!(matches!(Packet::parse(&out)?, Packet::Raw(&[1, 2, 3])));
    /// assert!(PacketWriter::new(Vec::new()).raw(&[]).is_err());
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn raw(&mut self, payload: &[u8]) -> Result<()> {
        self.guard(|w| {
            w.begin(Command::Raw, State::Done)?;
            if payload.is_empty() {
                return Err(Error::new(ErrorKind::MissingItems { count: 1 }, w.here()));
            }
            w.put(&[Command::Raw as u8])?;
            w.put(payload)
        })
    }

    /// SPAWN. For [`SpawnKind::Custom`] the next value written is the custom argument; then
    /// the spawn state, one value per spawn property, as many as the config has.
    ///
    /// ```
    /// use gdwire::multiplayer::{Packet, PacketWriter, SpawnKind};
    /// let mut w = PacketWriter::new(Vec::new());
    /// w.spawn(SpawnKind::Scene(0), 1, 7, &[8, 9], "Player")?;
    /// w.int(100)?; // spawn state: as many values as the config has
    /// w.bool(false)?;
    /// w.finish()?;
    /// let out = w.into_sink();
    /// let Packet::Spawn(s) = Packet::parse(&out)? else { panic!() };
    /// assert_eq!(s.sync_ids.iter().collect::<Vec<_>>(), [8, 9]);
    /// assert_eq!(s.state.len(), 2);
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn spawn(
        &mut self,
        kind: SpawnKind,
        spawner: u32,
        net_id: u32,
        sync_ids: &[u32],
        name: &str,
    ) -> Result<()> {
        self.guard(|w| w.spawn_head(kind, spawner, net_id, sync_ids.iter().copied(), name))
    }

    fn spawn_head<I>(
        &mut self,
        kind: SpawnKind,
        spawner: u32,
        net_id: u32,
        sync_ids: I,
        name: &str,
    ) -> Result<()>
    where
        I: ExactSizeIterator<Item = u32>,
    {
        let (scene, custom) = match kind {
            SpawnKind::Scene(0xFF) => {
                let kind = ErrorKind::InvalidPacket(PacketProblem::SceneId);
                return Err(Error::new(kind, self.here()));
            }
            SpawnKind::Scene(i) => (i, false),
            SpawnKind::Custom => (0xFF, true),
        };
        let too_long = |len| Error::new(ErrorKind::TooLong { len }, 0);
        let n_sync = u32::try_from(sync_ids.len()).map_err(|_| too_long(sync_ids.len()))?;
        let name_len = u32::try_from(name.len() + 1).map_err(|_| too_long(name.len()))?;
        self.begin(Command::Spawn, State::Spawn { custom })?;
        self.put(&[Command::Spawn as u8, scene])?;
        for v in [spawner, net_id, n_sync, name_len] {
            self.put(&v.to_le_bytes())?;
        }
        for id in sync_ids {
            self.put(&id.to_le_bytes())?;
        }
        self.put(name.as_bytes())?;
        self.put(&[0])?;
        self.owed = if custom { Some(1) } else { None };
        if custom {
            self.open_size()?;
        }
        Ok(())
    }

    /// DESPAWN.
    ///
    /// ```
    /// use gdwire::multiplayer::{Packet, PacketWriter};
    /// let mut w = PacketWriter::new(Vec::new());
    /// w.despawn(258)?;
    /// w.finish()?;
    /// let out = w.into_sink();
    /// assert!(matches!(Packet::parse(&out)?, Packet::Despawn(258)));
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn despawn(&mut self, net_id: u32) -> Result<()> {
        self.guard(|w| {
            w.begin(Command::Despawn, State::Done)?;
            w.put(&[Command::Despawn as u8])?;
            w.put(&net_id.to_le_bytes())
        })
    }

    /// SYNC, full (sent unreliable): entries follow with [`PacketWriter::sync_entry`].
    ///
    /// ```
    /// use gdwire::multiplayer::{Packet, PacketWriter};
    /// let mut w = PacketWriter::new(Vec::new());
    /// w.sync(100)?;
    /// w.sync_entry(8)?;
    /// w.int(1)?;
    /// w.finish()?;
    /// let out = w.into_sink();
    /// // command, time, net id, entry size, the value
    /// assert_eq!(out, [0x06, 100, 0, 8, 0, 0, 0, 2, 0, 0, 0, 0x02, 1]);
    /// let Packet::Sync(s) = Packet::parse(&out)? else { panic!() };
    /// assert_eq!((s.time, s.entries.len()), (Some(100), 1));
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn sync(&mut self, time: u16) -> Result<()> {
        self.guard(|w| {
            w.begin(Command::Sync, State::Sync { delta: false })?;
            w.put(&[Command::Sync as u8])?;
            w.put(&time.to_le_bytes())
        })
    }

    /// SYNC, delta (sent reliable): entries follow with [`PacketWriter::delta_entry`].
    ///
    /// ```
    /// use gdwire::multiplayer::{Packet, PacketWriter};
    /// let mut w = PacketWriter::new(Vec::new());
    /// w.sync_delta()?;
    /// w.delta_entry(8, 0b101)?; // properties 0 and 2 changed: two values
    /// w.int(1)?;
    /// w.int(2)?;
    /// w.finish()?;
    /// let out = w.into_sink();
    /// let Packet::Sync(s) = Packet::parse(&out)? else { panic!() };
    /// assert!(s.is_delta());
    /// let e = s.entries.into_iter().next().unwrap();
    /// assert_eq!((e.net_id, e.mask, e.values.len()), (8, Some(0b101), 2));
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn sync_delta(&mut self) -> Result<()> {
        self.guard(|w| {
            w.begin(Command::Sync, State::Sync { delta: true })?;
            w.put(&[Command::Sync as u8 | 0x10])
        })
    }

    /// A full-sync entry: the synchronizer's net id, then all its sync properties' values.
    ///
    /// ```
    /// use gdwire::multiplayer::{Packet, PacketWriter};
    /// let mut w = PacketWriter::new(Vec::new());
    /// w.sync(1)?;
    /// w.sync_entry(8)?;
    /// w.bool(true)?;
    /// w.sync_entry(9)?;
    /// w.int(5)?;
    /// w.finish()?;
    /// let out = w.into_sink();
    /// let Packet::Sync(s) = Packet::parse(&out)? else { panic!() };
    /// assert_eq!(s.entries.map(|e| e.net_id).collect::<Vec<_>>(), [8, 9]);
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn sync_entry(&mut self, net_id: u32) -> Result<()> {
        self.entry(net_id, None)
    }

    /// A delta-sync entry: net id and changed-property mask, then one value per set bit.
    ///
    /// ```
    /// use gdwire::multiplayer::PacketWriter;
    /// let mut w = PacketWriter::new(Vec::new());
    /// w.sync_delta()?;
    /// w.delta_entry(8, 0b11)?;
    /// w.int(1)?;
    /// assert!(w.finish().is_err()); // the mask announced two values
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn delta_entry(&mut self, net_id: u32, mask: u64) -> Result<()> {
        self.entry(net_id, Some(mask))
    }

    fn entry(&mut self, net_id: u32, mask: Option<u64>) -> Result<()> {
        self.guard(|w| {
            let State::Sync { delta } = w.state else {
                return Err(Error::new(ErrorKind::TooManyItems, w.here()));
            };
            if delta != mask.is_some() {
                return Err(Error::new(ErrorKind::TooManyItems, w.here()));
            }
            if mask == Some(0) {
                let kind = ErrorKind::InvalidPacket(PacketProblem::ValueCount);
                return Err(Error::new(kind, w.here()));
            }
            w.close_entry()?;
            w.put(&net_id.to_le_bytes())?;
            if let Some(m) = mask {
                w.put(&m.to_le_bytes())?;
            }
            w.owed = mask.map(u64::count_ones);
            w.open_size()
        })
    }

    /// SYS AUTH: an authentication payload, or empty for "authentication complete".
    ///
    /// ```
    /// use gdwire::multiplayer::PacketWriter;
    /// let mut w = PacketWriter::new(Vec::new());
    /// w.auth(b"")?; // "my side of authentication is complete"
    /// w.finish()?;
    /// assert_eq!(w.into_sink(), [0x07, 0x00]);
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn auth(&mut self, payload: &[u8]) -> Result<()> {
        self.guard(|w| {
            w.begin(Command::Sys, State::Done)?;
            w.put(&[Command::Sys as u8, SysCommand::Auth as u8])?;
            w.put(payload)
        })
    }

    /// SYS ADD_PEER (server to client under server relay).
    ///
    /// ```
    /// use gdwire::multiplayer::{Packet, PacketWriter, Sys};
    /// let mut w = PacketWriter::new(Vec::new());
    /// w.add_peer(5)?;
    /// w.finish()?;
    /// let out = w.into_sink();
    /// assert_eq!(out, [0x07, 1, 5, 0, 0, 0]);
    /// assert!(matches!(Packet::parse(&out)?, Packet::Sys(Sys::AddPeer(5))));
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn add_peer(&mut self, peer: i32) -> Result<()> {
        self.sys_peer(SysCommand::AddPeer, peer)
    }

    /// SYS DEL_PEER.
    ///
    /// ```
    /// use gdwire::multiplayer::{Packet, PacketWriter, Sys};
    /// let mut w = PacketWriter::new(Vec::new());
    /// w.del_peer(5)?;
    /// w.finish()?;
    /// let out = w.into_sink();
    /// assert!(matches!(Packet::parse(&out)?, Packet::Sys(Sys::DelPeer(5))));
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn del_peer(&mut self, peer: i32) -> Result<()> {
        self.sys_peer(SysCommand::DelPeer, peer)
    }

    fn sys_peer(&mut self, sub: SysCommand, peer: i32) -> Result<()> {
        self.guard(|w| {
            w.begin(Command::Sys, State::Done)?;
            w.put(&[Command::Sys as u8, sub as u8])?;
            w.put(&peer.to_le_bytes())
        })
    }

    /// SYS RELAY header; the inner packet (not a SYS packet) is written next with the same
    /// writer. `peer` is the destination (client to server) or the original sender (server
    /// to client).
    ///
    /// ```
    /// use gdwire::multiplayer::{Packet, PacketWriter, Sys};
    /// let mut w = PacketWriter::new(Vec::new());
    /// w.relay(3)?;
    /// w.despawn(9)?; // the inner packet
    /// assert_eq!(w.finish()?, 11); // relay header included
    /// let out = w.into_sink();
    /// let Packet::Sys(Sys::Relay(r)) = Packet::parse(&out)? else { panic!() };
    /// assert_eq!(r.peer, 3);
    /// assert!(matches!(r.inner()?, Packet::Despawn(9)));
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn relay(&mut self, peer: i32) -> Result<()> {
        self.guard(|w| {
            w.begin(Command::Sys, State::Start)?;
            w.put(&[Command::Sys as u8, SysCommand::Relay as u8])?;
            w.put(&peer.to_le_bytes())?;
            w.relay_open = true;
            Ok(())
        })
    }

    fn open_size(&mut self) -> Result<()> {
        self.size_at = Some(self.here());
        self.put(&[0; 4])
    }

    fn close_size(&mut self) -> Result<()> {
        if let Some(at) = self.size_at.take() {
            let size = self.here() - at - 4;
            let size = u32::try_from(size)
                .map_err(|_| Error::new(ErrorKind::TooLong { len: size }, at))?;
            self.sink.patch(at, &size.to_le_bytes())?;
        }
        Ok(())
    }

    fn close_entry(&mut self) -> Result<()> {
        if let Some(n @ 1..) = self.owed {
            return Err(Error::new(
                ErrorKind::MissingItems { count: n },
                self.here(),
            ));
        }
        self.close_size()
    }

    /// Before a value: checks one is expected and writes what precedes it.
    fn before_value(&mut self) -> Result<()> {
        let at = self.here();
        match &mut self.state {
            State::Call { argc, argc_written } => {
                if !*argc_written {
                    let n = *argc;
                    *argc_written = true;
                    self.put(&[n])?;
                }
            }
            State::Spawn { .. } => {}
            State::Sync { .. } if self.size_at.is_some() => {}
            _ => return Err(Error::new(ErrorKind::TooManyItems, at)),
        }
        if self.owed == Some(0) {
            return Err(Error::new(ErrorKind::TooManyItems, at));
        }
        Ok(())
    }

    /// After a value: counts it, closes the custom spawn argument.
    fn after_value(&mut self) -> Result<()> {
        if let Some(n) = &mut self.owed {
            *n -= 1;
        }
        if let State::Spawn { custom: true } = self.state {
            self.close_size()?;
            self.state = State::Spawn { custom: false };
            self.owed = None;
        }
        Ok(())
    }

    /// A bool value (one byte).
    ///
    /// ```
    /// use gdwire::multiplayer::{PacketWriter, Target};
    /// let mut w = PacketWriter::new(Vec::new());
    /// w.remote_call(Target::Cached(1), 0, 2)?;
    /// w.bool(false)?;
    /// w.bool(true)?;
    /// w.finish()?;
    /// assert_eq!(w.into_sink(), [0x00, 1, 0, 2, 0x01, 0x81]);
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn bool(&mut self, v: bool) -> Result<()> {
        self.guard(|w| {
            w.before_value()?;
            w.put(&[bool_byte(v)])?;
            w.after_value()
        })
    }

    /// An int value (1 + 1, 2, 4 or 8 bytes, the narrowest that holds it).
    ///
    /// ```
    /// use gdwire::multiplayer::{PacketWriter, Target};
    /// let mut w = PacketWriter::new(Vec::new());
    /// w.remote_call(Target::Cached(1), 0, 2)?;
    /// w.int(5)?; // 8 bits
    /// w.int(300)?; // 16 bits: width in bits 6-7 of the type byte
    /// w.finish()?;
    /// assert_eq!(w.into_sink(), [0x00, 1, 0, 2, 0x02, 5, 0x42, 0x2c, 0x01]);
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn int(&mut self, v: i64) -> Result<()> {
        self.guard(|w| {
            w.before_value()?;
            let (b, n) = int_bytes(v);
            w.put(&b[..n])?;
            w.after_value()
        })
    }

    /// Any value from a view (bools and ints compressed). A lone PackedByteArray argument
    /// of a remote call switches the call to the byte-only form, as the engine does.
    ///
    /// ```
    /// use gdwire::multiplayer::{Packet, PacketWriter, Target};
    /// use gdwire::VariantRef;
    /// let mut w = PacketWriter::new(Vec::new());
    /// w.remote_call(Target::Cached(1), 0, 2)?;
    /// w.value(&VariantRef::Int(7))?; // compressed like `int`
    /// w.value(&VariantRef::Float(0.5))?;
    /// w.finish()?;
    /// let out = w.into_sink();
    /// assert_eq!(out[4..6], [0x02, 7]);
    /// let Packet::RemoteCall(call) = Packet::parse(&out)? else { panic!() };
    /// assert_eq!(call.args.count(), 2);
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn value(&mut self, v: &VariantRef<'_>) -> Result<()> {
        match *v {
            VariantRef::Bool(b) => self.bool(b),
            VariantRef::Int(i) => self.int(i),
            VariantRef::PackedByteArray(bytes)
                if self.state
                    == State::Call {
                        argc: 1,
                        argc_written: false,
                    } =>
            {
                self.guard(|w| {
                    let start = w.start;
                    w.sink.patch(start, &[w.call_head | 0x80])?;
                    w.put(bytes.as_bytes())?;
                    w.owed = Some(0);
                    w.state = State::Done;
                    Ok(())
                })
            }
            _ => self.with(|w| w.value(v)),
        }
    }

    /// One value written with the crate's [`Writer`] (Godot 4 dialect), in plain
    /// `encode_variant` form: `encode` must write exactly one value. A bool or int written
    /// this way is not compressed, and a lone PackedByteArray argument is not switched to
    /// the byte-only form (the engine sends neither; use [`PacketWriter::bool`],
    /// [`PacketWriter::int`], [`PacketWriter::value`] or [`PacketWriter::remote_call_bytes`]).
    ///
    /// ```
    /// use gdwire::multiplayer::{Args, Packet, PacketWriter, Target};
    /// let mut w = PacketWriter::new(Vec::new());
    /// w.remote_call(Target::Cached(1), 0, 1)?;
    /// w.with(|v| v.string("hi"))?;
    /// w.finish()?;
    /// let out = w.into_sink();
    /// let Packet::RemoteCall(call) = Packet::parse(&out)? else { panic!() };
    /// let Args::Values(mut args) = call.args else { panic!() };
    /// assert_eq!(args.next().unwrap().as_str(), Some("hi"));
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn with<F>(&mut self, encode: F) -> Result<()>
    where
        F: FnOnce(&mut Writer<&mut S>) -> Result<()>,
    {
        self.guard(|w| {
            w.before_value()?;
            let full = w.full_objects && matches!(w.state, State::Call { .. });
            let mut inner = Writer::new(&mut w.sink, Dialect::GODOT_4)
                .with_full_objects(full)
                .with_precision(w.precision);
            encode(&mut inner)?;
            inner.finish()?;
            w.after_value()
        })
    }

    /// Writes a parsed packet again (for a relay or a proxy that forwards what it reads):
    /// same fields, in the engine's canonical form (ints in their narrowest width; ids in
    /// the width they came in). Call [`PacketWriter::finish`] afterwards.
    ///
    /// ```
    /// use gdwire::multiplayer::{Packet, PacketWriter};
    /// let sent = [0x00, 3, 1, 1, 0xC2, 5, 0, 0, 0, 0, 0, 0, 0]; // int 5 sent in 64 bits
    /// let mut out = Vec::new();
    /// let mut w = PacketWriter::new(&mut out);
    /// w.packet(&Packet::parse(&sent)?)?;
    /// w.finish()?;
    /// assert_eq!(out, [0x00, 3, 1, 1, 0x02, 5]);
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn packet(&mut self, packet: &Packet<'p>) -> Result<()> {
        match *packet {
            Packet::RemoteCall(c) => {
                let target = match c.node {
                    NodeRef::Path { path, .. } => Target::Path(path),
                    NodeRef::Cached(id) if c.node_width == IdWidth::U32 => Target::Cached32(id),
                    NodeRef::Cached(id) => Target::Cached(id),
                };
                match c.args {
                    Args::Bytes(b) => self.remote_call_bytes(target, c.method, b),
                    Args::Values(v) => {
                        self.remote_call(target, c.method, v.len() as u8)?;
                        self.values(v)
                    }
                }
            }
            Packet::SimplifyPath(p) => self.simplify_path(p.checksum, p.cache_id, p.path),
            Packet::ConfirmPath(c) => self.confirm_path(c.checksum_ok, c.cache_id),
            Packet::Raw(b) => self.raw(b),
            Packet::Spawn(s) => {
                let kind = match s.custom {
                    Some(_) => SpawnKind::Custom,
                    None => SpawnKind::Scene(s.scene_id),
                };
                self.guard(|w| w.spawn_head(kind, s.spawner, s.net_id, s.sync_ids.iter(), s.name))?;
                if let Some(v) = s.custom {
                    self.value(&v)?;
                }
                self.values(s.state)
            }
            Packet::Despawn(id) => self.despawn(id),
            Packet::Sync(s) => {
                match s.time {
                    Some(t) => self.sync(t)?,
                    None => self.sync_delta()?,
                }
                for e in s.entries {
                    self.entry(e.net_id, e.mask)?;
                    self.values(e.values)?;
                }
                Ok(())
            }
            Packet::Sys(Sys::Auth(b)) => self.auth(b),
            Packet::Sys(Sys::AddPeer(p)) => self.add_peer(p),
            Packet::Sys(Sys::DelPeer(p)) => self.del_peer(p),
            Packet::Sys(Sys::Relay(r)) => {
                self.relay(r.peer)?;
                self.packet(&r.inner()?)
            }
        }
    }

    fn values(&mut self, values: Values<'_>) -> Result<()> {
        for v in values {
            self.value(&v)?;
        }
        Ok(())
    }

    /// Completes the packet: closes open sizes, appends the node path of a path-form remote
    /// call and patches its offset, checks nothing is owed. Returns the packet's length
    /// (relay header included).
    ///
    /// ```
    /// use gdwire::multiplayer::{PacketWriter, Target};
    /// let mut w = PacketWriter::new(Vec::new());
    /// w.remote_call(Target::Cached(1), 0, 2)?;
    /// w.int(1)?;
    /// assert!(w.finish().is_err()); // one argument still owed
    /// assert!(PacketWriter::new(Vec::new()).finish().is_err()); // no packet at all
    /// # Ok::<(), gdwire::Error>(())
    /// ```
    pub fn finish(&mut self) -> Result<usize> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let r = self.finish_inner();
        r.map_err(|e| self.fail(e))
    }

    fn finish_inner(&mut self) -> Result<usize> {
        let here = self.here();
        match self.state {
            State::Start => return Err(Error::new(ErrorKind::MissingItems { count: 1 }, here)),
            State::Spawn { custom: true } => {
                return Err(Error::new(ErrorKind::MissingItems { count: 1 }, here))
            }
            State::Sync { .. } if self.size_at.is_none() => {
                // The engine never sends a SYNC without entries.
                return Err(Error::new(ErrorKind::MissingItems { count: 1 }, here));
            }
            _ => {}
        }
        self.close_entry()?;
        if let Some(path) = self.path.take() {
            let offset = here - self.start;
            let id = u32::try_from(offset)
                .ok()
                .filter(|o| o & 0x8000_0000 == 0)
                .ok_or(Error::new(ErrorKind::TooLong { len: offset }, here))?;
            self.sink
                .patch(self.start + 1, &(id | 0x8000_0000).to_le_bytes())?;
            self.put(path.as_bytes())?;
            self.put(&[0])?;
        }
        self.sink.check()?;
        let begin = if self.relay_open {
            self.start - 6
        } else {
            self.start
        };
        Ok(self.here() - begin)
    }
}
