//! `gdwire dump|validate --framing multiplayer[-capture]`: packets laid out by hand from the
//! wire layout, printed with their fields and values in Godot 4 text form.
#![cfg(feature = "cli")]

use assert_cmd::Command;
use predicates::prelude::*;

fn gdwire() -> Command {
    Command::cargo_bin("gdwire").unwrap()
}

fn record(tag: u8, packet: &[u8]) -> Vec<u8> {
    let mut r = (packet.len() as u32 + 1).to_le_bytes().to_vec();
    r.push(tag);
    r.extend_from_slice(packet);
    r
}

fn capture() -> Vec<u8> {
    let mut sum = vec![1u8];
    sum.extend_from_slice(b"0123456789abcdef0123456789abcdef\0\x09\0\0\0World/P\0");
    let mut spawn = vec![
        4, 0xFF, 1, 0, 0, 0, 7, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 8, 0, 0, 0,
    ];
    spawn.extend_from_slice(b"P\0");
    spawn.extend_from_slice(&[
        3, 0, 0, 0, 0x42, 0x2C, 1, 0x81, 4, 0, 0, 0, 1, 0, 0, 0, b'A', 0, 0, 0,
    ]);
    let packets: [(u8, Vec<u8>); 8] = [
        (0, sum),
        (1, vec![2, 1, 9, 0, 0, 0]),
        (
            0,
            vec![0x20, 9, 0, 0, 0x80, 0, 1, 0x02, 5, b'a', b'/', b'b', 0],
        ),
        (
            0,
            vec![0x00, 3, 1, 4, 0x81, 0x01, 0x02, 0xFE, 0x42, 0x2C, 0x01],
        ),
        (1, spawn),
        (
            1,
            vec![
                0x16, 7, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0x81, 2, 9,
            ],
        ),
        (2, vec![7, 3, 0xFB, 0xFF, 0xFF, 0xFF, 0x80, 3, 0]),
        (2, vec![7, 0]),
    ];
    packets.iter().flat_map(|(t, p)| record(*t, p)).collect()
}

#[test]
fn dump_capture_prints_every_packet() {
    gdwire()
        .args(["dump", "--framing", "multiplayer-capture", "-"])
        .write_stdin(capture())
        .assert()
        .success()
        .stdout(
            "tag=0 SIMPLIFY_PATH checksum=0123456789abcdef0123456789abcdef cache_id=9 path=\"World/P\"\n\
             tag=1 CONFIRM_PATH cache_id=9 checksum_ok=true\n\
             tag=0 REMOTE_CALL node=\"a/b\" method=0 args=[5]\n\
             tag=0 REMOTE_CALL node=3 method=1 args=[true, false, -2, 300]\n\
             tag=1 SPAWN custom spawner=1 net_id=7 sync_ids=[8] name=\"P\" data=300 state=[true, \"A\"]\n\
             tag=1 SYNC delta {net_id=7 mask=0x5 values=[true, 9]}\n\
             tag=2 SYS RELAY peer=-5 REMOTE_CALL node=3 method=0 args=[]\n\
             tag=2 SYS AUTH complete\n",
        );
    gdwire()
        .args(["validate", "--framing", "multiplayer-capture", "-"])
        .write_stdin(capture())
        .assert()
        .success()
        .stdout(predicate::str::starts_with("<stdin>: 8 packets valid"));
}

#[test]
fn one_file_one_packet() {
    gdwire()
        .args(["dump", "-f", "multiplayer", "-"])
        .write_stdin(vec![0x80, 2, 0, 0xDE, 0xAD])
        .assert()
        .success()
        .stdout("REMOTE_CALL node=2 method=0 bytes=PackedByteArray(222, 173)\n");
}

#[test]
fn errors_name_the_record_and_the_absolute_offset() {
    // Second record: a delta sync whose mask names 3 values and carries 2. The mask is at
    // packet offset 5; the record's packet starts at 7 + 4 + 1.
    let mut data = record(0, &[7, 0]);
    data.extend(record(
        1,
        &[
            0x16, 7, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0x81, 2, 9,
        ],
    ));
    gdwire()
        .args(["validate", "-f", "multiplayer-capture", "-"])
        .write_stdin(data)
        .assert()
        .code(1)
        .stderr("gdwire: invalid: <stdin>: frame 1: invalid multiplayer packet: value count differs from the mask at byte 17\n");
    gdwire()
        .args(["stats", "-f", "multiplayer", "-"])
        .write_stdin(vec![7, 0])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("for dump and validate"));
}

/// The committed capture of a real Godot 4.6 client and the Rust example server
/// (`tests/godot4/ws_capture.py`) prints as its committed decoded form.
#[test]
fn committed_websocket_capture_dumps_as_committed() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/godot4");
    let text = std::fs::read_to_string(format!("{dir}/ws_multiplayer.txt")).unwrap();
    gdwire()
        .current_dir(dir)
        .args([
            "dump",
            "--framing",
            "multiplayer-capture",
            "ws_multiplayer.capture",
        ])
        .assert()
        .success()
        .stdout(text);
    gdwire()
        .current_dir(dir)
        .args([
            "validate",
            "--framing",
            "multiplayer-capture",
            "ws_multiplayer.capture",
        ])
        .assert()
        .success();
}
