//! Misbehaving clients against the example TCP and UDP servers (`examples/common/`, run
//! in-process on loopback), all at once, next to a good client that must keep getting correct
//! replies.
//!
//! Every bad client's connection outcome is asserted exactly: how it ended, with which
//! library error (`ErrorKind` and stream offset), how many replies it got, and that the
//! reassembly buffer never held more than its limit. The policy under test (see
//! `examples/common/tcp.rs`): a value that does not decode inside a good frame gets an error
//! reply and the connection continues; a bad length prefix gets an error reply and the
//! connection is closed; a peer that stops inside a frame is dropped.

#[path = "../examples/common/mod.rs"]
mod common;

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::{Duration, Instant};

use common::tcp::{self, End, Outcome};
use common::udp;
use gdwire::frame::Framing;
use gdwire::write::Endian;
use gdwire::{from_bytes, to_vec, Dialect, Error, ErrorKind, Expected, VariantRef, Writer};

const MAX_FRAME: usize = 64 * 1024;
// Generous against scheduling delays on a loaded 2-core CI machine: the slow-but-served client
// needs ~0.25 s of sleeps, the slowloris is cut off after this.
const FRAME_TIMEOUT: Duration = Duration::from_millis(2000);
const IO_TIMEOUT: Duration = Duration::from_secs(10);

// ----- helpers ---------------------------------------------------------------------------------

fn encode(f: impl FnOnce(&mut Writer<&mut Vec<u8>>) -> gdwire::Result<()>) -> Vec<u8> {
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, Dialect::GODOT_3);
    f(&mut w).unwrap();
    w.finish().unwrap();
    out
}

/// `StreamPeer.put_var` framing: u32 LE length, then the value.
fn framed(payload: &[u8]) -> Vec<u8> {
    let mut out = (payload.len() as u32).to_le_bytes().to_vec();
    out.extend_from_slice(payload);
    out
}

fn connect(port: u16) -> TcpStream {
    let s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(IO_TIMEOUT)).unwrap();
    s.set_nodelay(true).unwrap();
    s
}

/// Reads one framed reply; `None` at end of stream.
fn read_reply(s: &mut TcpStream) -> Option<Vec<u8>> {
    let mut prefix = [0u8; 4];
    match s.read_exact(&mut prefix) {
        Ok(()) => {}
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::UnexpectedEof | std::io::ErrorKind::ConnectionReset
            ) =>
        {
            return None
        }
        Err(e) => panic!("reading a reply: {e}"),
    }
    let mut payload = vec![0u8; u32::from_le_bytes(prefix) as usize];
    s.read_exact(&mut payload).unwrap();
    Some(payload)
}

/// The reply must be the server's description of `sent`, the `index`-th message.
fn assert_good_reply(reply: &[u8], index: i64, sent: &[u8]) {
    let reply = from_bytes(Dialect::GODOT_3, reply).unwrap();
    let d = reply.as_dictionary().expect("a Dictionary");
    assert_eq!(d.get("index"), Some(VariantRef::Int(index)));
    assert!(d.get("error").is_none(), "{reply:?}");
    let sent_value = from_bytes(Dialect::GODOT_3, sent).unwrap();
    let echo = d.get("echo").unwrap();
    assert_eq!(
        to_vec(Dialect::GODOT_3, &echo).unwrap(),
        to_vec(Dialect::GODOT_3, &sent_value).unwrap()
    );
}

/// The reply must be an error reply for the `index`-th message with this error.
fn assert_error_reply(reply: &[u8], index: i64, error: Error) {
    let reply = from_bytes(Dialect::GODOT_3, reply).unwrap();
    let d = reply.as_dictionary().expect("a Dictionary");
    assert_eq!(d.get("index"), Some(VariantRef::Int(index)));
    let msg = d.get("error").expect("an error reply");
    assert_eq!(msg.as_str(), Some(error.kind().to_string().as_str()));
    assert_eq!(
        d.get("offset"),
        Some(VariantRef::Int(error.offset() as i64))
    );
    let code = error.kind().engine_code().map_or(-1, i64::from);
    assert_eq!(d.get("code"), Some(VariantRef::Int(code)));
}

