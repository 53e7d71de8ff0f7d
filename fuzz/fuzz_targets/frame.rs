//! Framing: `split` repeated over a buffer, the `frames` iterator and the `FrameBuffer`
//! reassembly buffer fed in arbitrary chunks agree on every frame and every error; `Partial`
//! says exactly how many bytes are missing; the buffer never holds more than its limit.
//! Input: byte 0 picks the prefix byte order and the maximum frame, byte 1 seeds the chunk
//! sizes, the rest is the stream.
#![no_main]

use gdwire::frame::{FrameBuffer, Framing, Split};
use gdwire::write::Endian;
use gdwire::{Decoder, Dialect};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (&cfg, rest) = data.split_first().unwrap_or((&0, &[]));
    let (&seed, stream) = rest.split_first().unwrap_or((&0, &[]));
    let endian = if cfg & 1 == 0 { Endian::Little } else { Endian::Big };
    let max = [0, 1, 8, 64, 4096, usize::MAX][(cfg as usize >> 1) % 6];
    let framing = Framing::new(endian).with_max_frame(max);

    // Truth: split, over and over.
    let mut by_split = Vec::new();
    let mut end_error = None;
    let mut buf = stream;
    let mut offset = 0;
    loop {
        if buf.is_empty() {
            break;
        }
        match framing.split(buf) {
            Ok(Split::Complete { frame, rest }) => {
                assert!(frame.len() <= framing.max_frame());
                assert_eq!(frame.len() + rest.len() + 4, buf.len());
                by_split.push((offset, frame));
                offset += 4 + frame.len();
                buf = rest;
            }
            Ok(Split::Partial { needed }) => {
                assert!(needed >= 1);
                // Exactly `needed` bytes are missing: one fewer is still partial.
                match framing.payload_len(buf) {
                    Ok(Some(len)) => assert_eq!(needed, 4 + len - buf.len()),
                    Ok(None) => assert_eq!(needed, 4 - buf.len()),
                    Err(e) => panic!("partial, but the prefix fails: {e}"),
                }
                if needed < 1 << 16 {
                    let mut more = buf.to_vec();
                    more.resize(buf.len() + needed - 1, 0);
                    assert!(matches!(framing.split(&more), Ok(Split::Partial { needed: 1 })));
                }
                end_error = Some(offset);
                break;
            }
            Err(e) => {
                assert_eq!(e.offset(), 0);
                end_error = Some(offset);
                break;
            }
        }
    }

    // The iterator over a complete buffer.
    let mut it = framing.frames(stream);
    for &(off, frame) in &by_split {
        let f = it.next().unwrap().unwrap();
        assert_eq!((f.offset, f.payload), (off, frame));
    }
    match (it.next(), end_error) {
        (None, None) => {}
        (Some(Err(e)), Some(off)) => assert_eq!(e.offset(), off),
        other => panic!("frames() and split disagree at the end: {other:?}"),
    }
    assert!(it.next().is_none());
    // Values decode each frame exactly as a decoder does.
    let dec = Decoder::new(Dialect::GODOT_3);
    for (v, &(_, frame)) in framing.values(dec, stream).zip(&by_split) {
        assert_eq!(v.is_ok(), dec.decode(frame).is_ok());
    }

    // The reassembly buffer, fed in chunks of pseudo-random sizes.
    let mut fb = FrameBuffer::new(framing).with_read_size(1 + seed as usize % 7);
    let mut got = Vec::new();
    let mut failed = false;
    let mut pos = 0;
    let mut state = seed as u32 | 1;
    'feed: while pos < stream.len() {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let n = (1 + state as usize % 17).min(stream.len() - pos);
        let mut chunk = &stream[pos..pos + n];
        while !chunk.is_empty() {
            match fb.push(chunk) {
                Ok(taken) => {
                    chunk = &chunk[taken..];
                    pos += taken;
                }
                Err(_) => {
                    failed = true;
                    break 'feed;
                }
            }
            assert!(fb.buffered() <= fb.limit());
            loop {
                match fb.next_frame() {
                    Ok(Some(frame)) => got.push(frame.to_vec()),
                    Ok(None) => break,
                    Err(_) => {
                        failed = true;
                        break 'feed;
                    }
                }
            }
        }
    }
    let want: Vec<Vec<u8>> = by_split.iter().map(|(_, f)| f.to_vec()).collect();
    assert_eq!(got, want, "reassembled frames differ");
    match end_error {
        None => {
            assert!(!failed);
            assert!(fb.finish().is_ok());
        }
        Some(_) => assert!(failed || fb.finish().is_err()),
    }
});
