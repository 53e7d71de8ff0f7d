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

/// Runs `gdwire ARGS` with `stdin` and its exit code checked to be `code`; what it printed.
fn run(args: &[&str], stdin: impl AsRef<[u8]>, code: i32) -> std::process::Output {
    gdwire()
        .args(args)
        .write_stdin(stdin.as_ref())
        .assert()
        .code(code)
        .get_output()
        .clone()
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

/// The stderr of a failed decode: the error line, then one `gdwire: hint: …` line saying
/// which readings of the input decode it. Returns (error line with its newline, hint line).
fn error_and_hint(stderr: &[u8]) -> (String, String) {
    let text = String::from_utf8(stderr.to_vec()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "error and hint expected: {text:?}");
    assert!(lines[1].starts_with("gdwire: hint: "), "{text}");
    assert!(!text.contains("panicked"), "{text}");
    (format!("{}\n", lines[0]), lines[1].to_string())
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
            "--no-headers",
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
            "--no-headers",
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
    let out = run(
        &[
            "dump",
            "-d",
            "godot3",
            "-f",
            "stream",
            "--allow-objects",
            "--no-headers",
            "-",
        ],
        stream(&payloads),
        0,
    )
    .stdout;
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
    let text = json_round_trip("godot3", &payloads, &canonical);
    // Plain JSON other tools read (the Godot 4 values nest deeper than serde_json's limit).
    for line in text.lines() {
        serde_json::from_str::<serde_json::Value>(line).unwrap();
    }
    // And the capture, file to file, with dump's `; FILE: frame N` header lines, which encode
    // skips.
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
fn json_round_trip_through_the_binary_reproduces_the_double_precision_engines_values() {
    // The double-precision 4.6.3 build's bytes: JSON keeps each value's precision.
    let payloads: Vec<Vec<u8>> = support::godot4_double_values()
        .into_iter()
        .map(|f| f.bytes)
        .collect();
    assert_eq!(payloads.len(), 260);
    let _ = json_round_trip("godot4", &payloads, &payloads);
}

/// `dump --format json` of `payloads` (a stream, objects allowed) is one JSON document per
/// value, and `encode --from json` of it gives `want`. Returns the JSON.
fn json_round_trip(dialect: &str, payloads: &[Vec<u8>], want: &[Vec<u8>]) -> String {
    let json = gdwire()
        .args(["dump", "-d", dialect, "-f", "stream", "--allow-objects"])
        .args(["--format", "json", "--no-headers"])
        .write_stdin(stream(payloads))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(json.clone()).unwrap();
    assert_eq!(
        text.lines().count(),
        payloads.len(),
        "one JSON document per line"
    );
    gdwire()
        .args(["encode", "-d", dialect, "-f", "stream", "--from", "json"])
        .write_stdin(json)
        .assert()
        .success()
        .stdout(stream(want));
    text
}

#[test]
fn encode_precision_double_reads_the_double_precision_engines_text_and_json() {
    // The double build's var_to_str and JSON.from_native of its values carry no precision:
    // `--precision double` reads them as that build does, giving its bytes.
    let (mut texts, mut jsons, mut want_text, mut want_json) =
        (String::new(), String::new(), Vec::new(), Vec::new());
    let engine_json = gdwire::json::Options::ENGINE.with_precision(gdwire::Precision::Double);
    for f in support::godot4_double_values() {
        let text = f.json["text"].as_str().unwrap();
        let parsed = gdwire::text::parse_many(gdwire::Dialect::GODOT_4, text)
            .with_precision(gdwire::Precision::Double)
            .next();
        // Texts whose value does not survive the engine's own text form are left out.
        if matches!(parsed, Some(Ok(ref b)) if *b == f.bytes) {
            texts.push_str(text);
            texts.push('\n');
            want_text.push(f.bytes.clone());
        }
        let json = f.json["json"].as_str().unwrap();
        if gdwire::json::from_json_str_with(gdwire::Dialect::GODOT_4, json, engine_json)
            .is_ok_and(|b| b == f.bytes)
        {
            jsons.push_str(json);
            jsons.push('\n');
            want_json.push(f.bytes.clone());
        }
    }
    // Most of them, the 54 with 64-bit math among them.
    assert!(want_text.len() > 200 && want_json.len() > 200);
    for (from, input, want) in [
        ("text", texts, want_text),
        ("engine-json", jsons, want_json),
    ] {
        let args = [
            "encode",
            "-f",
            "stream",
            "--precision",
            "double",
            "--from",
            from,
        ];
        gdwire()
            .args(args)
            .write_stdin(input.clone())
            .assert()
            .success()
            .stdout(stream(&want));
        // Without the flag, the same input comes out in single precision: not the bytes.
        let single = run(&["encode", "-f", "stream", "--from", from], input, 0).stdout;
        assert_ne!(single, stream(&want), "{from}");
    }
}

#[test]
fn json_round_trip_godot4_typed_containers_and_big_endian_frames() {
    // var_to_bytes of a typed Dictionary[int, int] (engine unit test, docs/wire-format.md §7) and of a
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
    let json = run(
        &[
            "dump",
            "-d",
            "godot4.4",
            "-f",
            "stream-be",
            "--format",
            "json",
            "--no-headers",
        ],
        &be,
        0,
    )
    .stdout;
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
        .stdout(format!(
            "; {p}: 8 bytes\n7\n; <stdin>: 8 bytes\ntrue\n; {p}: 8 bytes\n7\n",
            p = one.display()
        ));
    gdwire()
        .args(["dump", "--no-headers", "-d", "godot4", "-f", "none"])
        .arg(&one)
        .arg(&one)
        .assert()
        .success()
        .stdout("7\n7\n");
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
    let out = run(
        &["validate", "-d", "godot3", "-f", "stream-be", CAPTURE],
        [],
        1,
    );
    let (msg, hint) = error_and_hint(&out.stderr);
    assert!(
        msg.contains("frame 0") && msg.contains("at byte 0"),
        "{msg}"
    );
    assert_eq!(
        hint,
        "gdwire: hint: it decodes cleanly as --dialect godot3 --framing stream (12 values) (or \
         let --dialect auto choose)"
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
    let file = path.to_str().unwrap();
    let out = run(&["validate", "-d", "godot3", "-f", "stream", file], [], 1);
    let (msg, _) = error_and_hint(&out.stderr);
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
    let file = path.to_str().unwrap();
    let out = run(&["validate", "-d", "godot3", "-f", "stream", file], [], 1);
    let (msg, _) = error_and_hint(&out.stderr);
    assert!(
        msg.contains("frame 0: unknown type id 127")
            && msg.ends_with(&format!("at byte {}\n", at0 + len0)),
        "{msg}"
    );
}

#[test]
fn validate_framing_none_and_trailing_bytes() {
    run(
        &["validate", "-d", "godot4", "-f", "none", "-"],
        [2u8, 0, 0, 0, 5, 0, 0, 0],
        0,
    );
    // --strict: exactly one value per record.
    let out = run(
        &["validate", "--strict", "-d", "godot4", "-f", "none", "-"],
        [2u8, 0, 0, 0, 5, 0, 0, 0, 9],
        1,
    );
    let (msg, _) = error_and_hint(&out.stderr);
    assert!(
        msg.contains("<stdin>: frame 0: 1 trailing bytes after the value at byte 8"),
        "{msg}"
    );
    // Truncated stream: the last frame's prefix promises more than is there.
    let mut data = capture();
    data.truncate(data.len() - 1);
    let last = frame_layout(&capture()).last().unwrap().0;
    let out = run(&["validate", "-d", "godot3", "-f", "stream", "-"], data, 1);
    let (msg, _) = error_and_hint(&out.stderr);
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
        .args(["validate", "-d", "godot3", "-f", "none", "-"])
        .write_stdin(f.bytes.clone())
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "full object encoding is not allowed",
        ));
    run(
        &[
            "validate",
            "-d",
            "godot3",
            "-f",
            "none",
            "--allow-objects",
            "-",
        ],
        f.bytes,
        0,
    );
}

// ----- encode ------------------------------------------------------------------------------

#[test]
fn encode_errors_name_document_line_and_place() {
    let out = run(
        &["encode", "--from", "json", "-f", "stream"],
        "\"i:1\"\n\n{\"type\":\"Vector2\",\"args\":[1]}\n",
        1,
    );
    let msg = one_line(&out.stderr);
    assert!(
        msg.contains("<stdin>: document 1 (line 3): Vector2 needs 2 args, got 1 at $"),
        "{msg}"
    );
    let out = run(&["encode", "--from", "json"], "[\"i:1\",", 1);
    assert!(one_line(&out.stderr).contains("invalid JSON"));
    // --from without its value: clap's message with the possible values, on one line.
    let out = run(&["encode", "--from"], [], 2);
    assert_eq!(
        one_line(&out.stderr),
        "gdwire: a value is required for '--from <FROM>' but none was supplied [possible \
         values: auto, text, json, engine-json] (see gdwire --help)\n"
    );
}

#[test]
fn encode_engine_json_reads_what_godot_stringify_writes() {
    // Godot 4.6 JSON.stringify(JSON.from_native(Vector2(INF, NAN))): strict JSON rejects it,
    // engine-json reads it as the engine does (NaN written as null, read as 0).
    let text = r#"{"type":"Vector2","args":[1e99999,null]}"#;
    run(&["encode", "-d", "godot4", "--from", "json"], text, 1);
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
        .args(["encode", "--from", "json", "-f", "none"])
        .write_stdin("\"i:1\" \"i:2\"")
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "<stdin>: --framing none takes one value, this input has 2",
        ));
    // Without --framing: none for one value, stream for several.
    gdwire()
        .args(["encode", "--from", "json"])
        .write_stdin("\"i:1\" \"i:2\"")
        .assert()
        .success()
        .stdout(hex("08000000 02000000 01000000 08000000 02000000 02000000"));
}

