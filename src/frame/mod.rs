//! Length-prefix framing: the `u32` length the engine writes before each value on streams and
//! in files.
//!
//! | Godot API | bytes on the wire |
//! |---|---|
//! | `StreamPeer.put_var` (TCP, `StreamPeerBuffer`), `FileAccess.store_var` / `File.store_var` | `u32` length (big-endian if the peer's / file's big-endian flag is on) + value |
//! | `PacketPeerStream` (packets over a stream) | `u32` length, **always little-endian** + value |
//! | `PacketPeer.put_var` (UDP, ENet, WebSocket), `var_to_bytes` / `var2bytes` | the value alone: one per packet, no prefix |
//!
//! [`Framing::split`] answers [`Split::Complete`] or [`Split::Partial`] for a buffer without
//! copying; [`Framing::frames`] and [`Framing::values`] walk a whole `store_var` file;
//! [`FrameBuffer`] (feature `alloc`) reassembles frames from socket reads and lends them out
//! without allocating per frame; [`FrameWriter`] (feature `std`) writes `store_var` files and
//! `put_var` streams.
//!
//! ```
//! use gdwire::frame::{Framing, Split};
//! use gdwire::write::Endian;
//!
//! // StreamPeer.put_var(7) followed by half of another frame.
//! let bytes = [8, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0, 8, 0, 0];
//! let framing = Framing::new(Endian::Little);
//! let Split::Complete { frame, rest } = framing.split(&bytes)? else { panic!() };
//! assert_eq!(gdwire::from_bytes(gdwire::Dialect::GODOT_4, frame)?.as_int(), Some(7));
//! assert_eq!(framing.split(rest)?, Split::Partial { needed: 1 });
//! # Ok::<(), gdwire::Error>(())
//! ```

#[cfg(feature = "alloc")]
mod buffer;
mod frames;
mod framing;
#[cfg(feature = "std")]
mod writer;

pub use crate::length_prefix::PREFIX_LEN;
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub use buffer::FrameBuffer;
pub use frames::{Frame, Frames, Values};
pub use framing::{Framing, Split, DEFAULT_MAX_FRAME};
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub use writer::FrameWriter;

pub use crate::length_prefix::Endian;
