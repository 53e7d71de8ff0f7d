//! Async server for Godot's `WebSocketPeer.put_var` (feature `tokio`): one binary message is
//! one value with no length prefix; each value is decoded in place and sent back.
//!
//! ```text
//! cargo run --features tokio --example tokio_ws_values -- [PORT]
//! ```
//! Godot 4 client: `ws.connect_to_url("ws://127.0.0.1:%d" % port)`, poll until open, then
//! `ws.put_var({"hp": 3})`; the reply arrives as a packet (`bytes_to_var(ws.get_packet())`).

use futures_util::{SinkExt, StreamExt};
use gdwire::{from_bytes, to_vec, Dialect};
use tokio::net::TcpListener;
use tokio_tungstenite::tungstenite::Message;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let port = std::env::args().nth(1).unwrap_or_else(|| "0".into());
    let listener = TcpListener::bind(format!("127.0.0.1:{port}")).await?;
    println!("{}", listener.local_addr()?.port());
    loop {
        let (socket, addr) = listener.accept().await?;
        tokio::spawn(async move {
            let Ok(mut ws) = tokio_tungstenite::accept_async(socket).await else {
                return;
            };
            while let Some(Ok(msg)) = ws.next().await {
                let Message::Binary(bytes) = msg else {
                    continue;
                };
                let reply = match from_bytes(Dialect::GODOT_4, &bytes)
                    .and_then(|v| to_vec(Dialect::GODOT_4, &v))
                {
                    Ok(echo) => echo,
                    Err(e) => format!("{e}").into_bytes(), // text frame: not a value
                };
                if ws.send(Message::Binary(reply.into())).await.is_err() {
                    return eprintln!("{addr}: closed");
                }
            }
        });
    }
}