// ----- stats -------------------------------------------------------------------------------

#[test]
fn stats_reports_counts_sizes_depth_and_largest() {
    let frames = frame_layout(&capture());
    let largest = frames.iter().map(|f| f.1).max().unwrap();
    let index = frames.iter().position(|f| f.1 == largest).unwrap();
    let out = run(
        &[
            "stats", "-d", "godot3", "-f", "stream", "--top", "1", CAPTURE,
        ],
        [],
        0,
    )
    .stdout;
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
        .args(["stats", "-d", "godot4", "-f", "none", "-"])
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
        "godot4.5",
        "godot4.6",
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

// ----- encode --from text: the engine's str2var as truth ----------------------------------

/// Every value the engine's own `str2var` reads back from its `var2str` text
/// (`tests/fixtures/godot3/str2var.jsonl`: `var2bytes(str2var(text))` as the engine computed
/// it): `dump --format text | encode --from text` gives the engine's bytes.
#[test]
fn dump_text_then_encode_from_text_gives_what_the_engines_str2var_gives() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/godot3/str2var.jsonl"
    );
    let engine: std::collections::HashMap<(String, String), serde_json::Value> =
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .map(|r| {
                let key = (
                    r["source"].as_str().unwrap().to_string(),
                    r["name"].as_str().unwrap().to_string(),
                );
                (key, r)
            })
            .collect();
    // The wire values whose text the engine read back, from values.jsonl and text.jsonl.
    let mut inputs: Vec<(String, Vec<u8>, bool)> = Vec::new();
    for f in support::values() {
        inputs.push((f.name.clone(), f.bytes.clone(), true));
    }
    let extra = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/godot3/text.jsonl"
    );
    for line in std::fs::read_to_string(extra).unwrap().lines() {
        let row: serde_json::Value = serde_json::from_str(line).unwrap();
        let name = row["name"].as_str().unwrap().to_string();
        inputs.push((name, hex(row["hex"].as_str().unwrap()), false));
    }
    let mut payloads = Vec::new();
    let mut want = Vec::new();
    let mut names = Vec::new();
    let mut changed_type = Vec::new();
    for (name, bytes, from_values) in inputs {
        let source = if from_values { "values" } else { "text" };
        let Some(row) = engine.get(&(source.to_string(), name.clone())) else {
            panic!("{source}/{name}: not in str2var.jsonl");
        };
        // Only what the engine reads back, and not objects (the engine makes a new one, with
        // a new id, so its bytes are not a fixed truth).
        if row["read"] != true || row["hex"].is_null() {
            continue;
        }
        // The engine "reads" `-inf.0` and `-nan.0` (Godot 3's text of -inf and of a negative
        // NaN) as the int 0: not a round trip; gdwire's parser refuses that text instead.
        let engine_bytes = hex(row["hex"].as_str().unwrap());
        if engine_bytes[0] != bytes[0] {
            changed_type.push(name);
            continue;
        }
        // NodePath pad bytes: the engine leaves them uninitialised, gdwire writes zeros.
        let mut pads = Vec::new();
        let v = gdwire::Decoder::new(gdwire::Dialect::GODOT_3)
            .with_allow_objects(true)
            .decode_exact(&engine_bytes)
            .unwrap();
        node_path_pads(&engine_bytes, &v, &mut pads);
        let mut engine_bytes = engine_bytes.clone();
        for i in pads {
            engine_bytes[i] = 0;
        }
        payloads.push(bytes);
        want.push(engine_bytes);
        names.push(name);
    }
    assert!(payloads.len() >= 200, "{} values", payloads.len());
    assert!(
        changed_type.len() <= 4
            && changed_type
                .iter()
                .all(|n| n.contains("inf") || n.contains("nan")),
        "{changed_type:?}"
    );
    let text = run(
        &[
            "dump",
            "-d",
            "godot3",
            "-f",
            "stream",
            "--allow-objects",
            "-",
        ],
        stream(&payloads),
        0,
    )
    .stdout;
    // dump's `; <stdin>: frame N` headers are comments to str2var and to encode.
    assert!(String::from_utf8_lossy(&text).starts_with("; <stdin>: frame 0 at byte 4"));
    let out = run(
        &["encode", "--from", "text", "-d", "godot3", "-f", "stream"],
        text,
        0,
    )
    .stdout;
    let got: Vec<&[u8]> = gdwire::frame::Framing::default()
        .frames(&out)
        .map(|f| f.unwrap().payload)
        .collect();
    assert_eq!(got.len(), want.len());
    let bad: Vec<&String> = names
        .iter()
        .zip(got.iter().zip(&want))
        .filter(|(_, (g, w))| **g != w.as_slice())
        .map(|(n, _)| n)
        .collect();
    assert!(
        bad.is_empty(),
        "{} differ from the engine: {bad:?}",
        bad.len()
    );
}

