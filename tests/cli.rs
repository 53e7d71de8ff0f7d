//! The `gdwire` binary, run as a user runs it (assert_cmd). Truth: the real Godot 3.2.3
//! engine's capture and its `var2str` text (`samples/`), the engine fixtures
//! (`tests/fixtures/godot3/*.jsonl`) and offsets computed here from the frame layout.
#![cfg(feature = "cli")]

mod support;

use assert_cmd::Command;
use predicates::prelude::*;
use support::{hex, node_path_pads};

const CAPTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/godot3_capture.bin");
const CAPTURE_TXT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/godot3_capture.txt");

fn gdwire() -> Command {
    Command::cargo_bin("gdwire").unwrap()
}

fn capture() -> Vec<u8> {
    std::fs::read(CAPTURE).unwrap()
}

/// (prefix offset, payload length) of every store_var frame, read from the prefixes.
fn frame_layout(data: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < data.len() {
        let len = u32::from_le_bytes(data[pos..pos + 4].try_into().unwrap()) as usize;
        out.push((pos, len));
        pos += 4 + len;
    }
    assert_eq!(pos, data.len());
    out
}

fn stream(payloads: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for p in payloads {
        out.extend_from_slice(&(p.len() as u32).to_le_bytes());
        out.extend_from_slice(p);
    }
    out
}

fn temp_file(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// The stderr of a failed run: exactly one line.
fn one_line(stderr: &[u8]) -> String {
    let text = String::from_utf8(stderr.to_vec()).unwrap();
    assert_eq!(text.lines().count(), 1, "one line expected: {text:?}");
    assert!(
        !text.contains("panicked") && !text.contains("backtrace"),
        "{text}"
    );
    text
}

// ----- dump --------------------------------------------------------------------------------

#[test]
fn dump_text_of_the_capture_is_the_engines_var2str() {
    let want = std::fs::read_to_string(CAPTURE_TXT).unwrap();
    gdwire()
        .args([
            "dump",
            "--dialect",
            "godot3",
            "--framing",
            "stream",
            CAPTURE,
        ])
        .assert()
        .success()
        .stdout(want);
}

#[test]
fn dump_text_of_the_godot4_capture_is_the_engines_var_to_str() {
    // samples/godot4_capture.{bin,txt}: FileAccess.store_var and var_to_str of a real Godot
    // 4.6 engine (tests/godot4/README.md).
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/");
    let want = std::fs::read_to_string(format!("{dir}godot4_capture.txt")).unwrap();
    let capture = format!("{dir}godot4_capture.bin");
    gdwire()
        .args([
            "dump",
            "--dialect",
            "godot4",
            "--framing",
            "stream",
            &capture,
        ])
        .assert()
        .success()
        .stdout(want);
}

/// Expected texts in order; returns the first mismatch with context.
fn compare_texts(out: &str, want: &[(String, String)]) {
    let mut rest = out;
    for (name, text) in want {
        let expected = format!("{text}\n");
        assert!(
            rest.starts_with(&expected),
            "{name}:\n  engine: {expected:?}\n  gdwire: {:?}",
            &rest[..rest.len().min(expected.len() + 40)]
        );
        rest = &rest[expected.len()..];
    }
    assert!(rest.is_empty(), "extra output: {rest:?}");
}

#[test]
fn dump_text_matches_engine_var2str_for_every_fixture() {
    let mut payloads = Vec::new();
    let mut want = Vec::new();
    for f in support::values() {
        // The engine printed a non-exported script variable of a live object; it is not in
        // the bytes (see tests/text_godot3.rs).
        if f.name == "object_full_scripted_reference" {
            continue;
        }
        payloads.push(f.bytes.clone());
        want.push((f.name.clone(), f.json["text"].as_str().unwrap().to_string()));
    }
    // Plus the engine's extra text rows (floats, key order, escapes).
    let extra = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/godot3/text.jsonl"
    );
    for line in std::fs::read_to_string(extra).unwrap().lines() {
        let row: serde_json::Value = serde_json::from_str(line).unwrap();
        payloads.push(hex(row["hex"].as_str().unwrap()));
        want.push((
            row["name"].as_str().unwrap().to_string(),
            row["text"].as_str().unwrap().to_string(),
        ));
    }
    assert!(want.len() >= 266, "{} values", want.len());
    let out = gdwire()
        .args([
            "dump",
            "-d",
            "godot3",
            "-f",
            "stream",
            "--allow-objects",
            "-",
        ])
        .write_stdin(stream(&payloads))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    compare_texts(&String::from_utf8(out).unwrap(), &want);
}

