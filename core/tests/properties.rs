//! Property tests over random decks and random command sequences (legal and illegal).

// Test helpers may fail loudly.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use std::sync::Arc;

use acesup_core::hint::{Hint, PlayerView, greedy};
use acesup_core::records::GameRecord;
use acesup_core::session::{DealChoice, NewGame, Session, Settings};
use acesup_core::{Action, Command, Game, GameSetup, PileIndex, Place, Variant};
use proptest::prelude::*;

fn variant(index: u8) -> Variant {
    Variant::ALL[usize::from(index) % 3]
}

/// Any command at all, including ones the rules refuse.
fn any_command(seed: u32) -> Command {
    let place = |n: u32| match n % 5 {
        4 => Place::Cell,
        p => Place::Pile(PileIndex::ALL[p as usize]),
    };
    match seed % 10 {
        0 => Command::Play(Action::Deal),
        1 => Command::Play(Action::Discard {
            from: place(seed / 10),
        }),
        2 => Command::Play(Action::Move {
            from: place(seed / 10),
            to: place(seed / 50),
        }),
        3 => Command::Play(Action::Joker {
            pile: PileIndex::ALL[(seed / 10 % 4) as usize],
        }),
        4 => Command::Smart(place(seed / 10)),
        5 => Command::Undo,
        6 => Command::Redo,
        7 => Command::Restart,
        8 => Command::Hint,
        _ => Command::Play(Action::Deal),
    }
}

/// A legal table action chosen by `seed`, if any.
fn legal_action(game: &Game, seed: u32) -> Option<Action> {
    let actions = game.legal_actions();
    (!actions.is_empty()).then(|| actions[seed as usize % actions.len()])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn all_52_cards_are_always_accounted_for(deal in any::<u64>(), v in 0u8..3, seeds in prop::collection::vec(any::<u32>(), 0..120)) {
        let mut game = Game::new(GameSetup::numbered(deal, variant(v), 2));
        for seed in seeds {
            let _ = game.execute(any_command(seed));
            prop_assert_eq!(game.table().validate(game.variant()), Ok(()));
            prop_assert_eq!(game.table().all_cards().count(), 52);
        }
    }

    #[test]
    fn a_refused_command_changes_nothing(deal in any::<u64>(), v in 0u8..3, seeds in prop::collection::vec(any::<u32>(), 0..120)) {
        let mut game = Game::new(GameSetup::numbered(deal, variant(v), 1));
        for seed in seeds {
            let before = game.clone();
            if game.execute(any_command(seed)).is_err() {
                prop_assert_eq!(&game, &before);
            }
        }
    }

    #[test]
    fn undo_restores_the_exact_previous_state_and_redo_reapplies(deal in any::<u64>(), v in 0u8..3, seeds in prop::collection::vec(any::<u32>(), 1..100)) {
        let mut game = Game::new(GameSetup::numbered(deal, variant(v), 1));
        for seed in seeds {
            if game.status().is_over() {
                break;
            }
            let Some(action) = legal_action(&game, seed) else { break };
            let before = game.table().clone();
            game.execute(Command::Play(action)).unwrap();
            if game.status().is_over() {
                break;
            }
            let after = game.table().clone();
            game.execute(Command::Undo).unwrap();
            prop_assert_eq!(game.table(), &before);
            game.execute(Command::Redo).unwrap();
            prop_assert_eq!(game.table(), &after);
        }
    }

    #[test]
    fn a_game_replays_from_its_log(deal in any::<u64>(), v in 0u8..3, seeds in prop::collection::vec(any::<u32>(), 0..150)) {
        let mut game = Game::new(GameSetup::numbered(deal, variant(v), 1));
        for seed in seeds {
            let _ = game.execute(any_command(seed));
        }
        let replayed = Game::replay(game.setup().clone(), game.log()).unwrap();
        prop_assert_eq!(replayed, game);
    }

    #[test]
    fn a_records_action_log_replays_to_the_same_result(deal in any::<u64>(), v in 0u8..3, seeds in prop::collection::vec(any::<u32>(), 0..80)) {
        let mut game = Game::new(GameSetup::numbered(deal, variant(v), 1));
        for seed in seeds {
            let _ = game.execute(any_command(seed));
        }
        // finish by following the greedy hint (fast), resigning when it has nothing useful
        while !game.status().is_over() {
            match greedy(&PlayerView::of(&game)) {
                Hint::Play(action) => { game.execute(Command::Play(action)).unwrap(); }
                Hint::NoUsefulMove => { game.execute(Command::Resign).unwrap(); }
            }
        }
        let record = GameRecord::of(&game, 1, 2, 3).unwrap();
        prop_assert_eq!(record.verify(), Ok(()));
        let json = serde_json::to_string(&record).unwrap();
        let back: GameRecord = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(back.verify(), Ok(()));
        prop_assert_eq!(back, record);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn save_then_load_gives_an_identical_session(deal in any::<u64>(), v in 0u8..3, seeds in prop::collection::vec(any::<u32>(), 0..60), case in any::<u64>()) {
        let dir = std::env::temp_dir().join(format!("acesup-prop-save-{}-{case}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let clock: acesup_core::session::Clock = Arc::new(|| 1_000);
        let mut session = Session::open_with_clock(&dir, Arc::clone(&clock)).unwrap();
        let settings = Settings { variant: variant(v), jokers_per_game: 2, ..Settings::default() };
        session.set_settings(settings).unwrap();
        session.new_game(NewGame { deal: DealChoice::Number(deal), variant: None }).unwrap();
        for seed in seeds {
            let _ = session.execute(any_command(seed));
        }
        let mut expected = session.snapshot();
        expected.hint = None;
        let log = session.game().log().to_vec();
        let statistics = session.statistics().clone();
        let records = session.records().to_vec();
        drop(session);
        let reopened = Session::open_with_clock(&dir, clock).unwrap();
        prop_assert!(reopened.load_problems().is_empty());
        prop_assert_eq!(reopened.snapshot(), expected);
        prop_assert_eq!(reopened.game().log(), log.as_slice());
        prop_assert_eq!(reopened.statistics(), &statistics);
        prop_assert_eq!(reopened.records(), records.as_slice());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn damaged_save_files_never_panic_and_never_take_other_files(cut in 0usize..4000, byte in any::<u8>(), which in 0usize..4) {
        let dir = std::env::temp_dir().join(format!("acesup-prop-damage-{}-{cut}-{byte}-{which}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let clock: acesup_core::session::Clock = Arc::new(|| 5);
        let mut session = Session::open_with_clock(&dir, Arc::clone(&clock)).unwrap();
        session.new_game(NewGame { deal: DealChoice::Number(9), variant: None }).unwrap();
        session.deal().unwrap();
        session.resign().unwrap();
        session.new_game(NewGame { deal: DealChoice::Number(10), variant: None }).unwrap();
        session.deal().unwrap();
        let statistics = session.statistics().clone();
        drop(session);
        let names = ["game.json", "settings.json", "statistics.json", "records.json"];
        let path = dir.join(names[which]);
        if let Ok(mut bytes) = std::fs::read(&path) {
            let at = cut % bytes.len().max(1);
            if byte % 2 == 0 { bytes.truncate(at); } else if let Some(b) = bytes.get_mut(at) { *b = byte; }
            std::fs::write(&path, bytes).unwrap();
        }
        let reopened = Session::open_with_clock(&dir, clock).unwrap();
        prop_assert!(reopened.load_problems().len() <= 1);
        if which != 2 {
            prop_assert_eq!(reopened.statistics(), &statistics);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
