//! The terminal player from the outside: the scripted-mode contract and resuming a saved game.

// Test helpers may fail loudly.
#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn acesup(args: &[&str], home: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_acesup"))
        .args(args)
        .env("HOME", home)
        .env_remove("XDG_DATA_HOME")
        .env_remove("ACESUP_DATA_DIR")
        .output()
        .unwrap()
}

/// A fresh home directory for one test, removed when dropped (whether the test passes or not).
struct TempHome(PathBuf);

impl Deref for TempHome {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempHome {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp_dir(name: &str) -> TempHome {
    let dir = std::env::temp_dir().join(format!("acesup-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    TempHome(dir)
}

fn json(output: &Output) -> Value {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// 5H 9H KS 2C first, then every other card in order (3C 4C 5C 6C is the second row).
const DECK: &str = "5H 9H KS 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2D 3D 4D 5D 6D 7D 8D 9D \
    10D JD QD KD AD 2H 3H 4H 6H 7H 8H 10H JH QH KH AH 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS AS";

#[test]
fn scripted_mode_prints_the_final_table_as_json() {
    let home = temp_dir("json");
    let out = acesup(
        &[
            "play",
            "--deck",
            DECK,
            "--actions",
            "discard 1; deal; discard 2",
            "--json",
        ],
        &home,
    );
    let value = json(&out);
    assert_eq!(
        value["piles"],
        serde_json::json!([["3C"], ["9H"], ["KS", "5C"], ["2C", "6C"]])
    );
    assert_eq!(value["cell"], Value::Null);
    assert_eq!(value["stock"], 44);
    assert_eq!(value["score"], 2);
    assert_eq!(value["status"], "playing");
    assert_eq!(value["moves"], 3);
    assert_eq!(value["undos"], 0);
    assert_eq!(value["hints"], 0);
    assert_eq!(value["jokers_left"], 1);
    assert_eq!(value["deal"], Value::Null);
    assert_eq!(value["variant"], "standard");
}

#[test]
fn scripted_mode_takes_deal_numbers_variants_and_settings() {
    let home = temp_dir("options");
    let out = acesup(
        &[
            "play",
            "--deal",
            "7",
            "--variant",
            "free-cell",
            "--jokers",
            "3",
            "--actions",
            "cell 1; hint",
            "--json",
        ],
        &home,
    );
    let value = json(&out);
    assert_eq!(value["deal"], 7);
    assert_eq!(value["variant"], "free-cell");
    assert_eq!(value["jokers_left"], 3);
    assert_eq!(value["hints"], 1);
    assert!(value["cell"].is_string());
    assert!(value["hint"].is_string());
    assert_eq!(value["piles"][0], serde_json::json!([]));
}

#[test]
fn an_illegal_action_stops_the_script_naming_position_action_and_reason() {
    let home = temp_dir("illegal");
    let out = acesup(
        &[
            "play",
            "--deck",
            DECK,
            "--actions",
            "deal; move 1 4; deal",
            "--json",
        ],
        &home,
    );
    assert_eq!(out.status.code(), Some(1));
    let message = String::from_utf8_lossy(&out.stderr);
    assert!(
        message.contains("action 2 (move 1 4): pile 4 is not empty"),
        "{message}"
    );
    assert!(out.stdout.is_empty());

    let out = acesup(
        &["play", "--deck", DECK, "--actions", "deal; fly 2", "--json"],
        &home,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("action 2 (fly 2)"));

    let out = acesup(
        &["play", "--deck", DECK, "--actions", "undo", "--no-undo"],
        &home,
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("undo is switched off"));
}

#[test]
fn bad_command_lines_are_usage_errors() {
    let home = temp_dir("usage");
    let short_deck = DECK.rsplit_once(' ').unwrap().0;
    for args in [
        vec!["play", "--deck", short_deck, "--actions", "deal"],
        vec!["play", "--deck", "5H 5H", "--actions", "deal"],
        vec!["play", "--deal", "x", "--actions", "deal"],
        vec!["play", "--deal", "1", "--deck", DECK, "--actions", "deal"],
        vec!["play", "--variant", "klondike", "--actions", "deal"],
        vec!["play", "--jokers", "10", "--actions", "deal"],
        vec!["play", "--json"],
        vec!["play", "--frobnicate"],
        vec!["fly"],
    ] {
        let out = acesup(&args, &home);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
    let out = acesup(&["play", "--deck", short_deck, "--actions", "deal"], &home);
    assert!(String::from_utf8_lossy(&out.stderr).contains("52 cards, this one has 51"));
}

#[test]
fn scripted_mode_without_a_data_dir_reads_and_writes_nothing() {
    let home = temp_dir("nothing-written");
    let out = acesup(
        &["play", "--deal", "3", "--actions", "deal; resign", "--json"],
        &home,
    );
    assert_eq!(json(&out)["status"], "resigned");
    assert_eq!(std::fs::read_dir(&*home).unwrap().count(), 0);
}

#[test]
fn quitting_and_starting_again_resumes_the_game() {
    let home = temp_dir("resume");
    let data = home.join("data");
    let data_arg = data.to_str().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_acesup"))
        .args(["play", "--data-dir", data_arg, "--deck", DECK, "--no-color"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"1\ndeal\nmove 9 1\nhint\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let screen = String::from_utf8_lossy(&out.stdout);
    assert!(screen.contains("there is no pile 9"), "{screen}");
    assert!(screen.contains("Hint: "), "{screen}");
    assert!(screen.contains("Saved."), "{screen}");

    let out = acesup(
        &["play", "--data-dir", data_arg, "--actions", "", "--json"],
        &home,
    );
    let value = json(&out);
    assert_eq!(value["score"], 1);
    assert_eq!(value["moves"], 2);
    assert_eq!(value["hints"], 1);
    assert_eq!(value["stock"], 44);

    // a stats screen after a finished game
    let out = acesup(
        &[
            "play",
            "--data-dir",
            data_arg,
            "--actions",
            "resign",
            "--json",
        ],
        &home,
    );
    assert_eq!(json(&out)["status"], "resigned");
    let mut child = Command::new(env!("CARGO_BIN_EXE_acesup"))
        .args(["play", "--data-dir", data_arg, "--no-color"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"stats\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let screen = String::from_utf8_lossy(&out.stdout);
    assert!(screen.contains("standard   played    1"), "{screen}");
}
