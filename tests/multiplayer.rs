//! Property round trips of `gdwire::multiplayer`: any packet the writer makes parses back to
//! the same fields, and every prefix of it (a packet cut short) is a clean error.

use gdwire::multiplayer::{
    Args, IdWidth, NodeRef, Packet, PacketWriter, SpawnKind, Sys, Target, Values,
};
use gdwire::{from_bytes, to_vec, Dialect, VariantRef};
use proptest::prelude::*;

/// A value model; its encode_variant bytes (for the non-compressed ones) come from the
/// crate's writer, which has its own engine-vector tests.
#[derive(Clone, Debug)]
enum V {
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Bytes(Vec<u8>),
    Ints(Vec<i32>),
}

fn value() -> impl Strategy<Value = V> {
    prop_oneof![
        any::<bool>().prop_map(V::Bool),
        any::<i64>().prop_map(V::Int),
        (-200i64..200).prop_map(V::Int),
        any::<f64>().prop_map(V::Float),
        "[a-zé ]{0,9}".prop_map(V::Str),
        proptest::collection::vec(any::<u8>(), 0..9).prop_map(V::Bytes),
        proptest::collection::vec(any::<i32>(), 0..4).prop_map(V::Ints),
    ]
}

fn put(w: &mut PacketWriter<'_, &mut Vec<u8>>, v: &V) -> gdwire::Result<()> {
    match v {
        V::Bool(b) => w.bool(*b),
        V::Int(i) => w.int(*i),
        V::Float(f) => w.with(|x| x.float(*f)),
        V::Str(s) => w.with(|x| x.string(s)),
        // Through a view, so that a lone PackedByteArray argument goes byte-only.
        V::Bytes(b) => {
            let mut enc = Vec::new();
            let mut x = gdwire::Writer::new(&mut enc, Dialect::GODOT_4);
            x.packed_bytes(b)?;
            x.finish()?;
            w.value(&from_bytes(Dialect::GODOT_4, &enc)?)
        }
        V::Ints(i) => w.with(|x| x.packed_i32(i.iter().copied())),
    }
}

fn same(got: VariantRef<'_>, want: &V) -> bool {
    match (got, want) {
        (VariantRef::Bool(a), V::Bool(b)) => a == *b,
        (VariantRef::Int(a), V::Int(b)) => a == *b,
        (VariantRef::Float(a), V::Float(b)) => {
            a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
        }
        (VariantRef::String(a), V::Str(b)) => a.as_str() == Some(b.as_str()),
        (VariantRef::PackedByteArray(a), V::Bytes(b)) => a.as_bytes() == &b[..],
        (VariantRef::PackedInt32Array(a), V::Ints(b)) => a.iter().eq(b.iter().copied()),
        _ => false,
    }
}

fn same_all(got: Values<'_>, want: &[V]) -> bool {
    got.len() == want.len() && got.zip(want).all(|(g, w)| same(g, w))
}

#[derive(Clone, Debug)]
enum Model {
    Call {
        target: u32,
        wide: bool,
        path: Option<String>,
        method: u16,
        args: Vec<V>,
    },
    CallBytes {
        target: u32,
        method: u16,
        bytes: Vec<u8>,
    },
    Simplify {
        id: u32,
        path: String,
    },
    Confirm {
        ok: bool,
        id: u32,
    },
    Raw(Vec<u8>),
    Spawn {
        scene: Option<u8>,
        spawner: u32,
        net: u32,
        sync: Vec<u32>,
        name: String,
        custom: V,
        state: Vec<V>,
    },
    Despawn(u32),
    Sync {
        time: Option<u16>,
        entries: Vec<(u32, Vec<V>)>,
    },
    Auth(Vec<u8>),
    Peer {
        add: bool,
        id: i32,
    },
}

