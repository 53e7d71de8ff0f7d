//! The async example servers, driven by Rust clients over loopback: what a Godot client
//! would send (frames, WebSocket messages, SceneMultiplayer packets) and what must come back.
#![cfg(feature = "tokio")]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use gdwire::multiplayer::{packet_to_vec, parse_peer_id_message, Args, NodeRef, Packet, Target};
use gdwire::{from_bytes, Dialect};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts an example (built by `cargo test` next to the test binaries); returns its port.
fn start(name: &str) -> (Server, u16) {
    let exe = std::env::current_exe().unwrap();
    let path = exe
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("examples")
        .join(name);
    let mut child = Command::new(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    // Keep reading what the server prints (a closed pipe would make its println! panic).
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    (Server(child), line.trim().parse().unwrap())
}

async fn timed<T>(f: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(20), f)
        .await
        .expect("in time")
}

#[tokio::test]
async fn tcp_values_echo_and_bad_traffic() {
    let (_server, port) = start("tokio_tcp_values");
    let mut s = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    // put_var([1, "a"]) as Godot 4 writes it, cut in two writes.
    let value = [
        0x1c, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, b'a', 0, 0, 0,
    ];
    let mut frame = (value.len() as u32).to_le_bytes().to_vec();
    frame.extend_from_slice(&value);
    s.write_all(&frame[..7]).await.unwrap();
    s.write_all(&frame[7..]).await.unwrap();
    let mut back = vec![0; frame.len()];
    timed(s.read_exact(&mut back)).await.unwrap();
    assert_eq!(back, frame);
    // A value that does not decode: an error String, and the connection goes on.
    s.write_all(&[4, 0, 0, 0, 0xEE, 0, 0, 0]).await.unwrap();
    let mut len = [0; 4];
    timed(s.read_exact(&mut len)).await.unwrap();
    let mut reply = vec![0; u32::from_le_bytes(len) as usize];
    timed(s.read_exact(&mut reply)).await.unwrap();
    let text = from_bytes(Dialect::GODOT_4, &reply).unwrap();
    assert!(
        text.as_str()
            .unwrap()
            .starts_with("error: unknown type id 238"),
        "{text:?}"
    );
    // A prefix above the maximum frame: the server closes the connection.
    s.write_all(&[0, 0, 0, 0x80]).await.unwrap();
    let mut rest = Vec::new();
    assert_eq!(timed(s.read_to_end(&mut rest)).await.unwrap(), 0);
}

#[tokio::test]
async fn ws_values_echo_one_value_per_message() {
    let (_server, port) = start("tokio_ws_values");
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://127.0.0.1:{port}"))
        .await
        .unwrap();
    let value = vec![3, 0, 1, 0, 0x9a, 0x99, 0x99, 0x99, 0x99, 0x99, 0xb9, 0x3f]; // 0.1 as f64
    ws.send(Message::Binary(value.clone().into()))
        .await
        .unwrap();
    let Some(Ok(Message::Binary(back))) = timed(ws.next()).await else {
        panic!()
    };
    assert_eq!(back.to_vec(), value);
}

#[tokio::test]
async fn ws_multiplayer_peer_id_path_cache_and_rpc() {
    let (_server, port) = start("tokio_ws_multiplayer");
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://127.0.0.1:{port}"))
        .await
        .unwrap();
    let Some(Ok(Message::Binary(id))) = timed(ws.next()).await else {
        panic!()
    };
    assert_eq!(parse_peer_id_message(&id).unwrap(), 2);

    // What a Godot client sends for `rpc_id(1, "ping", 42, "hi")` on /root/Main/Player
    // before the server confirmed the path: SIMPLIFY_PATH, then the call in path form.
    let sum = "0123456789abcdef0123456789abcdef";
    let simplify = packet_to_vec(|w| w.simplify_path(sum, 5, "Main/Player")).unwrap();
    ws.send(Message::Binary(simplify.into())).await.unwrap();
    let call = packet_to_vec(|w| {
        w.remote_call(Target::Path("Main/Player"), 3, 2)?;
        w.int(42)?;
        w.with(|v| v.string("hi"))
    })
    .unwrap();
    ws.send(Message::Binary(call.clone().into())).await.unwrap();
    // Then a call by cache id, as sent once the path is confirmed.
    let cached = packet_to_vec(|w| w.remote_call_bytes(Target::Cached(5), 4, &[9, 9])).unwrap();
    ws.send(Message::Binary(cached.into())).await.unwrap();

    let Some(Ok(Message::Binary(confirm))) = timed(ws.next()).await else {
        panic!()
    };
    let Packet::ConfirmPath(c) = Packet::parse(&confirm).unwrap() else {
        panic!()
    };
    assert_eq!((c.checksum_ok, c.cache_id), (true, 5));
    let Some(Ok(Message::Binary(echo))) = timed(ws.next()).await else {
        panic!()
    };
    assert_eq!(echo.to_vec(), call, "same method, arguments and path");
    let Some(Ok(Message::Binary(echo))) = timed(ws.next()).await else {
        panic!()
    };
    let Packet::RemoteCall(r) = Packet::parse(&echo).unwrap() else {
        panic!()
    };
    assert!(matches!(
        r.node,
        NodeRef::Path {
            path: "Main/Player",
            ..
        }
    ));
    assert_eq!(r.method, 4);
    assert!(matches!(r.args, Args::Bytes(&[9, 9])));
}
