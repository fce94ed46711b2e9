//! Replays the shared scenarios of `tests/scenarios/*.json` through the exported `Session`
//! (the same type Kotlin and Swift call). The format is described in `tests/README.md`; the
//! Kotlin and Swift runners implement the same steps and the same comparison.

// Test code: a malformed scenario or a failed expectation should stop the test loudly.
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use acesup::{
    Action, Analysis, Card, DealChoice, GameError, GameRecord, Hint, NewGameOptions, Place,
    Session, Settings, TableSnapshot, TimeSource, Variant, VariantStatistics,
};
use serde_json::{Map, Value, json};

/// The time every scenario starts at (milliseconds since the epoch).
const CLOCK_START_MS: u64 = 1_000_000_000;

#[derive(Debug)]
struct ManualClock(AtomicU64);

impl TimeSource for ManualClock {
    fn now_ms(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
}

fn scenario_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/scenarios")
}

fn scenario_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(scenario_dir())
        .expect("tests/scenarios exists")
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    files
}

// ---- normalization: the same JSON shapes every runner builds ----------------------------

fn card(card: &Card) -> Value {
    json!(card.code)
}

fn place(place: &Place) -> Value {
    match place {
        Place::Pile { index } => json!(index),
        Place::Cell => json!("cell"),
    }
}

fn place_text(place: &Place) -> String {
    match place {
        Place::Pile { index } => index.to_string(),
        Place::Cell => "cell".to_owned(),
    }
}

fn action(action: &Action) -> Value {
    json!(match action {
        Action::Deal => "deal".to_owned(),
        Action::Discard { from } => format!("discard {}", place_text(from)),
        Action::Move { from, to } => format!("move {} {}", place_text(from), place_text(to)),
        Action::Joker { pile } => format!("joker {pile}"),
    })
}

fn hint(hint: &Hint) -> Value {
    match hint {
        Hint::Play { action: a } => action(a),
        Hint::NoUsefulMove => json!("no_useful_move"),
    }
}

fn variant_code(variant: Variant) -> &'static str {
    match variant {
        Variant::Standard => "standard",
        Variant::AcesOnly => "aces_only",
        Variant::FreeCell => "free_cell",
    }
}

fn variant_from(code: &str) -> Variant {
    match code {
        "standard" => Variant::Standard,
        "aces_only" => Variant::AcesOnly,
        "free_cell" => Variant::FreeCell,
        other => panic!("unknown variant {other:?}"),
    }
}

fn status_code(status: acesup::GameStatus) -> &'static str {
    match status {
        acesup::GameStatus::Playing => "playing",
        acesup::GameStatus::Won => "won",
        acesup::GameStatus::Lost => "lost",
        acesup::GameStatus::Resigned => "resigned",
    }
}

fn counters(c: &acesup::Counters) -> Value {
    json!({"moves": c.moves, "undos": c.undos, "redos": c.redos, "hints": c.hints,
           "jokers_used": c.jokers_used, "restarts": c.restarts})
}

fn optional_number(n: Option<u64>) -> Value {
    n.map_or(Value::Null, |n| json!(n.to_string()))
}

