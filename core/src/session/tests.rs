use std::fs;
use std::sync::atomic::{AtomicU64, Ordering};

use super::*;
use crate::command::pile;
use crate::scratch::ScratchPath;

/// A clock the test moves by hand.
fn manual_clock(start: u64) -> (Clock, Arc<AtomicU64>) {
    let time = Arc::new(AtomicU64::new(start));
    let reader = Arc::clone(&time);
    (Arc::new(move || reader.load(Ordering::SeqCst)), time)
}

fn temp_dir(name: &str) -> ScratchPath {
    ScratchPath::new(&format!("session-{name}"))
}

fn place(number: usize) -> Place {
    pile(number).unwrap()
}

fn run(session: &mut Session, script: &str) -> Snapshot {
    let mut last = session.snapshot();
    for command in crate::command::parse_script(script).unwrap() {
        last = session
            .execute(command)
            .unwrap_or_else(|e| panic!("{command}: {e}"));
    }
    last
}

fn numbered(number: u64) -> NewGame {
    NewGame {
        deal: DealChoice::Number(number),
        variant: None,
    }
}

/// Plays the game to its end by following the greedy hint.
fn play_out(session: &mut Session) {
    while !session.game().status().is_over() {
        match crate::hint::greedy(&PlayerView::of(session.game())) {
            Hint::Play(action) => session.execute(Command::Play(action)).unwrap(),
            Hint::NoUsefulMove => session.resign().unwrap(),
        };
    }
}

#[test]
fn a_new_game_shows_its_deal_and_four_cards() {
    let (clock, _) = manual_clock(0);
    let mut session = Session::in_memory(Settings::default(), clock).unwrap();
    let snap = session.new_game(numbered(42)).unwrap();
    assert_eq!(snap.deal_number, Some(42));
    assert_eq!(snap.stock, 48);
    assert!(snap.piles.iter().all(|p| p.len() == 1));
    assert_eq!(snap.status, Status::Playing);
    assert!(snap.can_deal && !snap.can_undo && !snap.can_redo && !snap.can_restart);
    assert_eq!(snap.tops.len(), 4);
    assert_eq!(snap.jokers_left, 1);
}

#[test]
fn the_snapshot_lists_what_each_top_card_may_do() {
    let (clock, _) = manual_clock(0);
    let mut session = Session::in_memory(Settings::default(), clock).unwrap();
    let deck: Deck = "5H 9H KS 2C".parse::<Deck>().err().map_or_else(
        || unreachable!(),
        |_| {
            let mut cards: Vec<crate::Card> = ["5H", "9H", "KS", "2C"]
                .iter()
                .map(|c| c.parse().unwrap())
                .collect();
            cards.extend(
                crate::Card::all()
                    .filter(|c| !cards.contains(c))
                    .collect::<Vec<_>>(),
            );
            Deck::from_cards(&cards).unwrap()
        },
    );
    let snap = session
        .new_game(NewGame {
            deal: DealChoice::Deck(deck),
            variant: None,
        })
        .unwrap();
    assert_eq!(snap.deal_number, None);
    let first = &snap.tops[0];
    assert_eq!(first.place, place(1));
    assert!(first.can_discard);
    assert_eq!(first.smart_move, Some(Action::Discard { from: place(1) }));
    assert!(first.move_targets.is_empty());
    assert!(!snap.tops[1].can_discard);
    assert_eq!(snap.tops[1].smart_move, None);
    let snap = run(&mut session, "discard 1");
    assert_eq!(snap.tops.len(), 3);
    assert_eq!(snap.tops[0].move_targets, vec![place(1)]);
    assert_eq!(snap.joker_targets.len(), 3);
}

