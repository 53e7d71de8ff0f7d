//! `--framing multiplayer` / `multiplayer-capture`: Godot 4 `SceneMultiplayer` packets
//! (`gdwire::multiplayer`) for `dump` and `validate`.
//!
//! `multiplayer`: each input file is one packet (a WebSocket message, an ENet packet).
//! `multiplayer-capture`: many packets, each record `[u32 LE length][u8 tag][packet]`, the
//! length counting the tag and the packet; the tag is the capturer's (direction, peer index)
//! and is printed as `tag=N`. See docs/multiplayer.md.

use std::fmt::Write as _;
use std::io::{self, Write};

use anyhow::Result;
use gdwire::multiplayer::{Args, NodeRef, Packet, Sys, Values};
use gdwire::{Decoder, Dialect, Error, ErrorKind, Expected, PacketField, VariantRef};

use crate::common::{for_each_record, Located, Record, WireArgs};

/// Calls `each` with every packet of `file` (its tag, if the framing has one) and counts
/// them; errors are located (file, record, absolute offset).
pub fn for_each_packet(
    wire: &WireArgs,
    decoder: Decoder,
    file: &str,
    mut each: impl FnMut(Option<u8>, Packet<'_>) -> Result<()>,
) -> Result<u64> {
    let tagged = wire.framing == crate::common::FramingArg::MultiplayerCapture;
    for_each_record(&wire.multiplayer_plan(), file, |rec: Record<'_>| {
        let (tag, packet, base) = match (tagged, rec.payload.split_first()) {
            (true, Some((&tag, packet))) => (Some(tag), packet, rec.offset + 1),
            (true, None) => {
                let e = Error::new(
                    ErrorKind::Truncated(Expected::Packet(PacketField::Command)),
                    0,
                );
                return Err(Located::new(file, rec.index, rec.offset, e).into());
            }
            (false, _) => (None, rec.payload, rec.offset),
        };
        let p = Packet::parse_with(decoder, packet)
            .map_err(|e| Located::new(file, rec.index, base, e))?;
        each(tag, p)
    })
}

/// `gdwire dump`: one line (or more, for multi-line values) per packet.
pub fn dump(wire: &WireArgs, decoder: Decoder, files: &[String]) -> Result<()> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut line = String::new();
    for file in files {
        for_each_packet(wire, decoder, file, |tag, p| {
            line.clear();
            if let Some(t) = tag {
                write!(line, "tag={t} ")?;
            }
            describe(&mut line, &p)?;
            line.push('\n');
            out.write_all(line.as_bytes())?;
            Ok(())
        })?;
    }
    out.flush()?;
    Ok(())
}

/// `gdwire validate`: returns the number of packets of `file` and its size.
pub fn validate(wire: &WireArgs, decoder: Decoder, file: &str) -> Result<(usize, u64)> {
    let mut n = 0;
    let bytes = for_each_packet(wire, decoder, file, |_, _| {
        n += 1;
        Ok(())
    })?;
    Ok((n, bytes))
}

/// The multiplayer framings are for `dump` and `validate` only.
pub fn reject(wire: &WireArgs, command: &str) -> Result<()> {
    if wire.is_multiplayer() {
        anyhow::bail!("--framing multiplayer is for dump and validate, not {command}");
    }
    Ok(())
}

fn text(out: &mut String, v: &VariantRef<'_>) -> Result<()> {
    gdwire::text::write_text(out, Dialect::GODOT_4, v)?;
    Ok(())
}

/// Raw bytes shown as the engine shows a PackedByteArray.
fn bytes(out: &mut String, b: &[u8]) -> Result<()> {
    let mut enc = Vec::new();
    let mut w = gdwire::Writer::new(&mut enc, Dialect::GODOT_4);
    w.packed_bytes(b)?;
    w.finish()?;
    text(out, &gdwire::from_bytes(Dialect::GODOT_4, &enc)?)
}

fn list(out: &mut String, values: Values<'_>) -> Result<()> {
    out.push('[');
    for (i, v) in values.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        text(out, &v)?;
    }
    out.push(']');
    Ok(())
}

fn describe(out: &mut String, p: &Packet<'_>) -> Result<()> {
    out.push_str(p.command().name());
    match *p {
        Packet::RemoteCall(c) => {
            match c.node {
                NodeRef::Cached(id) => write!(out, " node={id}")?,
                NodeRef::Path { path, .. } => write!(out, " node={path:?}")?,
            }
            write!(out, " method={}", c.method)?;
            match c.args {
                Args::Values(v) => {
                    out.push_str(" args=");
                    list(out, v)?;
                }
                Args::Bytes([]) => out.push_str(" args=[]"),
                Args::Bytes(b) => {
                    out.push_str(" bytes=");
                    bytes(out, b)?;
                }
            }
        }
        Packet::SimplifyPath(s) => write!(
            out,
            " checksum={} cache_id={} path={:?}",
            s.checksum, s.cache_id, s.path
        )?,
        Packet::ConfirmPath(c) => write!(
            out,
            " cache_id={} checksum_ok={}",
            c.cache_id, c.checksum_ok
        )?,
        Packet::Raw(b) => {
            out.push(' ');
            bytes(out, b)?;
        }
        Packet::Spawn(s) => {
            match s.custom {
                Some(_) => out.push_str(" custom"),
                None => write!(out, " scene={}", s.scene_id)?,
            }
            write!(out, " spawner={} net_id={} sync_ids=[", s.spawner, s.net_id)?;
            for (i, id) in s.sync_ids.iter().enumerate() {
                write!(out, "{}{id}", if i > 0 { ", " } else { "" })?;
            }
            write!(out, "] name={:?}", s.name)?;
            if let Some(v) = s.custom {
                out.push_str(" data=");
                text(out, &v)?;
            }
            out.push_str(" state=");
            list(out, s.state)?;
        }
        Packet::Despawn(id) => write!(out, " net_id={id}")?,
        Packet::Sync(s) => {
            match s.time {
                Some(t) => write!(out, " time={t}")?,
                None => out.push_str(" delta"),
            }
            for e in s.entries {
                write!(out, " {{net_id={}", e.net_id)?;
                if let Some(m) = e.mask {
                    write!(out, " mask={m:#x}")?;
                }
                out.push_str(" values=");
                list(out, e.values)?;
                out.push('}');
            }
        }
        Packet::Sys(Sys::Auth([])) => out.push_str(" AUTH complete"),
        Packet::Sys(Sys::Auth(b)) => {
            out.push_str(" AUTH ");
            bytes(out, b)?;
        }
        Packet::Sys(Sys::AddPeer(id)) => write!(out, " ADD_PEER {id}")?,
        Packet::Sys(Sys::DelPeer(id)) => write!(out, " DEL_PEER {id}")?,
        Packet::Sys(Sys::Relay(r)) => {
            write!(out, " RELAY peer={} ", r.peer)?;
            describe(out, &r.inner()?)?;
        }
    }
    Ok(())
}
