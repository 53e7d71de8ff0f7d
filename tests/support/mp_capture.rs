//! A synthetic multiplayer capture in the `multiplayer-capture` layout
//! (`[u32 LE length][u8 tag][packet]`): what a 4-player game sends per tick: small RPCs
//! (cached node ids, a few int/float/Vector3/String arguments), full syncs of two
//! synchronizers (position, velocity, health, on_floor) and delta syncs. Built with the
//! crate's PacketWriter; shared by `benches/multiplayer.rs` and `tests/multiplayer_no_alloc.rs`.

use gdwire::math::Vector3;
use gdwire::multiplayer::{PacketWriter, Target};

fn v3(x: f64, y: f64, z: f64) -> Vector3 {
    Vector3 { x, y, z }
}

/// `ticks` ticks of 4 players: per tick and player one RPC, one full sync, one delta.
pub fn capture(ticks: u32) -> (Vec<u8>, Vec<std::ops::Range<usize>>) {
    let mut out = Vec::new();
    let mut ranges = Vec::new();
    for t in 0..ticks {
        for p in 0..4u32 {
            let f = f64::from(t) * 0.25 + f64::from(p);
            let mut packet = Vec::new();
            let mut w = PacketWriter::new(&mut packet);
            match (t + p) % 3 {
                0 => {
                    w.remote_call(Target::Cached(10 + p), 2, 3).unwrap();
                    w.with(|v| v.vector3(v3(f, 1.5, -f))).unwrap();
                    w.int(i64::from(t)).unwrap();
                    w.bool(true).unwrap();
                }
                1 => {
                    w.remote_call(Target::Cached(300 + p), 0x8001, 2).unwrap();
                    w.with(|v| v.string("fire")).unwrap();
                    w.with(|v| v.float(f)).unwrap();
                }
                _ => {
                    w.remote_call(Target::Cached(3), 1, 1).unwrap();
                    w.int(-5000).unwrap();
                }
            }
            w.finish().unwrap();
            push(&mut out, &mut ranges, (p % 2) as u8, &packet);

            let mut packet = Vec::new();
            let mut w = PacketWriter::new(&mut packet);
            w.sync(t as u16).unwrap();
            for s in 0..2u32 {
                w.sync_entry(100 + 2 * p + s).unwrap();
                w.with(|v| v.vector3(v3(f, 0.0, f * 2.0))).unwrap();
                w.with(|v| v.vector3(v3(0.5, -9.8, 0.0))).unwrap();
                w.int(100 - i64::from(t % 100)).unwrap();
                w.bool(t % 7 == 0).unwrap();
            }
            w.finish().unwrap();
            push(&mut out, &mut ranges, 1, &packet);

            let mut packet = Vec::new();
            let mut w = PacketWriter::new(&mut packet);
            w.sync_delta().unwrap();
            w.delta_entry(100 + 2 * p, 0b101).unwrap();
            w.with(|v| v.vector3(v3(f, 0.0, 0.0))).unwrap();
            w.int(i64::from(t)).unwrap();
            w.finish().unwrap();
            push(&mut out, &mut ranges, 1, &packet);
        }
    }
    (out, ranges)
}

fn push(out: &mut Vec<u8>, ranges: &mut Vec<std::ops::Range<usize>>, tag: u8, packet: &[u8]) {
    out.extend_from_slice(&(packet.len() as u32 + 1).to_le_bytes());
    out.push(tag);
    let start = out.len();
    out.extend_from_slice(packet);
    ranges.push(start..out.len());
}