#[test]
fn encode_from_defaults_to_json_when_it_reads_as_json_else_text() {
    // The JSON form of an int is a tagged string; the text form is a bare number.
    gdwire()
        .args(["encode", "-d", "godot4"])
        .write_stdin("\"i:5\"\n")
        .assert()
        .success()
        .stdout(hex("02000000 05000000"));
    gdwire()
        .args(["encode", "-d", "godot4"])
        .write_stdin("Vector2i(3, -4)\n")
        .assert()
        .success()
        .stdout(hex("06000000 03000000 fcffffff"));
    // Neither: both readings' errors, one line.
    let out = run(&["encode"], "[1, 2", 1);
    let msg = one_line(&out.stderr);
    assert!(
        msg.contains("<stdin>: value 0 (line 1): line 1, column 6: expected ',' or ']'")
            && msg.contains("it is not JSON either"),
        "{msg}"
    );
    // --from text names the value, its line and the place.
    let out = run(
        &["encode", "--from", "text", "-f", "stream"],
        "1\n; a comment\nVector2(1)\n",
        1,
    );
    let msg = one_line(&out.stderr);
    assert!(
        msg.starts_with("gdwire: <stdin>: value 1 (line 3): line 3, column"),
        "{msg}"
    );
}

// ----- engine truth from tests/godot3/cli.gd (tests/fixtures/godot3/cli.jsonl) ------------

