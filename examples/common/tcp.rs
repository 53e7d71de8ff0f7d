//! A TCP server for `StreamPeer.put_var` traffic: one thread per client, each with one reused
//! `FrameBuffer` and one reused reply buffer.
//!
//! Policy:
//! * a frame whose value does not decode gets an error reply and the connection goes on (the
//!   length prefix says where the next frame starts, so the stream is still in sync);
//! * a framing error (a length prefix above the maximum, or of 2^31 and more, which the engine
//!   reads as negative) gets an error reply and the connection is closed: nothing after a bad
//!   prefix can be trusted;
//! * a peer that closes inside a frame, or leaves a started frame unfinished for longer than
//!   `frame_timeout` (slowloris), is dropped; the outcome carries the library's truncation error.

use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use gdwire::frame::{FrameBuffer, FrameWriter, Framing};
use gdwire::write::Endian;
use gdwire::{Decoder, Dialect, Error, VariantRef};

use super::reply::{write_error_reply, write_reply};

/// Server settings.
#[derive(Clone, Debug)]
pub struct Config {
    pub dialect: Dialect,
    /// Prefix byte order and maximum frame (default: little-endian, 8 MiB).
    pub framing: Framing,
    /// Accept full objects (never instantiated here; the engine's default is off).
    pub allow_objects: bool,
    /// Stop accepting after this many clients (and exit when they are done).
    pub max_clients: Option<usize>,
    /// A frame whose first byte has arrived must be complete within this time.
    pub frame_timeout: Duration,
    /// Close a connection that sends nothing for this long.
    pub idle_timeout: Option<Duration>,
    /// How often blocked reads wake up to check timeouts and the stop flag.
    pub poll: Duration,
}

impl Config {
    pub fn new(dialect: Dialect) -> Config {
        Config {
            dialect,
            framing: Framing::new(Endian::Little),
            allow_objects: false,
            max_clients: None,
            frame_timeout: Duration::from_secs(10),
            idle_timeout: None,
            poll: Duration::from_millis(50),
        }
    }
}

/// How a connection ended.
#[derive(Clone, Debug, PartialEq)]
pub enum End {
    /// The peer closed the connection between two frames.
    Closed,
    /// The peer sent the String "quit": the server stops.
    Quit,
    /// The server stopped (another client sent "quit").
    Shutdown,
    /// A bad length prefix, or the peer closed inside a frame (offset in the stream).
    Framing(Error),
    /// A started frame did not complete within `frame_timeout`: what the buffer held then.
    Stalled(Error),
    /// Nothing received for `idle_timeout`.
    Idle,
    /// A socket error (reading or writing the reply).
    Io(io::ErrorKind),
}

/// What happened on one connection.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub peer: Option<SocketAddr>,
    pub end: End,
    /// Replies sent (error replies included).
    pub replies: u64,
    /// Frames whose value did not decode; the first one's error (offset in the stream).
    pub value_errors: u64,
    pub first_value_error: Option<Error>,
    /// Successful reads.
    pub reads: u64,
    /// Frames that arrived over more than one read.
    pub split_frames: u64,
    /// Reads that completed two frames or more.
    pub coalesced_reads: u64,
    /// The reassembly buffer's allocation at the end (it never shrinks) and its limit.
    pub capacity: usize,
    pub limit: usize,
}

/// What one [`Connection::pump`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Bytes were read and every whole frame answered.
    Data,
    /// The read timed out (socket read timeout): check timeouts.
    Waiting,
    /// End of stream at a frame boundary.
    Eof,
    /// A "quit" value was answered.
    Quit,
}

/// One client's state: the reassembly buffer, the reply writer and counters. Generic over the
/// reply sink so it can be driven without a socket.
pub struct Connection<W: Write> {
    buffer: FrameBuffer,
    out: FrameWriter<W>,
    decoder: Decoder,
    dialect: Dialect,
    /// When the first byte of the frame now partly buffered arrived.
    frame_started: Option<Instant>,
    last_data: Instant,
    stats: Outcome,
}