fn model() -> impl Strategy<Value = Model> {
    let vals = || proptest::collection::vec(value(), 0..5);
    prop_oneof![
        (
            0u32..0x7FFF_FFFF,
            any::<bool>(),
            proptest::option::of("[a-z/]{1,12}"),
            any::<u16>(),
            vals()
        )
            .prop_map(|(target, wide, path, method, args)| Model::Call {
                target,
                wide,
                path,
                method,
                args
            }),
        (
            0u32..0x7FFF_FFFF,
            any::<u16>(),
            proptest::collection::vec(any::<u8>(), 0..9)
        )
            .prop_map(|(target, method, bytes)| Model::CallBytes {
                target,
                method,
                bytes
            }),
        (any::<u32>(), "[A-Za-z/]{0,20}").prop_map(|(id, path)| Model::Simplify { id, path }),
        (any::<bool>(), any::<u32>()).prop_map(|(ok, id)| Model::Confirm { ok, id }),
        proptest::collection::vec(any::<u8>(), 1..9).prop_map(Model::Raw),
        (
            proptest::option::of(0u8..255),
            any::<u32>(),
            any::<u32>(),
            proptest::collection::vec(any::<u32>(), 0..4),
            "[A-Za-z@0-9]{1,10}",
            value(),
            vals()
        )
            .prop_map(
                |(scene, spawner, net, sync, name, custom, state)| Model::Spawn {
                    scene,
                    spawner,
                    net,
                    sync,
                    name,
                    custom,
                    state
                }
            ),
        any::<u32>().prop_map(Model::Despawn),
        (
            proptest::option::of(any::<u16>()),
            proptest::collection::vec(
                (any::<u32>(), proptest::collection::vec(value(), 1..5)),
                1..4
            )
        )
            .prop_map(|(time, entries)| Model::Sync { time, entries }),
        proptest::collection::vec(any::<u8>(), 0..9).prop_map(Model::Auth),
        (any::<bool>(), any::<i32>()).prop_map(|(add, id)| Model::Peer { add, id }),
    ]
}

fn write(m: &Model, relay: Option<i32>) -> gdwire::Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut w = PacketWriter::new(&mut out);
    if let Some(peer) = relay {
        w.relay(peer)?;
    }
    match m {
        Model::Call {
            target,
            wide,
            path,
            method,
            args,
        } => {
            let t = match (path, wide) {
                (Some(p), _) => Target::Path(p),
                (None, true) => Target::Cached32(*target),
                (None, false) => Target::Cached(*target),
            };
            w.remote_call(t, *method, args.len() as u8)?;
            for a in args {
                put(&mut w, a)?;
            }
        }
        Model::CallBytes {
            target,
            method,
            bytes,
        } => w.remote_call_bytes(Target::Cached(*target), *method, bytes)?,
        Model::Simplify { id, path } => {
            w.simplify_path("00112233445566778899aabbccddeeff", *id, path)?
        }
        Model::Confirm { ok, id } => w.confirm_path(*ok, *id)?,
        Model::Raw(b) => w.raw(b)?,
        Model::Spawn {
            scene,
            spawner,
            net,
            sync,
            name,
            custom,
            state,
        } => {
            let kind = scene.map_or(SpawnKind::Custom, SpawnKind::Scene);
            w.spawn(kind, *spawner, *net, sync, name)?;
            if scene.is_none() {
                put(&mut w, custom)?;
            }
            for v in state {
                put(&mut w, v)?;
            }
        }
        Model::Despawn(id) => w.despawn(*id)?,
        Model::Sync { time, entries } => {
            match time {
                Some(t) => w.sync(*t)?,
                None => w.sync_delta()?,
            }
            for (net, vals) in entries {
                match time {
                    Some(_) => w.sync_entry(*net)?,
                    // One mask bit per value, spread out.
                    None => {
                        w.delta_entry(*net, (0..vals.len()).fold(0, |m, i| m | 1 << (i * 7)))?
                    }
                }
                for v in vals {
                    put(&mut w, v)?;
                }
            }
        }
        Model::Auth(b) => w.auth(b)?,
        Model::Peer { add: true, id } => w.add_peer(*id)?,
        Model::Peer { add: false, id } => w.del_peer(*id)?,
    }
    w.finish()?;
    Ok(out)
}

fn check(m: &Model, p: Packet<'_>) -> bool {
    match (m, p) {
        (
            Model::Call {
                target,
                path,
                method,
                args,
                ..
            },
            Packet::RemoteCall(c),
        ) => {
            let node_ok = match (path, c.node) {
                (Some(p), NodeRef::Path { path, .. }) => p == path && c.node_width == IdWidth::U32,
                (None, NodeRef::Cached(id)) => id == *target,
                _ => false,
            };
            let lone_bytes = matches!(args.as_slice(), [V::Bytes(_)]);
            let args_ok = match c.args {
                Args::Values(v) => !lone_bytes && same_all(v, args),
                Args::Bytes(b) => match args.as_slice() {
                    [] => b.is_empty(),
                    [V::Bytes(want)] => b == &want[..],
                    _ => false,
                },
            };
            node_ok && c.method == *method && args_ok
        }
        (
            Model::CallBytes {
                target,
                method,
                bytes,
            },
            Packet::RemoteCall(c),
        ) => {
            c.node == NodeRef::Cached(*target)
                && c.method == *method
                && matches!(c.args, Args::Bytes(b) if b == &bytes[..])
        }
        (Model::Simplify { id, path }, Packet::SimplifyPath(s)) => {
            s.cache_id == *id && s.path == path
        }
        (Model::Confirm { ok, id }, Packet::ConfirmPath(c)) => {
            c.checksum_ok == *ok && c.cache_id == *id
        }
        (Model::Raw(b), Packet::Raw(r)) => r == &b[..],
        (
            Model::Spawn {
                scene,
                spawner,
                net,
                sync,
                name,
                custom,
                state,
            },
            Packet::Spawn(s),
        ) => {
            s.scene_id == scene.unwrap_or(0xFF)
                && (s.spawner, s.net_id) == (*spawner, *net)
                && s.sync_ids.iter().eq(sync.iter().copied())
                && s.name == name
                && match (scene, s.custom) {
                    (None, Some(c)) => same(c, custom),
                    (Some(_), None) => true,
                    _ => false,
                }
                && same_all(s.state, state)
        }
        (Model::Despawn(id), Packet::Despawn(got)) => *id == got,
        (Model::Sync { time, entries }, Packet::Sync(s)) => {
            s.time == *time
                && s.entries.len() == entries.len()
                && s.entries.zip(entries).all(|(e, (net, vals))| {
                    e.net_id == *net
                        && e.mask.is_some() == time.is_none()
                        && same_all(e.values, vals)
                })
        }
        (Model::Auth(b), Packet::Sys(Sys::Auth(a))) => a == &b[..],
        (Model::Peer { add: true, id }, Packet::Sys(Sys::AddPeer(p))) => p == *id,
        (Model::Peer { add: false, id }, Packet::Sys(Sys::DelPeer(p))) => p == *id,
        _ => false,
    }
}

