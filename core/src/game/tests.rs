use super::*;
use crate::command::pile;

fn place(number: usize) -> Place {
    pile(number).unwrap_or(Place::Cell)
}

fn deck(text: &str) -> Deck {
    text.parse()
        .unwrap_or_else(|error| panic!("bad deck: {error}"))
}

/// A deck whose deal order starts with `first` and continues with every other card in index
/// order.
fn deck_starting_with(first: &str) -> Deck {
    let mut cards: Vec<crate::Card> = first
        .split_whitespace()
        .filter_map(|c| c.parse().ok())
        .collect();
    for card in crate::Card::all() {
        if !cards.contains(&card) {
            cards.push(card);
        }
    }
    Deck::from_cards(&cards).unwrap_or_else(|error| panic!("{error}"))
}

fn game(first: &str) -> Game {
    Game::new(GameSetup::custom(
        deck_starting_with(first),
        Variant::Standard,
        1,
    ))
}

fn run(game: &mut Game, script: &str) {
    for command in crate::command::parse_script(script).unwrap_or_default() {
        if let Err(error) = game.execute(command) {
            panic!("{command} failed: {error}");
        }
    }
}

#[test]
fn a_new_game_is_playing_with_four_cards_out() {
    let g = game("5H 9H KS 2C");
    assert_eq!(g.status(), Status::Playing);
    assert_eq!(g.table().stock_len(), 48);
    assert!(!g.can_undo());
}

#[test]
fn undo_restores_the_exact_previous_table_and_redo_reapplies() {
    let mut g = game("5H 9H KS 2C");
    let start = g.table().clone();
    run(&mut g, "discard 1");
    let after = g.table().clone();
    run(&mut g, "undo");
    assert_eq!(g.table(), &start);
    run(&mut g, "redo");
    assert_eq!(g.table(), &after);
    assert_eq!(g.counters().undos, 1);
    assert_eq!(g.counters().redos, 1);
    assert_eq!(g.counters().moves, 1);
}

#[test]
fn a_deal_is_one_undo_step() {
    let mut g = game("5H 9H KS 2C");
    let start = g.table().clone();
    run(&mut g, "deal; undo");
    assert_eq!(g.table(), &start);
}

#[test]
fn a_new_action_clears_redo() {
    let mut g = game("5H 9H KS 2C");
    run(&mut g, "discard 1; undo; deal");
    assert_eq!(g.execute(Command::Redo), Err(ActionError::NothingToRedo));
}

#[test]
fn undo_of_a_joker_gives_the_joker_back() {
    let mut g = game("5H 9H KS 2C");
    run(&mut g, "joker 2");
    assert_eq!(g.table().jokers_left(), 0);
    assert_eq!(g.counters().jokers_used, 1);
    run(&mut g, "undo");
    assert_eq!(g.table().jokers_left(), 1);
    assert_eq!(g.counters().jokers_used, 1);
}

#[test]
fn nothing_to_undo_at_the_start() {
    let mut g = game("5H 9H KS 2C");
    assert_eq!(g.execute(Command::Undo), Err(ActionError::NothingToUndo));
}

#[test]
fn restart_replays_the_same_deal_is_counted_and_can_be_undone() {
    let mut g = game("5H 9H KS 2C");
    let start = g.table().clone();
    assert_eq!(
        g.execute(Command::Restart),
        Err(ActionError::AlreadyAtStart)
    );
    run(&mut g, "discard 1; deal");
    let before_restart = g.table().clone();
    run(&mut g, "restart");
    assert_eq!(g.table(), &start);
    assert_eq!(g.counters().restarts, 1);
    run(&mut g, "undo");
    assert_eq!(g.table(), &before_restart);
}

#[test]
fn resign_ends_the_game_with_the_current_score() {
    let mut g = game("5H 9H KS 2C");
    run(&mut g, "discard 1; resign");
    assert_eq!(g.status(), Status::Resigned);
    assert_eq!(g.table().score(), 1);
    assert_eq!(
        g.execute(Command::Play(Action::Deal)),
        Err(ActionError::GameOver)
    );
    assert_eq!(g.execute(Command::Undo), Err(ActionError::GameOver));
}