#[test]
fn json_round_trip_through_the_binary_reproduces_every_fixture() {
    let mut payloads = Vec::new();
    let mut canonical = Vec::new();
    for f in support::values() {
        let v = gdwire::Decoder::new(gdwire::Dialect::GODOT_3)
            .with_allow_objects(true)
            .decode_exact(&f.bytes)
            .unwrap();
        let mut pads = Vec::new();
        node_path_pads(&f.bytes, &v, &mut pads);
        let mut expected = f.bytes.clone();
        for i in pads {
            expected[i] = 0; // engine garbage; the canonical pad is zero
        }
        payloads.push(f.bytes.clone());
        canonical.push(expected);
    }
    assert_eq!(payloads.len(), 167);
    let json = gdwire()
        .args(["dump", "-d", "godot3", "-f", "stream", "--allow-objects"])
        .args(["--format", "json"])
        .write_stdin(stream(&payloads))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(json.clone()).unwrap();
    assert_eq!(text.lines().count(), 167, "one JSON document per line");
    for line in text.lines() {
        serde_json::from_str::<serde_json::Value>(line).unwrap();
    }
    gdwire()
        .args(["encode", "-d", "godot3", "-f", "stream", "--from", "json"])
        .write_stdin(json)
        .assert()
        .success()
        .stdout(stream(&canonical));
    // And the capture, file to file.
    let json = gdwire()
        .args([
            "dump", "-d", "godot3", "-f", "stream", "--format", "json", CAPTURE,
        ])
        .output()
        .unwrap()
        .stdout;
    gdwire()
        .args([
            "encode", "-d", "godot3", "-f", "stream", "--from", "json", "-",
        ])
        .write_stdin(json)
        .assert()
        .success()
        .stdout(capture());
}

#[test]
fn json_round_trip_godot4_typed_containers_and_big_endian_frames() {
    // var_to_bytes of a typed Dictionary[int, int] (engine unit test, spec §6.1) and of a
    // 64-bit Vector2 (double-precision build), framed with big-endian prefixes.
    let dict = hex(
        "1b000500 02000000 02000000 01000000 02000100 efcdab8967452301 02000100 efcdab8967452301",
    );
    let v2 = hex("05000100 000000000000f83f 00000000000000c0");
    let mut be = Vec::new();
    for p in [&dict, &v2] {
        be.extend_from_slice(&(p.len() as u32).to_be_bytes());
        be.extend_from_slice(p);
    }
    let json = gdwire()
        .args([
            "dump",
            "-d",
            "godot4.4",
            "-f",
            "stream-be",
            "--format",
            "json",
        ])
        .write_stdin(be.clone())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(json.clone()).unwrap();
    assert_eq!(
        text,
        concat!(
            r#"{"type":"Dictionary","key_type":"int","value_type":"int","args":["i:81985529216486895","i:81985529216486895"]}"#,
            "\n",
            r#"{"type":"Vector2","precision":"double","args":[1.5,-2.0]}"#,
            "\n"
        )
    );
    gdwire()
        .args([
            "encode",
            "-d",
            "godot4.4",
            "-f",
            "stream-be",
            "--from",
            "json",
        ])
        .write_stdin(json)
        .assert()
        .success()
        .stdout(be);
}

