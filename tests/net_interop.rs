//! Real network traffic between a real Godot 3.2.3 (`godot3-server`) and the example servers
//! (`examples/common/`, run in-process on a loopback port).
//!
//! `tests/godot3/net_client.gd` connects with `StreamPeerTCP` (or `PacketPeerUDP`), sends
//! every Godot 3 type, frames cut into pieces and frames batched in one write (TCP), packed
//! arrays over 1 MB (TCP), values near and over the datagram limit (UDP), a full object the
//! server refuses, and "quit". It checks every reply against what it computes itself from the
//! value it sent (type, size, a content digest, the value echoed back) and prints a report.
//! This test asserts the report (every check passed, the number of values) and, from the
//! server's side, what the connection looked like (replies, the refused value's error, split
//! and coalesced frames seen, buffer within its limit).
//!
//! Without `godot3-server` (or `GODOT3_SERVER=/path`) the test prints why it is skipped and
//! passes, unless `GDWIRE_REQUIRE_ENGINE=1` (CI, `.ci/test`) makes that a failure.

#[path = "../examples/common/mod.rs"]
mod common;
mod support;

use std::net::{TcpListener, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::{Duration, Instant};

use common::tcp::{self, End};
use common::udp;
use gdwire::frame::{FrameBuffer, FrameWriter, Framing, Split, DEFAULT_MAX_FRAME};
use gdwire::math::Vector2;
use gdwire::write::Endian;
use gdwire::{Decoder, Dialect, Error, ErrorKind, VariantRef, Writer};
use serde_json::Value;

/// The engine is killed after this long (the script's own reply timeout is 15 s).
const ENGINE_TIMEOUT: Duration = Duration::from_secs(50);

/// Values the script sends: 48 of every type, 4 split, 7 batched, 5 big, 1 big split, the
/// refused full object, one after it, "quit".
const TCP_MESSAGES: u64 = 48 + 4 + 7 + 5 + 1 + 1 + 1 + 1;
/// 48 of every type, 2 larger ones, the near-limit one, the full object, "quit".
const UDP_MESSAGES: u64 = 48 + 2 + 1 + 1 + 1;

/// The engine, or `None` when its part is skipped (see `support::engine::binary_or_skip`).
fn engine(test: &str) -> Option<String> {
    support::engine::binary_or_skip(test)
}

/// Runs `net_client.gd` against 127.0.0.1:`port`; returns the report line's JSON.
fn run_client(godot: &str, mode: &str, port: u16) -> Value {
    let dir = support::engine::TempDir::new(&format!("net-{mode}"));
    let tmp_file = dir.0.join("store_var.bin");
    let port = port.to_string();
    let stdout = support::engine::run_script(
        godot,
        "net_client.gd",
        &[
            ("GDWIRE_NET_MODE", mode.as_ref()),
            ("GDWIRE_NET_PORT", port.as_ref()),
            ("GDWIRE_NET_TMP", tmp_file.as_os_str()),
        ],
        &dir.0,
        ENGINE_TIMEOUT,
        "GDWIRE-NET-REPORT ",
    );
    let reports: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("GDWIRE-NET-REPORT "))
        .collect();
    assert_eq!(
        reports.len(),
        1,
        "net_client.gd ({mode}): one report expected\n{stdout}"
    );
    serde_json::from_str(reports[0]).unwrap_or_else(|e| panic!("bad report ({e}): {}", reports[0]))
}

/// The client's own verdict: every reply received and checked.
fn assert_report(report: &Value, mode: &str, messages: u64) {
    assert_eq!(report["mode"], mode, "{report}");
    assert_eq!(report["failed"], 0, "{report}");
    assert_eq!(report["sent"], messages, "{report}");
    assert_eq!(report["replies"], messages, "{report}");
    assert_eq!(report["passed"], messages, "{report}");
}