#[test]
fn settings_switch_undo_and_hints_off() {
    let (clock, _) = manual_clock(0);
    let settings = Settings {
        undo_enabled: false,
        hints_enabled: false,
        ..Settings::default()
    };
    let mut session = Session::in_memory(settings, clock).unwrap();
    session.new_game(numbered(5)).unwrap();
    run(&mut session, "deal");
    let before = session.snapshot();
    assert_eq!(
        session.undo(),
        Err(SessionError::Action(ActionError::UndoOff))
    );
    assert_eq!(
        session.hint(),
        Err(SessionError::Action(ActionError::HintsOff))
    );
    assert_eq!(session.snapshot(), before);
    assert!(!before.can_undo && !before.can_hint);
}

#[test]
fn a_hint_is_counted_and_shown_until_the_next_action() {
    let (clock, _) = manual_clock(0);
    let mut session = Session::in_memory(Settings::default(), clock).unwrap();
    session.new_game(numbered(5)).unwrap();
    let hint = session.hint().unwrap();
    let snap = session.snapshot();
    assert_eq!(snap.hint, Some(hint));
    assert_eq!(snap.counters.hints, 1);
    let snap = session.deal().unwrap();
    assert_eq!(snap.hint, None);
}

#[test]
fn default_settings_match_the_rule_book() {
    let settings = Settings::default();
    assert_eq!(settings.variant, Variant::Standard);
    assert_eq!(settings.jokers_per_game, 1);
    assert!(settings.undo_enabled && settings.hints_enabled);
    assert_eq!(settings.round_limit, 5);
}

#[test]
fn bad_settings_are_refused() {
    let (clock, _) = manual_clock(0);
    let mut session = Session::in_memory(Settings::default(), clock).unwrap();
    let bad = Settings {
        jokers_per_game: 10,
        ..Settings::default()
    };
    assert!(matches!(
        session.set_settings(bad),
        Err(SessionError::Settings(_))
    ));
    let bad = Settings {
        round_limit: 49,
        ..Settings::default()
    };
    assert!(matches!(
        session.set_settings(bad),
        Err(SessionError::Settings(_))
    ));
    assert_eq!(session.settings(), &Settings::default());
}

#[test]
fn a_game_survives_closing_the_session() {
    let dir = temp_dir("resume");
    let (clock, _) = manual_clock(1000);
    let mut session = Session::open_with_clock(&dir, clock.clone()).unwrap();
    assert!(session.load_problems().is_empty());
    session.new_game(numbered(77)).unwrap();
    let snap = run(&mut session, "deal; deal; hint; undo; redo; restart; deal");
    drop(session);
    let reopened = Session::open_with_clock(&dir, clock).unwrap();
    assert!(
        reopened.load_problems().is_empty(),
        "{:?}",
        reopened.load_problems()
    );
    let mut expected = snap.clone();
    expected.hint = None;
    assert_eq!(reopened.snapshot(), expected);
    assert_eq!(reopened.game().log(), session_log(&dir).as_slice());
}

fn session_log(dir: &std::path::Path) -> Vec<Command> {
    let text = fs::read_to_string(dir.join("game.json")).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    serde_json::from_value(value["data"]["log"].clone()).unwrap()
}

#[test]
fn a_corrupt_game_file_costs_the_game_but_not_the_statistics() {
    let dir = temp_dir("corrupt");
    let (clock, _) = manual_clock(0);
    let mut session = Session::open_with_clock(&dir, clock.clone()).unwrap();
    session.new_game(numbered(3)).unwrap();
    play_out(&mut session);
    session.new_game(numbered(4)).unwrap();
    run(&mut session, "deal");
    let stats = session.statistics().clone();
    assert_eq!(stats.standard.played, 1);
    drop(session);

    let game_file = dir.join("game.json");
    let text = fs::read_to_string(&game_file).unwrap();
    fs::write(&game_file, &text[..text.len() - 20]).unwrap();

    let reopened = Session::open_with_clock(&dir, clock).unwrap();
    assert_eq!(reopened.load_problems().len(), 1);
    assert_eq!(reopened.load_problems()[0].code(), "save_damaged");
    assert_eq!(reopened.statistics(), &stats);
    assert_eq!(reopened.records().len(), 1);
    assert_eq!(reopened.snapshot().status, Status::Playing);
    let set_aside = fs::read_dir(&dir).unwrap().filter_map(Result::ok).any(|e| {
        e.file_name()
            .to_string_lossy()
            .starts_with("game.json.bad-")
    });
    assert!(set_aside, "the damaged file is kept aside");
}

