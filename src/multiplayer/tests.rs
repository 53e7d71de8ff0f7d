//! Packets written out by hand from the wire layout (the engine's `modules/multiplayer/`
//! source, checked against a Godot 4.6 run), read and rewritten.

use alloc::vec::Vec;

use super::*;
use crate::error::PacketProblem;
use crate::read::{Decoder, VariantRef};
use crate::Dialect;

fn write(f: impl FnOnce(&mut PacketWriter<'_, &mut Vec<u8>>) -> Result<()>) -> Vec<u8> {
    let mut out = Vec::new();
    let mut w = PacketWriter::new(&mut out);
    f(&mut w).unwrap();
    w.finish().unwrap();
    out
}

fn values(v: Values<'_>) -> Vec<VariantRef<'_>> {
    v.collect()
}

fn kind(bytes: &[u8]) -> (ErrorKind, usize) {
    let e = Packet::parse(bytes).unwrap_err();
    (e.kind(), e.offset())
}

#[test]
fn rpc_cached_u8_with_compressed_args() {
    // node 3, method 1, 4 args: true, false, -2 (i8), 300 (i16)
    let bytes = [0x00, 3, 1, 4, 0x81, 0x01, 0x02, 0xFE, 0x42, 0x2C, 0x01];
    let Packet::RemoteCall(c) = Packet::parse(&bytes).unwrap() else {
        panic!()
    };
    assert_eq!(c.node, NodeRef::Cached(3));
    assert_eq!(
        (c.node_width, c.method_width, c.method),
        (IdWidth::U8, IdWidth::U8, 1)
    );
    let Args::Values(v) = c.args else { panic!() };
    assert_eq!(
        values(v),
        [
            VariantRef::Bool(true),
            VariantRef::Bool(false),
            VariantRef::Int(-2),
            VariantRef::Int(300)
        ]
    );
    let again = write(|w| {
        w.remote_call(Target::Cached(3), 1, 4)?;
        w.bool(true)?;
        w.bool(false)?;
        w.int(-2)?;
        w.int(300)
    });
    assert_eq!(again, bytes);
}

#[test]
fn int_widths_by_mode() {
    for (v, enc) in [
        (127i64, &[0x02, 0x7F][..]),
        (-128, &[0x02, 0x80]),
        (128, &[0x42, 0x80, 0x00]),
        (-32769, &[0x82, 0xFF, 0x7F, 0xFF, 0xFF]),
        (1 << 40, &[0xC2, 0, 0, 0, 0, 0, 1, 0, 0]),
    ] {
        let mut bytes = Vec::from([0x00, 0, 0, 1]);
        bytes.extend_from_slice(enc);
        let Packet::RemoteCall(c) = Packet::parse(&bytes).unwrap() else {
            panic!()
        };
        let Args::Values(vals) = c.args else { panic!() };
        assert_eq!(values(vals), [VariantRef::Int(v)]);
        assert_eq!(
            write(|w| {
                w.remote_call(Target::Cached(0), 0, 1)?;
                w.int(v)
            }),
            bytes
        );
    }
}

#[test]
fn observed_float_and_object_id_forms() {
    // 0.1 is not a float32: the full encode_variant header with the 64-bit flag.
    let mut bytes = Vec::from([0x00, 0, 0, 2, 0x03, 0x00, 0x01, 0x00]);
    bytes.extend_from_slice(&0.1f64.to_le_bytes());
    // An object sent as its id: type 24 with flag bit 16.
    bytes.extend_from_slice(&[0x18, 0x00, 0x01, 0x00]);
    bytes.extend_from_slice(&77u64.to_le_bytes());
    let Packet::RemoteCall(c) = Packet::parse(&bytes).unwrap() else {
        panic!()
    };
    let Args::Values(v) = c.args else { panic!() };
    let v = values(v);
    assert_eq!(v[0].as_float(), Some(0.1));
    assert_eq!(v[1].variant_type(), crate::VariantType::Object);
    let again = write(|w| {
        w.remote_call(Target::Cached(0), 0, 2)?;
        w.value(&v[0])?;
        w.value(&v[1])
    });
    assert_eq!(again, bytes);
}

#[test]
fn widths_16_and_32_and_rpc_config_ids() {
    // node 0x1234 (16-bit), method 0x8001 (rpc_config id, always 16-bit), no args.
    let bytes = [0x80 | 0x40 | 0x10, 0x34, 0x12, 0x01, 0x80];
    let Packet::RemoteCall(c) = Packet::parse(&bytes).unwrap() else {
        panic!()
    };
    assert_eq!(
        (c.node, c.node_width),
        (NodeRef::Cached(0x1234), IdWidth::U16)
    );
    assert_eq!((c.method, c.method_width), (0x8001, IdWidth::U16));
    assert!(matches!(c.args, Args::Bytes(b"")));
    assert_eq!(c.args.count(), 0);
    assert_eq!(
        write(|w| w.remote_call(Target::Cached(0x1234), 0x8001, 0)),
        bytes
    );
    // 32-bit id.
    let bytes = [0x80 | 0x20, 0x00, 0x00, 0x01, 0x00, 5];
    let Packet::RemoteCall(c) = Packet::parse(&bytes).unwrap() else {
        panic!()
    };
    assert_eq!(
        (c.node, c.node_width),
        (NodeRef::Cached(0x10000), IdWidth::U32)
    );
    assert_eq!(
        write(|w| w.remote_call(Target::Cached(0x10000), 5, 0)),
        bytes
    );
    // A small id forced to 32 bits (sent to confirmed peers while others are not).
    let bytes = [0x80 | 0x20, 7, 0, 0, 0, 5];
    assert_eq!(write(|w| w.remote_call(Target::Cached32(7), 5, 0)), bytes);
}

#[test]
fn byte_only_call() {
    let bytes = [0x80, 2, 0, 0xDE, 0xAD];
    let Packet::RemoteCall(c) = Packet::parse(&bytes).unwrap() else {
        panic!()
    };
    assert!(matches!(c.args, Args::Bytes(&[0xDE, 0xAD])));
    assert_eq!(c.args.count(), 1);
    assert_eq!(
        write(|w| w.remote_call_bytes(Target::Cached(2), 0, &[0xDE, 0xAD])),
        bytes
    );
    // A lone PackedByteArray written as a value switches to the byte-only form.
    let pba = [0x1D, 0, 0, 0, 2, 0, 0, 0, 0xDE, 0xAD, 0, 0];
    let v = crate::from_bytes(Dialect::GODOT_4, &pba).unwrap();
    assert_eq!(
        write(|w| {
            w.remote_call(Target::Cached(2), 0, 1)?;
            w.value(&v)
        }),
        bytes
    );
    // An empty lone PackedByteArray is byte-identical to a call without arguments.
    assert_eq!(
        write(|w| w.remote_call_bytes(Target::Cached(2), 0, &[])),
        write(|w| w.remote_call(Target::Cached(2), 0, 0))
    );
}

#[test]
fn path_form_appends_path_after_args() {
    // 0x20: 32-bit node id = 0x80000000 | 9; method 0; argc 1; int 5; then "a/b\0".
    let fixed = [0x20, 9, 0, 0, 0x80, 0, 1, 0x02, 5, b'a', b'/', b'b', 0];
    let Packet::RemoteCall(c) = Packet::parse(&fixed).unwrap() else {
        panic!()
    };
    assert_eq!(
        c.node,
        NodeRef::Path {
            offset: 9,
            path: "a/b"
        }
    );
    let Args::Values(v) = c.args else { panic!() };
    assert_eq!(values(v), [VariantRef::Int(5)]);
    let mut bytes = fixed;
    bytes[1] = 8;
    assert_eq!(
        write(|w| {
            w.remote_call(Target::Path("a/b"), 0, 1)?;
            w.int(5)
        }),
        fixed
    );
    // Offset 8 points inside the arguments: the argument runs into the path.
    assert!(Packet::parse(&bytes).is_err());
    // Offsets past the end or inside the header.
    let mut b = fixed;
    b[1] = 13;
    assert_eq!(
        kind(&b),
        (ErrorKind::InvalidPacket(PacketProblem::PathOffset), 1)
    );
    b[1] = 3;
    assert_eq!(
        kind(&b),
        (ErrorKind::InvalidPacket(PacketProblem::PathOffset), 1)
    );
}

#[test]
fn path_cache_packets() {
    let sum = "0123456789abcdef0123456789abcdef";
    let mut bytes = Vec::from([1u8]);
    bytes.extend_from_slice(sum.as_bytes());
    bytes.extend_from_slice(&[0, 9, 0, 0, 0]);
    bytes.extend_from_slice(b"World/Player\0");
    let Packet::SimplifyPath(p) = Packet::parse(&bytes).unwrap() else {
        panic!()
    };
    assert_eq!(
        p,
        SimplifyPath {
            checksum: sum,
            cache_id: 9,
            path: "World/Player"
        }
    );
    assert_eq!(write(|w| w.simplify_path(sum, 9, "World/Player")), bytes);
    assert_eq!(
        kind(&bytes[..37]),
        (ErrorKind::Truncated(Expected::Packet(PacketField::Id)), 34)
    );

    let bytes = [2, 1, 9, 0, 0, 0];
    let Packet::ConfirmPath(c) = Packet::parse(&bytes).unwrap() else {
        panic!()
    };
    assert_eq!(
        c,
        ConfirmPath {
            checksum_ok: true,
            cache_id: 9
        }
    );
    assert_eq!(write(|w| w.confirm_path(true, 9)), bytes);
    assert_eq!(
        kind(&[2, 1, 9, 0, 0, 0, 0]),
        (ErrorKind::InvalidPacket(PacketProblem::Length), 6)
    );
}

#[test]
fn raw_and_despawn() {
    assert!(matches!(
        Packet::parse(&[3, 1, 2]).unwrap(),
        Packet::Raw(&[1, 2])
    ));
    assert_eq!(write(|w| w.raw(&[1, 2])), [3, 1, 2]);
    assert_eq!(
        kind(&[3]).0,
        ErrorKind::Truncated(Expected::Packet(PacketField::Payload))
    );
    assert!(matches!(
        Packet::parse(&[5, 4, 3, 2, 1]).unwrap(),
        Packet::Despawn(0x01020304)
    ));
    assert_eq!(write(|w| w.despawn(0x01020304)), [5, 4, 3, 2, 1]);
}

fn spawn_head(scene: u8, sync: &[u32], name: &[u8]) -> Vec<u8> {
    let mut b = Vec::from([4, scene]);
    for v in [1u32, 7, sync.len() as u32, name.len() as u32 + 1] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    for v in sync {
        b.extend_from_slice(&v.to_le_bytes());
    }
    b.extend_from_slice(name);
    b.push(0);
    b
}

#[test]
fn scene_spawn_with_state() {
    let mut bytes = spawn_head(0, &[8, 9], b"Enemy");
    bytes.extend_from_slice(&[0x81, 0x02, 10]); // state: true, 10
    let Packet::Spawn(s) = Packet::parse(&bytes).unwrap() else {
        panic!()
    };
    assert!(!s.is_custom());
    assert_eq!(
        (s.scene_id, s.spawner, s.net_id, s.name),
        (0, 1, 7, "Enemy")
    );
    assert_eq!(s.sync_ids.iter().collect::<Vec<_>>(), [8, 9]);
    assert!(s.custom.is_none());
    assert_eq!(
        values(s.state),
        [VariantRef::Bool(true), VariantRef::Int(10)]
    );
    let again = write(|w| {
        w.spawn(SpawnKind::Scene(0), 1, 7, &[8, 9], "Enemy")?;
        w.bool(true)?;
        w.int(10)
    });
    assert_eq!(again, bytes);
}

#[test]
fn custom_spawn_argument_is_length_prefixed() {
    let mut bytes = spawn_head(0xFF, &[], b"P");
    bytes.extend_from_slice(&[2, 0, 0, 0, 0x42, 0x00]); // size 2, then int... (short)
                                                        // An int16 needs 3 bytes: the size says 2.
    assert!(Packet::parse(&bytes).is_err());
    let mut bytes = spawn_head(0xFF, &[], b"P");
    bytes.extend_from_slice(&[3, 0, 0, 0, 0x42, 0x2C, 0x01]); // 300
    let Packet::Spawn(s) = Packet::parse(&bytes).unwrap() else {
        panic!()
    };
    assert_eq!(s.custom, Some(VariantRef::Int(300)));
    assert_eq!(s.state.len(), 0);
    assert_eq!(
        write(|w| {
            w.spawn(SpawnKind::Custom, 1, 7, &[], "P")?;
            w.int(300)
        }),
        bytes
    );
    // A size larger than the value.
    let mut b = spawn_head(0xFF, &[], b"P");
    b.extend_from_slice(&[2, 0, 0, 0, 0x81, 0x81]);
    assert_eq!(
        Packet::parse(&b).unwrap_err().kind(),
        ErrorKind::InvalidPacket(PacketProblem::SizeMismatch)
    );
}

#[test]
fn full_and_delta_sync() {
    // Full: time 0x0102; entry net 7 with [int 1, bool false]; entry 0x80000003 with [].
    let mut bytes = Vec::from([6, 2, 1]);
    bytes.extend_from_slice(&[7, 0, 0, 0, 3, 0, 0, 0, 0x02, 1, 0x01]);
    bytes.extend_from_slice(&[3, 0, 0, 0x80, 0, 0, 0, 0]);
    let Packet::Sync(s) = Packet::parse(&bytes).unwrap() else {
        panic!()
    };
    assert_eq!(s.time, Some(0x0102));
    let e: Vec<_> = s.entries.collect();
    assert_eq!(e.len(), 2);
    assert_eq!((e[0].net_id, e[0].mask), (7, None));
    assert_eq!(
        values(e[0].values),
        [VariantRef::Int(1), VariantRef::Bool(false)]
    );
    assert_eq!((e[1].net_id, e[1].values.len()), (0x8000_0003, 0));
    let again = write(|w| {
        w.sync(0x0102)?;
        w.sync_entry(7)?;
        w.int(1)?;
        w.bool(false)?;
        w.sync_entry(0x8000_0003)
    });
    assert_eq!(again, bytes);

    // Delta: byte 0x16; mask 0b101 -> two values.
    let mut bytes = Vec::from([0x16, 7, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0]);
    bytes.extend_from_slice(&[0x81, 0x02, 9]);
    let Packet::Sync(s) = Packet::parse(&bytes).unwrap() else {
        panic!()
    };
    assert!(s.is_delta());
    let e: Vec<_> = s.entries.collect();
    assert_eq!(e[0].mask, Some(5));
    assert_eq!(
        values(e[0].values),
        [VariantRef::Bool(true), VariantRef::Int(9)]
    );
    assert_eq!(
        write(|w| {
            w.sync_delta()?;
            w.delta_entry(7, 5)?;
            w.bool(true)?;
            w.int(9)
        }),
        bytes
    );
    // Mask says three values, two are there.
    let mut b = bytes.clone();
    b[5] = 7;
    assert_eq!(
        kind(&b),
        (ErrorKind::InvalidPacket(PacketProblem::ValueCount), 5)
    );
    // A delta entry owes one value per mask bit.
    let mut out = Vec::new();
    let mut w = PacketWriter::new(&mut out);
    w.sync_delta().unwrap();
    w.delta_entry(7, 5).unwrap();
    w.bool(true).unwrap();
    assert_eq!(
        w.finish().unwrap_err().kind(),
        ErrorKind::MissingItems { count: 1 }
    );
}

#[test]
fn sys_packets() {
    assert!(matches!(
        Packet::parse(&[7, 0]).unwrap(),
        Packet::Sys(Sys::Auth(b""))
    ));
    assert!(matches!(
        Packet::parse(&[7, 0, 9]).unwrap(),
        Packet::Sys(Sys::Auth(&[9]))
    ));
    assert_eq!(write(|w| w.auth(&[])), [7, 0]);
    let add = [7, 1, 0xD2, 0x04, 0, 0];
    assert!(matches!(
        Packet::parse(&add).unwrap(),
        Packet::Sys(Sys::AddPeer(1234))
    ));
    assert_eq!(write(|w| w.add_peer(1234)), add);
    assert!(matches!(
        Packet::parse(&[7, 2, 0xFF, 0xFF, 0xFF, 0xFF]).unwrap(),
        Packet::Sys(Sys::DelPeer(-1))
    ));
    assert_eq!(write(|w| w.del_peer(-1)), [7, 2, 0xFF, 0xFF, 0xFF, 0xFF]);
    assert_eq!(
        kind(&[7, 4, 0, 0, 0, 0]),
        (ErrorKind::InvalidPacket(PacketProblem::SysCommand(4)), 1)
    );

    // Relay to everyone but peer 5 of an RPC (node 3, method 0, no args).
    let relay = [7, 3, 0xFB, 0xFF, 0xFF, 0xFF, 0x80, 3, 0];
    let Packet::Sys(Sys::Relay(r)) = Packet::parse(&relay).unwrap() else {
        panic!()
    };
    assert_eq!(r.peer, -5);
    let Packet::RemoteCall(c) = r.inner().unwrap() else {
        panic!()
    };
    assert_eq!((c.node, c.method), (NodeRef::Cached(3), 0));
    assert_eq!(
        write(|w| {
            w.relay(-5)?;
            w.remote_call(Target::Cached(3), 0, 0)
        }),
        relay
    );
    // Errors inside the inner packet are reported at packet offsets.
    assert_eq!(
        kind(&[7, 3, 0, 0, 0, 0, 0x30, 1]),
        (ErrorKind::InvalidPacket(PacketProblem::NodeIdWidth), 6)
    );
    assert_eq!(
        kind(&[7, 3, 0, 0, 0, 0, 7, 0]),
        (ErrorKind::InvalidPacket(PacketProblem::RelayedSys), 6)
    );
    // The path offset of a relayed path-form call counts from the inner packet.
    let mut out = Vec::new();
    let mut w = PacketWriter::new(&mut out);
    w.relay(2).unwrap();
    w.remote_call(Target::Path("n"), 1, 0).unwrap();
    assert_eq!(w.finish().unwrap(), 6 + 8);
    assert_eq!(out, [7, 3, 2, 0, 0, 0, 0xA0, 6, 0, 0, 0x80, 1, b'n', 0]);
    let Packet::Sys(Sys::Relay(r)) = Packet::parse(&out).unwrap() else {
        panic!()
    };
    let Packet::RemoteCall(c) = r.inner().unwrap() else {
        panic!()
    };
    assert_eq!(
        c.node,
        NodeRef::Path {
            offset: 6,
            path: "n"
        }
    );
}

#[test]
fn malformed_values_are_reported_at_packet_offsets() {
    // Type 63 (bits 0-5) does not exist.
    assert_eq!(
        kind(&[0, 0, 0, 1, 0x3F]),
        (ErrorKind::UnknownType { id: 63, max: 39 }, 4)
    );
    // Mode bits on a String make the engine's decode_variant see type 0x44.
    assert_eq!(
        kind(&[0, 0, 0, 1, 0x44, 0, 0, 0]).0,
        ErrorKind::UnknownType { id: 0x44, max: 39 }
    );
    // A string whose length runs past the packet.
    assert_eq!(kind(&[0, 0, 0, 1, 4, 0, 0, 0, 9, 0, 0, 0]).1, 8);
    // A truncated int16.
    assert_eq!(
        kind(&[0, 0, 0, 1, 0x42, 1]),
        (
            ErrorKind::Truncated(Expected::Payload(crate::VariantType::Int)),
            5
        )
    );
    // argc says 2, one value present.
    assert_eq!(kind(&[0, 0, 0, 2, 0x81]).1, 5);
    // Trailing bytes after the last argument.
    assert_eq!(
        kind(&[0, 0, 0, 1, 0x81, 0]),
        (ErrorKind::TrailingBytes { count: 1 }, 5)
    );
    assert_eq!(
        kind(&[]),
        (
            ErrorKind::Truncated(Expected::Packet(PacketField::Command)),
            0
        )
    );
}

#[test]
fn objects_only_when_allowed() {
    // A full object: class "Node", 0 properties.
    let mut bytes = Vec::from([0, 0, 0, 1, 0x18, 0, 0, 0, 4, 0, 0, 0]);
    bytes.extend_from_slice(b"Node");
    bytes.extend_from_slice(&[0, 0, 0, 0]);
    assert_eq!(kind(&bytes).0, ErrorKind::ObjectsNotAllowed);
    let dec = Decoder::new(Dialect::GODOT_4).with_allow_objects(true);
    assert!(Packet::parse_with(dec, &bytes).is_ok());
    // Never in spawn states and sync values, as in the engine (fuzz finding: the writer
    // could not write such a packet back).
    let mut spawn = Vec::from([
        4, 0, 1, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, b'P', 0,
    ]);
    spawn.extend_from_slice(&bytes[4..]);
    assert_eq!(
        Packet::parse_with(dec, &spawn).unwrap_err().kind(),
        ErrorKind::ObjectsNotAllowed
    );
    let mut sync = Vec::from([6, 1, 0, 7, 0, 0, 0, 16, 0, 0, 0]);
    sync.extend_from_slice(&bytes[4..]);
    assert_eq!(
        Packet::parse_with(dec, &sync).unwrap_err().kind(),
        ErrorKind::ObjectsNotAllowed
    );
}

#[test]
fn writer_misuse() {
    let mut out = Vec::new();
    let mut w = PacketWriter::new(&mut out);
    assert_eq!(
        w.finish().unwrap_err().kind(),
        ErrorKind::MissingItems { count: 1 }
    );
    let mut w = PacketWriter::new(Vec::new());
    w.remote_call(Target::Cached(1), 0, 1).unwrap();
    w.int(1).unwrap();
    assert_eq!(w.int(2).unwrap_err().kind(), ErrorKind::TooManyItems);
    let mut w = PacketWriter::new(Vec::new());
    w.despawn(1).unwrap();
    assert_eq!(w.despawn(2).unwrap_err().kind(), ErrorKind::TooManyItems);
    let mut w = PacketWriter::new(Vec::new());
    w.relay(0).unwrap();
    assert_eq!(
        w.auth(&[]).unwrap_err().kind(),
        ErrorKind::InvalidPacket(PacketProblem::RelayedSys)
    );
    // A slice too small reports what the packet needs.
    let mut buf = [0u8; 4];
    let mut w = PacketWriter::new(&mut buf[..]);
    w.raw(&[1; 8]).unwrap();
    assert_eq!(
        w.finish().unwrap_err().kind(),
        ErrorKind::BufferFull { needed: 9 }
    );
}

#[test]
fn byte_only_path_form() {
    let out = write(|w| w.remote_call_bytes(Target::Path("Main/Player"), 4, &[9, 9]));
    let Packet::RemoteCall(c) = Packet::parse(&out).unwrap() else {
        panic!()
    };
    assert_eq!(
        c.node,
        NodeRef::Path {
            offset: 8,
            path: "Main/Player"
        }
    );
    assert!(matches!(c.args, Args::Bytes(&[9, 9])));
    // Byte-only, 32-bit node id = bit 31 | offset 8 (1 + 4 + 1 header bytes, 2 arg bytes).
    assert_eq!(out[..8], [0xA0, 8, 0, 0, 0x80, 4, 9, 9]);
}

/// Fuzz finding: the engine reads 32 checksum bytes and skips the 33rd without looking at
/// it; a non-NUL 33rd byte once made a 33-character checksum the writer refused.
#[test]
fn simplify_path_checksum_is_32_bytes_whatever_follows() {
    let mut bytes = Vec::from([1u8]);
    bytes.extend_from_slice(b"0123456789abcdef0123456789abcdefX");
    bytes.extend_from_slice(&[9, 0, 0, 0]);
    bytes.extend_from_slice(b"P\0");
    let p = Packet::parse(&bytes).unwrap();
    let Packet::SimplifyPath(s) = p else { panic!() };
    assert_eq!(
        (s.checksum, s.cache_id, s.path),
        ("0123456789abcdef0123456789abcdef", 9, "P")
    );
    let mut again = Vec::new();
    let mut w = PacketWriter::new(&mut again);
    w.packet(&p).unwrap();
    w.finish().unwrap();
    let mut want = bytes.clone();
    want[33] = 0;
    assert_eq!(again, want);
}

/// Fuzz finding: an argument that is an Array whose PackedByteArray element ends the packet
/// unpadded (accepted, as by the engine) is followed by a truncated element; the reader
/// reports it at the end of the packet (it used to name the padded position, up to 3 bytes
/// past the end).
#[test]
fn error_after_unpadded_bytes_points_at_the_end() {
    let hex = "0003f81d1b0000000300000800271500001d0302000000001d000000000000000000000000000000000315251d2802000e0000000002001d00000000000000000000";
    let b: Vec<u8> = (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    let e = Packet::parse(&b).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Truncated(Expected::Header));
    assert_eq!(e.offset(), b.len(), "{e}");
}