fn assert_closed(s: &mut TcpStream) {
    assert!(read_reply(s).is_none(), "the server should have closed");
}

struct Server {
    port: u16,
    stop: Arc<AtomicBool>,
    outcomes: mpsc::Receiver<Outcome>,
    thread: thread::JoinHandle<std::io::Result<usize>>,
}

impl Server {
    fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let mut config = tcp::Config::new(Dialect::GODOT_3);
        config.framing = Framing::new(Endian::Little).with_max_frame(MAX_FRAME);
        config.frame_timeout = FRAME_TIMEOUT;
        config.poll = Duration::from_millis(20);
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, outcomes) = mpsc::channel();
        let thread = {
            let stop = stop.clone();
            thread::spawn(move || tcp::serve_until(listener, config, tx, stop))
        };
        Server {
            port,
            stop,
            outcomes,
            thread,
        }
    }

    /// Waits for the outcomes of `n` connections, keyed by the client's address.
    fn outcomes(&self, n: usize) -> HashMap<SocketAddr, Outcome> {
        let mut all = HashMap::new();
        let deadline = Instant::now() + IO_TIMEOUT;
        while all.len() < n {
            let left = deadline.saturating_duration_since(Instant::now());
            let o = self
                .outcomes
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("only {} of {n} connections ended: {all:?}", all.len()));
            all.insert(o.peer.unwrap(), o);
        }
        all
    }

    fn stop(self) -> usize {
        self.stop.store(true, Ordering::SeqCst);
        self.thread.join().unwrap().unwrap()
    }
}

/// One connection's expected ending and reply count.
fn assert_outcome(o: &Outcome, end: End, replies: u64, value_errors: u64) {
    assert_eq!(o.end, end, "{o:?}");
    assert_eq!(o.replies, replies, "{o:?}");
    assert_eq!(o.value_errors, value_errors, "{o:?}");
    assert!(o.capacity <= o.limit, "buffered past the maximum: {o:?}");
    assert_eq!(o.limit, MAX_FRAME + 4);
}

// ----- the bad clients -------------------------------------------------------------------------

/// Sends a good value, then half a frame, then closes (disconnect mid-frame).
fn truncated_then_close(port: u16) -> SocketAddr {
    let mut s = connect(port);
    let good = encode(|w| w.int(7));
    s.write_all(&framed(&good)).unwrap();
    assert_good_reply(&read_reply(&mut s).unwrap(), 0, &good);
    let big = encode(|w| w.string("this frame never ends"));
    let frame = framed(&big);
    s.write_all(&frame[..frame.len() / 2]).unwrap();
    s.shutdown(Shutdown::Write).unwrap();
    assert_closed(&mut s);
    s.local_addr().unwrap()
}

/// Two bytes of a length prefix, then close.
fn half_a_prefix_then_close(port: u16) -> SocketAddr {
    let mut s = connect(port);
    s.write_all(&[5, 0]).unwrap();
    s.shutdown(Shutdown::Write).unwrap();
    assert_closed(&mut s);
    s.local_addr().unwrap()
}

/// A length prefix of 2^31 (negative to the engine's signed `get_32`).
fn prefix_2_pow_31(port: u16) -> SocketAddr {
    let mut s = connect(port);
    s.write_all(&[0, 0, 0, 0x80]).unwrap();
    let err = Error::new(
        ErrorKind::FrameTooLarge {
            len: 1 << 31,
            max: MAX_FRAME as u32,
        },
        0,
    );
    assert_error_reply(&read_reply(&mut s).unwrap(), 0, err);
    assert_closed(&mut s);
    s.local_addr().unwrap()
}