fn cli_rows() -> Vec<serde_json::Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/godot3/cli.jsonl"
    );
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Godot 3 text holding surrogates or code points above U+10FFFF: `dump` writes the bytes the
/// engine's `var2str` text is stored as (generalised UTF-8), not U+FFFD.
#[test]
fn dump_text_of_surrogates_is_the_engines_var2str_bytes() {
    let mut seen = 0;
    for row in cli_rows() {
        let Some(text) = row["text_hex"].as_str() else {
            continue;
        };
        let mut want = hex(text);
        want.push(b'\n');
        gdwire()
            .args(["dump", "-d", "godot3", "-f", "none", "-"])
            .write_stdin(hex(row["hex"].as_str().unwrap()))
            .assert()
            .success()
            .stdout(want);
        seen += 1;
    }
    assert_eq!(seen, 8);
}

/// validate's default verdict is the engine's: 3.2.3 accepts a 10,000-level chain and ignores
/// a Godot 3 RID's payload (trailing bytes, with a warning); --strict and --max-depth do not.
#[test]
fn validate_follows_the_engine_unless_strict() {
    let rows = cli_rows();
    let row = |name: &str| {
        let r = rows.iter().find(|r| r["name"] == name).unwrap();
        assert_eq!(r["verdict"], "ok", "{name}: the engine's verdict");
        hex(r["hex"].as_str().unwrap())
    };
    let deep = row("array_chain_10000");
    gdwire()
        .args(["validate", "-d", "godot3", "-f", "none", "-"])
        .write_stdin(deep.clone())
        .assert()
        .success()
        .stdout("<stdin>: 1 value valid (godot3, none framing, 80008 bytes)\n")
        .stderr("");
    let out = run(
        &["validate", "-d", "godot3", "-f", "none", "--strict", "-"],
        &deep,
        1,
    );
    let (msg, _) = error_and_hint(&out.stderr);
    assert!(msg.contains("nesting deeper than 1024 levels"), "{msg}");
    let out = run(
        &[
            "validate",
            "-d",
            "godot3",
            "-f",
            "none",
            "--max-depth",
            "5000",
            "-",
        ],
        deep,
        1,
    );
    let (msg, _) = error_and_hint(&out.stderr);
    assert!(msg.contains("nesting deeper than 5000 levels"), "{msg}");

    let rid = row("rid_with_payload");
    gdwire()
        .args(["validate", "-d", "godot3", "-f", "none", "-"])
        .write_stdin(rid.clone())
        .assert()
        .success()
        .stderr(
            "gdwire: warning: <stdin>: frame 0: 8 trailing bytes after the value at byte 4 \
             (ignored, as the engine does)\n",
        );
    run(
        &["validate", "-d", "godot3", "-f", "none", "--strict", "-"],
        rid,
        1,
    );

    // Every nesting row of the engine's malformed-input fixtures: the engine accepts them all.
    for f in support::malformed() {
        if !f.name.contains("nesting") {
            continue;
        }
        assert!(f.desc.is_some(), "{}: the engine accepts it", f.name);
        run(
            &["validate", "-q", "-d", "godot3", "-f", "none", "-"],
            &f.bytes,
            0,
        );
    }
    // Godot 4 keeps the engine's 1024 levels.
    let mut deep4 = Vec::new();
    for _ in 0..1025 {
        deep4.extend(hex("1c000000 01000000"));
    }
    deep4.extend(hex("1c000000 00000000"));
    run(&["validate", "-d", "godot4", "-f", "none", "-"], deep4, 1);
}

// ----- --dialect auto and hints ---------------------------------------------------------------

