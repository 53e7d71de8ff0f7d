//! The framing layer's steady state performs no heap allocation: a reused `FrameBuffer` fed by
//! an `io::Read` that returns awkward chunk sizes, every frame decoded and walked, errors
//! included, and a `FrameWriter` with a warmed scratch buffer. A counting global allocator
//! proves it (the counter is checked to be live first).

#[path = "support/counting_alloc.rs"]
mod counting_alloc;

use std::io::Read;

use counting_alloc::allocations_in;
use gdwire::frame::{FrameBuffer, FrameWriter, Framing};
use gdwire::write::Endian;
use gdwire::{Decoder, Dialect, VariantRef};

#[global_allocator]
static GLOBAL: counting_alloc::Counting = counting_alloc::Counting;

/// Hands out 1..=61 bytes per read, cycling.
struct Chunky<'a> {
    data: &'a [u8],
    turn: usize,
}

impl Read for Chunky<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.turn += 1;
        let n = (self.turn % 61 + 1).min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// Walks every element of `v` (recursively; the capture is shallow) without allocating.
fn walk(v: VariantRef<'_>) -> usize {
    let mut seen = 1;
    if let Some(a) = v.as_array() {
        for e in a.iter() {
            seen += walk(e);
        }
    } else if let Some(d) = v.as_dictionary() {
        for e in d.iter() {
            let (k, v) = e;
            seen += walk(k) + walk(v);
        }
    }
    seen
}

fn serve(buffer: &mut FrameBuffer, stream: &[u8], dec: Decoder) -> (usize, usize) {
    buffer.reset();
    let mut src = Chunky {
        data: stream,
        turn: 0,
    };
    let (mut frames, mut errors) = (0, 0);
    loop {
        while let Some(frame) = buffer.next_frame().unwrap() {
            frames += 1;
            match dec.decode(frame) {
                Ok(v) => {
                    walk(v);
                }
                Err(_) => errors += 1,
            }
        }
        if buffer.read_from(&mut src).unwrap() == 0 {
            break;
        }
    }
    buffer.finish().unwrap();
    (frames, errors)
}

#[test]
fn framing_steady_state_allocates_nothing() {
    assert!(
        allocations_in(|| drop(std::hint::black_box(vec![1u8; 8]))) > 0,
        "counter is live"
    );

    let capture = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/samples/godot3_capture.bin"
    ))
    .unwrap();
    // The capture 50 times, with a corrupted value (unknown type) in every copy.
    let mut stream = Vec::new();
    for _ in 0..50 {
        stream.extend_from_slice(&capture);
        stream.extend_from_slice(&[8, 0, 0, 0, 0xee, 0, 0, 0, 0, 0, 0, 0]);
    }
    let framing = Framing::new(Endian::Little);
    let dec = Decoder::new(Dialect::GODOT_3);
    let mut buffer = FrameBuffer::new(framing).with_read_size(256);
    let warm = serve(&mut buffer, &stream, dec);
    assert_eq!(warm, (13 * 50, 50));
    let mut steady = (0, 0);
    assert_eq!(
        allocations_in(|| steady = serve(&mut buffer, &stream, dec)),
        0,
        "FrameBuffer + decode"
    );
    assert_eq!(steady, warm);

    let values: Vec<_> = framing.values(dec, &capture).map(Result::unwrap).collect();
    let mut out = FrameWriter::new(std::io::sink(), framing, Dialect::GODOT_3);
    for v in &values {
        out.write_value(v).unwrap();
    }
    let n = allocations_in(|| {
        for _ in 0..20 {
            for v in &values {
                out.write_value(v).unwrap();
            }
        }
    });
    assert_eq!(n, 0, "FrameWriter with a warm scratch buffer");
}
