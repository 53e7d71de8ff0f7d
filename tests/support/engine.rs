//! Running a GDScript in the real Godot 3.2.3 engine (`godot3-server`) from a test.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The Godot project holding the test scripts.
pub const PROJECT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/godot3");

/// The engine binary (`GODOT3_SERVER` or `godot3-server` on `PATH`), or `None` when the
/// engine part of `test` is skipped: the engine is not installed (or `GDWIRE_SKIP_ENGINE=1`)
/// and `GDWIRE_REQUIRE_ENGINE=1` is not set. The reason goes to the process's stderr past the
/// test harness's capture, so `cargo test` shows it even for a passing test. With
/// `GDWIRE_REQUIRE_ENGINE=1`
/// (CI, `.ci/test`) a missing engine fails the test instead: CI never skips it.
pub fn binary_or_skip(test: &str) -> Option<String> {
    let require = std::env::var("GDWIRE_REQUIRE_ENGINE").as_deref() == Ok("1");
    let godot = std::env::var("GODOT3_SERVER").unwrap_or_else(|_| "godot3-server".into());
    let found = if godot.contains('/') {
        Path::new(&godot).is_file()
    } else {
        std::env::var_os("PATH")
            .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(&godot).is_file()))
    };
    let how = "install it with `apt-get install -y godot3-server` (Debian 12) or run `.ci/test`, \
               which installs it; or set GODOT3_SERVER=/path/to/binary";
    if require {
        assert!(
            found,
            "{test}: GDWIRE_REQUIRE_ENGINE=1 but {godot} was not found. This test drives a real \
             Godot 3.2.3 engine: {how}"
        );
        return Some(godot);
    }
    if std::env::var("GDWIRE_SKIP_ENGINE").as_deref() == Ok("1") {
        notice(&format!(
            "SKIPPED: the engine part of {test} (GDWIRE_SKIP_ENGINE=1)"
        ));
        return None;
    }
    if !found {
        notice(&format!(
            "SKIPPED: the engine part of {test}: {godot} is not installed ({how}; \
             GDWIRE_REQUIRE_ENGINE=1 makes this a failure)"
        ));
        return None;
    }
    Some(godot)
}

/// The engine's `--version` line (`3.2.3.stable.debian`, `3.6.stable.debian3.6+ds-2`).
pub fn version(godot: &str) -> String {
    let out = Command::new(godot)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{godot} --version: {e}"));
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines().next().unwrap_or("").trim().to_string()
}

/// One line on the real stderr: `eprintln!` output of a passing test is swallowed by the
/// harness, a skipped engine check must not be.
fn notice(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// A temporary directory removed on drop (kept when the test panics, for inspection).
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let dir = std::env::temp_dir().join(format!("gdwire-{tag}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// Runs `res://<script>` with `env`, waits at most `timeout`, and returns its stdout. Panics
/// (with the end of stderr) unless it exits 0, prints no failure line (`...FAILURE`, script
/// or parse errors) on stderr and prints a line starting with `ok_marker` on stdout. Warns
/// when the engine is not 3.2.3, the version the fixtures are defined against.
pub fn run_script(
    godot: &str,
    script: &str,
    env: &[(&str, &OsStr)],
    dir: &Path,
    timeout: Duration,
    ok_marker: &str,
) -> String {
    match try_run_script(godot, script, env, dir, timeout, ok_marker) {
        Ok(stdout) => stdout,
        Err(Failed { message, .. }) => panic!("{message}"),
    }
}

/// Why [`try_run_script`] failed.
pub struct Failed {
    pub message: String,
    /// The engine crashed (its crash handler ran), as opposed to a failing script.
    pub crashed: bool,
}

/// [`run_script`], returning the failure instead of panicking on it.
pub fn try_run_script(
    godot: &str,
    script: &str,
    env: &[(&str, &OsStr)],
    dir: &Path,
    timeout: Duration,
    ok_marker: &str,
) -> Result<String, Failed> {
    let stdout_path = dir.join(format!("{script}.stdout"));
    let stderr_path = dir.join(format!("{script}.stderr"));
    let mut cmd = Command::new(godot);
    cmd.args(["--path", PROJECT, "--script", &format!("res://{script}")])
        .env("LANG", "en_US.UTF-8")
        .env("LC_ALL", "en_US.UTF-8")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&stdout_path).unwrap())
        .stderr(std::fs::File::create(&stderr_path).unwrap());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {godot}: {e}"));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "{script}: the engine did not finish within {timeout:?}; files kept in {}",
                dir.display()
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let stdout = std::fs::read_to_string(&stdout_path).unwrap_or_default();
    let stderr = std::fs::read_to_string(&stderr_path).unwrap_or_default();
    let script_error = stderr.lines().any(|l| {
        l.contains("FAILURE") || l.starts_with("SCRIPT ERROR") || l.contains("Parse Error")
    });
    if !status.success() || script_error || !stdout.lines().any(|l| l.starts_with(ok_marker)) {
        let lines: Vec<&str> = stderr.lines().collect();
        return Err(Failed {
            message: format!(
                "{script} failed ({status}); files kept in {}\n--- stdout ---\n{}\n--- stderr (end) ---\n{}",
                dir.display(),
                stdout.trim_end(),
                lines[lines.len().saturating_sub(30)..].join("\n")
            ),
            crashed: stderr.contains("handle_crash: Program crashed"),
        });
    }
    if !stdout.contains("v3.2.3.") {
        eprintln!(
            "warning: the engine truth is defined as Godot 3.2.3; this engine says: {}",
            stdout.lines().next().unwrap_or("")
        );
    }
    Ok(stdout)
}
