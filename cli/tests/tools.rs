//! The measuring tools from the outside: `acesup survey`, `acesup solve` and `acesup autoplay`.

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

#[test]
fn autoplay_writes_one_line_per_deal_that_agrees_with_its_summary() {
    let path = std::env::temp_dir().join(format!("acesup-per-deal-{}.txt", std::process::id()));
    let path_text = path.to_str().unwrap();
    let summary = run_json(&[
        "autoplay",
        "--deals",
        "3",
        "--seed",
        "5",
        "--set",
        "rollouts=0",
        "--per-deal",
        path_text,
        "--json",
    ]);
    let text = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    let rows: Vec<Vec<u64>> = text
        .lines()
        .map(|line| line.split(' ').map(|w| w.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), 3);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), 3);
        assert_eq!(row[0], 5 + i as u64);
        assert!(row[1] <= 1 && row[2] <= 48);
    }
    let won: u64 = rows.iter().map(|row| row[1]).sum();
    assert_eq!(summary["won"].as_u64().unwrap(), won);
    let average = rows.iter().map(|row| row[2] as f64).sum::<f64>() / 3.0;
    assert!((summary["average_score"].as_f64().unwrap() - average).abs() < 1e-9);
}

#[test]
fn autoplay_plays_the_pimc_baseline_and_rejects_unknown_settings() {
    let summary = run_json(&[
        "autoplay",
        "--policy",
        "pimc",
        "--deals",
        "2",
        "--seed",
        "7",
        "--set",
        "pimc_samples=2,pimc_nodes=1000,pimc_candidates=4",
        "--json",
    ]);
    assert_eq!(summary["policy"], "pimc");
    assert_eq!(summary["deals"], 2);
    let average = summary["average_score"].as_f64().unwrap();
    assert!(average > 0.0 && average <= 48.0, "{average}");
    for bad in ["pimc_speed=3", "pimc_samples=many"] {
        let output = Command::new(env!("CARGO_BIN_EXE_acesup"))
            .args(["autoplay", "--policy", "pimc", "--deals", "1", "--set", bad])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{bad}");
        let message = String::from_utf8_lossy(&output.stderr);
        assert!(message.contains("pimc_"), "{bad}: {message}");
    }
}