/// A frame of exactly the maximum is accepted; a prefix one byte above it is refused before
/// its payload is sent.
fn at_and_above_max(port: u16) -> SocketAddr {
    let mut s = connect(port);
    let blob = vec![0xa5u8; MAX_FRAME - 8];
    let max = encode(|w| w.packed_bytes(&blob));
    assert_eq!(max.len(), MAX_FRAME);
    s.write_all(&framed(&max)).unwrap();
    assert_good_reply(&read_reply(&mut s).unwrap(), 0, &max);
    s.write_all(&(MAX_FRAME as u32 + 1).to_le_bytes()).unwrap();
    let err = Error::new(
        ErrorKind::FrameTooLarge {
            len: MAX_FRAME as u32 + 1,
            max: MAX_FRAME as u32,
        },
        MAX_FRAME + 4,
    );
    assert_error_reply(&read_reply(&mut s).unwrap(), 1, err);
    assert_closed(&mut s);
    s.local_addr().unwrap()
}

/// Well-framed garbage and an unknown type id: error replies, and the connection goes on.
fn bad_values_in_good_frames(port: u16) -> SocketAddr {
    let mut s = connect(port);
    // Prefix fine, payload not a value: header byte 0xde is no Godot 3 type.
    let garbage = [0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4];
    s.write_all(&framed(&garbage)).unwrap();
    let unknown_type = |id, offset| Error::new(ErrorKind::UnknownType { id, max: 27 }, offset);
    assert_error_reply(&read_reply(&mut s).unwrap(), 0, unknown_type(0xde, 4));
    // Type id 27 = VARIANT_MAX in Godot 3: the first id the engine rejects.
    s.write_all(&framed(&[27, 0, 0, 0])).unwrap();
    assert_error_reply(&read_reply(&mut s).unwrap(), 1, unknown_type(27, 12 + 4));
    // A String whose length runs past its frame (the frame is shorter than the value).
    let cut = &encode(|w| w.string("abcdef"))[..10];
    s.write_all(&framed(cut)).unwrap();
    let err = Error::new(ErrorKind::StringLength { len: 6 }, 20 + 4 + 4);
    assert_error_reply(&read_reply(&mut s).unwrap(), 2, err);
    // Still in sync: a good value gets its reply.
    let good = encode(|w| w.string("still here"));
    s.write_all(&framed(&good)).unwrap();
    assert_good_reply(&read_reply(&mut s).unwrap(), 3, &good);
    let addr = s.local_addr().unwrap();
    drop(s);
    addr
}

/// One byte per write, with pauses: slow but within the frame timeout, so it is served.
fn one_byte_at_a_time(port: u16) -> SocketAddr {
    let mut s = connect(port);
    let value = encode(|w| {
        w.begin_array(2)?;
        w.string("drip")?;
        w.packed_i32([1, 2, 3])
    });
    for b in framed(&value) {
        s.write_all(&[b]).unwrap();
        thread::sleep(Duration::from_millis(5));
    }
    assert_good_reply(&read_reply(&mut s).unwrap(), 0, &value);
    let addr = s.local_addr().unwrap();
    drop(s);
    addr
}

/// Slowloris: starts a frame and drips it slower than the frame timeout allows.
fn slowloris(port: u16) -> SocketAddr {
    let mut s = connect(port);
    let good = encode(|w| w.bool(true));
    s.write_all(&framed(&good)).unwrap();
    assert_good_reply(&read_reply(&mut s).unwrap(), 0, &good);
    let value = encode(|w| w.string(&"z".repeat(1000)));
    let frame = framed(&value);
    // The prefix and one payload byte at once, then a byte every 0.5 s: the server gives up
    // after FRAME_TIMEOUT. The whole prefix goes first so the verdict does not depend on how
    // the sleeps are scheduled.
    let start = Instant::now();
    s.write_all(&frame[..5]).unwrap();
    for b in &frame[5..12] {
        thread::sleep(Duration::from_millis(500));
        if s.write_all(&[*b]).is_err() {
            break; // dropped by the server
        }
    }
    assert!(start.elapsed() > FRAME_TIMEOUT);
    assert_closed(&mut s);
    s.local_addr().unwrap()
}