#[test]
fn smart_move_is_logged_as_the_action_it_resolved_to() {
    let mut g = game("5H 9H KS 2C");
    assert_eq!(
        g.execute(Command::Smart(place(1))),
        Ok(Command::Play(Action::Discard { from: place(1) }))
    );
    assert_eq!(
        g.log(),
        &[Command::Play(Action::Discard { from: place(1) })]
    );
}

#[test]
fn hints_are_counted_and_change_nothing_on_the_table() {
    let mut g = game("5H 9H KS 2C");
    let table = g.table().clone();
    run(&mut g, "hint; hint");
    assert_eq!(g.counters().hints, 2);
    assert_eq!(g.table(), &table);
}

#[test]
fn a_refused_command_changes_nothing() {
    let mut g = game("5H 9H KS 2C");
    run(&mut g, "deal");
    let before = g.clone();
    for text in [
        "discard 4",
        "move 1 2",
        "move 1 cell",
        "discard cell",
        "smart 4",
        "redo",
        "joker 9",
    ] {
        if let Ok(command) = text.parse::<Command>() {
            assert!(g.execute(command).is_err(), "{text}");
        }
        assert_eq!(g, before, "{text}");
    }
}

#[test]
fn replaying_the_log_rebuilds_the_same_game() {
    let mut g = game("5H 9H KS 2C");
    run(
        &mut g,
        "discard 1; deal; hint; undo; redo; deal; joker 3; undo; deal; restart; undo",
    );
    let replayed = Game::replay(g.setup().clone(), g.log());
    assert_eq!(replayed.as_ref(), Ok(&g));
}

#[test]
fn a_log_that_does_not_replay_is_reported_with_its_step() {
    let g = game("5H 9H KS 2C");
    let log = [
        Command::Play(Action::Deal),
        Command::Play(Action::Discard { from: place(4) }),
    ];
    let error = Game::replay(g.setup().clone(), &log);
    assert!(matches!(error, Err(ReplayError { step: 2, .. })));
}

#[test]
fn twelve_deals_empty_the_stock_and_there_is_no_thirteenth() {
    let mut g = Game::new(GameSetup::numbered(1, Variant::Standard, 0));
    run(&mut g, &"deal;".repeat(12));
    assert_eq!(g.table().stock_len(), 0);
    assert!(g.execute(Command::Play(Action::Deal)).is_err());
}

/// Aces first, then each suit in rising order, four cards a row.
const SORTED_AFTER_ACES: &str = "AC AD AH AS \
    2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC \
    2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD \
    2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH \
    2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS";

/// Plays discards first, then deals, then jokers, until the game ends.
fn play_greedily(g: &mut Game) {
    while g.status() == Status::Playing {
        let actions = g.legal_actions();
        let choice = actions
            .iter()
            .find(|a| matches!(a, Action::Discard { .. }))
            .or_else(|| actions.iter().find(|a| **a == Action::Deal))
            .or_else(|| actions.iter().find(|a| matches!(a, Action::Joker { .. })))
            .copied();
        let Some(action) = choice else { break };
        if g.execute(Command::Play(action)).is_err() {
            break;
        }
    }
}

#[test]
fn the_game_is_lost_when_stuck_with_the_stock_empty() {
    // The aces of clubs, diamonds and hearts show on piles 1-3 and sweep their suits. The spades
    // land on pile 4 above their own ace, which cannot justify a discard from its own pile:
    // 5S, 9S and KS stay.
    let mut g = Game::new(GameSetup::custom(
        deck(SORTED_AFTER_ACES),
        Variant::Standard,
        0,
    ));
    play_greedily(&mut g);
    assert_eq!(g.status(), Status::Lost);
    assert_eq!(g.table().score(), 45);
    assert_eq!(g.table().pile(crate::PileIndex::ALL[3]).len(), 4);
}

#[test]
fn the_game_is_won_exactly_when_48_cards_are_removed() {
    // The same line as above, with a joker to clear the three spades left on pile 4.
    let mut g = Game::new(GameSetup::custom(
        deck(SORTED_AFTER_ACES),
        Variant::Standard,
        1,
    ));
    play_greedily(&mut g);
    assert_eq!(g.status(), Status::Won);
    assert_eq!(g.table().score(), 48);
    for pile in g.table().piles() {
        assert!(pile.iter().all(|card| card.is_ace()));
    }
}