#[test]
fn dump_reads_stdin_and_several_files() {
    let one = temp_file("cli_int.bin", &[2, 0, 0, 0, 7, 0, 0, 0]);
    gdwire()
        .arg("dump")
        .arg(&one)
        .arg("-")
        .arg(&one)
        .write_stdin([1u8, 0, 0, 0, 1, 0, 0, 0])
        .assert()
        .success()
        .stdout("7\ntrue\n7\n");
    // No FILE at all: stdin.
    gdwire()
        .args(["dump", "--format", "json"])
        .write_stdin([4u8, 0, 0, 0, 2, 0, 0, 0, b'h', b'i', 0, 0])
        .assert()
        .success()
        .stdout("\"s:hi\"\n");
}

// ----- validate ----------------------------------------------------------------------------

#[test]
fn validate_accepts_the_capture() {
    gdwire()
        .args(["validate", "-d", "godot3", "-f", "stream", CAPTURE])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("12 values valid"));
    // Read as big-endian frames, the first prefix is far above the maximum frame size.
    let out = gdwire()
        .args(["validate", "-d", "godot3", "-f", "stream-be", CAPTURE])
        .assert()
        .code(1)
        .get_output()
        .clone();
    let msg = one_line(&out.stderr);
    assert!(
        msg.contains("frame 0") && msg.contains("at byte 0"),
        "{msg}"
    );
}

#[test]
fn validate_names_file_frame_offset_and_reason_of_the_first_error() {
    let mut data = capture();
    let frames = frame_layout(&data);
    // Corrupt the type id of frame 5's value and, later, frame 8's.
    let (at5, _) = frames[5];
    let (at8, _) = frames[8];
    data[at5 + 4] = 0xee;
    data[at8 + 4] = 0xee;
    let path = temp_file("cli_corrupt.bin", &data);
    let out = gdwire()
        .args(["validate", "-d", "godot3", "-f", "stream"])
        .arg(&path)
        .assert()
        .code(1)
        .get_output()
        .clone();
    let msg = one_line(&out.stderr);
    let want = format!(
        "{}: frame 5: unknown type id 238 (this dialect has ids 0..27) at byte {}",
        path.display(),
        at5 + 4
    );
    assert!(msg.contains(&want), "{msg}\nwant: {want}");

    // An error deep inside a value: the offset is absolute in the file.
    let mut data = capture();
    let (at0, len0) = frames[0];
    // The last 4 bytes of frame 0 are the header of its last value (`winner`: null).
    data[at0 + 4 + len0 - 4] = 0x7f;
    let path = temp_file("cli_deep.bin", &data);
    let out = gdwire()
        .args(["validate", "-d", "godot3", "-f", "stream"])
        .arg(&path)
        .assert()
        .code(1)
        .get_output()
        .clone();
    let msg = one_line(&out.stderr);
    assert!(
        msg.contains("frame 0: unknown type id 127")
            && msg.ends_with(&format!("at byte {}\n", at0 + len0)),
        "{msg}"
    );
}

#[test]
fn validate_framing_none_and_trailing_bytes() {
    gdwire()
        .args(["validate", "-"])
        .write_stdin([2u8, 0, 0, 0, 5, 0, 0, 0])
        .assert()
        .code(0);
    let out = gdwire()
        .args(["validate", "-"])
        .write_stdin([2u8, 0, 0, 0, 5, 0, 0, 0, 9])
        .assert()
        .code(1)
        .get_output()
        .clone();
    let msg = one_line(&out.stderr);
    assert!(
        msg.contains("<stdin>: frame 0: 1 trailing bytes after the value at byte 8"),
        "{msg}"
    );
    // Truncated stream: the last frame's prefix promises more than is there.
    let mut data = capture();
    data.truncate(data.len() - 1);
    let last = frame_layout(&capture()).last().unwrap().0;
    let out = gdwire()
        .args(["validate", "-d", "godot3", "-f", "stream", "-"])
        .write_stdin(data)
        .assert()
        .code(1)
        .get_output()
        .clone();
    let msg = one_line(&out.stderr);
    assert!(msg.contains("frame 11: "), "{msg}");
    assert!(msg.contains(&format!("at byte {last}")), "{msg}");
}