#[test]
fn godot_tcp_client_talks_to_the_tcp_server() {
    let Some(godot) = engine("tcp") else { return };
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let mut config = tcp::Config::new(Dialect::GODOT_3);
    config.max_clients = Some(1);
    config.idle_timeout = Some(Duration::from_secs(20));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel();
    let server = {
        let stop = stop.clone();
        thread::spawn(move || tcp::serve_until(listener, config, tx, stop))
    };

    let report = run_client(&godot, "tcp", port);
    let outcome = rx.recv_timeout(Duration::from_secs(10));
    stop.store(true, Ordering::SeqCst);
    let accepted = server.join().unwrap().unwrap();
    eprintln!("client report: {report}");
    let outcome = outcome.expect("the server reported no connection");
    eprintln!("server outcome: {outcome:?}");

    assert_report(&report, "tcp", TCP_MESSAGES);
    assert_eq!(report["split"], 5, "{report}");
    assert_eq!(report["coalesced"], 7, "{report}");
    assert!(report["largest"].as_u64().unwrap() > 1_000_000, "{report}");

    // The server side of the same conversation.
    assert_eq!(accepted, 1);
    assert_eq!(outcome.end, End::Quit, "{outcome:?}");
    assert_eq!(outcome.replies, TCP_MESSAGES);
    assert_eq!(outcome.value_errors, 1, "only the full object is refused");
    let refused = outcome.first_value_error.unwrap();
    assert_eq!(refused.kind(), ErrorKind::ObjectsNotAllowed);
    // The frames really were cut and batched on the wire: the server saw each cut frame
    // arrive over several reads, and several frames arrive in one read.
    assert!(outcome.split_frames >= 5, "{outcome:?}");
    assert!(outcome.coalesced_reads >= 1, "{outcome:?}");
    // The 1.5 MB frames were buffered whole; never more than the limit.
    assert!(outcome.capacity >= 1_500_000, "{outcome:?}");
    assert!(outcome.capacity <= outcome.limit, "{outcome:?}");
}

#[test]
fn godot_udp_client_talks_to_the_udp_server() {
    let Some(godot) = engine("udp") else { return };
    let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
    let port = socket.local_addr().unwrap().port();
    let config = udp::Config::new(Dialect::GODOT_3);
    let stop = Arc::new(AtomicBool::new(false));
    let server = {
        let stop = stop.clone();
        thread::spawn(move || udp::serve(&socket, &config, &stop))
    };

    let report = run_client(&godot, "udp", port);
    // The client waited for the reply to "quit": the server is done or about to be.
    let deadline = Instant::now() + Duration::from_secs(10);
    while !server.is_finished() && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(10));
    }
    stop.store(true, Ordering::SeqCst);
    let stats = server.join().unwrap().unwrap();
    eprintln!("client report: {report}");
    eprintln!("server stats: {stats:?}");

    assert_report(&report, "udp", UDP_MESSAGES);
    // A 70,008-byte value cannot go in one datagram: the engine's put_var fails (FAILED)
    // and sends nothing.
    assert_eq!(report["too_big_put_var"], 1, "{report}");

    assert!(stats.quit, "{stats:?}");
    assert_eq!(stats.datagrams, UDP_MESSAGES, "{stats:?}");
    assert_eq!(stats.oversized_replies, 1, "{stats:?}");
    assert_eq!(stats.largest_datagram, 65_448, "{stats:?}");
    let kinds: Vec<ErrorKind> = stats.value_errors.iter().map(|e| e.kind()).collect();
    assert_eq!(kinds, [ErrorKind::ObjectsNotAllowed], "{stats:?}");
}

fn unhex(v: &Value) -> Vec<u8> {
    support::hex(
        v.as_str()
            .unwrap_or_else(|| panic!("not a hex string: {v}")),
    )
}

