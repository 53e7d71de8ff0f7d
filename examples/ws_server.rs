//! A WebSocket server that Godot 4 clients talk to with `WebSocketPeer.put_var` / `get_var`:
//! one binary message is one value (no length prefix; `put_var` is `encode_variant` into one
//! packet). Each value is decoded in place and answered with the Dictionary of
//! `examples/common/reply.rs` (type, size, digest, the value echoed); a message that does not
//! decode gets `{"index", "error", "code", "offset"}` and the connection goes on.
//!
//! ```text
//! cargo run --example ws_server -- [PORT] [--clients N]
//! ```
//! Listens on 127.0.0.1; PORT 0 (the default) picks a free port, printed alone on the first
//! line of stdout. Exits after N clients with `--clients N`. Dev-dependency: `tungstenite`.

mod common;

use std::net::{TcpListener, TcpStream};
use std::thread;

use common::reply::{write_error_reply, write_reply};
use gdwire::{Decoder, Dialect, Writer};
use tungstenite::Message;

fn serve(stream: TcpStream) -> Result<u64, String> {
    let mut ws = tungstenite::accept(stream).map_err(|e| e.to_string())?;
    let decoder = Decoder::new(Dialect::GODOT_4);
    let (mut index, mut out) = (0u64, Vec::new());
    loop {
        let data = match ws.read() {
            Ok(Message::Binary(data)) => data,
            Ok(Message::Close(_)) | Err(tungstenite::Error::ConnectionClosed) => return Ok(index),
            Ok(_) => continue, // text, ping, pong: not values
            Err(e) => return Err(e.to_string()),
        };
        out.clear();
        let mut w = Writer::new(&mut out, Dialect::GODOT_4);
        match decoder.decode(&data) {
            Ok(value) => write_reply(&mut w, Dialect::GODOT_4, index, &value),
            Err(e) => write_error_reply(&mut w, index, &e),
        }
        .and_then(|()| w.finish().map(drop))
        .map_err(|e| e.to_string())?;
        ws.send(Message::binary(out.clone()))
            .map_err(|e| e.to_string())?;
        index += 1;
    }
}

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let (mut port, mut clients) = (0u16, usize::MAX);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--clients" => {
                clients = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .ok_or("--clients N")?
            }
            p => port = p.parse().map_err(|_| format!("bad port {p:?}"))?,
        }
    }
    let listener = TcpListener::bind(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    println!(
        "{}",
        listener.local_addr().map_err(|e| e.to_string())?.port()
    );
    let handles: Vec<_> = listener
        .incoming()
        .take(clients)
        .map(|stream| {
            thread::spawn(move || {
                let stream = stream.map_err(|e| e.to_string())?;
                let peer = stream.peer_addr().map_err(|e| e.to_string())?;
                let result = serve(stream);
                eprintln!("ws_server: {peer}: {result:?} messages answered");
                result
            })
        })
        .collect();
    for h in handles {
        let _ = h.join();
    }
    Ok(())
}
