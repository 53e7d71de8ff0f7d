//! `samples/godot3_capture.{bin,txt}` are what a real Godot 3.2.3 engine writes when it runs
//! `samples/make_capture.gd`: regenerate them into a temporary directory with
//! `samples/make_capture.sh` and require identical bytes. Needs `godot3-server`; skipped with a
//! notice without it, unless `GDWIRE_REQUIRE_ENGINE=1`.

mod support;

use std::path::Path;
use std::process::Command;

#[test]
fn sample_capture_is_reproduced_by_its_generator_script() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let Some(godot) = support::engine::binary_or_skip("sample_capture_is_reproduced") else {
        return;
    };
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("make_capture");
    let _ = std::fs::remove_dir_all(&out);
    let run = Command::new("bash")
        .env("GODOT3_SERVER", &godot)
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
