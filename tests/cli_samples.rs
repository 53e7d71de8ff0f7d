//! `samples/godot3_capture.{bin,txt}` are what a real Godot 3.2.3 engine writes when it runs
//! `samples/make_capture.gd`: regenerate them into a temporary directory with
//! `samples/make_capture.sh` and require identical bytes. Needs `godot3-server`; fails without
//! it unless `GDWIRE_SKIP_ENGINE=1`.

use std::path::Path;
use std::process::Command;

#[test]
fn sample_capture_is_reproduced_by_its_generator_script() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let godot = std::env::var("GODOT3_SERVER").unwrap_or_else(|_| "godot3-server".into());
    let have_engine = Command::new(&godot)
        .arg("--version")
        .output()
        // 3.2.3 exits with 255 after printing its version.
        .is_ok_and(|o| o.stdout.starts_with(b"3."));
    if !have_engine {
        if std::env::var("GDWIRE_SKIP_ENGINE").as_deref() == Ok("1") {
            eprintln!("notice: GDWIRE_SKIP_ENGINE=1: samples/make_capture.sh was NOT run");
            return;
        }
        panic!(
            "{godot} not found: install it with `apt-get install -y godot3-server`, set \
             GODOT3_SERVER=/path/to/binary, or set GDWIRE_SKIP_ENGINE=1 to skip this check"
        );
    }
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("make_capture");
    let _ = std::fs::remove_dir_all(&out);
    let run = Command::new("bash")
        .arg(root.join("samples/make_capture.sh"))
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "make_capture.sh failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    for name in ["godot3_capture.bin", "godot3_capture.txt"] {
        let fresh = std::fs::read(out.join(name)).unwrap();
        let committed = std::fs::read(root.join("samples").join(name)).unwrap();
        assert!(
            fresh == committed,
            "samples/{name} differs from the engine's output"
        );
    }
}