/// Real Pandemonium traffic (the values each engine wrote, as a `store_var` stream): auto
/// finds the engine's own numbering, the only reading that decodes every value, and prints
/// the text the engine prints for what it reads from them.
#[test]
fn auto_reads_each_pandemonium_engine_as_its_numbering() {
    for (numbering, dialect) in [
        ("5", "pandemonium5"),
        ("3.8", "pandemonium3.8"),
        ("3.5", "pandemonium3.5"),
    ] {
        let values: Vec<_> = support::pandemonium_values(numbering)
            .into_iter()
            .filter(|f| !f.allow_objects)
            .collect();
        let payloads: Vec<Vec<u8>> = values.iter().map(|f| f.bytes.clone()).collect();
        let out = gdwire()
            .args(["dump", "--no-headers", "-"])
            .write_stdin(stream(&payloads))
            .assert()
            .success()
            .get_output()
            .clone();
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.starts_with(&format!(
                "gdwire: <stdin>: auto: read as --dialect {dialect} --framing stream ({} values",
                values.len()
            )) && err.contains("the only reading that decodes the whole input"),
            "{numbering}: {err}"
        );
        // What the engine's own decoder reads from the bytes, except where that decoder has
        // the known Vector4 / Projection bugs (docs/wire-format.md §4.12).
        let read_back: String = values
            .iter()
            .map(|f| {
                let utf8 = hex(f.json["read_back_utf8"].as_str().unwrap());
                format!("{}\n", String::from_utf8(utf8).unwrap())
            })
            .collect();
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert_eq!(
            stdout.lines().count(),
            read_back.lines().count(),
            "{numbering}"
        );
        let differing: Vec<_> = stdout
            .split_inclusive('\n')
            .zip(read_back.split_inclusive('\n'))
            .filter(|(ours, engine)| ours != engine)
            .collect();
        assert!(
            differing
                .iter()
                .all(|(ours, _)| ours.contains("Vector4") || ours.contains("Projection")),
            "{numbering}: {differing:?}"
        );
    }
}

/// A Godot 3 Color is a Godot 4 Plane with the same bytes: both decode. auto says which it
/// picks and why, and lists the other readings.
#[test]
fn auto_explains_an_ambiguous_input() {
    // Color(1, 0.5, 0, 1) as Godot 3 writes it (type 14).
    let color = hex("0e000000 0000803f 0000003f 00000000 0000803f");
    let out = gdwire()
        .args(["dump", "-"])
        .write_stdin(color.clone())
        .assert()
        .success()
        .stdout("Color( 1, 0.5, 0, 1 )\n")
        .get_output()
        .clone();
    let err = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with(
            "gdwire: <stdin>: auto: read as --dialect godot3 --framing none (1 value), the most \
             likely of 3 readings that decode the input: as --dialect godot4.6 --framing none \
             there would be 1 Plane whose normal is not unit length"
        ),
        "{err}"
    );
    assert!(
        lines[1].starts_with("gdwire: <stdin>: auto: also decodes as --dialect godot4.6")
            && lines[1].contains("godot4.0 read it the same"),
        "{err}"
    );
    // Asked for Godot 4, it is a Plane: the user's choice stands, but a file gets a second
    // look and a warning that another reading fits better.
    let path = temp_file("cli_color.bin", &color);
    gdwire()
        .args(["dump", "-d", "godot4", "-f", "none"])
        .arg(&path)
        .assert()
        .success()
        .stdout("Plane(1, 0.5, 0, 1)\n")
        .stderr(format!(
            "gdwire: {}: warning: as --dialect godot4.6 --framing none this input has 1 Plane \
             whose normal is not unit length; it also decodes as --dialect godot3 --framing none \
             (1 value) with no such sign (--dialect auto compares every reading)\n",
            path.display()
        ));
    // A Godot 4 Plane that is one: no warning.
    let plane = temp_file(
        "cli_plane.bin",
        &hex("0e000000 00000000 0000803f 00000000 00000040"),
    );
    gdwire()
        .args(["dump", "-d", "godot4", "-f", "none"])
        .arg(&plane)
        .assert()
        .success()
        .stdout("Plane(0, 1, 0, 2)\n")
        .stderr("");
    // An unambiguous input: one line, naming the dialects that agree.
    gdwire()
        .args(["dump", "-"])
        .write_stdin(hex("02000000 05000000"))
        .assert()
        .success()
        .stdout("5\n")
        .stderr(predicate::str::contains(
            "every reading that decodes the input reads the same values",
        ));
}

#[test]
fn auto_finds_the_godot3_capture_and_every_failure_has_a_hint() {
    // No options: the capture's dialect and framing are found.
    let out = run(&["dump", "--no-headers", CAPTURE], [], 0);
    assert_eq!(out.stdout, std::fs::read(CAPTURE_TXT).unwrap());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!(
            "gdwire: {CAPTURE}: auto: read as --dialect godot3 --framing stream (12 values): the \
             only reading that decodes the whole input\n"
        )
    );
    gdwire()
        .args(["validate", CAPTURE])
        .assert()
        .success()
        .stdout(format!(
            "{CAPTURE}: 12 values valid (godot3, stream framing, 2180 bytes)\n"
        ));
    // The issue's first try: Godot 4 rules, one value: the hint names the reading that works.
    let out = run(&["dump", "-d", "godot4", "-f", "none", CAPTURE], [], 1);
    let (msg, hint) = error_and_hint(&out.stderr);
    assert!(msg.contains("unknown type id 136"), "{msg}");
    assert_eq!(
        hint,
        "gdwire: hint: it decodes cleanly as --dialect godot3 --framing stream (12 values) (or \
         let --dialect auto choose)"
    );
    // The dialect given, the framing left to auto: no framing works for Godot 4.
    let out = run(&["stats", "-d", "godot4", CAPTURE], [], 1);
    let (msg, hint) = error_and_hint(&out.stderr);
    assert!(
        msg.contains("no framing decodes it with this dialect"),
        "{msg}"
    );
    assert!(hint.contains("--dialect godot3 --framing stream"), "{hint}");
    // Nothing decodes: said so, with the reading that got furthest.
    let out = run(&["dump", "-"], [0xffu8, 0xff, 0xff, 0xff, 1], 1);
    assert!(one_line(&out.stderr).contains("<stdin>: no dialect and framing decodes it"));
}

