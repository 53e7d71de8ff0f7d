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

use std::net::{SocketAddr, TcpListener};
use std::process::ExitCode;
use std::sync::mpsc;

use common::args::{parse, Args};
use common::tcp::{serve, Config};
use gdwire::frame::Framing;
use gdwire::write::Endian;
use gdwire::Dialect;

fn main() -> ExitCode {
    common::args::exit("tcp_server", run())
}

fn run() -> Result<(), String> {
    let mut config = Config::new(Dialect::GODOT_3);
    let mut endian = Endian::Little;
    let mut max_frame = config.framing.max_frame();
    let usage = "usage: tcp_server [PORT] [--dialect NAME] [--clients N] [--max-frame BYTES] \
                 [--big-endian] [--allow-objects] [--bind ADDR]";
    let Some(args) = Args::parse(usage, config.dialect, |flag, value| {
        match flag {
            "--clients" => config.max_clients = Some(parse(&value()?)?),
            "--max-frame" => max_frame = parse(&value()?)?,
            "--big-endian" => endian = Endian::Big,
            _ => return Ok(false),
        }
        Ok(true)
    })?
    else {
        return Ok(()); // --help
    };
    config.dialect = args.dialect;
    config.allow_objects = args.allow_objects;
    config.framing = Framing::new(endian).with_max_frame(max_frame);

    let listener = TcpListener::bind(SocketAddr::new(args.bind, args.port))
        .map_err(|e| format!("bind: {e}"))?;
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
