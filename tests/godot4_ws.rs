//! Live traffic: a Godot 4.6 engine client (`tests/godot4/ws_client.gd`, two `WebSocketPeer`s)
//! talks to `examples/ws_server.rs` on 127.0.0.1 (ephemeral port) with `put_var` / `get_var`:
//! one value of every type, values over 1 MB, and malformed messages, which must get an
//! error reply while that connection and the other client keep working. The engine checks
//! every reply (the echo equals what it sent); this test checks its verdict and the server's
//! log of both connections. Bounded in time; skipped with a notice when the engine is not
//! installed, unless GDWIRE_REQUIRE_ENGINE=1.

mod support;

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::time::Duration;

use support::godot4;

#[test]
fn a_godot_4_client_talks_to_the_websocket_example() {
    if let Err(skip) = godot4::available() {
        return skip.report("a_godot_4_client_talks_to_the_websocket_example");
    }
    // `cargo test` builds the examples next to the test binaries.
    let exe = std::env::current_exe().unwrap();
    let server = exe
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("examples/ws_server");
    assert!(server.exists(), "{} not built", server.display());
    // Chromium refuses WebSockets to its "unsafe" ports (ERR_UNSAFE_PORT); should the OS hand
    // out one of those, start the server again.
    const UNSAFE: [u16; 6] = [5060, 5061, 6000, 6566, 6697, 10080];
    let (mut child, port) = loop {
        let mut child = Command::new(&server)
            .args(["0", "--clients", "2"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port: u16 = line.trim().parse().unwrap();
        if port >= 1024 && !UNSAFE.contains(&port) && !(6665..=6669).contains(&port) {
            break (child, port);
        }
        let _ = child.kill();
        let _ = child.wait();
    };
    let script = include_str!("godot4/ws_client.gd");
    let out = godot4::run_gdscript_with(
        script,
        &[("port.txt", port.to_string().as_bytes())],
        Duration::from_secs(120),
    );
    let out = match out {
        Ok(out) => out,
        Err(skip) => {
            let _ = child.kill();
            let _ = child.wait();
            return skip.report("a_godot_4_client_talks_to_the_websocket_example");
        }
    };
    // Both connections are closed by the client; the server exits after its two clients.
    let mut waited = 0;
    while child.try_wait().unwrap().is_none() && waited < 100 {
        std::thread::sleep(Duration::from_millis(100));
        waited += 1;
    }
    let _ = child.kill();
    let _ = child.wait();
    let mut log = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut log)
        .unwrap();
    out.expect_success("tests/godot4/ws_client.gd");
    let checked: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.starts_with("WS "))
        .collect();
    assert!(
        out.stdout
            .lines()
            .any(|l| l == format!("WS-DONE 0 {}", checked.len())),
        "{}",
        out.stdout
    );
    assert!(
        checked.iter().all(|l| l.split(' ').nth(3) == Some("ok")),
        "{checked:#?}"
    );
    // Every type (39) was echoed, two bad messages were answered with errors, and client B
    // got replies after its own bad message and while A's were being answered.
    assert!(checked.len() >= 45, "{}", checked.len());
    assert_eq!(
        checked.iter().filter(|l| l.contains("bad message")).count(),
        2
    );
    assert!(
        checked.iter().any(|l| l.starts_with("WS 1 2 ok")),
        "{checked:#?}"
    );
    assert!(
        checked.iter().any(|l| l.contains("size 1500000")),
        "{checked:#?}"
    );
    let answered: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("messages answered"))
        .collect();
    assert_eq!(answered.len(), 2, "{log}");
    assert!(answered.iter().all(|l| l.contains(": Ok(")), "{log}");
    eprintln!("{} live values checked in {:?}", checked.len(), out.elapsed);
}