/// The bytes each Godot API writes (StreamPeer, PacketPeerStream, File, var2bytes, with
/// both byte-order settings), as docs/framing.md describes them, against gdwire's framing.
#[test]
fn godot_framing_matches_gdwire_framing() {
    let Some(godot) = engine("framing") else {
        return;
    };
    let r = run_client(&godot, "framing", 0);
    eprintln!("framing report: {r}");
    assert_eq!(r["failed"], 0, "{r}");

    // var2bytes({"hp": 100, "pos": Vector2(1, 2), "name": "Björn"}): the raw value.
    let mut value = Vec::new();
    let mut w = Writer::new(&mut value, Dialect::GODOT_3);
    w.begin_dictionary(3).unwrap();
    w.string("hp").unwrap();
    w.int(100).unwrap();
    w.string("pos").unwrap();
    w.vector2(Vector2 { x: 1.0, y: 2.0 }).unwrap();
    w.string("name").unwrap();
    w.string("Björn").unwrap();
    w.finish().unwrap();
    assert_eq!(unhex(&r["var2bytes"]), value);
    assert_eq!(r["base64_is_var2bytes"], true);

    // put_var(v); put_var(7) framed by gdwire, little- and big-endian prefixes.
    let framed = |endian| {
        let mut out = FrameWriter::new(Vec::new(), Framing::new(endian), Dialect::GODOT_3);
        out.write_payload(&value).unwrap();
        out.write_value(&VariantRef::Int(7)).unwrap();
        out.into_inner()
    };
    let (little, big) = (framed(Endian::Little), framed(Endian::Big));
    assert_ne!(little, big);
    assert_eq!(unhex(&r["stream_put_var"]), little);
    assert_eq!(unhex(&r["stream_put_var_big_endian"]), big);
    assert_eq!(unhex(&r["file_store_var"]), little);
    assert_eq!(unhex(&r["file_store_var_endian_swap"]), big);
    // PacketPeerStream ignores the stream's big_endian: always little-endian.
    assert_eq!(unhex(&r["packet_peer_stream_put_var"]), little);

    // The engine's big-endian stream read back with a big-endian FrameBuffer ...
    let engine_big = unhex(&r["stream_put_var_big_endian"]);
    let decoder = Decoder::new(Dialect::GODOT_3);
    let mut buffer = FrameBuffer::new(Framing::new(Endian::Big));
    buffer.push(&engine_big).unwrap();
    let first = buffer.next_frame().unwrap().unwrap();
    let dict = decoder.decode(first).unwrap().as_dictionary().unwrap();
    assert_eq!(dict.get("hp"), Some(VariantRef::Int(100)));
    let second = buffer.next_frame().unwrap().unwrap();
    assert_eq!(decoder.decode(second).unwrap(), VariantRef::Int(7));
    buffer.finish().unwrap();
    // ... and with the wrong byte order: a huge length, refused at once.
    let wrong = Framing::new(Endian::Little).split(&engine_big).unwrap_err();
    let len = u32::from_be_bytes(engine_big[..4].try_into().unwrap()).swap_bytes();
    assert_eq!(
        wrong,
        Error::new(
            ErrorKind::FrameTooLarge {
                len,
                max: DEFAULT_MAX_FRAME as u32
            },
            0
        )
    );

    // PacketPeerStream's default buffers: packets of at most 65,532 bytes.
    assert_eq!(r["packet_peer_stream_max_out"], 65_532);
    assert_eq!(r["packet_peer_stream_put_max"], 0);
    assert_eq!(
        r["packet_peer_stream_put_max_plus_1"], 31,
        "ERR_INVALID_PARAMETER"
    );
    // A 2^31 prefix is a negative length to StreamPeer.get_var (null); gdwire refuses it.
    assert_eq!(r["stream_get_var_2p31_is_null"], true);
    assert!(matches!(
        Framing::default().split(&[0, 0, 0, 0x80, 2, 0, 0, 0]),
        Err(e) if e.kind() == ErrorKind::FrameTooLarge { len: 1 << 31, max: DEFAULT_MAX_FRAME as u32 }
    ));
    assert!(matches!(
        Framing::default().split(&little),
        Ok(Split::Complete { .. })
    ));
    // PacketPeer.put_var's encode limit is gdwire's default maximum frame.
    assert_eq!(r["udp_encode_buffer_max_size"], DEFAULT_MAX_FRAME);
}
