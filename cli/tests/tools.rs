//! The measuring tools from the outside: `acesup survey` and `acesup solve` in JSON.

// Test helpers may fail loudly.
#![allow(clippy::unwrap_used)]

use std::process::Command;

use serde_json::Value;

fn run_json(args: &[&str]) -> Value {
    let output = Command::new(env!("CARGO_BIN_EXE_acesup"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn a_survey_counts_every_deal_once_and_agrees_with_solve() {
    let survey = run_json(&[
        "survey", "--deals", "4", "--seed", "9", "--budget", "50000", "--json",
    ]);
    assert_eq!(survey["deals"], 4);
    assert_eq!(survey["jokers"], 0);
    let won = survey["winnable"].as_u64().unwrap();
    let lost = survey["lost"].as_u64().unwrap();
    let unknown = survey["unknown"].as_u64().unwrap();
    assert_eq!(won + lost + unknown, 4);
    // Deal 9 is an easy win: the survey and a single solve agree on it.
    let solve = run_json(&["solve", "--deal", "9", "--budget", "50000", "--json"]);
    assert_eq!(solve["winnable"], true);
    assert!(won >= 1);
}

#[test]
fn a_survey_with_a_joker_says_so() {
    let survey = run_json(&[
        "survey", "--deals", "2", "--jokers", "1", "--budget", "20000", "--json",
    ]);
    assert_eq!(survey["jokers"], 1);
    assert_eq!(survey["deals"], 2);
}
