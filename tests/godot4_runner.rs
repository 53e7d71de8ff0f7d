//! The Godot 4.6 runner (tests/godot4/run.py) itself: the engine it starts is the pinned
//! official 4.6-stable build, and a script's exit code, stdout, stderr and files come back.
//! Skipped with a notice when the engine is not installed, unless GDWIRE_REQUIRE_ENGINE=1.

mod support;

use std::time::Duration;

use support::godot4;

const VERSION_SCRIPT: &str = r#"extends SceneTree

func _initialize():
	var v = Engine.get_version_info()
	print("VERSION ", v["major"], ".", v["minor"], ".", v["patch"], " ", v["status"], " ", v["build"], " ", v["hash"])
	for tag in ["web", "wasm32", "single", "nothreads", "template_release", "double", "debug"]:
		print("FEATURE ", tag, " ", OS.has_feature(tag))
	var input = FileAccess.get_file_as_bytes("res://data/input.bin")
	print("INPUT ", input.hex_encode())
	printerr("to stderr")
	# An engine error, as the release build reports it: a line on stderr, null returned.
	print("DECODED ", bytes_to_var(PackedByteArray([0xff, 0, 0, 0])))
	var bytes = var_to_bytes([1, "ab"])
	print("GDWIRE-FILE:out.bin:", Marshalls.raw_to_base64(bytes))

func _process(_delta):
	quit(7)
	return true
"#;

#[test]
fn engine_is_godot_4_6_stable_and_output_comes_back() {
    let out = match godot4::run_gdscript(VERSION_SCRIPT, &[("data/input.bin", &[1, 2, 0xfe])]) {
        Ok(out) => out,
        Err(skip) => return skip.report("engine_is_godot_4_6_stable"),
    };
    eprintln!("one engine run took {:?}", out.elapsed);
    assert_eq!(out.status, 7, "exit code of quit(7)\n{out:?}");
    let line = |prefix: &str| {
        out.stdout
            .lines()
            .find_map(|l| l.strip_prefix(prefix))
            .unwrap_or_else(|| panic!("no {prefix:?} line in\n{}", out.stdout))
            .to_string()
    };
    assert_eq!(
        line("VERSION "),
        format!("4.6.0 stable official {}", godot4::ENGINE_HASH)
    );
    for (tag, expected) in [
        ("web", true),
        ("wasm32", true),
        ("single", true),
        ("nothreads", true),
        ("template_release", true),
        ("double", false),
        ("debug", false),
    ] {
        assert_eq!(
            line(&format!("FEATURE {tag} ")),
            expected.to_string(),
            "{tag}"
        );
    }
    assert_eq!(line("INPUT "), "0102fe");
    assert_eq!(line("DECODED "), "<null>");
    assert!(
        out.stderr.lines().any(|l| l == "to stderr"),
        "{}",
        out.stderr
    );
    // The only trace of a decode error in a release build, and it names the error code.
    let errors = godot4::error_lines(&out.stderr);
    assert!(
        errors
            .iter()
            .any(|l| l.ends_with("Returning: ERR_INVALID_DATA")),
        "{errors:?}"
    );
    assert!(
        !out.stdout.contains("GDWIRE-FILE"),
        "file lines are not echoed"
    );
    assert_eq!(
        out.files.get("out.bin").map(Vec::as_slice),
        Some(
            &[
                0x1c, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'a',
                b'b', 0, 0
            ][..]
        ),
        "var_to_bytes([1, \"ab\"]) as sent back"
    );
}

#[test]
fn a_script_that_never_quits_is_stopped_and_leaves_no_process() {
    let script = "extends SceneTree\n\nfunc _initialize():\n\tprint(\"STARTED\")\n";
    let out = match godot4::run_gdscript_with(script, &[], Duration::from_secs(20)) {
        Ok(out) => out,
        Err(skip) => return skip.report("a_script_that_never_quits_is_stopped"),
    };
    assert_eq!(out.status, 124, "{out:?}");
    assert!(
        out.stderr.contains("GDWIRE-RUNNER: timed out"),
        "{}",
        out.stderr
    );
    assert!(
        out.stdout.lines().any(|l| l == "STARTED"),
        "output before the timeout is kept"
    );
    assert!(out.elapsed < Duration::from_secs(50), "{:?}", out.elapsed);
    assert_no_runner_chromium();
}

#[test]
fn a_script_that_does_not_parse_fails_fast() {
    let script = "extends SceneTree\n\nfunc _initialize():\n\tvar x = \n";
    let out = match godot4::run_gdscript_with(script, &[], Duration::from_secs(60)) {
        Ok(out) => out,
        Err(skip) => return skip.report("a_script_that_does_not_parse_fails_fast"),
    };
    assert_eq!(out.status, 125, "{out:?}");
    assert!(out.stderr.contains("Parse Error"), "{}", out.stderr);
    assert!(out.elapsed < Duration::from_secs(50), "{:?}", out.elapsed);
    assert_no_runner_chromium();
}

/// No Chromium started by the runner (profile `gdwire-godot4-chromium-*`) is still running.
fn assert_no_runner_chromium() {
    let mut left = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if cmdline.contains("gdwire-godot4-chromium-") {
            left.push(cmdline);
        }
    }
    // Other tests in this binary may be running the engine right now: only fail on
    // processes whose run is over (their profile directory is gone).
    left.retain(|c| {
        c.split(' ')
            .find_map(|a| a.strip_prefix("--user-data-dir="))
            .is_some_and(|d| !std::path::Path::new(d).exists())
    });
    assert!(left.is_empty(), "Chromium processes left behind: {left:#?}");
}