fn snapshot(s: &TableSnapshot) -> Value {
    let piles: Vec<String> = s
        .piles
        .iter()
        .map(|pile| {
            pile.iter()
                .map(|c| c.code.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let tops: Vec<Value> = s
        .tops
        .iter()
        .map(|top| {
            json!({
                "place": place(&top.place),
                "card": card(&top.card),
                "can_discard": top.can_discard,
                "move_targets": top.move_targets.iter().map(place).collect::<Vec<_>>(),
                "smart_move": top.smart_move.as_ref().map_or(Value::Null, action),
            })
        })
        .collect();
    let round = s.round.as_ref().map_or(Value::Null, |r| {
        json!({"limit": r.limit, "hands": r.hands, "complete": r.complete,
               "result": r.result, "qualifies": r.qualifies})
    });
    json!({
        "piles": piles,
        "cell": s.cell.as_ref().map_or(Value::Null, card),
        "has_cell": s.has_cell,
        "stock": s.stock,
        "score": s.score,
        "cards_left": s.cards_left,
        "status": status_code(s.status),
        "variant": variant_code(s.variant),
        "deal_number": optional_number(s.deal_number),
        "counters": counters(&s.counters),
        "jokers_left": s.jokers_left,
        "jokers_per_game": s.jokers_per_game,
        "joker_targets": s.joker_targets,
        "can_deal": s.can_deal,
        "can_undo": s.can_undo,
        "can_redo": s.can_redo,
        "can_hint": s.can_hint,
        "can_restart": s.can_restart,
        "tops": tops,
        "hint": s.hint.as_ref().map_or(Value::Null, hint),
        "play_time_ms": s.play_time_ms,
        "round": round,
        "save_problem": s.save_problem,
    })
}

fn histogram(buckets: &[u32]) -> String {
    buckets
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .map(|(score, n)| format!("{score}:{n}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn variant_statistics(s: &VariantStatistics) -> Value {
    json!({
        "played": s.played, "won": s.won, "win_rate": s.win_rate,
        "current_streak": s.current_streak, "best_streak": s.best_streak,
        "best_score": s.best_score, "average_score": s.average_score,
        "score_histogram": histogram(&s.score_histogram),
    })
}

fn record(r: &GameRecord) -> Value {
    json!({
        "deal_number": optional_number(r.deal_number),
        "deck": r.deck,
        "variant": variant_code(r.variant),
        "jokers_per_game": r.jokers_per_game,
        "status": status_code(r.status),
        "score": r.score,
        "cards_left": r.cards_left,
        "counters": counters(&r.counters),
        "play_time_ms": r.play_time_ms,
        "started_at_ms": r.started_at_ms,
        "ended_at_ms": r.ended_at_ms,
        "log": r.log,
    })
}

fn settings(s: &Settings) -> Value {
    json!({
        "variant": variant_code(s.variant),
        "jokers_per_game": s.jokers_per_game,
        "undo_enabled": s.undo_enabled,
        "hints_enabled": s.hints_enabled,
        "round_limit": s.round_limit,
        "winnable_only": s.winnable_only,
    })
}

fn analysis(a: &Analysis) -> Value {
    json!({
        "winnable": a.winnable,
        "best_score": a.best_score,
        "lower_bound": a.lower_bound,
        "upper_bound": a.upper_bound,
        "line": a.line.iter().map(action).collect::<Vec<_>>(),
    })
}

// ---- comparison -------------------------------------------------------------------------

/// Objects match partially (every expected key must exist and match), arrays element by
/// element with equal length, numbers within 1e-9, everything else exactly.
fn compare(expected: &Value, actual: &Value, path: &str, problems: &mut Vec<String>) {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            for (key, value) in e {
                match a.get(key) {
                    Some(actual) => compare(value, actual, &format!("{path}.{key}"), problems),
                    None => problems.push(format!("{path}.{key}: no such field")),
                }
            }
        }
        (Value::Array(e), Value::Array(a)) => {
            if e.len() == a.len() {
                for (index, (e, a)) in e.iter().zip(a).enumerate() {
                    compare(e, a, &format!("{path}[{index}]"), problems);
                }
            } else {
                problems.push(format!("{path}: expected {expected}, got {actual}"));
            }
        }
        (Value::Number(e), Value::Number(a)) => {
            let same = match (e.as_u64(), a.as_u64()) {
                (Some(e), Some(a)) => e == a,
                _ => match (e.as_f64(), a.as_f64()) {
                    (Some(e), Some(a)) => (e - a).abs() <= 1e-9,
                    _ => false,
                },
            };
            if !same {
                problems.push(format!("{path}: expected {expected}, got {actual}"));
            }
        }
        _ => {
            if expected != actual {
                problems.push(format!("{path}: expected {expected}, got {actual}"));
            }
        }
    }
}

// ---- running ----------------------------------------------------------------------------

struct Run {
    dir: PathBuf,
    clock: Arc<ManualClock>,
    session: Arc<Session>,
    /// The result of the latest successful `analyze_deal` / `analyze_position` step.
    last_analysis: Option<Analysis>,
}

fn place_arg(step: &Value, key: &str) -> Place {
    match &step[key] {
        Value::String(s) if s == "cell" => Place::Cell,
        Value::Number(n) => Place::Pile {
            index: u8::try_from(n.as_u64().expect("pile index")).expect("pile index fits u8"),
        },
        other => panic!("{key}: not a place: {other}"),
    }
}

fn deal_choice(spec: &Value) -> Option<DealChoice> {
    if let Some(deck) = spec.get("deck") {
        return Some(DealChoice::Deck {
            cards: deck.as_str().expect("deck is text").to_owned(),
        });
    }
    if let Some(number) = spec.get("deal_number") {
        let number = match number {
            Value::String(s) => s.parse().expect("deal number"),
            other => other.as_u64().expect("deal number"),
        };
        return Some(DealChoice::Number { number });
    }
    if spec.get("random").and_then(Value::as_bool) == Some(true) {
        return Some(DealChoice::Random);
    }
    None
}

fn new_game_options(spec: &Value) -> Option<NewGameOptions> {
    deal_choice(spec).map(|deal| NewGameOptions {
        deal,
        variant: spec
            .get("variant")
            .and_then(Value::as_str)
            .map(variant_from),
    })
}

fn merged_settings(current: &Settings, changes: &Value) -> Settings {
    let mut s = current.clone();
    if let Some(Value::Object(changes)) = Some(changes) {
        for (key, value) in changes {
            match key.as_str() {
                "variant" => s.variant = variant_from(value.as_str().expect("variant")),
                "jokers_per_game" => {
                    s.jokers_per_game = u8::try_from(value.as_u64().expect("jokers")).expect("u8")
                }
                "undo_enabled" => s.undo_enabled = value.as_bool().expect("bool"),
                "hints_enabled" => s.hints_enabled = value.as_bool().expect("bool"),
                "round_limit" => {
                    s.round_limit = u32::try_from(value.as_u64().expect("limit")).expect("u32")
                }
                "winnable_only" => s.winnable_only = value.as_bool().expect("bool"),
                other => panic!("unknown setting {other}"),
            }
        }
    }
    s
}

fn open(path: &str, clock: &Arc<ManualClock>) -> Result<Arc<Session>, GameError> {
    let source: Arc<dyn TimeSource> = clock.clone();
    Session::with_time_source(path.to_owned(), source)
}

/// What a step returned: a snapshot (actions), nothing, an analysis (kept as `last_analysis`),
/// or an error.
enum Outcome {
    Snapshot(TableSnapshot),
    Done,
    Analyzed,
    Failed(GameError),
}

fn outcome(result: Result<TableSnapshot, GameError>) -> Outcome {
    result.map_or_else(Outcome::Failed, Outcome::Snapshot)
}

/// Plays `line` through the session, action by action; the first refusal ends the replay.
fn replay(s: &Session, line: &[Action]) -> Outcome {
    let mut last = s.snapshot();
    for a in line {
        let result = match a {
            Action::Deal => s.deal(),
            Action::Discard { from } => s.discard(*from),
            Action::Move { from, to } => s.move_card(*from, *to),
            Action::Joker { pile } => s.use_joker(*pile),
        };
        match result {
            Ok(snapshot) => last = snapshot,
            Err(error) => return Outcome::Failed(error),
        }
    }
    Outcome::Snapshot(last)
}

impl Run {
    fn start(name: &str, setup: &Value) -> Run {
        let dir = std::env::temp_dir().join(format!(
            "acesup-scenario-rust-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        let clock = Arc::new(ManualClock(AtomicU64::new(CLOCK_START_MS)));
        let session = open(dir.to_str().expect("utf-8 temp dir"), &clock).expect("open");
        if let Some(changes) = setup.get("settings") {
            let settings = merged_settings(&session.settings(), changes);
            session.set_settings(settings).expect("setup settings");
        }
        if let Some(options) = new_game_options(setup) {
            session.new_game(options).expect("setup new game");
        }
        Run {
            dir,
            clock,
            session,
            last_analysis: None,
        }
    }

    fn step(&mut self, step: &Value) -> Outcome {
        let s = &self.session;
        let verb = step["do"].as_str().expect("step has \"do\"");
        match verb {
            "snapshot" => Outcome::Snapshot(s.snapshot()),
            "deal" => outcome(s.deal()),
            "discard" => outcome(s.discard(place_arg(step, "from"))),
            "move" => outcome(s.move_card(place_arg(step, "from"), place_arg(step, "to"))),
            "cell" => outcome(s.move_to_cell(place_arg(step, "from"))),
            "smart" => outcome(s.smart_move(place_arg(step, "place"))),
            "joker" => {
                let pile = u8::try_from(step["pile"].as_u64().expect("pile")).expect("u8");
                outcome(s.use_joker(pile))
            }
            "undo" => outcome(s.undo()),
            "redo" => outcome(s.redo()),
            "restart" => outcome(s.restart()),
            "resign" => outcome(s.resign()),
            "hint" => match s.hint() {
                Ok(result) => {
                    assert_eq!(
                        Some(result.hint),
                        result.snapshot.hint,
                        "the hint result shows its hint"
                    );
                    Outcome::Snapshot(result.snapshot)
                }
                Err(error) => Outcome::Failed(error),
            },
            "new_game" => {
                let options = if step.get("same_deal").and_then(Value::as_bool) == Some(true) {
                    NewGameOptions {
                        deal: DealChoice::Number {
                            number: s
                                .snapshot()
                                .deal_number
                                .expect("same_deal needs a deal number"),
                        },
                        variant: step
                            .get("variant")
                            .and_then(Value::as_str)
                            .map(variant_from),
                    }
                } else {
                    new_game_options(step)
                        .expect("new_game needs deck, deal_number, random or same_deal")
                };
                outcome(s.new_game(options))
            }
            "start_round" => outcome(s.start_round()),
            "set_settings" => {
                let settings = merged_settings(&s.settings(), &step["settings"]);
                outcome(s.set_settings(settings))
            }
            "pause" => {
                s.pause();
                Outcome::Done
            }
            "resume" => {
                s.resume();
                Outcome::Done
            }
            "advance_clock" => {
                let ms = step["ms"].as_u64().expect("ms");
                self.clock.0.fetch_add(ms, Ordering::SeqCst);
                Outcome::Done
            }
            "reopen" => {
                let path = self.dir.to_str().expect("utf-8").to_owned();
                match open(&path, &self.clock) {
                    Ok(session) => {
                        self.session = session;
                        Outcome::Done
                    }
                    Err(error) => Outcome::Failed(error),
                }
            }
            "open" => {
                let path = step["path"]
                    .as_str()
                    .expect("path")
                    .replace("{dir}", self.dir.to_str().expect("utf-8"));
                match open(&path, &self.clock) {
                    Ok(session) => {
                        self.session = session;
                        Outcome::Done
                    }
                    Err(error) => Outcome::Failed(error),
                }
            }
            "write_file" => {
                let name = step["name"].as_str().expect("name");
                let text = step["text"].as_str().expect("text");
                std::fs::write(self.dir.join(name), text).expect("write file");
                Outcome::Done
            }
            "analyze_deal" => self.analyzed(s.analyze_deal()),
            "analyze_position" => {
                let at = u32::try_from(step["step"].as_u64().expect("step")).expect("u32");
                self.analyzed(s.analyze_position(at))
            }
            "replay_analysis_line" => {
                let line = self
                    .last_analysis
                    .as_ref()
                    .expect("replay_analysis_line needs an analysis first")
                    .line
                    .clone();
                replay(s, &line)
            }
            "check" => Outcome::Done,
            other => panic!("unknown step {other:?}"),
        }
    }

    fn analyzed(&mut self, result: Result<Analysis, GameError>) -> Outcome {
        match result {
            Ok(analysis) => {
                self.last_analysis = Some(analysis);
                Outcome::Analyzed
            }
            Err(error) => Outcome::Failed(error),
        }
    }

    fn actual(&self, expect: &Map<String, Value>) -> Value {
        let s = &self.session;
        let mut view = snapshot(&s.snapshot());
        let object = view.as_object_mut().expect("object");
        for key in expect.keys() {
            let value = match key.as_str() {
                "statistics" => {
                    let st = s.statistics();
                    json!({"standard": variant_statistics(&st.standard),
                           "aces_only": variant_statistics(&st.aces_only),
                           "free_cell": variant_statistics(&st.free_cell)})
                }
                "records" => Value::Array(s.records().iter().map(record).collect()),
                "best_records" => {
                    let query = &expect[key];
                    let variant = variant_from(query["variant"].as_str().expect("variant"));
                    let limit =
                        u32::try_from(query["limit"].as_u64().expect("limit")).expect("u32");
                    let best = s.best_records(variant, limit);
                    json!({"variant": query["variant"], "limit": limit,
                           "records": best.iter().map(record).collect::<Vec<_>>()})
                }
                "settings" => settings(&s.settings()),
                "analysis" => self.last_analysis.as_ref().map_or(Value::Null, analysis),
                "round_history" => {
                    let h = s.round_history();
                    json!({"played": h.played, "qualified": h.qualified, "best_result": h.best_result})
                }
                "load_problems" => {
                    Value::Array(s.load_problems().iter().map(|p| json!(p.code)).collect())
                }
                _ => continue,
            };
            object.insert(key.clone(), value);
        }
        view
    }
}

fn run_scenario(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("readable scenario");
    let scenario: Value = serde_json::from_str(&text).expect("valid JSON");
    let name = scenario["name"].as_str().expect("name");
    let mut run = Run::start(name, &scenario["setup"]);
    let mut problems = Vec::new();
    for (index, step) in scenario["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .enumerate()
    {
        let at = format!("step {} ({})", index + 1, step["do"]);
        let outcome = run.step(step);
        match (&outcome, step.get("error").and_then(Value::as_str)) {
            (Outcome::Failed(error), Some(code)) if error.code() == code => {
                // The readable message is not empty and names no internal type.
                assert!(!acesup::error_message(error).is_empty());
            }
            (Outcome::Failed(error), expected) => problems.push(format!(
                "{at}: expected {}, got error {} ({error})",
                expected.unwrap_or("success"),
                error.code()
            )),
            (_, Some(code)) => problems.push(format!("{at}: expected error {code}, got success")),
            (Outcome::Snapshot(returned), None) => {
                let now = snapshot(&run.session.snapshot());
                if snapshot(returned) != now {
                    problems.push(format!(
                        "{at}: the returned snapshot differs from snapshot()"
                    ));
                }
            }
            (Outcome::Done | Outcome::Analyzed, None) => {}
        }
        if let Some(Value::Object(expect)) = step.get("expect") {
            let actual = run.actual(expect);
            compare(&Value::Object(expect.clone()), &actual, &at, &mut problems);
        }
    }
    drop(run.session);
    let _ = std::fs::remove_dir_all(&run.dir);
    problems
}

#[test]
fn every_scenario_replays_as_expected() {
    let files = scenario_files();
    assert!(files.len() >= 40, "only {} scenarios", files.len());
    let mut failures = BTreeMap::new();
    for file in &files {
        let problems = run_scenario(file);
        let name = file.file_stem().map(|s| s.to_string_lossy().into_owned());
        if !problems.is_empty() {
            failures.insert(name.unwrap_or_default(), problems);
        }
    }
    let passed = files.len() - failures.len();
    println!("rust scenarios: {passed} passed, {} failed", failures.len());
    for (name, problems) in &failures {
        println!("FAILED {name}");
        for problem in problems {
            println!("    {problem}");
        }
    }
    assert!(failures.is_empty(), "{} scenario(s) failed", failures.len());
}

#[test]
fn scenario_names_match_their_file_names() {
    for file in scenario_files() {
        let scenario: Value =
            serde_json::from_str(&std::fs::read_to_string(&file).expect("read")).expect("json");
        let stem = file
            .file_stem()
            .expect("stem")
            .to_string_lossy()
            .into_owned();
        assert_eq!(
            scenario["name"].as_str(),
            Some(stem.as_str()),
            "{}",
            file.display()
        );
        let steps = scenario["steps"].as_array().expect("steps");
        assert!(!steps.is_empty(), "{stem}: no steps");
        assert!(
            steps
                .iter()
                .any(|s| s.get("expect").is_some() || s.get("error").is_some()),
            "{stem}: nothing is checked"
        );
    }
}
