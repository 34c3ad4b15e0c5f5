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
