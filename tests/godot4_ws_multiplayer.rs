//! A real Godot 4.6 client (`tests/godot4/ws_multiplayer_client.gd`, `WebSocketMultiplayerPeer`)
//! joins the Rust example server `examples/tokio_ws_multiplayer.rs` over loopback. It calls
//! RPCs with arguments of every Variant type (reliable and unreliable, channels 0/1/2,
//! byte-only, no arguments, an `rpc_config()` method, by path and then by cache id), which
//! the server decodes and calls back; and with client authority it spawns two units with
//! spawn state, syncs them (full and delta, properties of several types) and despawns them,
//! which the server decodes. Every packet the server saw, in both directions, is checked
//! against what the client reports it sent. The same checks run on the committed capture of
//! such a session (`tests/godot4/ws_capture.py`), without the engine. And a Godot client
//! spawns, syncs and despawns a node from packets a Rust server wrote with `PacketWriter`.
//! The engine parts are skipped with a notice when the engine is not installed, unless
//! GDWIRE_REQUIRE_ENGINE=1.
#![cfg(feature = "tokio")]

mod support;

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::time::Duration;

use gdwire::multiplayer::{Args, NodeRef, Packet};
use gdwire::{from_bytes, Dialect, VariantRef};
use serde_json::Value;
use support::{godot4, hex};

const CLIENT: &str = include_str!("godot4/ws_multiplayer_client.gd");
const GAME: &str = include_str!("godot4/multiplayer_game.gd");
/// Helpers the replication client preloads (`hexes`, the enemy scene).
const SHARED: &str = include_str!("godot4/multiplayer_shared.gd");
const UNIT: &str = include_str!("godot4/ws_unit.gd");

/// `@rpc` methods of `multiplayer_game.gd`, sorted: their ids. `dyn` comes from
/// `rpc_config()`: id `0x8000`.
const METHODS: [&str; 6] = ["blob", "hit", "many", "nothing", "ping", "relay_me"];
/// `SceneReplicationConfig.ReplicationMode`.
const ALWAYS: i64 = 1;
const ON_CHANGE: i64 = 2;

/// The records of a `multiplayer-capture` file: (tag, packet); tag 0 = from the client.
fn records(capture: &[u8]) -> Vec<(u8, &[u8])> {
    let mut out = Vec::new();
    let mut rest = capture;
    while !rest.is_empty() {
        let len = u32::from_le_bytes(rest[..4].try_into().unwrap()) as usize;
        out.push((rest[4], &rest[5..4 + len]));
        rest = &rest[4 + len..];
    }
    out
}

/// The engine's `var_to_bytes` of a value (hex) decodes to the same value.
fn same(got: VariantRef<'_>, engine: &Value) -> bool {
    got == from_bytes(Dialect::GODOT_4, &hex(engine.as_str().unwrap())).unwrap()
}