/// `dump` of a stream on stdin, and where each record starts: its `; <stdin>: frame N …`
/// header line.
fn dump_records(data: &[u8]) -> (String, Vec<usize>) {
    let whole = String::from_utf8(run(&["dump", "-"], data, 0).stdout).unwrap();
    let headers = whole
        .match_indices("; <stdin>: frame ")
        .map(|(i, _)| i)
        .collect();
    (whole, headers)
}

/// A capture cut short: with nothing that decodes the whole input, auto reads it as the stream
/// whose frames all decode until the input ends inside one, prints those values as the dump
/// of the whole capture prints them, and fails on the cut frame with a hint that says how
/// many bytes are missing (also when the cut falls in a length prefix, and with the dialect
/// and framing given). A first frame cut short leaves nothing to read: no reading is chosen.
#[test]
fn a_capture_cut_short_is_read_up_to_the_cut() {
    let data = capture();
    let frames = frame_layout(&data);
    let (whole, headers) = dump_records(&data);
    assert_eq!(headers.len(), frames.len());
    let first_nine = &whole[..headers[9]];
    let (prefix, len) = frames[9];
    for (cut, missing, what) in [
        (prefix + 10, 4 + len - 10, "frame 9"),
        (prefix + 2, 2, "frame 9's length prefix"),
    ] {
        let at = format!("{missing} bytes short of the end of {what} (at byte {prefix})");
        let out = run(&["dump", "-"], &data[..cut], 1);
        assert_eq!(String::from_utf8(out.stdout).unwrap(), first_nine);
        let err = String::from_utf8(out.stderr).unwrap();
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 3, "{err}");
        assert_eq!(
            lines[0],
            format!(
                "gdwire: <stdin>: auto: read as --dialect godot3 --framing stream (9 values): no \
                 reading decodes the whole input; in this one the input ends {at}"
            )
        );
        assert!(
            lines[1].starts_with("gdwire: <stdin>: frame 9: input ends early"),
            "{err}"
        );
        let hint = format!(
            "gdwire: hint: as --dialect godot3 --framing stream 9 values decode; the input ends \
             {at}: was it cut short?"
        );
        assert_eq!(lines[2], hint);
        // A file, which the hint can read again (stdin it cannot).
        let file = temp_file(&format!("cut_{cut}.bin"), &data[..cut]);
        let file = file.to_str().unwrap();
        let given = run(&["validate", "-d", "godot3", "-f", "stream", file], [], 1);
        let (msg, given_hint) = error_and_hint(&given.stderr);
        assert!(msg.contains("frame 9: input ends early"), "{msg}");
        assert_eq!(given_hint, hint);
    }
    let out = run(&["dump", "-"], &data[..frames[1].0 - 1], 1);
    assert!(one_line(&out.stderr).contains("<stdin>: no dialect and framing decodes it"));
    assert!(out.stdout.is_empty());
}

/// A capture with a damaged frame: the frames around it are intact, so `dump` reports the
/// value that does not decode and reads on (as the engine's `get_var` does), with or without
/// `auto`, and exits 1; `validate` stops at it. A reading that fails more frames than it
/// decodes is not chosen.
#[test]
fn dump_reads_on_past_a_frame_that_does_not_decode() {
    let data = capture();
    let frames = frame_layout(&data);
    let (whole, headers) = dump_records(&data);
    let without_3 = format!("{}{}", &whole[..headers[3]], &whole[headers[4]..]);
    let mut damaged = data.clone();
    let at = frames[3].0 + 4; // frame 3's value header: type id 119 is no Godot 3 type
    damaged[at] = 119;
    let error = format!("frame 3: unknown type id 119 (this dialect has ids 0..27) at byte {at}");
    let hint = "gdwire: hint: as --dialect godot3 --framing stream 11 values decode; frame 3 \
                does not decode";
    let file = temp_file("damaged.bin", &damaged);
    let file = file.to_str().unwrap();
    let name = file.to_string();
    for given in [false, true] {
        let mut args = vec!["dump"];
        if given {
            args.extend(["-d", "godot3", "-f", "stream"]);
        }
        args.push(file);
        let out = run(&args, [], 1);
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert_eq!(stdout, without_3.replace("<stdin>", &name));
        let err = String::from_utf8(out.stderr).unwrap();
        let mut want = Vec::new();
        if !given {
            want.push(format!(
                "gdwire: {name}: auto: read as --dialect godot3 --framing stream (11 values): no \
                 reading decodes the whole input; in this one frame 3 does not decode"
            ));
        }
        want.push(format!("gdwire: {name}: {error}"));
        want.push(hint.to_string());
        assert_eq!(err.lines().collect::<Vec<_>>(), want, "given: {given}");
    }
    let out = run(&["validate", "-d", "godot3", "-f", "stream", file], [], 1);
    let (msg, validate_hint) = error_and_hint(&out.stderr);
    assert!(msg.contains(&error), "{msg}");
    assert_eq!(validate_hint, hint);
    // Seven frames of twelve damaged: no reading is chosen.
    for (prefix, _) in &frames[..7] {
        damaged[prefix + 4] = 119;
    }
    let out = run(&["dump", "-"], &damaged, 1);
    assert!(one_line(&out.stderr).contains("<stdin>: no dialect and framing decodes it"));
}

