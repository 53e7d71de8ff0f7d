//! A TCP server that Godot clients talk to with `StreamPeerTCP.put_var` / `get_var`.
//!
//! Each value received is decoded in place (zero-copy views, no allocation per message) and
//! answered with a Dictionary computed from it (`examples/common/reply.rs`): its type, size,
//! a digest of its content and the value written back. A value that does not decode gets an
//! error Dictionary and the connection goes on; a bad length prefix closes the connection.
//!
//! ```text
//! cargo run --example tcp_server -- [PORT] [--dialect godot3] [--clients N]
//!     [--max-frame BYTES] [--big-endian] [--allow-objects] [--bind ADDR]
//! ```
//!
//! Listens on 127.0.0.1 (loopback only unless `--bind` says otherwise); PORT 0 (the default)
//! picks a free port. The bound port is printed alone on the first line of stdout. The server
//! exits when a client sends the String `"quit"`, or after N clients with `--clients N`.
//! One line per finished connection goes to stderr.
//!
//! A GDScript (Godot 3) client:
//!
//! ```gdscript
//! var peer = StreamPeerTCP.new()
//! peer.connect_to_host("127.0.0.1", port)
//! # ... wait until peer.get_status() == StreamPeerTCP.STATUS_CONNECTED
//! peer.put_var(PoolIntArray([1, 2, 3]))
//! var reply = peer.get_var()   # {"index": 0, "type": 21, "name": "PoolIntArray", "size": 3, "sum": 6, "echo": [1, 2, 3]}
//! ```

mod common;

use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener};
use std::process::ExitCode;
use std::sync::mpsc;

use common::tcp::{serve, Config};
use gdwire::frame::Framing;
use gdwire::write::Endian;
use gdwire::Dialect;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("tcp_server: {msg}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let mut config = Config::new(Dialect::GODOT_3);
    let mut port = 0u16;
    let mut bind = IpAddr::V4(Ipv4Addr::LOCALHOST);
    let mut endian = Endian::Little;
    let mut max_frame = config.framing.max_frame();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--dialect" => {
                let name = value("--dialect")?;
                config.dialect =
                    Dialect::from_name(&name).ok_or(format!("unknown dialect {name}"))?;
            }
            "--clients" => {
                config.max_clients = Some(parse(&value("--clients")?)?);
            }
            "--max-frame" => max_frame = parse(&value("--max-frame")?)?,
            "--bind" => bind = parse(&value("--bind")?)?,
            "--big-endian" => endian = Endian::Big,
            "--allow-objects" => config.allow_objects = true,
            "-h" | "--help" => {
                println!("usage: tcp_server [PORT] [--dialect NAME] [--clients N] [--max-frame BYTES] [--big-endian] [--allow-objects] [--bind ADDR]");
                return Ok(());
            }
            other => port = parse(other)?,
        }
    }
    config.framing = Framing::new(endian).with_max_frame(max_frame);

    let listener =
        TcpListener::bind(SocketAddr::new(bind, port)).map_err(|e| format!("bind: {e}"))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    println!("{}", local.port());
    eprintln!(
        "tcp_server: listening on {local} ({}, max frame {} bytes)",
        config.dialect.name(),
        config.framing.max_frame()
    );

    let (tx, rx) = mpsc::channel::<common::tcp::Outcome>();
    let logger = std::thread::spawn(move || {
        for o in rx {
            eprintln!(
                "tcp_server: {}: {:?} after {} replies ({} value errors, buffer {} of {} bytes)",
                o.peer.map_or("?".into(), |p| p.to_string()),
                o.end,
                o.replies,
                o.value_errors,
                o.capacity,
                o.limit
            );
        }
    });
    let accepted = serve(listener, config, tx).map_err(|e| format!("accept: {e}"))?;
    let _ = logger.join();
    eprintln!("tcp_server: done, {accepted} clients");
    Ok(())
}

fn parse<T: std::str::FromStr>(s: &str) -> Result<T, String> {
    s.parse().map_err(|_| format!("bad value {s:?}"))
}
