//! `examples/tcp_echo.rs` against a real Godot 3.2.3 client (`tests/godot3/echo_client.gd`):
//! every value the engine sends with `StreamPeerTCP.put_var` comes back equal through
//! `get_var`. The example's connection handler runs in-process on a loopback port. Skipped
//! with a notice without `godot3-server`, unless `GDWIRE_REQUIRE_ENGINE=1`.

mod support;

#[allow(dead_code)] // its `main` is the example's
#[path = "../examples/tcp_echo.rs"]
mod tcp_echo;

use std::ffi::OsStr;
use std::net::TcpListener;
use std::time::Duration;

use gdwire::Dialect;

#[test]
fn godot3_client_gets_every_value_back() {
    let Some(godot) = support::engine::binary_or_skip("godot3_client_gets_every_value_back") else {
        return;
    };
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let server = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        tcp_echo::echo(stream, Dialect::GODOT_3)
    });
    let dir = support::engine::TempDir::new("echo");
    let stdout = support::engine::run_script(
        &godot,
        "echo_client.gd",
        &[("GDWIRE_ECHO_PORT", OsStr::new(&port))],
        &dir.0,
        Duration::from_secs(60),
        "GDWIRE-ECHO-OK",
    );
    assert!(stdout.contains("GDWIRE-ECHO-OK 16"), "{stdout}");
    server.join().unwrap().unwrap();
}
