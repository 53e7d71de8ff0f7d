//! Shared by the example servers (`tcp_server`, `udp_server`) and the tests that run them
//! in-process (`tests/net_interop.rs`, `tests/bad_traffic.rs`).
#![allow(dead_code)] // each includer uses a part

pub mod args;
pub mod reply;
pub mod tcp;
pub mod udp;
