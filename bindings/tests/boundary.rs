//! Whatever a shell passes across the boundary, the session answers with a snapshot or a typed
//! error, never a panic, and a refused call changes nothing.

// Test code: a failed expectation should stop the test loudly.
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use acesup::{
    DealChoice, GameError, NewGameOptions, Place, Session, Settings, TableSnapshot, Variant,
    default_settings,
};
use proptest::prelude::*;

/// One call a shell can make, with unchecked arguments.
#[derive(Clone, Debug)]
enum Call {
    Deal,
    Discard(Place),
    Move(Place, Place),
    Cell(Place),
    Smart(Place),
    Joker(u8),
    Undo,
    Redo,
    Restart,
    Resign,
    Hint,
    NewNumbered(u64, Option<Variant>),
    NewDeck(String),
    Settings(u8, u32, bool, bool),
    Snapshot,
}

fn place() -> impl Strategy<Value = Place> {
    prop_oneof![
        4 => (0u8..4).prop_map(|index| Place::Pile { index }),
        1 => any::<u8>().prop_map(|index| Place::Pile { index }),
        1 => Just(Place::Cell),
    ]
}

fn variant() -> impl Strategy<Value = Variant> {
    prop_oneof![
        Just(Variant::Standard),
        Just(Variant::AcesOnly),
        Just(Variant::FreeCell)
    ]
}

fn call() -> impl Strategy<Value = Call> {
    prop_oneof![
        6 => Just(Call::Deal),
        8 => place().prop_map(Call::Discard),
        4 => (place(), place()).prop_map(|(a, b)| Call::Move(a, b)),
        2 => place().prop_map(Call::Cell),
        6 => place().prop_map(Call::Smart),
        2 => any::<u8>().prop_map(Call::Joker),
        2 => Just(Call::Undo),
        1 => Just(Call::Redo),
        1 => Just(Call::Restart),
        1 => Just(Call::Resign),
        1 => Just(Call::Hint),
        1 => (any::<u64>(), proptest::option::of(variant()))
            .prop_map(|(n, v)| Call::NewNumbered(n, v)),
        1 => "\\PC{0,300}".prop_map(Call::NewDeck),
        1 => (any::<u8>(), any::<u32>(), any::<bool>(), any::<bool>())
            .prop_map(|(j, l, u, h)| Call::Settings(j, l, u, h)),
        1 => Just(Call::Snapshot),
    ]
}

fn apply(session: &Session, call: &Call) -> Result<TableSnapshot, GameError> {
    match call.clone() {
        Call::Deal => session.deal(),
        Call::Discard(from) => session.discard(from),
        Call::Move(from, to) => session.move_card(from, to),
        Call::Cell(from) => session.move_to_cell(from),
        Call::Smart(place) => session.smart_move(place),
        Call::Joker(pile) => session.use_joker(pile),
        Call::Undo => session.undo(),
        Call::Redo => session.redo(),
        Call::Restart => session.restart(),
        Call::Resign => session.resign(),
        Call::Hint => session.hint().map(|result| result.snapshot),
        Call::NewNumbered(number, variant) => session.new_game(NewGameOptions {
            deal: DealChoice::Number { number },
            variant,
        }),
        Call::NewDeck(cards) => session.new_game(NewGameOptions {
            deal: DealChoice::Deck { cards },
            variant: None,
        }),
        Call::Settings(jokers_per_game, round_limit, undo_enabled, hints_enabled) => session
            .set_settings(Settings {
                variant: Variant::Standard,
                jokers_per_game,
                undo_enabled,
                hints_enabled,
                round_limit,
                winnable_only: false,
            }),
        Call::Snapshot => Ok(session.snapshot()),
    }
}

fn cards_on_table(s: &TableSnapshot) -> u32 {
    let piles: usize = s.piles.iter().map(Vec::len).sum();
    u32::try_from(piles).expect("small") + u32::from(s.cell.is_some()) + s.stock + s.score
}

/// The play time moves with the system clock; everything else must stay put on a refusal.
fn without_time(mut s: TableSnapshot) -> TableSnapshot {
    s.play_time_ms = 0;
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_call_sequence_gives_snapshots_or_typed_errors(calls in proptest::collection::vec(call(), 1..120)) {
        let session = Session::in_memory(default_settings()).expect("in-memory session");
        for call in &calls {
            let before = without_time(session.snapshot());
            match apply(&session, call) {
                Ok(snapshot) => {
                    prop_assert_eq!(cards_on_table(&snapshot), 52, "{:?}", call);
                    prop_assert_eq!(snapshot.cards_left, 48 - snapshot.score.min(48));
                }
                Err(error) => {
                    prop_assert!(!error.code().is_empty());
                    prop_assert!(!error.to_string().is_empty());
                    prop_assert_eq!(&without_time(session.snapshot()), &before, "{:?} -> {}", call, error);
                }
            }
        }
    }
}

#[test]
fn out_of_range_piles_name_the_index_given() {
    let session = Session::in_memory(default_settings()).expect("session");
    for index in [4u8, 5, 200, 255] {
        let error = session.discard(Place::Pile { index }).expect_err("refused");
        assert_eq!(error, GameError::NoSuchPile { index });
    }
    assert_eq!(
        session.use_joker(9).expect_err("refused"),
        GameError::NoSuchPile { index: 9 }
    );
}

#[test]
fn a_storage_directory_is_resumed_by_a_new_session() {
    let dir = std::env::temp_dir().join(format!("acesup-ffi-resume-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.to_str().expect("utf-8").to_owned();
    let first = Session::new(path.clone()).expect("open");
    first
        .new_game(NewGameOptions {
            deal: DealChoice::Number { number: 5 },
            variant: Some(Variant::FreeCell),
        })
        .expect("new game");
    let dealt = first.deal().expect("deal");
    drop(first);
    let second = Session::new(path).expect("reopen");
    let resumed = second.snapshot();
    assert_eq!(resumed.piles, dealt.piles);
    assert_eq!(resumed.variant, Variant::FreeCell);
    assert_eq!(resumed.deal_number, Some(5));
    assert_eq!(second.storage_dir().as_deref(), dir.to_str());
    let _ = std::fs::remove_dir_all(&dir);
}