/// A good frame and garbage in one write: the good frame is answered before the error.
fn good_frame_then_garbage(port: u16) -> SocketAddr {
    let mut s = connect(port);
    let good = encode(|w| w.int(42));
    let mut bytes = framed(&good);
    bytes.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, 0x13, 0x37]);
    s.write_all(&bytes).unwrap();
    assert_good_reply(&read_reply(&mut s).unwrap(), 0, &good);
    let err = Error::new(
        ErrorKind::FrameTooLarge {
            len: u32::MAX,
            max: MAX_FRAME as u32,
        },
        12,
    );
    assert_error_reply(&read_reply(&mut s).unwrap(), 1, err);
    assert_closed(&mut s);
    s.local_addr().unwrap()
}

/// A well-behaved client that keeps talking while the others misbehave.
fn good_client(port: u16, done: &AtomicBool) -> (SocketAddr, u64) {
    let mut s = connect(port);
    let mut index = 0;
    while !done.load(Ordering::SeqCst) || index < 20 {
        let value = encode(|w| {
            w.begin_dictionary(2)?;
            w.string("n")?;
            w.int(index)?;
            w.string("tick")?;
            w.packed_f32([index as f32 * 0.5; 16])
        });
        s.write_all(&framed(&value)).unwrap();
        assert_good_reply(&read_reply(&mut s).unwrap(), index, &value);
        index += 1;
        thread::sleep(Duration::from_millis(10));
    }
    let addr = s.local_addr().unwrap();
    drop(s);
    (addr, index as u64)
}

// ----- tests -----------------------------------------------------------------------------------

#[test]
fn bad_tcp_clients_get_clear_errors_and_the_server_keeps_serving() {
    let server = Server::start();
    let port = server.port;
    let done = Arc::new(AtomicBool::new(false));
    let good = {
        let done = done.clone();
        thread::spawn(move || good_client(port, &done))
    };
    type Client = fn(u16) -> SocketAddr;
    let clients: [(&str, Client); 8] = [
        ("truncated_then_close", truncated_then_close),
        ("half_a_prefix_then_close", half_a_prefix_then_close),
        ("prefix_2_pow_31", prefix_2_pow_31),
        ("at_and_above_max", at_and_above_max),
        ("bad_values_in_good_frames", bad_values_in_good_frames),
        ("one_byte_at_a_time", one_byte_at_a_time),
        ("slowloris", slowloris),
        ("good_frame_then_garbage", good_frame_then_garbage),
    ];
    // All at once, each on its own thread.
    let bad: Vec<_> = clients
        .iter()
        .map(|&(name, client)| (name, thread::spawn(move || client(port))))
        .collect();
    let bad: HashMap<&str, SocketAddr> = bad
        .into_iter()
        .map(|(name, t)| {
            let addr = t.join().unwrap_or_else(|_| panic!("client {name} failed"));
            (name, addr)
        })
        .collect();
    done.store(true, Ordering::SeqCst);
    let (good_addr, good_messages) = good.join().unwrap();
    let outcomes = server.outcomes(clients.len() + 1);
    assert_eq!(server.stop(), clients.len() + 1);
    let outcome = |name: &str| &outcomes[&bad[name]];

    // The good client was answered throughout and closed cleanly.
    assert_outcome(&outcomes[&good_addr], End::Closed, good_messages, 0);

    // Disconnect mid-frame: the library's truncation error at the frame's prefix (byte 12,
    // after the first 12-byte frame).
    assert_outcome(
        outcome("truncated_then_close"),
        End::Framing(Error::new(ErrorKind::Truncated(Expected::FramePayload), 12)),
        1,
        0,
    );
    assert_outcome(
        outcome("half_a_prefix_then_close"),
        End::Framing(Error::new(ErrorKind::Truncated(Expected::LengthPrefix), 0)),
        0,
        0,
    );
    // Oversized prefixes: refused on the 4 prefix bytes, with nothing buffered for them.
    let too_large = |len, offset| {
        End::Framing(Error::new(
            ErrorKind::FrameTooLarge {
                len,
                max: MAX_FRAME as u32,
            },
            offset,
        ))
    };
    let o = outcome("prefix_2_pow_31");
    assert_outcome(o, too_large(1 << 31, 0), 1, 0);
    assert!(o.capacity <= 64 * 1024 + 4, "{o:?}");
    let o = outcome("at_and_above_max");
    assert_outcome(o, too_large(MAX_FRAME as u32 + 1, MAX_FRAME + 4), 2, 0);
    assert_eq!(
        o.capacity, o.limit,
        "a maximum frame fills the buffer exactly"
    );
    // Bad values inside good frames: answered with errors, connection kept.
    let o = outcome("bad_values_in_good_frames");
    assert_outcome(o, End::Closed, 4, 3);
    assert_eq!(
        o.first_value_error,
        Some(Error::new(ErrorKind::UnknownType { id: 0xde, max: 27 }, 4))
    );
    // One byte per read is fine.
    let o = outcome("one_byte_at_a_time");
    assert_outcome(o, End::Closed, 1, 0);
    assert!(o.reads >= 10 && o.split_frames == 1, "{o:?}");
    // Slowloris: dropped after the frame timeout with what it had sent (a frame started at
    // byte 12, prefix and some payload there).
    let o = outcome("slowloris");
    assert_outcome(
        o,
        End::Stalled(Error::new(ErrorKind::Truncated(Expected::FramePayload), 12)),
        1,
        0,
    );
    // The good frame before the garbage was answered first.
    assert_outcome(
        outcome("good_frame_then_garbage"),
        too_large(u32::MAX, 12),
        2,
        0,
    );
}