impl<W: Write> Connection<W> {
    pub fn new(config: &Config, writer: W) -> Connection<W> {
        let buffer = FrameBuffer::new(config.framing);
        let limit = buffer.limit();
        Connection {
            buffer,
            // The maximum applies to what peers send; a reply (a value echoed plus a few
            // fields) may be a little larger than the largest request.
            out: FrameWriter::new(
                writer,
                config.framing.with_max_frame(usize::MAX),
                config.dialect,
            ),
            decoder: Decoder::new(config.dialect).with_allow_objects(config.allow_objects),
            dialect: config.dialect,
            frame_started: None,
            last_data: Instant::now(),
            stats: Outcome {
                peer: None,
                end: End::Closed,
                replies: 0,
                value_errors: 0,
                first_value_error: None,
                reads: 0,
                split_frames: 0,
                coalesced_reads: 0,
                capacity: 0,
                limit,
            },
        }
    }

    /// Reads once from `reader` and answers every frame now complete.
    pub fn pump<R: Read>(&mut self, reader: &mut R) -> Result<Step, End> {
        let had_partial = self.buffer.buffered() > 0;
        let n = match self.buffer.read_from(reader) {
            Ok(n) => n,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                return Ok(Step::Waiting)
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => return Ok(Step::Waiting),
            Err(e) => return Err(self.read_error(e)),
        };
        if n == 0 {
            // End of stream: fine between frames, an error inside one.
            return match self.buffer.finish() {
                Ok(()) => Ok(Step::Eof),
                Err(e) => Err(End::Framing(e)),
            };
        }
        self.stats.reads += 1;
        self.last_data = Instant::now();
        let mut frames = 0u64;
        let mut quit = false;
        loop {
            let position = self.buffer.position();
            let frame = match self.buffer.next_frame() {
                Ok(Some(frame)) => frame,
                Ok(None) => break,
                Err(e) => {
                    // A bad prefix: tell the peer, then close.
                    let index = self.stats.replies;
                    let _ = self.out.write_with(|w| write_error_reply(w, index, &e));
                    self.stats.replies += 1;
                    return Err(End::Framing(e));
                }
            };
            if frames == 0 && had_partial {
                self.stats.split_frames += 1;
            }
            frames += 1;
            let index = self.stats.replies;
            let payload_offset = position + gdwire::frame::PREFIX_LEN;
            let dialect = self.dialect;
            let written = match self.decoder.decode(frame) {
                Ok(value) => {
                    quit = matches!(&value, VariantRef::String(s) if s.bytes() == b"quit");
                    self.out
                        .write_with(|w| write_reply(w, dialect, index, &value))
                }
                Err(e) => {
                    // Framing is intact: answer with the error and carry on.
                    let e = e.offset_by(payload_offset);
                    self.stats.value_errors += 1;
                    self.stats.first_value_error.get_or_insert(e);
                    self.out.write_with(|w| write_error_reply(w, index, &e))
                }
            };
            if let Err(e) = written {
                return Err(End::Io(e.kind()));
            }
            self.stats.replies += 1;
            if quit {
                return Ok(Step::Quit);
            }
        }
        if frames >= 2 {
            self.stats.coalesced_reads += 1;
        }
        self.frame_started = match (self.buffer.buffered(), self.frame_started) {
            (0, _) => None,
            // The partial frame is new if frames were taken out of this read.
            (_, started) if frames > 0 || started.is_none() => Some(self.last_data),
            (_, started) => started,
        };
        Ok(Step::Data)
    }

    /// After a [`Step::Waiting`]: the reason to give up on the peer, if any.
    pub fn check_timeouts(&self, config: &Config) -> Option<End> {
        if let Some(started) = self.frame_started {
            if started.elapsed() >= config.frame_timeout {
                return Some(End::Stalled(
                    self.buffer
                        .finish()
                        .expect_err("a partial frame is buffered"),
                ));
            }
        }
        match config.idle_timeout {
            Some(idle) if self.buffer.buffered() == 0 && self.last_data.elapsed() >= idle => {
                Some(End::Idle)
            }
            _ => None,
        }
    }

