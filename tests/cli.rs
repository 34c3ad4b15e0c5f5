//! The `topitop` binary, run as a user would.

use std::process::{Command, Output};

fn topitop(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_topitop"))
        .args(args)
        .output()
        .expect("run topitop")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn perft_prints_paths_and_positions_per_depth() {
    let o = topitop(&["perft", "3", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let got: Vec<(u64, u64)> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["paths"].as_u64().unwrap(), r["positions"].as_u64().unwrap()))
        .collect();
    assert_eq!(got, [(27, 27), (728, 584), (20_168, 7_150)]);
    let text = stdout(&topitop(&["perft", "2", "--rules", "v0"]));
    assert!(
        text.lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["2", "728", "584"]),
        "{text}"
    );
}

#[test]
fn show_json_lists_every_move_with_its_child() {
    let o = topitop(&["show", "1_LS-L-SLLS45", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["turn"], "Blue");
    assert_eq!(v["forbiddenSlide"], "4-5");
    assert_eq!(v["primitive"], serde_json::Value::Null);
    assert_eq!(v["tier"], 0x4300_0000u64);
    assert_eq!(v["tierPosition"], 35_766);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 16);
    assert_eq!(moves[0]["move"], "2-1");
    assert_eq!(moves[0]["code"], 16);
    assert_eq!(moves[0]["position"], "2_C--L-SLLS");
    assert!(moves.iter().all(|m| m["move"] != "4-5"));
}

#[test]
fn show_text_reports_primitive_values() {
    let o = topitop(&["show", "2_PPQRC----", "--variant", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("Primitive  tie"), "{text}");
    assert!(text.contains("Moves (0)"), "{text}");
    let text = stdout(&topitop(&["show", "1_LOBLRXLCS"]));
    assert!(text.contains("None") && text.contains("code 1023"), "{text}");
}

#[test]
fn bad_input_is_a_clear_error_with_exit_code_2() {
    for (args, needle) in [
        (&["show", "1_---Z-----"][..], "cell 4 is 'Z'"),
        (&["show", "1_BBB------"][..], "3 blue buckets"),
        (
            &["show", "1_---------", "--variant", "8"][..],
            "unknown variant 8",
        ),
        (&["perft", "2", "--rules", "v9"][..], "unknown ruleset"),
        (&["perft", "2", "--budget", "1/2"][..], "B/R/S/L"),
    ] {
        let o = topitop(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("topitop-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn solve_resumes_after_sigkill_with_identical_result() {
    let dir = temp_dir("resume");
    let (clean, killed) = (dir.join("clean"), dir.join("killed"));
    let budget = ["--budget", "2/2/2/2"];
    let o = topitop(&[&["solve", "--out", clean.to_str().unwrap()][..], &budget[..]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let mut child = Command::new(env!("CARGO_BIN_EXE_topitop"))
        .args(["solve", "--out", killed.to_str().unwrap(), "--budget", "2/2/2/2"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let ckpt = killed.join("topitop_v1_0_2-2-2-2.ckpt");
    let tier_files = || {
        std::fs::read_dir(&ckpt).map_or(0, |d| {
            d.filter(|e| {
                e.as_ref()
                    .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "tier"))
            })
            .count()
        })
    };
    while tier_files() < 20 {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    child.kill().unwrap(); // SIGKILL on Unix
    let status = child.wait().unwrap();
    assert!(!status.success(), "the solve was interrupted");
    assert!(
        !killed.join("topitop_v1_0_2-2-2-2.sol").exists(),
        "no result from a killed run"
    );
    // A torn checkpoint is ignored and its tier solved again.
    let first = std::fs::read_dir(&ckpt).unwrap().next().unwrap().unwrap().path();
    let bytes = std::fs::read(&first).unwrap();
    std::fs::write(&first, &bytes[..bytes.len() / 2]).unwrap();
    let o = topitop(&[&["solve", "--out", killed.to_str().unwrap()][..], &budget[..]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("resumed"), "{}", stdout(&o));
    let a = std::fs::read(clean.join("topitop_v1_0_2-2-2-2.sol")).unwrap();
    let b = std::fs::read(killed.join("topitop_v1_0_2-2-2-2.sol")).unwrap();
    assert!(a == b, "resumed result differs from an uninterrupted one");
    assert!(
        !ckpt.exists(),
        "checkpoints are removed after the result is written"
    );
    let v = topitop(&[&["verify", "--dir", killed.to_str().unwrap()][..], &budget[..]].concat());
    assert!(
        v.status.success() && stdout(&v).contains(" 0 violations"),
        "{}",
        stdout(&v)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn verify_reports_a_corrupt_file() {
    let dir = temp_dir("corrupt");
    let budget = ["--budget", "2/0/2/2"];
    let o = topitop(&[&["solve", "--out", dir.to_str().unwrap()][..], &budget[..]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let file = dir.join("topitop_v1_0_2-0-2-2.sol");
    let mut bytes = std::fs::read(&file).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x10;
    std::fs::write(&file, &bytes).unwrap();
    let v = topitop(&[&["verify", "--dir", dir.to_str().unwrap()][..], &budget[..]].concat());
    assert_eq!(v.status.code(), Some(2));
    assert!(stderr(&v).contains("checksum mismatch"), "{}", stderr(&v));
    std::fs::write(&file, &bytes[..100]).unwrap();
    let v = topitop(&[&["verify", "--dir", dir.to_str().unwrap()][..], &budget[..]].concat());
    assert!(stderr(&v).contains("truncated"), "{}", stderr(&v));
    std::fs::remove_dir_all(&dir).ok();
}