// ----- dump headers -----------------------------------------------------------------------------

#[test]
fn dump_headers_name_file_frame_and_offset() {
    let frames = frame_layout(&capture());
    let out = run(&["dump", "-d", "godot3", "-f", "stream", CAPTURE], [], 0).stdout;
    let text = String::from_utf8(out).unwrap();
    let headers: Vec<&str> = text.lines().filter(|l| l.starts_with("; ")).collect();
    assert_eq!(headers.len(), 12);
    for (i, (h, (prefix, len))) in headers.iter().zip(&frames).enumerate() {
        assert_eq!(
            *h,
            format!("; {CAPTURE}: frame {i} at byte {}, {len} bytes", prefix + 4)
        );
    }
    // A live stream (framing given): its count is not known, every frame gets a header; a
    // stream read whole (auto) with one value gets none.
    gdwire()
        .args(["dump", "-d", "godot4", "-f", "stream", "-"])
        .write_stdin(stream(&[hex("02000000 05000000")]))
        .assert()
        .success()
        .stdout("; <stdin>: frame 0 at byte 4, 8 bytes\n5\n");
    gdwire()
        .args(["dump", "-"])
        .write_stdin(stream(&[hex("02000000 05000000")]))
        .assert()
        .success()
        .stdout("5\n");
}

/// clap's own words are kept (the suggestion, the possible values, the argument's name), on
/// one line, exit code 2.
#[test]
fn usage_errors_keep_claps_message() {
    for (args, want) in [
        (
            &["dump", "--formt", "json"][..],
            "gdwire: unexpected argument '--formt' found; tip: a similar argument exists: \
             '--format' (see gdwire --help)\n",
        ),
        (
            &["dump", "--framing", "lol"],
            "gdwire: invalid value 'lol' for '--framing <FRAMING>' [possible values: auto, none, \
             stream, stream-be, multiplayer, multiplayer-capture] (see gdwire --help)\n",
        ),
        (
            &["validate", "--max-depth"],
            "gdwire: a value is required for '--max-depth <N>' but none was supplied (see gdwire \
             --help)\n",
        ),
        (
            &["dump", "-d", "godot9"],
            "gdwire: invalid value 'godot9' for '--dialect <DIALECT>': unknown dialect (expected \
             auto, godot3, godot4.0 … godot4.6, godot4, pandemonium3.5, pandemonium3.8 or \
             pandemonium5) (see gdwire --help)\n",
        ),
        (
            &["dunp"],
            "gdwire: unrecognized subcommand 'dunp'; tip: a similar subcommand exists: 'dump' \
             (see gdwire --help)\n",
        ),
    ] {
        let out = gdwire().args(args).assert().code(2).get_output().clone();
        assert_eq!(one_line(&out.stderr), want, "{args:?}");
    }
    // No subcommand: the help, on stderr, exit 2.
    gdwire()
        .assert()
        .code(2)
        .stderr(predicate::str::contains("Usage: gdwire <COMMAND>"));
}

// ----- the Godot 4 sample: a capture made by the real Godot 4.6 engine ----------------------

const CAPTURE4: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/godot4_capture.bin");
const CAPTURE4_TXT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/godot4_capture.txt");

/// The README's main command: no options, the dialect and framing are found, and the text is
/// the engine's own `var_to_str` byte for byte.
#[test]
fn readme_command_dumps_the_godot4_capture_as_the_engines_var_to_str() {
    let out = run(&["dump", "--no-headers", CAPTURE4], [], 0);
    assert!(out.stdout == std::fs::read(CAPTURE4_TXT).unwrap());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!(
            "gdwire: {CAPTURE4}: auto: read as --dialect godot4.6 --framing stream (12 values) \
             [godot4.5, godot4.4 read it the same]: every reading that decodes the input reads \
             the same values\n"
        )
    );
    // With headers: one per frame, and the values in between are the engine's text.
    let with = gdwire().arg("dump").arg(CAPTURE4).output().unwrap().stdout;
    let with = String::from_utf8(with).unwrap();
    let stripped: String = with
        .split_inclusive('\n')
        .filter(|l| !l.starts_with("; "))
        .collect();
    assert_eq!(stripped, std::fs::read_to_string(CAPTURE4_TXT).unwrap());
    assert_eq!(with.lines().filter(|l| l.starts_with("; ")).count(), 12);
    // JSON both ways gives the engine's bytes back.
    let json = gdwire()
        .args(["dump", "--format", "json", CAPTURE4])
        .output()
        .unwrap()
        .stdout;
    gdwire()
        .args(["encode", "--from", "json", "-f", "stream"])
        .write_stdin(json)
        .assert()
        .success()
        .stdout(std::fs::read(CAPTURE4).unwrap());
}