#[test]
fn bad_datagrams_get_error_replies_and_the_udp_server_keeps_serving() {
    let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
    let addr = socket.local_addr().unwrap();
    let config = udp::Config::new(Dialect::GODOT_3);
    let stop = Arc::new(AtomicBool::new(false));
    let server = {
        let stop = stop.clone();
        thread::spawn(move || udp::serve(&socket, &config, &stop))
    };
    let client = UdpSocket::bind("127.0.0.1:0").unwrap();
    client.set_read_timeout(Some(IO_TIMEOUT)).unwrap();
    client.connect(addr).unwrap();
    let mut buf = vec![0u8; 70_000];
    let mut ask = |datagram: &[u8]| {
        client.send(datagram).unwrap();
        let n = client.recv(&mut buf).unwrap();
        buf[..n].to_vec()
    };
    let unknown = |id| Error::new(ErrorKind::UnknownType { id, max: 27 }, 0);
    // An empty datagram, garbage, an unknown type id, a cut value: error replies.
    assert_error_reply(
        &ask(&[]),
        0,
        Error::new(ErrorKind::Truncated(Expected::Header), 0),
    );
    assert_error_reply(&ask(&[0xde, 0xad, 0xbe, 0xef]), 1, unknown(0xde));
    assert_error_reply(&ask(&[27, 0, 0, 0]), 2, unknown(27));
    let cut = &encode(|w| w.packed_i32([1, 2, 3]))[..14];
    assert_error_reply(
        &ask(cut),
        3,
        Error::new(
            ErrorKind::Truncated(Expected::Elements(gdwire::VariantType::PackedInt32Array)),
            4, // at the count that promises more than the datagram holds
        ),
    );
    // A length prefix is not part of a datagram: a framed int (prefix 8, then the value) is
    // read as a Transform2D header (id 8 in Godot 3) with 8 of its 24 bytes.
    let good = encode(|w| w.int(5));
    assert_error_reply(
        &ask(&framed(&good)),
        4,
        Error::new(
            ErrorKind::Truncated(Expected::Payload(gdwire::VariantType::Transform2D)),
            4,
        ),
    );
    // And good values still get good replies.
    assert_good_reply(&ask(&good), 5, &good);
    stop.store(true, Ordering::SeqCst);
    let stats = server.join().unwrap().unwrap();
    assert_eq!(stats.datagrams, 6);
    assert_eq!(stats.value_errors.len(), 5);
}
