//! A Rust peer 1 (the server) for Godot's `WebSocketMultiplayerPeer` (feature `tokio`).
//!
//! It sends each client its peer id message, confirms the client's path-cache entries
//! (SIMPLIFY_PATH → CONFIRM_PATH), prints every packet, and answers each RPC by calling the
//! same method with the same arguments back on the same node (by path, so no cache is needed).
//! With a CAPTURE file it records every packet in `gdwire dump --framing multiplayer-capture`
//! form: tag 0 = received, 1 = sent.
//!
//! ```text
//! cargo run --features tokio --example tokio_ws_multiplayer -- [PORT] [CAPTURE]
//! ```
//! Godot 4 client: `peer.create_client("ws://127.0.0.1:%d" % port)`,
//! `multiplayer.multiplayer_peer = peer`, then `rpc_id(1, "ping", 42)` on a node whose
//! `@rpc("any_peer") func ping(x)` exists on the client (the server's answer calls it there).

use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, Mutex};

use futures_util::{SinkExt, StreamExt};
use gdwire::multiplayer::{packet_to_vec, peer_id_message, NodeRef, Packet};
use tokio::net::TcpListener;
use tokio_tungstenite::tungstenite::Message;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let port = std::env::args().nth(1).unwrap_or_else(|| "0".into());
    let listener = TcpListener::bind(format!("127.0.0.1:{port}")).await?;
    let capture = std::env::args()
        .nth(2)
        .map(std::fs::File::create)
        .transpose()?;
    let capture = Arc::new(Mutex::new(capture));
    println!("{}", listener.local_addr()?.port());
    for peer_id in 2.. {
        let (socket, _) = listener.accept().await?;
        let capture = capture.clone();
        let record = move |tag: u8, packet: &[u8]| {
            if let Some(file) = capture.lock().unwrap().as_mut() {
                let len = (packet.len() as u32 + 1).to_le_bytes();
                let _ = file.write_all(&[&len[..], &[tag], packet].concat());
            }
        };
        tokio::spawn(async move {
            let Ok(mut ws) = tokio_tungstenite::accept_async(socket).await else {
                return;
            };
            let mut paths: HashMap<u32, String> = HashMap::new(); // the client's cache ids
            let hello = Message::Binary(peer_id_message(peer_id).to_vec().into());
            let mut ok = ws.send(hello).await.is_ok();
            while let (true, Some(Ok(Message::Binary(msg)))) = (ok, ws.next().await) {
                record(0, &msg);
                let reply = match Packet::parse(&msg) {
                    Err(e) => Err(e),
                    Ok(Packet::SimplifyPath(p)) => {
                        paths.insert(p.cache_id, p.path.to_owned());
                        packet_to_vec(|w| w.confirm_path(true, p.cache_id)).map(Some)
                    }
                    Ok(Packet::RemoteCall(call)) => {
                        let path = match call.node {
                            NodeRef::Path { path, .. } => Some(path),
                            NodeRef::Cached(id) => paths.get(&id).map(String::as_str),
                        };
                        println!("peer {peer_id}: RPC {} on {path:?}: {call:?}", call.method);
                        path.map(|path| {
                            packet_to_vec(|w| {
                                let mut echo = call;
                                echo.node = NodeRef::Path { offset: 0, path };
                                w.packet(&Packet::RemoteCall(echo))
                            })
                        })
                        .transpose()
                    }
                    Ok(other) => {
                        println!("peer {peer_id}: {other:?}");
                        Ok(None)
                    }
                };
                ok = match reply {
                    Ok(Some(bytes)) => {
                        record(1, &bytes);
                        ws.send(Message::Binary(bytes.into())).await.is_ok()
                    }
                    Ok(None) => true,
                    Err(e) => {
                        eprintln!("peer {peer_id}: bad packet: {e}"); // and go on
                        true
                    }
                };
            }
        });
    }
    Ok(())
}