fn is_sys(m: &Model) -> bool {
    matches!(m, Model::Auth(_) | Model::Peer { .. })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn write_then_read_gives_the_same_fields(m in model(), relay in proptest::option::of(any::<i32>())) {
        let relay = relay.filter(|_| !is_sys(&m));
        let bytes = write(&m, relay).unwrap();
        let packet = Packet::parse(&bytes).unwrap();
        let inner = match (relay, packet) {
            (Some(peer), Packet::Sys(Sys::Relay(r))) => {
                prop_assert_eq!(r.peer, peer);
                r.inner().unwrap()
            }
            (None, p) => p,
            _ => return Err(TestCaseError::fail("relay expected")),
        };
        prop_assert!(check(&m, inner), "{:?}\n{:02x?}", m, bytes);
        // What the writer makes is canonical: writing the parsed packet again gives it back.
        let mut again = Vec::new();
        let mut w = PacketWriter::new(&mut again);
        w.packet(&packet).unwrap();
        w.finish().unwrap();
        prop_assert_eq!(&again, &bytes);
        // Every strict prefix fails cleanly, except where the shorter packet is itself
        // valid (a spawn state, payload or path runs to the end; a sync may end after any
        // entry).
        for cut in 0..bytes.len() {
            if let Ok(p) = Packet::parse(&bytes[..cut]) {
                prop_assert!(matches!(p, Packet::Spawn(_) | Packet::Sync(_) | Packet::Raw(_) | Packet::Sys(_) | Packet::RemoteCall(_) | Packet::SimplifyPath(_)), "{:?} {}", m, cut);
            }
        }
    }

    /// A value in a packet is the crate writer's `encode_variant` bytes, except bools and
    /// ints, which are compressed.
    #[test]
    fn values_are_encode_variant_or_compressed(v in value()) {
        let bytes = write(&Model::Call { target: 1, wide: false, path: None, method: 0, args: vec![v.clone(), V::Bool(true)] }, None).unwrap();
        let body = &bytes[4..bytes.len() - 1];
        match &v {
            V::Bool(b) => prop_assert_eq!(body, &[if *b { 0x81 } else { 0x01 }][..]),
            V::Int(i) => {
                let n = body.len() - 1;
                prop_assert_eq!(body[0], 0x02 | ((n.trailing_zeros() as u8) << 6));
                let mut le = [if *i < 0 { 0xFF } else { 0 }; 8];
                le[..n].copy_from_slice(&body[1..]);
                prop_assert_eq!(i64::from_le_bytes(le), *i);
                // The narrowest width that holds it.
                prop_assert!(n == 1 || !(-(1i64 << (4 * n - 1))..(1i64 << (4 * n - 1))).contains(i));
            }
            _ => {
                let plain = from_bytes(Dialect::GODOT_4, body).unwrap();
                prop_assert_eq!(to_vec(Dialect::GODOT_4, &plain).unwrap(), body.to_vec());
            }
        }
    }

    /// Arbitrary bytes never panic, and an error's offset lies within the packet, or at most
    /// 3 bytes past it: after an unpadded PackedByteArray at the very end (accepted, as by the
    /// engine) the reader counts the missing padding.
    #[test]
    fn arbitrary_bytes_parse_or_fail_cleanly(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        if let Err(e) = Packet::parse(&bytes) {
            prop_assert!(e.offset() <= bytes.len() + 3, "{} {:02x?}", e, bytes);
        }
    }
}
