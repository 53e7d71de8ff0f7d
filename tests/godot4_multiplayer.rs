//! Every packet three real Godot 4.6 `SceneMultiplayer` instances sent each other
//! (`tests/fixtures/godot4/multiplayer.jsonl`, made by `tests/godot4/multiplayer_capture.sh`)
//! decodes, rewrites to the engine's own bytes, and carries what the receiving engine reported:
//! RPC methods and arguments, senders through the relay, auth payloads, peers added and
//! removed, spawns with their custom data and spawn state, full and delta syncs, raw bytes.

use std::collections::{BTreeSet, HashMap};

use gdwire::multiplayer::{Args, NodeRef, Packet, PacketWriter, Spawn, Sys, SysCommand};
use gdwire::{from_bytes, Dialect, VariantRef};
use serde_json::Value;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/godot4/multiplayer.jsonl"
);

/// `@rpc` methods of `multiplayer_game.gd`, sorted: their ids. `dyn` comes from
/// `rpc_config()`: id `0x8000`.
const METHODS: [&str; 6] = ["blob", "hit", "many", "nothing", "ping", "relay_me"];

struct Sent {
    from: i64,
    to: i64,
    channel: i64,
    mode: i64,
    bytes: Vec<u8>,
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

fn load() -> (HashMap<i64, Sent>, Vec<Value>) {
    let mut packets = HashMap::new();
    let mut events = Vec::new();
    let mut done = false;
    for line in std::fs::read_to_string(FIXTURE).unwrap().lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        match v["kind"].as_str().unwrap() {
            "packet" => {
                let sent = Sent {
                    from: v["from"].as_i64().unwrap(),
                    to: v["to"].as_i64().unwrap(),
                    channel: v["channel"].as_i64().unwrap(),
                    mode: v["mode"].as_i64().unwrap(),
                    bytes: hex(v["hex"].as_str().unwrap()),
                };
                packets.insert(v["seq"].as_i64().unwrap(), sent);
            }
            "event" => events.push(v),
            _ => done = v["failures"] == 0,
        }
    }
    assert!(done, "the capture script finished without failures");
    (packets, events)
}

/// The engine's `var_to_bytes` of a value, as reported.
fn engine_value(h: &Value) -> Vec<u8> {
    hex(h.as_str().unwrap())
}

fn same(got: VariantRef<'_>, engine: &[u8]) -> bool {
    got == from_bytes(Dialect::GODOT_4, engine).unwrap()
}

fn all_same(got: impl Iterator<Item = VariantRef<'static>>, engine: &Value) -> bool {
    let engine = engine.as_array().unwrap();
    let got: Vec<_> = got.collect();
    got.len() == engine.len()
        && got
            .iter()
            .zip(engine)
            .all(|(g, e)| same(*g, &engine_value(e)))
}

/// The packet as the receiver processed it: a relayed packet's inner one, and who the
/// engine says sent it.
fn processed<'a>(p: Packet<'a>, sent: &Sent, at: i64) -> (Packet<'a>, i64) {
    match p {
        Packet::Sys(Sys::Relay(r)) => {
            // Server to client: the original sender; client to server (processed by the
            // server too when aimed at everyone): the client.
            let sender = if at == 1 {
                sent.from
            } else {
                i64::from(r.peer)
            };
            (r.inner().unwrap(), sender)
        }
        p => (p, sent.from),
    }
}

