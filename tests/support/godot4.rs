//! Running a GDScript in the real Godot 4.6 engine (the official web export template in
//! headless Chromium, through `tests/godot4/run.py`) from a test.
//!
//! ```ignore
//! let out = match godot4::run_gdscript(SCRIPT, &[("input.bin", &bytes)]) {
//!     Ok(out) => out,
//!     Err(skip) => return skip.report("my_test"),
//! };
//! assert_eq!(out.status, 0, "{}", out.stderr);
//! ```
//!
//! The script must `extends SceneTree` and end with `quit(code)` from `_process()`; see
//! tests/godot4/README.md. Without the engine installed the run is skipped with a reason,
//! unless `GDWIRE_REQUIRE_ENGINE=1` (CI), which turns a missing engine into a failure.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::Path;

use super::engine::TempDir;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `tests/godot4/`: the runner and its scripts.
pub const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/godot4");

/// The version every Godot 4 fixture is defined against: `Engine.get_version_info()["hash"]`.
pub const ENGINE_HASH: &str = "89cea143987d564363e15d207438530651d943ac";

/// What one engine run produced.
#[derive(Debug)]
pub struct Output {
    /// The engine's exit code (`quit(code)`); 124 = the runner's timeout, 125 = the runner
    /// could not start the engine, the script failed to load, or the engine crashed.
    pub status: i32,
    /// Everything the engine printed to stdout (the engine's 3-line banner first), except
    /// `GDWIRE-FILE:` lines.
    pub stdout: String,
    /// The engine's stderr: `ERROR: ...` / `   at: ...` lines, `printerr()`, runner messages.
    pub stderr: String,
    /// Files the script sent back with `GDWIRE-FILE:<name>:<base64>` lines.
    pub files: BTreeMap<String, Vec<u8>>,
    /// Wall time of the whole run.
    pub elapsed: Duration,
}

impl Output {
    /// Panics with the output unless the engine exited 0.
    pub fn expect_success(&self, what: &str) -> &Output {
        assert!(
            self.status == 0,
            "{what}: the Godot 4.6 engine exited {}\n--- stdout ---\n{}\n--- stderr (end) ---\n{}",
            self.status,
            self.stdout.trim_end(),
            tail(&self.stderr, 40)
        );
        self
    }
}

fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// Why a run did not happen: the engine (or Chromium, or python3) is not installed and
/// `GDWIRE_REQUIRE_ENGINE` is not set.
#[derive(Debug)]
pub struct Skip(pub String);

impl Skip {
    /// Prints the skip notice for `test` (call it and return from the test).
    pub fn report(&self, test: &str) {
        eprintln!(
            "notice: {test}: the Godot 4.6 engine part was SKIPPED: {}",
            self.0
        );
    }
}

fn required() -> bool {
    matches!(
        std::env::var("GDWIRE_REQUIRE_ENGINE").as_deref(),
        Ok(v) if !v.is_empty() && v != "0"
    )
}

/// `Ok(())` when the runner can start the engine; otherwise the reason (a `Skip`), or a
/// panic when `GDWIRE_REQUIRE_ENGINE` is set. `GDWIRE_SKIP_ENGINE=1` skips on purpose.
pub fn available() -> Result<(), Skip> {
    let reason = if std::env::var("GDWIRE_SKIP_ENGINE").as_deref() == Ok("1") {
        Some("GDWIRE_SKIP_ENGINE=1".to_string())
    } else {
        match Command::new("python3")
            .arg(Path::new(DIR).join("run.py"))
            .arg("--check-install")
            .stdin(Stdio::null())
            .output()
        {
            Err(e) => Some(format!("cannot run python3: {e}")),
            Ok(out) if out.status.success() => None,
            Ok(out) => Some(String::from_utf8_lossy(&out.stderr).trim().to_string()),
        }
    };
    match reason {
        None => Ok(()),
        Some(reason) if required() => panic!(
            "GDWIRE_REQUIRE_ENGINE is set but the Godot 4.6 engine cannot run: {reason} \
             (install it with tests/godot4/install.sh)"
        ),
        Some(reason) => Err(Skip(format!(
            "{reason} (set GDWIRE_REQUIRE_ENGINE=1 to \
             make this a failure)"
        ))),
    }
}

/// Runs `script` (GDScript source, `extends SceneTree`) in the Godot 4.6 engine with `files`
/// packed beside it as `res://<name>`, within 120 s. See [`run_gdscript_with`].
pub fn run_gdscript(script: &str, files: &[(&str, &[u8])]) -> Result<Output, Skip> {
    run_gdscript_with(script, files, Duration::from_secs(120))
}

/// Runs `script` in the Godot 4.6 engine with `files` (`(name, bytes)`, readable by the
/// script as `res://<name>`; names may contain `/`), stopping it after `timeout`.
/// Returns the engine's exit status and output whatever they are (check `status`);
/// `Err(Skip)` only when the engine is not installed (see [`available`]).
pub fn run_gdscript_with(
    script: &str,
    files: &[(&str, &[u8])],
    timeout: Duration,
) -> Result<Output, Skip> {
    available()?;
    Ok(run(&[], script, files, timeout))
}

