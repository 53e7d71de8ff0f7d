//! A real Godot 4.6 client (`tests/godot4/ws_multiplayer_client.gd`, `WebSocketMultiplayerPeer`)
//! joins the Rust example server `examples/tokio_ws_multiplayer.rs` over loopback: it takes
//! the peer id the server sends, has its path cache confirmed, and every RPC it sends
//! (arguments of many types, reliable and unreliable, channels 0/1/2, byte-only, no arguments,
//! an `rpc_config()` method, path form then cached id) comes back from the server with the
//! same method and arguments; the server decoded each one. And a Godot client spawns, syncs
//! (full and delta) and despawns a node from packets a Rust server wrote with `PacketWriter`,
//! reporting exactly the values written. Skipped with a notice when the engine is not
//! installed, unless GDWIRE_REQUIRE_ENGINE=1.
#![cfg(feature = "tokio")]

mod support;

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::time::Duration;

use support::godot4;

const CLIENT: &str = include_str!("godot4/ws_multiplayer_client.gd");
const GAME: &str = include_str!("godot4/multiplayer_game.gd");

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
    let mut server = Command::new(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = BufReader::new(server.stdout.take().unwrap());
    let mut port = String::new();
    out.read_line(&mut port).unwrap();
    let printed = std::thread::spawn(move || {
        let mut rest = String::new();
        out.read_to_string(&mut rest).unwrap();
        rest
    });

    let files: [(&str, &[u8]); 2] = [
        ("multiplayer_game.gd", GAME.as_bytes()),
        ("port.txt", port.trim().as_bytes()),
    ];
    let run = godot4::run_gdscript_with(CLIENT, &files, Duration::from_secs(120));
    let _ = server.kill();
    let _ = server.wait();
    let run = run.unwrap();
    let server_out = printed.join().unwrap();
    assert!(
        run.status == 0 && run.stdout.contains("RESULT ok 8/8"),
        "client: status {}\n{}\n{}\nserver:\n{server_out}",
        run.status,
        run.stdout,
        run.stderr
    );
    // What the server decoded, in arrival order: method ids (sorted @rpc names, 0x8000 for
    // rpc_config), the first six by path (not confirmed yet), the last two by cache id.
    let rpcs: Vec<&str> = server_out
        .lines()
        .filter(|l| l.contains(": RPC "))
        .collect();
    let methods: Vec<&str> = rpcs.iter().map(|l| l.split(' ').nth(3).unwrap()).collect();
    assert_eq!(
        methods,
        ["4", "2", "1", "0", "3", "32768", "5", "4"],
        "{server_out}"
    );
    for (i, l) in rpcs.iter().enumerate() {
        let by_path = l.contains("node: Path {");
        assert_eq!(by_path, i < 6, "{l}");
        assert!(l.starts_with("peer 2: "), "{l}");
    }
    assert!(rpcs[3].contains("args: Bytes([1, 2, 3])") && rpcs[4].contains("args: Bytes([])"));
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
    let files: [(&str, &[u8]); 2] = [
        ("multiplayer_enemy.gd", ENEMY.as_bytes()),
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
    let state: Vec<_> = spawn.state.map(Result::unwrap).collect();
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
        let values: Vec<_> = entry.values.map(Result::unwrap).collect();
        assert!(
            same(values[0], &report["values"][0]),
            "{values:?} vs {report}"
        );
    }
    assert_eq!(reports[5]["name"], "Enemy");
}