#[test]
fn a_tampered_game_file_that_does_not_replay_is_set_aside() {
    let dir = temp_dir("tampered");
    let (clock, _) = manual_clock(0);
    let mut session = Session::open_with_clock(&dir, clock.clone()).unwrap();
    session.new_game(numbered(8)).unwrap();
    run(&mut session, "deal; deal");
    drop(session);
    let path = dir.join("game.json");
    let mut value: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    value["data"]["counters"]["moves"] = serde_json::json!(1);
    fs::write(&path, value.to_string()).unwrap();
    let reopened = Session::open_with_clock(&dir, clock.clone()).unwrap();
    assert_eq!(reopened.load_problems().len(), 1);

    // a duplicated card in the stored table
    let mut session = Session::open_with_clock(&dir, clock.clone()).unwrap();
    session.new_game(numbered(8)).unwrap();
    drop(session);
    let mut value: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    value["data"]["table"]["piles"][0][0] = value["data"]["table"]["piles"][1][0].clone();
    fs::write(&path, value.to_string()).unwrap();
    let reopened = Session::open_with_clock(&dir, clock).unwrap();
    assert_eq!(reopened.load_problems().len(), 1);
    assert!(reopened.load_problems()[0].to_string().contains("twice"));
}

#[test]
fn a_save_of_another_schema_version_is_set_aside_with_a_typed_error() {
    let dir = temp_dir("schema");
    let (clock, _) = manual_clock(0);
    drop(Session::open_with_clock(&dir, clock.clone()).unwrap());
    let path = dir.join("game.json");
    let text = fs::read_to_string(&path)
        .unwrap()
        .replacen("\"schema\": 1", "\"schema\": 2", 1);
    fs::write(&path, text).unwrap();
    let reopened = Session::open_with_clock(&dir, clock).unwrap();
    assert_eq!(reopened.load_problems()[0].code(), "save_wrong_schema");
}

#[test]
fn bad_records_are_dropped_one_by_one_and_the_file_kept_aside() {
    let dir = temp_dir("records");
    let (clock, _) = manual_clock(0);
    let mut session = Session::open_with_clock(&dir, clock.clone()).unwrap();
    for number in [1, 2] {
        session.new_game(numbered(number)).unwrap();
        run(&mut session, "deal; resign");
    }
    drop(session);
    let path = dir.join("records.json");
    let mut value: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    value["data"][0]["score"] = serde_json::json!(47);
    fs::write(&path, value.to_string()).unwrap();
    let reopened = Session::open_with_clock(&dir, clock.clone()).unwrap();
    assert_eq!(reopened.records().len(), 1);
    assert_eq!(reopened.load_problems().len(), 1);
    assert_eq!(reopened.statistics().standard.played, 2);
    drop(reopened);
    let again = Session::open_with_clock(&dir, clock).unwrap();
    assert!(again.load_problems().is_empty());
    assert_eq!(again.records().len(), 1);
}

#[test]
fn finished_games_update_statistics_and_records_once() {
    let dir = temp_dir("finish");
    let (clock, _) = manual_clock(0);
    let mut session = Session::open_with_clock(&dir, clock.clone()).unwrap();
    session.new_game(numbered(10)).unwrap();
    play_out(&mut session);
    let status = session.snapshot().status;
    assert!(status.is_over());
    assert_eq!(session.statistics().standard.played, 1);
    assert_eq!(session.records().len(), 1);
    assert_eq!(session.records()[0].verify(), Ok(()));
    assert_eq!(
        session.deal(),
        Err(SessionError::Action(ActionError::GameOver))
    );
    drop(session);
    let reopened = Session::open_with_clock(&dir, clock).unwrap();
    assert_eq!(reopened.statistics().standard.played, 1);
    assert_eq!(reopened.snapshot().status, status);
}

