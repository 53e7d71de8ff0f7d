//! The example TCP server's per-connection loop (`examples/common/tcp.rs`: read into the
//! reused `FrameBuffer`, decode each frame in place, encode the reply into the reused scratch
//! of a `FrameWriter`) allocates nothing per message once warmed up, for good values and
//! error replies alike. A counting global allocator proves it.

#[path = "../examples/common/mod.rs"]
mod common;
#[path = "support/counting_alloc.rs"]
mod counting_alloc;

use std::io::{self, Read};

use common::tcp::{Config, Connection, Step};
use counting_alloc::allocations_in;
use gdwire::{Dialect, Writer};

#[global_allocator]
static GLOBAL: counting_alloc::Counting = counting_alloc::Counting;

/// Hands out `data` in chunks of cycling sizes, like a socket would.
struct Chunks<'a> {
    data: &'a [u8],
    pos: usize,
    sizes: &'a [usize],
    turn: usize,
}

impl Read for Chunks<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let size = self.sizes[self.turn % self.sizes.len()];
        self.turn += 1;
        let n = size.min(buf.len()).min(self.data.len() - self.pos);
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

fn frame(f: impl FnOnce(&mut Writer<&mut Vec<u8>>) -> gdwire::Result<()>) -> Vec<u8> {
    let mut payload = Vec::new();
    let mut w = Writer::new(&mut payload, Dialect::GODOT_3);
    f(&mut w).unwrap();
    w.finish().unwrap();
    let mut out = (payload.len() as u32).to_le_bytes().to_vec();
    out.extend_from_slice(&payload);
    out
}

/// Runs the connection over `stream` to its end; returns the replies sent.
fn drive(conn: &mut Connection<io::Sink>, stream: &[u8]) -> u64 {
    let mut reader = Chunks {
        data: stream,
        pos: 0,
        sizes: &[1, 7, 4096, 3, 100_000, 13],
        turn: 0,
    };
    let before = conn.outcome(None, common::tcp::End::Closed).replies;
    loop {
        match conn.pump(&mut reader) {
            Ok(Step::Data) => {}
            Ok(Step::Eof) => break,
            other => panic!("unexpected {other:?}"),
        }
    }
    conn.outcome(None, common::tcp::End::Closed).replies - before
}

// One test only: the counter is global.
#[test]
fn serving_a_connection_allocates_nothing_per_message() {
    let mut stream = Vec::new();
    for i in 0..50 {
        stream.extend(frame(|w| {
            w.begin_dictionary(3)?;
            w.string("i")?;
            w.int(i)?;
            w.string("name")?;
            w.string("héllo 🎮")?;
            w.string("pos")?;
            w.packed_f32([0.5f32; 64])
        }));
        stream.extend(frame(|w| w.packed_i32(0..10_000)));
        stream.extend(frame(|w| w.string("x")));
    }
    // Values that do not decode: answered with error replies.
    stream.extend([4, 0, 0, 0, 0xde, 0xad, 0xbe, 0xef]);
    stream.extend([8, 0, 0, 0, 4, 0, 0, 0, 9, 0, 0, 0]);

    let mut conn = Connection::new(&Config::new(Dialect::GODOT_3), io::sink());
    // Warm-up: the buffer and the reply scratch grow to their working size.
    assert_eq!(drive(&mut conn, &stream), 152);
    let mut replies = 0;
    let count = allocations_in(|| {
        for _ in 0..5 {
            replies += drive(&mut conn, &stream);
        }
    });
    assert_eq!(count, 0, "the connection loop allocated {count} times");
    assert_eq!(replies, 5 * 152);
    let o = conn.outcome(None, common::tcp::End::Closed);
    assert_eq!(o.value_errors, 6 * 2);
    assert!(o.capacity <= o.limit);
    // The counter does see allocations (so the zero above means something).
    assert_eq!(
        allocations_in(|| drop(std::hint::black_box(vec![1u8; 8]))),
        1
    );
}