#[test]
fn full_objects_need_allow_objects() {
    let f = support::values()
        .into_iter()
        .find(|f| f.name == "object_full_gradient")
        .unwrap();
    gdwire()
        .args(["validate", "-d", "godot3", "-"])
        .write_stdin(f.bytes.clone())
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "full object encoding is not allowed",
        ));
    gdwire()
        .args(["validate", "-d", "godot3", "--allow-objects", "-"])
        .write_stdin(f.bytes)
        .assert()
        .code(0);
}

// ----- encode ------------------------------------------------------------------------------

#[test]
fn encode_errors_name_document_line_and_place() {
    let out = gdwire()
        .args(["encode", "--from", "json", "-f", "stream"])
        .write_stdin("\"i:1\"\n\n{\"type\":\"Vector2\",\"args\":[1]}\n")
        .assert()
        .code(1)
        .get_output()
        .clone();
    let msg = one_line(&out.stderr);
    assert!(
        msg.contains("<stdin>: document 1 (line 3): Vector2 needs 2 args, got 1 at $"),
        "{msg}"
    );
    let out = gdwire()
        .args(["encode", "--from", "json"])
        .write_stdin("[\"i:1\",")
        .assert()
        .code(1)
        .get_output()
        .clone();
    assert!(one_line(&out.stderr).contains("invalid JSON"));
    // --from is required: a usage error.
    let out = gdwire()
        .args(["encode"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    one_line(&out.stderr);
}

#[test]
fn encode_engine_json_reads_what_godot_stringify_writes() {
    // Godot 4.6 JSON.stringify(JSON.from_native(Vector2(INF, NAN))): strict JSON rejects it,
    // engine-json reads it as the engine does (NaN written as null, read as 0).
    let text = r#"{"type":"Vector2","args":[1e99999,null]}"#;
    gdwire()
        .args(["encode", "-d", "godot4", "--from", "json"])
        .write_stdin(text)
        .assert()
        .code(1);
    gdwire()
        .args(["encode", "-d", "godot4", "--from", "engine-json"])
        .write_stdin(text)
        .assert()
        .success()
        .stdout(vec![5, 0, 0, 0, 0, 0, 0x80, 0x7f, 0, 0, 0, 0]);
}

#[test]
fn encode_godot3_names_and_none_framing() {
    gdwire()
        .args(["encode", "-d", "godot3", "--from", "json"])
        .write_stdin(r#"{"type":"PoolIntArray","args":[1,-1]}"#)
        .assert()
        .success()
        .stdout(hex("15000000 02000000 01000000 ffffffff"));
    gdwire()
        .args(["encode", "--from", "json"])
        .write_stdin("\"i:1\" \"i:2\"")
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "--framing none takes one document",
        ));
}

// ----- stats -------------------------------------------------------------------------------

#[test]
fn stats_reports_counts_sizes_depth_and_largest() {
    let frames = frame_layout(&capture());
    let largest = frames.iter().map(|f| f.1).max().unwrap();
    let index = frames.iter().position(|f| f.1 == largest).unwrap();
    let out = gdwire()
        .args([
            "stats", "-d", "godot3", "-f", "stream", "--top", "1", CAPTURE,
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("2180 bytes, 12 values (stream framing, godot3)"),
        "{text}"
    );
    // game_state → players (Array) → player (Dictionary) → pos (Vector3): depth 3.
    assert!(text.contains("max nesting depth 3"), "{text}");
    assert!(
        text.contains(&format!("frame {index}: {largest} bytes, Dictionary")),
        "{text}"
    );
    // The capture's top-level types (tests/godot3/README.md): 3 dictionaries, 2 arrays, ...
    let row = |ty: &str| {
        text.lines()
            .find(|l| l.split_whitespace().next() == Some(ty))
            .unwrap_or_else(|| panic!("no {ty} row in {text}"))
            .split_whitespace()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(row("Dictionary")[2], "3");
    assert_eq!(row("Array")[2], "2");
    assert_eq!(row("PoolVector3Array")[1..3], ["1", "0"]);
    // Piped stderr: no progress bar.
    gdwire()
        .args(["stats", "-d", "godot3", "-f", "stream", CAPTURE])
        .assert()
        .success()
        .stderr("");
}

#[test]
fn stats_fails_on_invalid_data() {
    gdwire()
        .args(["stats", "-"])
        .write_stdin([0xffu8, 0, 0, 0])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "<stdin>: frame 0: unknown type id 255",
        ));
}

// ----- usage -------------------------------------------------------------------------------

#[test]
fn usage_errors_exit_2_with_one_line() {
    for args in [
        &["dump", "--dialect", "godot9"][..],
        &["dump", "--framing", "udp"],
        &["dump", "--format", "yaml"],
        &["frobnicate"],
        &["validate", "--bogus"],
    ] {
        let out = gdwire().args(args).assert().code(2).get_output().clone();
        let msg = one_line(&out.stderr);
        assert!(msg.starts_with("gdwire: "), "{args:?}: {msg}");
    }
    gdwire()
        .args(["dump", "/nonexistent/file.bin"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "/nonexistent/file.bin: cannot read",
        ));
    gdwire().arg("--help").assert().success();
}

#[test]
fn every_dialect_name_is_accepted() {
    for d in [
        "godot3",
        "godot4.0",
        "godot4.1",
        "godot4.2",
        "godot4.3",
        "godot4.4",
        "godot4.7",
        "godot4",
        "pandemonium3.5",
        "pandemonium3.8",
        "pandemonium5",
    ] {
        gdwire()
            .args(["dump", "-d", d, "-"])
            .write_stdin([0u8, 0, 0, 0])
            .assert()
            .success()
            .stdout("null\n");
    }
}

// ----- deep values -------------------------------------------------------------------------

#[test]
fn deepest_values_run_on_a_small_main_stack() {
    // Nothing in the CLI recurses per nesting level: with the main thread's stack limited to
    // 256 KiB (debug build), every command handles 1024-level values (Godot 4's limit).
    let mut bytes = Vec::new();
    for _ in 0..1024 {
        bytes.extend(hex("1c000000 02000000")); // [child, 1]
    }
    bytes.extend(hex("02000000 01000000"));
    for _ in 0..1024 {
        bytes.extend(hex("02000000 01000000"));
    }
    let path = temp_file("cli_deepest.bin", &bytes);
    let bin = assert_cmd::cargo::cargo_bin("gdwire");
    for args in [
        &["dump", "-d", "godot4", "-f", "none"][..],
        &["dump", "-d", "godot4", "-f", "none", "--format", "json"],
        &["validate", "-d", "godot4", "-f", "none"],
        &["stats", "-d", "godot4", "-f", "none"],
    ] {
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(r#"ulimit -s 256 && exec "$0" "$@""#)
            .arg(&bin)
            .args(args)
            .arg(&path)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {}", one_line(&out.stderr));
        assert!(!out.stdout.is_empty(), "{args:?}");
    }
    // And its JSON (1025 levels; serde_json's parser stopped at 128) encodes back.
    let json = gdwire()
        .args(["dump", "-d", "godot4", "-f", "none", "--format", "json"])
        .arg(&path)
        .output()
        .unwrap()
        .stdout;
    let json_path = temp_file("cli_deepest.json", &json);
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(r#"ulimit -s 256 && exec "$0" "$@""#)
        .arg(&bin)
        .args(["encode", "--from", "json", "-d", "godot4", "-f", "none"])
        .arg(&json_path)
        .output()
        .unwrap();
    assert!(out.status.success(), "encode: {}", one_line(&out.stderr));
    assert!(
        out.stdout == bytes,
        "encode --from json changed the deepest value"
    );
}
