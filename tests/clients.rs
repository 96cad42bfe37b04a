//! Real clients driving the engine: python-chess's engine module (UCI and XBoard games and a
//! MultiPV analysis). Skips, saying so, where python3 with the `chess` package is absent.

use std::process::Command;

#[test]
fn python_chess_plays_and_analyses() {
    let probe = Command::new("python3")
        .args(["-c", "import chess.engine"])
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        eprintln!("SKIPPED: python3 with python-chess is not installed (pip install chess)");
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/pychess-client.py");
    let out = Command::new("python3")
        .args([script, env!("CARGO_BIN_EXE_locust")])
        .output()
        .unwrap_or_else(|e| panic!("cannot run {script}: {e}"));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("uci: ") && text.contains("xboard: ") && text.contains("multipv: ok"),
        "{text}"
    );
}
