//! A UDP server that Godot clients talk to with `PacketPeerUDP.put_var` / `get_var`: one raw
//! value per datagram, no length prefix.
//!
//! Each datagram is decoded in place and answered, to the address it came from, with the
//! Dictionary of `examples/common/reply.rs` (type, size, digest, the value written back), or
//! an error Dictionary if it does not decode or the reply would not fit in one datagram
//! (65,507 bytes).
//!
//! ```text
//! cargo run --example udp_server -- [PORT] [--dialect godot3] [--datagrams N]
//!     [--allow-objects] [--bind ADDR]
//! ```
//!
//! Listens on 127.0.0.1 unless `--bind` says otherwise; PORT 0 (the default) picks a free
//! port, printed alone on the first line of stdout. Exits on the String `"quit"` or after N
//! datagrams.
//!
//! A GDScript (Godot 3) client:
//!
//! ```gdscript
//! var udp = PacketPeerUDP.new()
//! udp.connect_to_host("127.0.0.1", port)
//! udp.put_var(Vector2(1, 2))
//! # ... wait until udp.get_available_packet_count() > 0
//! var reply = udp.get_var()    # {"index": 0, "type": 5, "name": "Vector2", "size": 0, "sum": 3, "echo": (1, 2)}
//! ```

mod common;

use std::net::{SocketAddr, UdpSocket};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use common::args::{parse, Args};
use common::udp::{serve, Config};
use gdwire::Dialect;

fn main() -> ExitCode {
    common::args::exit("udp_server", run())
}

fn run() -> Result<(), String> {
    let mut config = Config::new(Dialect::GODOT_3);
    let usage =
        "usage: udp_server [PORT] [--dialect NAME] [--datagrams N] [--allow-objects] [--bind ADDR]";
    let Some(args) = Args::parse(usage, config.dialect, |flag, value| {
        match flag {
            "--datagrams" => config.max_datagrams = Some(parse(&value()?)?),
            _ => return Ok(false),
        }
        Ok(true)
    })?
    else {
        return Ok(()); // --help
    };
    config.dialect = args.dialect;
    config.allow_objects = args.allow_objects;
    let socket =
        UdpSocket::bind(SocketAddr::new(args.bind, args.port)).map_err(|e| format!("bind: {e}"))?;
    let local = socket.local_addr().map_err(|e| e.to_string())?;
    println!("{}", local.port());
    eprintln!(
        "udp_server: listening on {local} ({})",
        config.dialect.name()
    );
    let stats = serve(&socket, &config, &AtomicBool::new(false)).map_err(|e| e.to_string())?;
    eprintln!(
        "udp_server: done: {} datagrams, {} value errors, {} replies too large, largest datagram {} bytes",
        stats.datagrams,
        stats.value_errors.len(),
        stats.oversized_replies,
        stats.largest_datagram
    );
    Ok(())
}