#[test]
fn a_crash_between_saves_neither_loses_nor_double_counts_a_game() {
    let dir = temp_dir("crash");
    let (clock, _) = manual_clock(0);
    let mut session = Session::open_with_clock(&dir, clock.clone()).unwrap();
    session.new_game(numbered(12)).unwrap();
    run(&mut session, "deal; resign");
    drop(session);
    // simulate a crash after the game was saved as finished but before it was recorded
    let path = dir.join("game.json");
    let text = fs::read_to_string(&path)
        .unwrap()
        .replace("\"recorded\": true", "\"recorded\": false");
    fs::write(&path, &text).unwrap();
    fs::write(
        dir.join("statistics.json"),
        "{\"schema\": 1, \"kind\": \"statistics\", \"data\": {}}",
    )
    .unwrap();
    fs::remove_file(dir.join("records.json")).unwrap();
    let reopened = Session::open_with_clock(&dir, clock.clone()).unwrap();
    assert!(
        reopened.load_problems().is_empty(),
        "{:?}",
        reopened.load_problems()
    );
    assert_eq!(reopened.statistics().standard.played, 1);
    assert_eq!(reopened.records().len(), 1);
    drop(reopened);
    // the same crash with the records already written: counted once
    fs::write(&path, &text).unwrap();
    let reopened = Session::open_with_clock(&dir, clock).unwrap();
    assert_eq!(reopened.statistics().standard.played, 1);
    assert_eq!(reopened.records().len(), 1);
}

#[test]
fn two_games_of_the_same_deal_started_in_the_same_millisecond_both_count() {
    let (clock, _) = manual_clock(0);
    let mut session = Session::in_memory(Settings::default(), clock).unwrap();
    for _ in 0..2 {
        session.new_game(numbered(50)).unwrap();
        run(&mut session, "deal; resign");
    }
    assert_eq!(session.records().len(), 2);
    assert_ne!(session.records()[0].id, session.records()[1].id);
    assert_eq!(session.statistics().standard.played, 2);
}

#[test]
fn a_new_game_resigns_a_started_game_but_drops_an_untouched_one() {
    let (clock, _) = manual_clock(0);
    let mut session = Session::in_memory(Settings::default(), clock).unwrap();
    session.new_game(numbered(20)).unwrap();
    session.new_game(numbered(21)).unwrap();
    assert_eq!(session.statistics().standard.played, 0);
    run(&mut session, "deal");
    session.new_game(numbered(22)).unwrap();
    assert_eq!(session.statistics().standard.played, 1);
    assert_eq!(session.records()[0].status, Status::Resigned);
}

#[test]
fn play_time_counts_only_while_resumed() {
    let (clock, time) = manual_clock(10_000);
    let mut session = Session::in_memory(Settings::default(), clock).unwrap();
    session.new_game(numbered(30)).unwrap();
    time.store(12_000, Ordering::SeqCst);
    session.pause(12_000);
    time.store(100_000, Ordering::SeqCst);
    assert_eq!(session.snapshot().play_time_ms, 2_000);
    session.resume(100_000);
    time.store(103_000, Ordering::SeqCst);
    assert_eq!(session.snapshot().play_time_ms, 5_000);
    session.pause(103_000);
    time.store(200_000, Ordering::SeqCst);
    session.deal().unwrap(); // an action while paused restarts the clock
    time.store(201_000, Ordering::SeqCst);
    session.resign().unwrap();
    time.store(300_000, Ordering::SeqCst);
    assert_eq!(session.records()[0].play_time_ms, 6_000);
    assert_eq!(session.records()[0].started_at_ms, 10_000);
    assert_eq!(session.records()[0].ended_at_ms, 201_000);
    assert_eq!(session.snapshot().play_time_ms, 6_000);
}

