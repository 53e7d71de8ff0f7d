//! A real Godot 4.6 client (`tests/godot4/ws_multiplayer_client.gd`, `WebSocketMultiplayerPeer`)
//! joins the Rust example server `examples/tokio_ws_multiplayer.rs` over loopback: it takes
//! the peer id the server sends, has its path cache confirmed, and every RPC it sends
//! (arguments of many types, reliable and unreliable, channels 0/1/2, byte-only, no arguments,
//! an `rpc_config()` method, path form then cached id) comes back from the server with the
//! same method and arguments; the server decoded each one. Skipped with a notice when the
//! engine is not installed, unless GDWIRE_REQUIRE_ENGINE=1.
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