/// The double-precision Godot 4.6.3 build of `tests/godot4/double/` (`build.sh`):
/// `GODOT4_DOUBLE`, else `tests/godot4/double/.engine/godot`. `Err(Skip)` when there is none:
/// CI does not build it, so its absence is never a failure.
pub fn double_engine() -> Result<std::path::PathBuf, Skip> {
    let path = std::env::var_os("GODOT4_DOUBLE")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(DIR).join("double/.engine/godot"));
    if path.is_file() {
        Ok(path)
    } else {
        Err(Skip(format!(
            "no double-precision build at {} (tests/godot4/double/build.sh builds one)",
            path.display()
        )))
    }
}

/// An older Godot 4 engine built locally (`tests/godot4/older/README.md`), named by
/// `GODOT4_OLDER`, with the dialect of its `--version` and its build's precision (its
/// `double` feature tag, printed by `tests/godot4/precision.gd`). `Err(Skip)` when there is none: CI does not build one, so its
/// absence is never a failure.
pub fn older_engine() -> Result<(std::path::PathBuf, gdwire::Dialect, gdwire::Precision), Skip> {
    let Some(path) = std::env::var_os("GODOT4_OLDER").map(std::path::PathBuf::from) else {
        return Err(Skip(
            "GODOT4_OLDER names no older Godot 4 engine (tests/godot4/older/README.md)".into(),
        ));
    };
    let out = Command::new(&path).arg("--version").output();
    let version = out.map(|o| String::from_utf8_lossy(&o.stdout).into_owned());
    let dialect = match version.as_deref().unwrap_or("").get(..4) {
        Some("4.0.") => gdwire::Dialect::GODOT_4_0,
        Some("4.1.") => gdwire::Dialect::GODOT_4_1,
        Some("4.2.") => gdwire::Dialect::GODOT_4_2,
        Some("4.3.") => gdwire::Dialect::GODOT_4_3,
        Some("4.4.") => gdwire::Dialect::GODOT_4_4,
        Some("4.5.") => gdwire::Dialect::GODOT_4_5,
        _ => panic!(
            "GODOT4_OLDER={}: not a Godot 4.0-4.5 engine",
            path.display()
        ),
    };
    let probe = run_native_with(
        &path,
        include_str!("../godot4/precision.gd"),
        &[],
        Duration::from_secs(120),
    );
    probe.expect_success("tests/godot4/precision.gd");
    let precision = match probe.stdout.contains("GDWIRE-PRECISION double") {
        true => gdwire::Precision::Double,
        false => gdwire::Precision::Single,
    };
    Ok((path, dialect, precision))
}

/// [`run_gdscript_with`] in a native engine binary (`run.py --native`), headless.
pub fn run_native_with(
    engine: &Path,
    script: &str,
    files: &[(&str, &[u8])],
    timeout: Duration,
) -> Output {
    run(
        &["--native".as_ref(), engine.as_os_str()],
        script,
        files,
        timeout,
    )
}

fn run(
    runner_args: &[&std::ffi::OsStr],
    script: &str,
    files: &[(&str, &[u8])],
    timeout: Duration,
) -> Output {
    let dir = TempDir::new("godot4");
    let script_path = dir.0.join("main.gd");
    std::fs::write(&script_path, script).unwrap();
    let out_dir = dir.0.join("out");
    let in_dir = dir.0.join("in");
    let mut cmd = Command::new("python3");
    cmd.arg(Path::new(DIR).join("run.py"))
        .args(runner_args)
        .arg("--timeout")
        .arg(format!("{}", timeout.as_secs_f64()))
        .arg("--out-dir")
        .arg(&out_dir)
        .arg(&script_path);
    for (i, (name, bytes)) in files.iter().enumerate() {
        assert!(
            !name.is_empty() && !name.starts_with('/') && !name.contains(".."),
            "bad file name {name:?}"
        );
        let path = in_dir.join(i.to_string());
        std::fs::create_dir_all(&in_dir).unwrap();
        std::fs::write(&path, bytes).unwrap();
        let mut spec = path.into_os_string();
        spec.push(format!("=res://{name}"));
        cmd.arg(spec);
    }
    // Chromium's profile goes under our temporary directory, so no run leaves one behind.
    cmd.env("TMPDIR", &dir.0)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(dir.0.join("stdout")).unwrap())
        .stderr(std::fs::File::create(dir.0.join("stderr")).unwrap());
    let start = Instant::now();
    let mut child = cmd
        .spawn()
        .expect("cannot start python3 tests/godot4/run.py");
    // run.py enforces `timeout` itself and kills Chromium; this is the backstop in case the
    // runner itself hangs (SIGTERM first, which run.py turns into its cleanup).
    let hard_limit = timeout + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > hard_limit {
            let _ = Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status();
            std::thread::sleep(Duration::from_secs(5));
            let _ = child.kill();
            let _ = child.wait();
            panic!("tests/godot4/run.py did not finish within {hard_limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let elapsed = start.elapsed();
    let stdout = std::fs::read_to_string(dir.0.join("stdout")).unwrap_or_default();
    let stderr = std::fs::read_to_string(dir.0.join("stderr")).unwrap_or_default();
    let mut out_files = BTreeMap::new();
    if let Ok(entries) = std::fs::read_dir(&out_dir) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            out_files.insert(name, std::fs::read(entry.path()).unwrap());
        }
    }
    Output {
        status: status.code().unwrap_or(-1),
        stdout,
        stderr,
        files: out_files,
        elapsed,
    }
}

/// The `ERROR:` lines of the engine's stderr, in order (without the `ERROR: ` prefix).
pub fn error_lines(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix("ERROR: "))
        .collect()
}
