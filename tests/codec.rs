//! `gdwire::codec::FrameCodec` follows `FrameBuffer`'s rules: same frames, same errors at the
//! same stream offsets, whatever the chunking.
#![cfg(feature = "tokio")]

use bytes::BytesMut;
use futures_util::{SinkExt, StreamExt};
use gdwire::codec::FrameCodec;
use gdwire::frame::{FrameBuffer, Framing};
use gdwire::multiplayer::{packet_to_vec, Packet, Target};
use gdwire::write::Endian;
use gdwire::{Decoder, Dialect, Error, ErrorKind, Expected, VariantRef};
use tokio_util::codec::{Decoder as _, Encoder as _, FramedRead, FramedWrite};

fn frame(payload: &[u8]) -> Vec<u8> {
    let mut v = (payload.len() as u32).to_le_bytes().to_vec();
    v.extend_from_slice(payload);
    v
}

/// Frames as (stream offset, payload), and the first error.
type Outcome = (Vec<(usize, Vec<u8>)>, Option<Error>);

/// Feeds `stream` in chunks of `step` bytes; returns the frames' (offset, payload) and the
/// first error, from both the codec and `FrameBuffer`.
fn both(stream: &[u8], step: usize, framing: Framing) -> [Outcome; 2] {
    let mut codec = FrameCodec::with_framing(framing, Dialect::GODOT_4);
    let mut buf = BytesMut::new();
    let (mut a, mut a_err) = (Vec::new(), None);
    'outer: for chunk in stream.chunks(step.max(1)) {
        buf.extend_from_slice(chunk);
        loop {
            match codec.decode(&mut buf) {
                Ok(Some(f)) => a.push((f.offset(), f.payload().to_vec())),
                Ok(None) => break,
                Err(e) => {
                    a_err = Error::from_io(&e);
                    break 'outer;
                }
            }
        }
    }
    if a_err.is_none() {
        if let Err(e) = codec.decode_eof(&mut buf) {
            a_err = Error::from_io(&e);
        }
    }

    let mut fb = FrameBuffer::new(framing);
    let (mut b, mut b_err) = (Vec::new(), None);
    let mut offset = 0;
    'outer2: for chunk in stream.chunks(step.max(1)) {
        if let Err(e) = fb.push(chunk) {
            b_err = Some(e);
            break;
        }
        loop {
            match fb.next_frame() {
                Ok(Some(f)) => {
                    b.push((offset, f.to_vec()));
                    offset += 4 + f.len();
                }
                Ok(None) => break,
                Err(e) => {
                    b_err = Some(e);
                    break 'outer2;
                }
            }
        }
    }
    if b_err.is_none() {
        b_err = fb.finish().err();
    }
    [(a, a_err), (b, b_err)]
}

#[test]
fn same_frames_and_errors_as_frame_buffer() {
    let framing = Framing::new(Endian::Little).with_max_frame(64);
    let mut good = frame(&[2, 0, 0, 0, 7, 0, 0, 0]);
    good.extend(frame(&[]));
    good.extend(frame(&[0xEE; 40])); // not a value: still a frame
    let mut too_big = good.clone();
    too_big.extend_from_slice(&[65, 0, 0, 0, 1, 2]);
    let mut cut = good.clone();
    cut.extend_from_slice(&[8, 0, 0, 0, 2, 0]);
    let mut cut_prefix = good.clone();
    cut_prefix.extend_from_slice(&[8, 0]);
    for stream in [&good, &too_big, &cut, &cut_prefix] {
        for step in [1, 3, 4, 7, 1000] {
            let [a, b] = both(stream, step, framing);
            assert_eq!(a, b, "step {step}");
        }
    }
    let [(frames, err), _] = both(&too_big, 5, framing);
    assert_eq!(frames.len(), 3);
    let err = err.unwrap();
    assert_eq!(err.kind(), ErrorKind::FrameTooLarge { len: 65, max: 64 });
    assert_eq!(err.offset(), good.len());
    let [(_, err), _] = both(&cut, 2, framing);
    assert_eq!(
        err.unwrap().kind(),
        ErrorKind::Truncated(Expected::FramePayload)
    );
}

#[test]
fn a_bad_value_is_an_error_of_its_frame_only() {
    let mut stream = frame(&[0xEE, 0, 0, 0]);
    stream.extend(frame(&[2, 0, 0, 0, 9, 0, 0, 0]));
    let mut codec = FrameCodec::new(Dialect::GODOT_4);
    let mut buf = BytesMut::from(&stream[..]);
    let dec = Decoder::new(Dialect::GODOT_4);
    let bad = codec.decode(&mut buf).unwrap().unwrap();
    let e = bad.value(dec).unwrap_err();
    assert_eq!(
        (
            e.offset(),
            matches!(e.kind(), ErrorKind::UnknownType { .. })
        ),
        (4, true)
    );
    let good = codec.decode(&mut buf).unwrap().unwrap();
    assert_eq!(
        (good.offset(), good.value(dec).unwrap()),
        (8, VariantRef::Int(9))
    );
}

#[test]
fn encoder_writes_put_var_frames() {
    let mut codec = FrameCodec::with_framing(Framing::new(Endian::Big), Dialect::GODOT_4);
    let mut out = BytesMut::new();
    codec.encode(&VariantRef::Bool(true), &mut out).unwrap();
    codec.encode(&[1u8, 2, 3][..], &mut out).unwrap();
    assert_eq!(
        &out[..],
        [0, 0, 0, 8, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3]
    );
    // Over the maximum: an error, and nothing is left in the buffer.
    let mut codec =
        FrameCodec::with_framing(Framing::default().with_max_frame(4), Dialect::GODOT_4);
    let mut out = BytesMut::new();
    let e = codec.encode(&VariantRef::Int(1), &mut out).unwrap_err();
    assert!(matches!(
        Error::from_io(&e).unwrap().kind(),
        ErrorKind::FrameTooLarge { .. }
    ));
    assert!(out.is_empty());
}

#[tokio::test]
async fn multiplayer_packets_over_a_framed_stream() {
    let (client, server) = tokio::io::duplex(64);
    let mut tx = FramedWrite::new(client, FrameCodec::new(Dialect::GODOT_4));
    let mut rx = FramedRead::new(server, FrameCodec::new(Dialect::GODOT_4));
    let sent = tokio::spawn(async move {
        for i in 0..100i64 {
            let p = packet_to_vec(|w| {
                w.remote_call(Target::Cached(1), 2, 1)?;
                w.int(i * 1000)
            })
            .unwrap();
            tx.send(&p[..]).await.unwrap();
        }
    });
    let dec = Decoder::new(Dialect::GODOT_4);
    let mut n = 0;
    while let Some(frame) = rx.next().await {
        let frame = frame.unwrap();
        let Packet::RemoteCall(c) = frame.packet(dec).unwrap() else {
            panic!()
        };
        let gdwire::multiplayer::Args::Values(mut v) = c.args else {
            panic!()
        };
        assert_eq!(v.next().unwrap(), VariantRef::Int(n * 1000));
        n += 1;
    }
    sent.await.unwrap();
    assert_eq!(n, 100);
}
