//! The snapshot: one plain value with everything a shell draws after an action.

use crate::cards::Card;
use crate::game::{Counters, Game, Status};
use crate::hint::Hint;
use crate::round::Round;
use crate::rules::{Action, PileIndex, Place, Variant};
use crate::table::{NON_ACES, Table};

/// What a shell may do with one top card (a pile's top or the cell's card).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopCard {
    /// Where the card is.
    pub place: Place,
    /// The card.
    pub card: Card,
    /// Whether it may be discarded now.
    pub can_discard: bool,
    /// Places it may be dropped on (empty piles, the empty cell).
    pub move_targets: Vec<Place>,
    /// What a double tap does, if anything.
    pub smart_move: Option<Action>,
}

/// Everything a shell needs to draw the table and enable its buttons.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// The four piles, bottom to top.
    pub piles: Vec<Vec<Card>>,
    /// The free cell's card.
    pub cell: Option<Card>,
    /// Whether the variant has a free cell (draw it).
    pub has_cell: bool,
    /// Cards left in the stock.
    pub stock: u32,
    /// Cards removed.
    pub score: u32,
    /// Non-ace cards still on the table or in the stock (48 − score).
    pub cards_left: u32,
    /// Where the game stands.
    pub status: Status,
    /// The rule variant.
    pub variant: Variant,
    /// The deal number, `None` for a custom deck.
    pub deal_number: Option<u64>,
    /// Helper use so far.
    pub counters: Counters,
    /// Jokers still available.
    pub jokers_left: u8,
    /// Jokers the game started with (0: jokers are off).
    pub jokers_per_game: u8,
    /// Piles a joker could clear now.
    pub joker_targets: Vec<PileIndex>,
    /// Whether the stock can be dealt.
    pub can_deal: bool,
    /// Whether undo is available (and switched on).
    pub can_undo: bool,
    /// Whether redo is available (and undo switched on).
    pub can_redo: bool,
    /// Whether a hint may be asked for.
    pub can_hint: bool,
    /// Whether restart is possible (the game is in progress and not at its start).
    pub can_restart: bool,
    /// Every top card with what may be done with it, piles left to right, then the cell.
    pub tops: Vec<TopCard>,
    /// The hint just given, until the next action.
    pub hint: Option<Hint>,
    /// Active play time so far, in milliseconds.
    pub play_time_ms: u64,
    /// The round of five in progress, if any.
    pub round: Option<Round>,
    /// The last save failure, if the latest state could not be written.
    pub save_problem: Option<String>,
}

/// The parts of a snapshot that come from the session rather than the game.
#[derive(Clone, Debug, Default)]
pub struct SessionView {
    /// Undo switched on.
    pub undo_enabled: bool,
    /// Hints switched on.
    pub hints_enabled: bool,
    /// The latest hint.
    pub hint: Option<Hint>,
    /// Active play time.
    pub play_time_ms: u64,
    /// The round in progress.
    pub round: Option<Round>,
    /// The last save failure.
    pub save_problem: Option<String>,
}

impl Snapshot {
    /// Builds the snapshot of a game.
    pub fn of(game: &Game, view: SessionView) -> Snapshot {
        let table = game.table();
        let variant = game.variant();
        let playing = !game.status().is_over();
        let legal = game.legal_actions();
        let tops = Table::places(variant)
            .filter_map(|place| table.top(place).map(|card| (place, card)))
            .map(|(place, card)| TopCard {
                place,
                card,
                can_discard: legal.contains(&Action::Discard { from: place }),
                move_targets: legal
                    .iter()
                    .filter_map(|action| match *action {
                        Action::Move { from, to } if from == place => Some(to),
                        _ => None,
                    })
                    .collect(),
                smart_move: game.smart_action(place).ok(),
            })
            .collect();
        let joker_targets = legal
            .iter()
            .filter_map(|action| match *action {
                Action::Joker { pile } => Some(pile),
                _ => None,
            })
            .collect();
        let score = u32::try_from(table.score()).unwrap_or(u32::MAX);
        Snapshot {
            piles: table.piles().to_vec(),
            cell: table.cell(),
            has_cell: variant.has_cell(),
            stock: u32::try_from(table.stock_len()).unwrap_or(u32::MAX),
            score,
            cards_left: (NON_ACES as u32).saturating_sub(score),
            status: game.status(),
            variant,
            deal_number: game.setup().deal_number,
            counters: game.counters(),
            jokers_left: table.jokers_left(),
            jokers_per_game: game.setup().jokers,
            joker_targets,
            can_deal: legal.contains(&Action::Deal),
            can_undo: view.undo_enabled && game.can_undo(),
            can_redo: view.undo_enabled && game.can_redo(),
            can_hint: view.hints_enabled && playing,
            can_restart: playing && *table != Table::new(&game.setup().deck, game.setup().jokers),
            tops,
            hint: view.hint,
            play_time_ms: view.play_time_ms,
            round: view.round,
            save_problem: view.save_problem,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::Command;
    use crate::game::GameSetup;

    fn view() -> SessionView {
        SessionView {
            undo_enabled: true,
            hints_enabled: true,
            ..SessionView::default()
        }
    }

    #[test]
    fn the_free_cell_card_is_a_top_card_with_its_targets() {
        let mut game = Game::new(GameSetup::numbered(4, Variant::FreeCell, 1));
        game.execute("cell 1".parse::<Command>().unwrap()).unwrap();
        let snap = Snapshot::of(&game, view());
        assert!(snap.has_cell);
        assert!(snap.cell.is_some());
        let cell = snap
            .tops
            .iter()
            .find(|top| top.place == Place::Cell)
            .unwrap();
        assert_eq!(cell.move_targets, vec![Place::Pile(PileIndex::ALL[0])]);
        let pile_two = snap
            .tops
            .iter()
            .find(|top| top.place == Place::Pile(PileIndex::ALL[1]))
            .unwrap();
        assert!(
            pile_two
                .move_targets
                .contains(&Place::Pile(PileIndex::ALL[0]))
        );
        assert!(
            !pile_two.move_targets.contains(&Place::Cell),
            "the cell is occupied"
        );
        assert!(snap.can_undo && snap.can_restart);
    }

    #[test]
    fn a_finished_game_offers_nothing() {
        let mut game = Game::new(GameSetup::numbered(4, Variant::Standard, 1));
        game.execute(Command::Play(Action::Deal)).unwrap();
        game.execute(Command::Resign).unwrap();
        let snap = Snapshot::of(&game, view());
        assert_eq!(snap.status, Status::Resigned);
        assert!(!snap.can_deal && !snap.can_undo && !snap.can_hint && !snap.can_restart);
        assert!(snap.joker_targets.is_empty());
        assert!(snap.tops.iter().all(|top| !top.can_discard
            && top.move_targets.is_empty()
            && top.smart_move.is_none()));
        assert_eq!(snap.cards_left, 48 - snap.score);
    }

    #[test]
    fn switched_off_helpers_are_disabled_in_the_snapshot() {
        let mut game = Game::new(GameSetup::numbered(4, Variant::Standard, 0));
        game.execute(Command::Play(Action::Deal)).unwrap();
        let snap = Snapshot::of(&game, SessionView::default());
        assert!(!snap.can_undo && !snap.can_hint);
        assert_eq!(snap.jokers_per_game, 0);
        assert!(snap.joker_targets.is_empty());
    }
}
