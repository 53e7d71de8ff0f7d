//! Async server for Godot's `StreamPeerTCP.put_var` / `get_var` (feature `tokio`): every value
//! a client sends comes back to it, decoded in place and written again.
//!
//! ```text
//! cargo run --features tokio --example tokio_tcp_values -- [PORT]
//! ```
//! Godot 4 client: `peer.connect_to_host("127.0.0.1", port)`, then `peer.put_var([1, "a"])`
//! and `peer.get_var()`. A value that does not decode is answered with an error String and the
//! connection goes on; a length prefix above the maximum frame closes it.

use futures_util::{SinkExt, StreamExt};
use gdwire::codec::FrameCodec;
use gdwire::{Decoder, Dialect, Writer};
use tokio::net::TcpListener;
use tokio_util::codec::Framed;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let port = std::env::args().nth(1).unwrap_or_else(|| "0".into());
    let listener = TcpListener::bind(format!("127.0.0.1:{port}")).await?;
    println!("{}", listener.local_addr()?.port());
    loop {
        let (socket, addr) = listener.accept().await?;
        tokio::spawn(async move {
            let mut conn = Framed::new(socket, FrameCodec::new(Dialect::GODOT_4));
            let dec = Decoder::new(Dialect::GODOT_4);
            while let Some(frame) = conn.next().await {
                let frame = match frame {
                    Ok(frame) => frame,
                    Err(e) => return eprintln!("{addr}: {e}, closing"), // framing: no resync
                };
                let sent = match frame.value(dec) {
                    Ok(value) => conn.send(&value).await,
                    Err(e) => {
                        let mut reply = Vec::new(); // the String "error: ...", encoded
                        let mut w = Writer::new(&mut reply, Dialect::GODOT_4);
                        w.string(&format!("error: {e}"))
                            .and_then(|()| w.finish())
                            .ok();
                        conn.send(&reply[..]).await
                    }
                };
                if let Err(e) = sent {
                    return eprintln!("{addr}: {e}");
                }
            }
        });
    }
}
