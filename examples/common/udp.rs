//! A UDP server for `PacketPeerUDP.put_var` traffic: one raw value per datagram (no length
//! prefix), one reply datagram per request, sent back with `send_to`.
//!
//! Policy: a datagram that does not decode gets an error reply; a reply that would not fit in
//! one datagram (more than [`MAX_DATAGRAM`] bytes, e.g. the echo of a large value) is replaced
//! by an error reply (`FrameTooLarge`), since UDP cannot fragment it. The receive buffer is
//! 64 KiB, larger than any IPv4 datagram, so nothing is silently cut.

use std::io;
use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use gdwire::{Decoder, Dialect, Error, ErrorKind, VariantRef, Writer};

use super::reply::{write_error_reply, write_reply};

/// Largest UDP payload over IPv4: 65535 − 20 (IP header) − 8 (UDP header).
pub const MAX_DATAGRAM: usize = 65_507;

/// Server settings.
#[derive(Clone, Debug)]
pub struct Config {
    pub dialect: Dialect,
    pub allow_objects: bool,
    /// Stop after answering this many datagrams.
    pub max_datagrams: Option<u64>,
    /// How often a blocked receive wakes up to check the stop flag.
    pub poll: Duration,
}

impl Config {
    pub fn new(dialect: Dialect) -> Config {
        Config {
            dialect,
            allow_objects: false,
            max_datagrams: None,
            poll: Duration::from_millis(50),
        }
    }
}

/// What the server did.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub datagrams: u64,
    /// Datagrams answered with an error reply, and the errors (offset in the datagram).
    pub value_errors: Vec<Error>,
    /// Replies replaced by an error because they did not fit in a datagram.
    pub oversized_replies: u64,
    pub largest_datagram: usize,
    /// The last peer answered.
    pub last_peer: Option<SocketAddr>,
    /// A "quit" value ended the server.
    pub quit: bool,
}

/// Answers datagrams until "quit", `max_datagrams`, or `stop`.
pub fn serve(socket: &UdpSocket, config: &Config, stop: &AtomicBool) -> io::Result<Stats> {
    socket.set_read_timeout(Some(config.poll))?;
    let decoder = Decoder::new(config.dialect).with_allow_objects(config.allow_objects);
    // Both buffers are allocated once; a datagram is decoded in place.
    let mut datagram = vec![0u8; 64 * 1024];
    let mut reply: Vec<u8> = Vec::with_capacity(64 * 1024);
    let mut stats = Stats::default();
    while !stop.load(Ordering::SeqCst)
        && config.max_datagrams.is_none_or(|max| stats.datagrams < max)
    {
        let (n, peer) = match socket.recv_from(&mut datagram) {
            Ok(got) => got,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                continue
            }
            // A previous send_to hit a closed port (ICMP): not this datagram's business.
            Err(e) if e.kind() == io::ErrorKind::ConnectionRefused => continue,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let index = stats.datagrams;
        stats.datagrams += 1;
        stats.largest_datagram = stats.largest_datagram.max(n);
        stats.last_peer = Some(peer);
        let bytes = &datagram[..n];
        // PacketPeer.get_var decodes the whole packet and ignores trailing bytes: so do we.
        let encoded = match decoder.decode(bytes) {
            Ok(value) => {
                stats.quit = matches!(&value, VariantRef::String(s) if s.bytes() == b"quit");
                encode(&mut reply, config.dialect, |w| {
                    write_reply(w, config.dialect, index, &value)
                })
            }
            Err(e) => {
                stats.value_errors.push(e);
                encode(&mut reply, config.dialect, |w| {
                    write_error_reply(w, index, &e)
                })
            }
        };
        encoded.map_err(io::Error::from)?;
        if reply.len() > MAX_DATAGRAM {
            stats.oversized_replies += 1;
            let e = Error::new(
                ErrorKind::FrameTooLarge {
                    len: reply.len() as u32,
                    max: MAX_DATAGRAM as u32,
                },
                0,
            );
            encode(&mut reply, config.dialect, |w| {
                write_error_reply(w, index, &e)
            })
            .map_err(io::Error::from)?;
        }
        socket.send_to(&reply, peer)?;
        if stats.quit {
            break;
        }
    }
    Ok(stats)
}

fn encode(
    out: &mut Vec<u8>,
    dialect: Dialect,
    f: impl FnOnce(&mut Writer<&mut Vec<u8>>) -> gdwire::Result<()>,
) -> gdwire::Result<()> {
    out.clear();
    let mut w = Writer::new(&mut *out, dialect).with_full_objects(true);
    f(&mut w)?;
    w.finish().map(drop)
}