#[test]
fn a_round_of_five_collects_hands_and_totals() {
    let (clock, _) = manual_clock(0);
    let mut session = Session::in_memory(Settings::default(), clock).unwrap();
    session.start_round().unwrap();
    for hand in 0..5 {
        assert_eq!(session.round().map(|r| r.hands.len()), Some(hand));
        run(&mut session, "resign");
        if hand < 4 {
            session.new_game(NewGame::random()).unwrap();
        }
    }
    let round = session.round().unwrap();
    assert!(round.is_complete());
    assert_eq!(round.result(), Some(48));
    assert!(!round.qualifies());
    assert_eq!(session.round_history().played, 1);
    session.new_game(NewGame::random()).unwrap();
    assert_eq!(session.round(), None);
}

#[test]
fn best_records_follow_the_ranking() {
    let (clock, _) = manual_clock(0);
    let mut session = Session::in_memory(Settings::default(), clock).unwrap();
    session.new_game(numbered(40)).unwrap();
    run(&mut session, "resign");
    session.new_game(numbered(41)).unwrap();
    play_out(&mut session);
    let best = session.best_records(Variant::Standard, 5);
    assert_eq!(best.len(), 2);
    assert!(best[0].score >= best[1].score);
    assert!(session.best_records(Variant::FreeCell, 5).is_empty());
}

#[test]
fn a_storage_path_that_cannot_be_a_directory_is_a_typed_error() {
    let file = temp_dir("not-a-dir");
    fs::write(&file, "x").unwrap();
    let (clock, _) = manual_clock(0);
    let error = Session::open_with_clock(&file, clock).unwrap_err();
    assert_eq!(error.code(), "storage_directory");
}

#[test]
fn winnable_only_picks_deals_the_solver_proves_winnable() {
    let (clock, _) = manual_clock(0);
    let settings = Settings {
        winnable_only: true,
        ..Settings::default()
    };
    let mut session = Session::in_memory(settings, clock).unwrap();
    for _ in 0..3 {
        let snap = session.new_game(NewGame::random()).unwrap();
        let number = snap.deal_number.unwrap();
        let table = Table::new(&Deck::from_deal_number(number), 0);
        let outcome = crate::solver::solve(
            &table,
            Variant::Standard,
            0,
            crate::solver::Budget::default(),
        );
        assert_eq!(outcome.winnable(), Some(true), "deal {number}");
    }
}

#[test]
fn the_analysis_waits_for_the_end_of_the_game() {
    let (clock, _) = manual_clock(0);
    let mut session = Session::in_memory(Settings::default(), clock).unwrap();
    session.new_game(numbered(9)).unwrap();
    run(&mut session, "deal");
    assert_eq!(session.analyze_deal(), Err(SessionError::GameInProgress));
    run(&mut session, "resign");
    assert_eq!(
        session.analyze_position(3),
        Err(SessionError::NoSuchStep { step: 3, steps: 2 })
    );
}

#[test]
fn the_analysis_line_replays_to_its_score_from_the_start_and_mid_game() {
    let (clock, _) = manual_clock(0);
    let mut session = Session::in_memory(Settings::default(), clock).unwrap();
    session.new_game(numbered(9)).unwrap();
    run(&mut session, "deal; deal; resign");
    let setup = session.game().setup().clone();
    for step in [0, 1, 2] {
        let analysis = session.analyze_position(step).unwrap();
        assert!(analysis.lower_bound <= analysis.upper_bound);
        let mut game = Game::replay(setup.clone(), &session.game().log()[..step]).unwrap();
        for action in &analysis.line {
            game.execute(Command::Play(*action)).unwrap();
        }
        assert!(game.status().is_over());
        assert_eq!(game.table().score() as u32, analysis.lower_bound);
        if let Some(best) = analysis.best_score {
            assert_eq!(best, analysis.lower_bound);
            assert_eq!(analysis.winnable, Some(best == 48));
        }
    }
}