    /// The outcome so far, with `end`.
    pub fn outcome(&self, peer: Option<SocketAddr>, end: End) -> Outcome {
        let mut o = self.stats.clone();
        o.peer = peer;
        o.end = end;
        o.capacity = self.buffer.capacity();
        o
    }

    fn read_error(&self, e: io::Error) -> End {
        // Framing errors come back from read_from as InvalidData wrapping the gdwire Error.
        match Error::from_io(&e) {
            Some(err) => End::Framing(err),
            None => End::Io(e.kind()),
        }
    }

    /// The reply writer.
    pub fn writer(&self) -> &W {
        self.out.get_ref()
    }
}

/// Serves one accepted connection until it ends.
pub fn serve_connection(
    stream: TcpStream,
    peer: Option<SocketAddr>,
    config: &Config,
    stop: &AtomicBool,
) -> Outcome {
    let setup = stream
        .set_nonblocking(false)
        .and_then(|()| stream.set_read_timeout(Some(config.poll)))
        .and_then(|()| stream.set_nodelay(true));
    let mut conn = Connection::new(config, &stream);
    if let Err(e) = setup {
        return conn.outcome(peer, End::Io(e.kind()));
    }
    let mut reader = &stream;
    let end = loop {
        match conn.pump(&mut reader) {
            Ok(Step::Data) => {}
            Ok(Step::Eof) => break End::Closed,
            Ok(Step::Quit) => {
                stop.store(true, Ordering::SeqCst);
                break End::Quit;
            }
            Ok(Step::Waiting) => {
                if stop.load(Ordering::SeqCst) {
                    break End::Shutdown;
                }
                if let Some(end) = conn.check_timeouts(config) {
                    break end;
                }
            }
            Err(end) => break end,
        }
    };
    let _ = stream.shutdown(Shutdown::Both);
    conn.outcome(peer, end)
}

/// Accepts clients on `listener` (one thread each) until `config.max_clients` have been
/// served or a client sends "quit"; every connection's [`Outcome`] goes to `outcomes`.
/// Returns the number of clients accepted.
pub fn serve(
    listener: TcpListener,
    config: Config,
    outcomes: Sender<Outcome>,
) -> io::Result<usize> {
    let stop = Arc::new(AtomicBool::new(false));
    serve_until(listener, config, outcomes, stop)
}

/// [`serve`] with a stop flag the caller can set.
pub fn serve_until(
    listener: TcpListener,
    config: Config,
    outcomes: Sender<Outcome>,
    stop: Arc<AtomicBool>,
) -> io::Result<usize> {
    // Non-blocking accept, polled, so that the stop flag is seen.
    listener.set_nonblocking(true)?;
    let config = Arc::new(config);
    let mut workers: Vec<thread::JoinHandle<()>> = Vec::new();
    let mut accepted = 0;
    while !stop.load(Ordering::SeqCst) && config.max_clients.is_none_or(|max| accepted < max) {
        match listener.accept() {
            Ok((stream, peer)) => {
                accepted += 1;
                let (config, stop, outcomes) = (config.clone(), stop.clone(), outcomes.clone());
                workers.push(thread::spawn(move || {
                    let outcome = serve_connection(stream, Some(peer), &config, &stop);
                    let _ = outcomes.send(outcome);
                }));
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                thread::sleep(config.poll.min(Duration::from_millis(5)))
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::ConnectionAborted => {}
            Err(e) => {
                stop.store(true, Ordering::SeqCst);
                join_all(workers);
                return Err(e);
            }
        }
    }
    join_all(workers);
    Ok(accepted)
}

fn join_all(workers: Vec<thread::JoinHandle<()>>) {
    for w in workers {
        let _ = w.join();
    }
}