/// Godot 4.6's own `var_to_str` / `str_to_var` as truth (`tests/fixtures/godot4/str_to_var.jsonl`,
/// made by the real engine): `dump` of each value prints the engine's text, and `encode --from
/// text` of that text gives `var_to_bytes(str_to_var(text))` as the engine computed it.
#[test]
fn godot4_text_both_ways_matches_the_engine() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/godot4/str_to_var.jsonl"
    );
    let mut payloads = Vec::new();
    let mut texts = String::new();
    let mut want = Vec::new();
    for line in std::fs::read_to_string(path).unwrap().lines() {
        // The generator writes the engine's text raw: control characters (a tab, a carriage
        // return) can appear inside its strings; escape them for serde_json.
        let escaped: String = line
            .chars()
            .map(|c| match c {
                '\u{0}'..='\u{1f}' => format!("\\u{:04x}", c as u32),
                c => c.to_string(),
            })
            .collect();
        let row: serde_json::Value = serde_json::from_str(&escaped).unwrap();
        let (Some(value), Some(hex_out), true) = (
            row["value_hex"].as_str(),
            row["hex"].as_str(),
            row["read"] == true,
        ) else {
            continue;
        };
        // An Array[Node] sent without full objects names its class "EncodedObjectAsID" on the
        // wire (as the engine writes it); the engine's text was made from the live value.
        if row["name"] == "array_typed_node" {
            continue;
        }
        payloads.push(hex(value));
        texts.push_str(row["text"].as_str().unwrap());
        texts.push('\n');
        want.push(hex(hex_out));
    }
    assert!(payloads.len() >= 70, "{}", payloads.len());
    gdwire()
        .args(["dump", "--no-headers", "-d", "godot4", "-f", "stream", "-"])
        .write_stdin(stream(&payloads))
        .assert()
        .success()
        .stdout(texts.clone());
    gdwire()
        .args(["encode", "--from", "text", "-d", "godot4", "-f", "stream"])
        .write_stdin(texts)
        .assert()
        .success()
        .stdout(stream(&want));
}

// ----- the test command ----------------------------------------------------------------------

/// Run in a child process by `engine_tests_skip_unless_required` (does nothing otherwise).
#[test]
fn engine_probe() {
    if std::env::var("GDWIRE_ENGINE_PROBE").as_deref() != Ok("1") {
        return;
    }
    let found = support::engine::binary_or_skip("engine_probe");
    println!("PROBE-RESULT {found:?}");
}

/// Without the engine, an engine test prints why it is skipped and passes; with
/// `GDWIRE_REQUIRE_ENGINE=1` (what `.ci/test` sets) it fails.
#[test]
fn engine_tests_skip_unless_required() {
    let empty = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("no_engine_here");
    std::fs::create_dir_all(&empty).unwrap();
    let probe = |require: bool| {
        let mut cmd = std::process::Command::new(std::env::current_exe().unwrap());
        cmd.args([
            "engine_probe",
            "--exact",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env("GDWIRE_ENGINE_PROBE", "1")
        .env("PATH", &empty)
        .env_remove("GODOT3_SERVER")
        .env_remove("GDWIRE_SKIP_ENGINE");
        if require {
            cmd.env("GDWIRE_REQUIRE_ENGINE", "1");
        } else {
            cmd.env_remove("GDWIRE_REQUIRE_ENGINE");
        }
        cmd.output().unwrap()
    };
    let out = probe(false);
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("PROBE-RESULT None"), "{text}");
    assert!(
        text.contains("SKIPPED: the engine part of engine_probe: godot3-server is not installed"),
        "{text}"
    );
    let out = probe(true);
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{text}");
    assert!(
        text.contains("GDWIRE_REQUIRE_ENGINE=1 but godot3-server was not found"),
        "{text}"
    );
}

/// The README's test command is `.ci/test`; it installs the engine and requires the engine
/// tests; `.ci/run` (CI) calls that same command.
#[test]
fn the_readme_test_command_is_what_ci_runs() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |p: &str| std::fs::read_to_string(root.join(p)).unwrap();
    let readme = read("README.md");
    assert!(
        readme.contains("```sh\n.ci/test\n```"),
        "README's test command"
    );
    let test = read(".ci/test");
    assert!(test.contains("apt-get install -y -qq godot3-server"));
    assert!(test.contains("tests/godot4/install.sh"));
    assert!(test.contains("export GDWIRE_REQUIRE_ENGINE=1"));
    assert!(test.contains("cargo test --all-features"));
    assert!(read(".ci/run").lines().any(|l| l.trim() == "bash .ci/test"));
}
