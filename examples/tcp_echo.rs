//! The shortest useful server: Godot clients connect with `StreamPeerTCP`, `put_var` a value,
//! and `get_var` it back. Each value is printed in the engine's text form and echoed.
//! (`tcp_server.rs` is the full version: options, limits, replies computed from the value.)
//!
//! ```text
//! cargo run --example tcp_echo -- [PORT] [godot3|godot4]
//! ```

use std::io::Write;
use std::net::{TcpListener, TcpStream};

use gdwire::frame::Framing;
use gdwire::write::Endian;
use gdwire::{Decoder, Dialect, FrameBuffer, Writer};

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let port = args.next().and_then(|p| p.parse().ok()).unwrap_or(4242u16);
    let dialect = args
        .next()
        .and_then(|d| Dialect::from_name(&d))
        .unwrap_or(Dialect::GODOT_4);
    let listener = TcpListener::bind(("127.0.0.1", port))?;
    println!("listening on {}", listener.local_addr()?);
    for stream in listener.incoming() {
        let stream = stream?;
        // One thread per client; an error ends that client only.
        std::thread::spawn(move || {
            if let Err(e) = echo(stream, dialect) {
                eprintln!("client: {e}");
            }
        });
    }
    Ok(())
}

/// Serves one client until it disconnects.
pub fn echo(mut stream: TcpStream, dialect: Dialect) -> std::io::Result<()> {
    // put_var sends a u32 little-endian length, then the value.
    let mut frames = FrameBuffer::new(Framing::new(Endian::Little));
    // Every value is sent back: the decode notes which are already in the writer's exact
    // form (engine output is), and `w.value` copies those instead of re-encoding them.
    let decoder = Decoder::new(dialect).with_canonical_check(true);
    let mut reply = Vec::new();
    while frames.read_from(&mut stream)? > 0 {
        while let Some(payload) = frames.next_frame()? {
            let value = decoder.decode(payload)?; // a view into `frames`, nothing copied
            println!(
                "{}",
                gdwire::text::to_text(dialect, &value).map_err(std::io::Error::other)?
            );
            reply.clear();
            let mut w = Writer::new(&mut reply, dialect).with_length_prefix(Endian::Little);
            w.value(&value)?;
            w.finish()?;
            stream.write_all(&reply)?;
        }
    }
    frames.finish()?; // an error if the client left in the middle of a value
    Ok(())
}