#[test]
fn engine_capture_decodes_and_matches_what_the_engine_reported() {
    let (packets, events) = load();
    let leak = |b: &Vec<u8>| -> &'static [u8] { Box::leak(b.clone().into_boxed_slice()) };
    let parsed: HashMap<i64, Packet<'static>> = packets
        .iter()
        .map(|(seq, s)| {
            let p = Packet::parse(leak(&s.bytes))
                .unwrap_or_else(|e| panic!("packet {seq} {:02x?}: {e}", s.bytes));
            (*seq, p)
        })
        .collect();

    // Coverage of the capture.
    let mut seen = BTreeSet::new();
    for p in parsed.values() {
        let mut note = |s: String| seen.insert(s);
        note(p.command().name().to_string());
        let inner = match p {
            Packet::Sys(Sys::Relay(r)) => {
                note("relay".into());
                r.inner().unwrap()
            }
            p => *p,
        };
        match inner {
            Packet::RemoteCall(c) => {
                note(format!("node {:?}", c.node_width));
                note(format!("method {:?}", c.method_width));
                if let NodeRef::Path { .. } = c.node {
                    note("path form".into());
                }
                match c.args {
                    Args::Bytes([]) => note("no args".into()),
                    Args::Bytes(_) => note("byte-only".into()),
                    Args::Values(_) => note("args".into()),
                }
            }
            Packet::Spawn(s) => note(
                if s.is_custom() {
                    "custom spawn"
                } else {
                    "scene spawn"
                }
                .into(),
            ),
            Packet::Sync(s) => note(
                if s.is_delta() {
                    "delta sync"
                } else {
                    "full sync"
                }
                .into(),
            ),
            Packet::Sys(Sys::Auth([])) => note("auth complete".into()),
            Packet::Sys(Sys::Auth(_)) => note("auth payload".into()),
            Packet::Sys(Sys::AddPeer(_)) => note("add peer".into()),
            Packet::Sys(Sys::DelPeer(_)) => note("del peer".into()),
            _ => false,
        };
    }
    for want in [
        "REMOTE_CALL",
        "SIMPLIFY_PATH",
        "CONFIRM_PATH",
        "RAW",
        "SPAWN",
        "DESPAWN",
        "SYNC",
        "SYS",
        "relay",
        "node U8",
        "node U16",
        "node U32",
        "method U8",
        "method U16",
        "path form",
        "no args",
        "byte-only",
        "args",
        "custom spawn",
        "scene spawn",
        "delta sync",
        "full sync",
        "auth complete",
        "auth payload",
        "add peer",
        "del peer",
    ] {
        assert!(seen.contains(want), "the capture has no {want}: {seen:?}");
    }

    // The writer's output is what the engine sends: every parsed packet rewrites to the
    // engine's bytes, except the stale padding the engine leaves after NodePath names.
    let mut rewritten = 0;
    for (seq, p) in &parsed {
        let mut out = Vec::new();
        let mut w = PacketWriter::new(&mut out);
        w.packet(p).unwrap();
        w.finish().unwrap();
        let engine = &packets[seq].bytes;
        if &out != engine {
            assert_eq!(out.len(), engine.len(), "packet {seq}");
            let differs: Vec<_> = (0..out.len()).filter(|&i| out[i] != engine[i]).collect();
            assert!(
                nodepath_padding(p, engine, &differs),
                "packet {seq}: {engine:02x?} vs {out:02x?}"
            );
        }
        rewritten += 1;
    }
    assert!(rewritten > 1000, "{rewritten}");

    // Path cache: every confirmation answers a SIMPLIFY_PATH sent the other way.
    let mut announced = BTreeSet::new();
    for (seq, p) in &parsed {
        if let Packet::SimplifyPath(s) = p {
            assert_eq!(s.checksum.len(), 32);
            announced.insert((packets[seq].from, packets[seq].to, s.cache_id));
        }
    }
    for (seq, p) in &parsed {
        if let Packet::ConfirmPath(c) = p {
            let s = &packets[seq];
            assert!(c.checksum_ok);
            assert!(
                announced.contains(&(s.to, s.from, c.cache_id)),
                "confirm {seq}"
            );
        }
    }

    // What the receivers reported.
    let mut checked: HashMap<&str, usize> = HashMap::new();
    for e in &events {
        let kind = e["event"].as_str().unwrap();
        let at = e["at"].as_i64().unwrap();
        let seq = e["packet"].as_i64().unwrap();
        if seq < 0 {
            // Outside packet processing: the test's own connects and disconnects.
            assert!(kind.starts_with("peer_"), "{e}");
            continue;
        }
        if kind == "custom_data" && at == 1 {
            // The server's spawn() runs the spawn function locally too: no packet.
            continue;
        }
        let sent = &packets[&seq];
        assert_eq!(sent.to, at, "{e}");
        let (p, sender) = processed(parsed[&seq], sent, at);
        let ok = match (kind, p) {
            ("rpc", Packet::RemoteCall(c)) => {
                let method = e["method"].as_str().unwrap();
                let id = match method {
                    "dyn" => 0x8000,
                    m => METHODS.iter().position(|x| *x == m).unwrap() as u16,
                };
                let args_ok = match c.args {
                    Args::Values(v) => all_same(v, &e["args"]),
                    Args::Bytes(b) if e["args"].as_array().unwrap().is_empty() => b.is_empty(),
                    Args::Bytes(b) => {
                        let engine = e["args"].as_array().unwrap();
                        let got =
                            from_bytes(Dialect::GODOT_4, leak(&engine_value(&engine[0]))).unwrap();
                        match got {
                            VariantRef::PackedByteArray(p) => p.as_bytes() == b,
                            // blob(data = "none") called without its argument.
                            VariantRef::String(s) => b.is_empty() && s.as_str() == Some("none"),
                            _ => false,
                        }
                    }
                };
                // Channels and transfer modes travel beside the packet, as @rpc set them.
                let transport_ok = match method {
                    "hit" => (sent.channel, sent.mode) == (2, 0),
                    "blob" => (sent.channel, sent.mode) == (1, 1),
                    _ => (sent.channel, sent.mode) == (0, 2),
                };
                c.method == id && args_ok && e["sender"].as_i64() == Some(sender) && transport_ok
            }
            ("custom_data", Packet::Spawn(s)) => {
                s.is_custom() && same(s.custom.unwrap(), &engine_value(&e["data"][0]))
            }
            ("spawned", Packet::Spawn(s)) => {
                s.name == e["name"].as_str().unwrap()
                    && all_same(s.state, &e["state"])
                    && spawn_ok(&s)
            }
            ("synchronized", Packet::Sync(s)) => {
                s.time.is_some()
                    && sent.mode == 0
                    && s.entries.clone().any(|x| all_same(x.values, &e["values"]))
            }
            ("delta_synchronized", Packet::Sync(s)) => {
                s.is_delta()
                    && sent.mode == 2
                    && s.entries
                        .clone()
                        .any(|x| x.mask == Some(1) && all_same(x.values, &e["values"]))
            }
            ("despawned", Packet::Despawn(_)) => true,
            ("auth", Packet::Sys(Sys::Auth(b))) => {
                b == hex(e["data"].as_str().unwrap()) && e["from"].as_i64() == Some(sender)
            }
            // A peer is admitted when its side of authentication completes.
            ("peer_connected", Packet::Sys(Sys::Auth([]))) => e["peer"].as_i64() == Some(sender),
            ("peer_connected", Packet::Sys(Sys::AddPeer(id))) => {
                e["peer"].as_i64() == Some(id.into())
            }
            ("peer_disconnected", Packet::Sys(Sys::DelPeer(id))) => {
                e["peer"].as_i64() == Some(id.into())
            }
            ("raw", Packet::Raw(b)) => {
                b == hex(e["data"].as_str().unwrap()) && e["from"].as_i64() == Some(sender)
            }
            _ => false,
        };
        assert!(ok, "event {e}\npacket {seq}: {:02x?}\n{p:?}", sent.bytes);
        *checked.entry(kind).or_default() += 1;
    }
    for kind in [
        "rpc",
        "custom_data",
        "spawned",
        "synchronized",
        "delta_synchronized",
        "despawned",
        "auth",
        "peer_connected",
        "peer_disconnected",
        "raw",
    ] {
        assert!(
            checked.get(kind).copied().unwrap_or(0) > 0,
            "no {kind} event checked: {checked:?}"
        );
    }
    assert!(checked["rpc"] > 600, "{checked:?}");

    // SYS sub-commands seen, for the record.
    let subs: BTreeSet<_> = parsed
        .values()
        .filter_map(|p| match p {
            Packet::Sys(Sys::Auth(_)) => Some(SysCommand::Auth as u8),
            Packet::Sys(Sys::AddPeer(_)) => Some(SysCommand::AddPeer as u8),
            Packet::Sys(Sys::DelPeer(_)) => Some(SysCommand::DelPeer as u8),
            Packet::Sys(Sys::Relay(_)) => Some(SysCommand::Relay as u8),
            _ => None,
        })
        .collect();
    assert_eq!(subs.len(), 4);
}

/// A spawn's scene id is in range and its custom argument is there exactly for custom spawns.
fn spawn_ok(s: &Spawn<'_>) -> bool {
    s.is_custom() == s.custom.is_some() && !s.sync_ids.is_empty()
}

/// True when every differing byte lies in the padding after a NodePath name or subname in a
/// top-level argument (the engine leaves those bytes uncleared; the writer zeroes them).
fn nodepath_padding(p: &Packet<'_>, bytes: &[u8], differs: &[usize]) -> bool {
    let Packet::RemoteCall(c) = p else {
        return false;
    };
    let Args::Values(mut values) = c.args else {
        return false;
    };
    let mut pads = BTreeSet::new();
    loop {
        let at = values.position();
        let Some(v) = values.next() else { break };
        if let VariantRef::NodePath(_) = v {
            let word = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap()) as usize;
            let names = (word(at + 4) & 0x7FFF_FFFF) + word(at + 8);
            let mut pos = at + 16;
            for _ in 0..names {
                let len = word(pos);
                let end = pos + 4 + len;
                let padded = pos + 4 + len.div_ceil(4) * 4;
                pads.extend(end..padded);
                pos = padded;
            }
        }
    }
    !differs.is_empty() && differs.iter().all(|i| pads.contains(i))
}
