//! SceneMultiplayer packets: parsing never panics, errors point inside the packet (or at
//! most 3 bytes past it, the padding of an unpadded PackedByteArray at the end), every
//! value of a parsed packet can be walked, and writing a parsed packet again gives a packet
//! with the same fields whose own rewrite is byte-identical (the writer's form is canonical).
//! Input: byte 0 bit 0 allows object decoding, the rest is the packet.
#![no_main]

use gdwire::multiplayer::{Args, Packet, PacketWriter, Sys, Values};
use gdwire::{Decoder, Dialect};
use libfuzzer_sys::fuzz_target;

/// Walks the values (read without a second validation, as parsing checked them) and holds
/// each plain-encoded one (every type but the compressed bools and ints) to what a
/// validating decode of its bytes with `dec` reads: the same value and the same length.
fn walk(dec: Decoder, mut values: Values<'_>) -> usize {
    let n = values.len();
    let mut seen = 0;
    loop {
        let (rest, before) = (values.as_bytes(), values.position());
        let Some(v) = values.next() else { break };
        // Views decode lazily: format them in full (bounded by the packet size); the text
        // also compares NaN payloads, which `==` would not.
        let got = format!("{v:?}");
        if !matches!(rest[0] & 0x3F, 1 | 2) {
            let (want, used) = dec.decode_prefix(rest).expect("a parsed packet's value validates");
            assert_eq!(got, format!("{want:?}"));
            assert_eq!(values.position() - before, used);
        }
        seen += 1;
    }
    assert_eq!(seen, n);
    n
}

/// `dec`: the decoder the packet was parsed with.
fn touch(dec: Decoder, p: &Packet<'_>) {
    // The engine decodes spawn and sync values with objects off whatever the setting.
    let state_dec = dec.with_allow_objects(false);
    match *p {
        Packet::RemoteCall(c) => match c.args {
            Args::Values(v) => {
                walk(dec, v);
            }
            Args::Bytes(_) => {}
        },
        Packet::Spawn(s) => {
            assert_eq!(s.custom.is_some(), s.is_custom());
            walk(state_dec, s.state);
        }
        Packet::Sync(s) => {
            let n = s.entries.len();
            let mut seen = 0;
            for e in s.entries {
                let k = walk(state_dec, e.values);
                if let Some(m) = e.mask {
                    assert_eq!(m.count_ones() as usize, k);
                }
                seen += 1;
            }
            assert_eq!(seen, n);
            assert!(n >= 1);
        }
        Packet::Sys(Sys::Relay(r)) => {
            touch(dec, &r.inner().expect("a validated relay's inner packet parses"))
        }
        _ => {}
    }
}

fn rewrite(p: &Packet<'_>, objects: bool) -> Vec<u8> {
    let mut out = Vec::new();
    let mut w = PacketWriter::new(&mut out).with_full_objects(objects);
    w.packet(p).expect("a parsed packet can be written");
    w.finish().expect("a parsed packet can be written");
    out
}

fuzz_target!(|data: &[u8]| {
    let Some((&cfg, bytes)) = data.split_first() else { return };
    let objects = cfg & 1 != 0;
    let dec = Decoder::new(Dialect::GODOT_4).with_allow_objects(objects);
    let packet = match Packet::parse_with(dec, bytes) {
        Ok(p) => p,
        Err(e) => {
            // Every error names a byte of the packet or its end, also after an unpadded
            // PackedByteArray at the very end (whose missing padding the engine counts).
            assert!(e.offset() <= bytes.len(), "{e} for {} bytes", bytes.len());
            return;
        }
    };
    touch(dec, &packet);
    let once = rewrite(&packet, objects);
    let again = Packet::parse_with(dec, &once).expect("the rewrite parses");
    assert_eq!(again.command(), packet.command());
    let twice = rewrite(&again, objects);
    assert_eq!(once, twice, "the rewrite is canonical");
});