fn all_same(got: &[VariantRef<'_>], engine: &[&Value]) -> bool {
    got.len() == engine.len() && got.iter().zip(engine).all(|(g, e)| same(*g, e))
}

/// A call's arguments as the packet carries them, compared with the engine's hexes.
fn args_match(args: Args<'_>, engine: &[Value]) -> bool {
    match args {
        // The raw bytes of one PackedByteArray (none at all: no arguments).
        Args::Bytes([]) => engine.is_empty(),
        Args::Bytes(b) => {
            engine.len() == 1
                && matches!(
                    from_bytes(Dialect::GODOT_4, &hex(engine[0].as_str().unwrap())).unwrap(),
                    VariantRef::PackedByteArray(p) if p.as_bytes() == b
                )
        }
        Args::Values(v) => {
            let v: Vec<_> = v.collect();
            all_same(&v, &engine.iter().collect::<Vec<_>>())
        }
    }
}

/// Checks every packet of a session's capture against the client's reports: what the
/// server decoded is what the client sent, and the server's answers are what it decoded.
fn check_session(capture: &[u8], reports: &[Value]) {
    let records = records(capture);
    let packets: Vec<(u8, Packet<'_>)> = records
        .iter()
        .enumerate()
        .map(|(i, (tag, p))| {
            let parsed = Packet::parse(p).unwrap_or_else(|e| panic!("record {i}: {e}"));
            (*tag, parsed)
        })
        .collect();
    let report =
        |event: &str| -> Vec<&Value> { reports.iter().filter(|r| r["event"] == event).collect() };
    let props = report("config")[0]["props"].as_array().unwrap().clone();
    let spawner_path = report("connected")[0]["spawner"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(spawner_path, "Game/Spawner");

    // Path cache: every SIMPLIFY_PATH is confirmed by the server's next packet.
    let mut cache: HashMap<&str, u32> = HashMap::new();
    for (i, (tag, p)) in packets.iter().enumerate() {
        if let (0, Packet::SimplifyPath(s)) = (tag, p) {
            cache.insert(s.path, s.cache_id);
            let Some((1, Packet::ConfirmPath(c))) = packets.get(i + 1) else {
                panic!("no confirmation after {s:?}")
            };
            assert!(c.checksum_ok && c.cache_id == s.cache_id, "{c:?} for {s:?}");
        }
    }
    assert_eq!(cache.len(), 2, "{cache:?}");
    let (game_id, spawner_id) = (cache["Game"], cache[spawner_path.as_str()]);

    // RPCs: the client's calls in order, each answered by the server with the same call on
    // /root/Game by path.
    let calls = report("call");
    let sent: Vec<_> = packets
        .iter()
        .filter_map(|(t, p)| match p {
            Packet::RemoteCall(c) if *t == 0 => Some(*c),
            _ => None,
        })
        .collect();
    let answers: Vec<_> = packets
        .iter()
        .filter_map(|(t, p)| match p {
            Packet::RemoteCall(c) if *t == 1 => Some(*c),
            _ => None,
        })
        .collect();
    assert_eq!((sent.len(), answers.len()), (calls.len(), calls.len()));
    assert!(calls.len() >= 11);
    let mut cached = false;
    for ((call, answer), rep) in sent.iter().zip(&answers).zip(&calls) {
        let name = rep["method"].as_str().unwrap();
        let id = match METHODS.iter().position(|m| *m == name) {
            Some(i) => i as u16,
            None => {
                assert_eq!(name, "dyn");
                0x8000
            }
        };
        let args = rep["args"].as_array().unwrap();
        assert_eq!((call.method, answer.method), (id, id), "{name}");
        assert!(args_match(call.args, args), "{name}: {call:?} vs {args:?}");
        assert!(
            args_match(answer.args, args),
            "{name}: {answer:?} vs {args:?}"
        );
        // By path until the server's confirmation arrives, by cache id after it.
        match call.node {
            NodeRef::Path { path, .. } => assert!(!cached && path == "Game", "{call:?}"),
            NodeRef::Cached(id) => {
                assert_eq!(id, game_id);
                cached = true;
            }
        }
        assert!(matches!(answer.node, NodeRef::Path { path: "Game", .. }));
    }
    assert!(matches!(sent[0].node, NodeRef::Path { .. }) && cached);

    // Replication with client authority: spawns, full syncs, delta syncs, despawns.
    let of_mode = |vals: &[Value], keep: &dyn Fn(&Value) -> bool| -> Vec<Value> {
        vals.iter()
            .zip(&props)
            .filter(|(_, p)| keep(p))
            .map(|(v, _)| v.clone())
            .collect()
    };
    let watched: Vec<&str> = props
        .iter()
        .filter(|p| p[1] == ON_CHANGE)
        .map(|p| &p[0].as_str().unwrap()[1..])
        .collect();
    let spawns: Vec<_> = packets
        .iter()
        .filter_map(|(t, p)| match p {
            Packet::Spawn(s) if *t == 0 => Some(*s),
            _ => None,
        })
        .collect();
    let spawn_reports = report("spawn");
    assert_eq!(spawns.len(), spawn_reports.len());
    assert!(spawns.len() >= 2);
    // name -> (net id, synchronizer net id)
    let mut units: HashMap<String, (u32, u32)> = HashMap::new();
    // sync net id -> expected full-sync states and delta (mask, values), in order
    let mut full: HashMap<u32, Vec<Vec<Value>>> = HashMap::new();
    let mut deltas: HashMap<u32, Vec<(u64, Vec<Value>)>> = HashMap::new();
    for (s, rep) in spawns.iter().zip(&spawn_reports) {
        let name = rep["name"].as_str().unwrap();
        let values = rep["values"].as_array().unwrap();
        assert_eq!((s.name, s.scene_id, s.spawner), (name, 0, spawner_id));
        assert!(s.custom.is_none());
        let state: Vec<_> = s.state.collect();
        let want = of_mode(values, &|p| p[2] == true);
        assert!(
            all_same(&state, &want.iter().collect::<Vec<_>>()),
            "{name}: {state:?}"
        );
        let ids: Vec<u32> = s.sync_ids.iter().collect();
        assert_eq!(ids.len(), 1);
        units.insert(name.to_owned(), (s.net_id, ids[0]));
        full.insert(ids[0], vec![of_mode(values, &|p| p[1] == ALWAYS)]);
        // First delta after a spawn: every watched property.
        let all = (1u64 << watched.len()) - 1;
        deltas.insert(ids[0], vec![(all, of_mode(values, &|p| p[1] == ON_CHANGE))]);
    }
    for rep in report("change") {
        let sync = units[rep["name"].as_str().unwrap()].1;
        let values = rep["values"].as_array().unwrap();
        let state = of_mode(values, &|p| p[1] == ALWAYS);
        let states = full.get_mut(&sync).unwrap();
        if *states.last().unwrap() != state {
            states.push(state);
        }
        let changed: Vec<&str> = rep["changed"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        let mask = watched
            .iter()
            .enumerate()
            .filter(|(_, w)| changed.contains(w))
            .fold(0u64, |m, (i, _)| m | 1 << i);
        if mask != 0 {
            let new: Vec<Value> = of_mode(values, &|p| p[1] == ON_CHANGE)
                .into_iter()
                .enumerate()
                .filter(|(i, _)| mask & 1 << i != 0)
                .map(|(_, v)| v)
                .collect();
            deltas.get_mut(&sync).unwrap().push((mask, new));
        }
    }
    let mut seen_full: HashMap<u32, Vec<usize>> = HashMap::new();
    let mut seen_delta: HashMap<u32, usize> = HashMap::new();
    for (tag, p) in &packets {
        let Packet::Sync(s) = p else { continue };
        assert_eq!(*tag, 0);
        for e in s.entries {
            let values: Vec<_> = e.values.collect();
            if let Some(mask) = e.mask {
                let n = seen_delta.entry(e.net_id).or_default();
                let (want_mask, want) = &deltas[&e.net_id][*n];
                assert_eq!(mask, *want_mask, "delta {n} of {}", e.net_id);
                assert!(
                    all_same(&values, &want.iter().collect::<Vec<_>>()),
                    "{values:?}"
                );
                *n += 1;
            } else {
                // A full sync repeats the latest state every frame: which one is it?
                let states = &full[&e.net_id];
                let at = states
                    .iter()
                    .position(|st| all_same(&values, &st.iter().collect::<Vec<_>>()))
                    .unwrap_or_else(|| panic!("{values:?} is none of {states:?}"));
                let seen = seen_full.entry(e.net_id).or_default();
                if seen.last() != Some(&at) {
                    seen.push(at);
                }
            }
        }
    }
    for (sync, states) in &full {
        let order: Vec<usize> = (0..states.len()).collect();
        assert_eq!(seen_full[sync], order, "full syncs of {sync}");
        assert_eq!(seen_delta[sync], deltas[sync].len(), "deltas of {sync}");
    }
    let despawns: Vec<u32> = packets
        .iter()
        .filter_map(|(_, p)| match p {
            Packet::Despawn(id) => Some(*id),
            _ => None,
        })
        .collect();
    let want: Vec<u32> = report("despawn")
        .iter()
        .map(|r| units[r["name"].as_str().unwrap()].0)
        .collect();
    assert_eq!(despawns, want);
    // Nothing else was sent.
    let other = packets.iter().filter(|(_, p)| {
        !matches!(
            p,
            Packet::SimplifyPath(_)
                | Packet::ConfirmPath(_)
                | Packet::RemoteCall(_)
                | Packet::Spawn(_)
                | Packet::Sync(_)
                | Packet::Despawn(_)
        )
    });
    assert_eq!(other.count(), 0);
}

fn reports_of(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("REPORT "))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn godot_client_talks_to_the_rust_websocket_multiplayer_server() {
    if let Err(skip) = godot4::available() {
        return skip.report("godot_client_talks_to_the_rust_websocket_multiplayer_server");
    }
    let exe = std::env::current_exe().unwrap();
    let path = exe
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("examples/tokio_ws_multiplayer");
    let dir = support::engine::TempDir::new("ws-capture");
    let capture = dir.0.join("session.capture");
    let mut server = Command::new(&path)
        .arg("0")
        .arg(&capture)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = BufReader::new(server.stdout.take().unwrap());
    let mut err = server.stderr.take().unwrap();
    let mut port = String::new();
    out.read_line(&mut port).unwrap();
    let printed = std::thread::spawn(move || {
        let mut rest = String::new();
        out.read_to_string(&mut rest).unwrap();
        let mut errors = String::new();
        err.read_to_string(&mut errors).unwrap();
        (rest, errors)
    });

    let files: [(&str, &[u8]); 3] = [
        ("multiplayer_game.gd", GAME.as_bytes()),
        ("ws_unit.gd", UNIT.as_bytes()),
        ("port.txt", port.trim().as_bytes()),
    ];
    let run = godot4::run_gdscript_with(CLIENT, &files, Duration::from_secs(120));
    let _ = server.kill();
    let _ = server.wait();
    let run = run.unwrap();
    let (server_out, server_err) = printed.join().unwrap();
    assert!(
        run.status == 0 && run.stdout.contains("RESULT ok 11/11"),
        "client: status {}\n{}\n{}\nserver:\n{server_out}",
        run.status,
        run.stdout,
        run.stderr
    );
    // The server decoded every packet (it prints what it cannot).
    assert_eq!(server_err, "", "{server_out}");
    check_session(&std::fs::read(&capture).unwrap(), &reports_of(&run.stdout));
}

#[test]
fn committed_websocket_capture_matches_the_clients_reports() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/godot4/");
    let capture = std::fs::read(format!("{dir}ws_multiplayer.capture")).unwrap();
    let reports = std::fs::read_to_string(format!("{dir}ws_multiplayer.reports.jsonl")).unwrap();
    let reports: Vec<Value> = reports
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    check_session(&capture, &reports);
}

const REPLICATION_CLIENT: &str = include_str!("godot4/ws_replication_client.gd");
const ENEMY: &str = include_str!("godot4/multiplayer_enemy.gd");

/// The Rust side of `ws_replication_client.gd`: a WebSocketMultiplayerPeer server written with
/// `PacketWriter`. Returns every packet it sent.
async fn replication_server(listener: tokio::net::TcpListener) -> Vec<Vec<u8>> {
    use futures_util::{SinkExt, StreamExt};
    use gdwire::math::Vector2;
    use gdwire::multiplayer::{packet_to_vec, peer_id_message, Packet, SpawnKind};
    use tokio_tungstenite::tungstenite::Message;

    let (socket, _) = listener.accept().await.unwrap();
    let mut ws = tokio_tungstenite::accept_async(socket).await.unwrap();
    ws.send(Message::Binary(peer_id_message(2).to_vec().into()))
        .await
        .unwrap();
    let v2 = |x, y| Vector2 { x, y };
    // md5("") : a MultiplayerSpawner has no RPC methods.
    let packets = [
        packet_to_vec(|w| w.simplify_path("d41d8cd98f00b204e9800998ecf8427e", 1, "Game/Spawner")),
        packet_to_vec(|w| {
            w.spawn(SpawnKind::Scene(0), 1, 1, &[2], "Enemy")?;
            w.with(|v| v.vector2(v2(1.5, -2.0)))?; // spawn state: position, label, hp
            w.with(|v| v.string("boss"))?;
            w.int(100)
        }),
        packet_to_vec(|w| {
            w.sync(1)?;
            w.sync_entry(2)?;
            w.with(|v| v.vector2(v2(3.0, 4.0)))
        }),
        packet_to_vec(|w| {
            w.sync(2)?;
            w.sync_entry(2)?;
            w.with(|v| v.vector2(v2(5.0, 6.25)))
        }),
        packet_to_vec(|w| {
            w.sync_delta()?;
            w.delta_entry(2, 1)?; // hp, the one on-change property
            w.int(90)
        }),
        packet_to_vec(|w| w.despawn(1)),
    ]
    .map(Result::unwrap);
    let mut sent = Vec::new();
    for (i, p) in packets.iter().enumerate() {
        ws.send(Message::Binary(p.clone().into())).await.unwrap();
        sent.push(p.clone());
        if i == 0 {
            // The spawn needs the spawner's path confirmed first.
            loop {
                let Some(Ok(Message::Binary(m))) = ws.next().await else {
                    panic!("closed")
                };
                if let Ok(Packet::ConfirmPath(c)) = Packet::parse(&m) {
                    assert_eq!(c.cache_id, 1);
                    break;
                }
            }
        } else {
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
    }
    while let Some(Ok(_)) = ws.next().await {}
    sent
}

#[test]
fn godot_client_spawns_and_syncs_what_the_rust_server_writes() {
    use gdwire::multiplayer::Packet;
    use gdwire::{from_bytes, Dialect, VariantRef};

    if let Err(skip) = godot4::available() {
        return skip.report("godot_client_spawns_and_syncs_what_the_rust_server_writes");
    }
    let rt = tokio::runtime::Runtime::new().unwrap();
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let server = rt.spawn(replication_server(listener));
    let files: [(&str, &[u8]); 3] = [
        ("multiplayer_enemy.gd", ENEMY.as_bytes()),
        ("multiplayer_shared.gd", SHARED.as_bytes()),
        ("port.txt", port.as_bytes()),
    ];
    let run =
        godot4::run_gdscript_with(REPLICATION_CLIENT, &files, Duration::from_secs(120)).unwrap();
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let sent = rt.block_on(server).unwrap();

    let reports: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .filter_map(|l| l.strip_prefix("REPORT "))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let kinds: Vec<&str> = reports
        .iter()
        .map(|r| r["event"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "connected",
            "spawned",
            "synchronized",
            "synchronized",
            "delta_synchronized",
            "despawned"
        ],
        "{}",
        run.stdout
    );
    let engine = |h: &serde_json::Value| -> Vec<u8> {
        let s = h.as_str().unwrap();
        (0..s.len() / 2)
            .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
            .collect()
    };
    let same = |got: VariantRef<'_>, h: &serde_json::Value| {
        got == from_bytes(Dialect::GODOT_4, &engine(h)).unwrap()
    };
    // What the client's engine made of each packet = the values the Rust writer put in it.
    let Packet::Spawn(spawn) = Packet::parse(&sent[1]).unwrap() else {
        panic!()
    };
    assert_eq!(reports[1]["name"], "Enemy");
    let state: Vec<_> = spawn.state.collect();
    assert_eq!(state.len(), 3);
    for (v, h) in state.iter().zip(reports[1]["state"].as_array().unwrap()) {
        assert!(same(*v, h), "{v:?} vs {h}");
    }
    for (packet, report) in [
        (&sent[2], &reports[2]),
        (&sent[3], &reports[3]),
        (&sent[4], &reports[4]),
    ] {
        let Packet::Sync(s) = Packet::parse(packet).unwrap() else {
            panic!()
        };
        let entry = s.entries.clone().next().unwrap();
        let values: Vec<_> = entry.values.collect();
        assert!(
            same(values[0], &report["values"][0]),
            "{values:?} vs {report}"
        );
    }
    assert_eq!(reports[5]["name"], "Enemy");
}
