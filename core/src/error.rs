//! Why an action was refused. Every refusal leaves the game exactly as it was.

use crate::cards::Card;
use crate::rules::Place;

/// Why a smart move (double tap) found nothing to do with a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SmartMoveBlock {
    /// The card cannot be discarded and no pile is empty.
    NoEmptyPile,
    /// The card is alone in its pile, so moving it would change nothing.
    AloneInPile,
    /// In the aces-only variant only an ace may go onto an empty pile.
    NotAnAce,
}

impl SmartMoveBlock {
    fn explain(self) -> &'static str {
        match self {
            SmartMoveBlock::NoEmptyPile => "no pile is empty",
            SmartMoveBlock::AloneInPile => "it is alone in its pile, so moving it changes nothing",
            SmartMoveBlock::NotAnAce => "only an ace may be moved onto an empty pile",
        }
    }
}

/// Why the game refused an action. Each case has a stable [`ActionError::code`] for shells.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The game has ended (won, lost or resigned); only a new game can follow.
    #[error("the game is over")]
    GameOver,
    /// A pile number outside 1–4.
    #[error("there is no pile {number}: piles are numbered 1 to 4")]
    NoSuchPile {
        /// The number that was given (1-based).
        number: usize,
    },
    /// A word that names no place.
    #[error("\"{word}\" is not a pile number (1-4) or \"cell\"")]
    NotAPlace {
        /// The word that was given.
        word: String,
    },
    /// The variant has no free cell.
    #[error("this variant has no free cell")]
    NoFreeCell,
    /// There is no card where the action takes one from.
    #[error("{place} is empty")]
    EmptyPlace {
        /// The empty place.
        place: PlaceName,
    },
    /// Aces are never discarded.
    #[error("aces are never discarded")]
    AceNeverDiscarded,
    /// No higher card of the suit shows on another pile (or the cell).
    #[error("{card} cannot be discarded: no higher {} is showing", .card.suit.name())]
    NoHigherCardShowing {
        /// The card that was to be discarded.
        card: Card,
    },
    /// A card can only go onto an empty pile or the empty cell.
    #[error("{place} is not empty")]
    PlaceNotEmpty {
        /// The occupied target.
        place: PlaceName,
    },
    /// A card was to be moved onto the place it is on.
    #[error("the card is already there")]
    SamePlace,
    /// Aces-only variant: only an ace may be moved onto an empty pile.
    #[error("only an ace may be moved onto an empty pile in this variant")]
    OnlyAcesToEmptyPiles,
    /// No cards are left to deal.
    #[error("the stock is empty")]
    StockEmpty,
    /// Jokers are switched off for this game.
    #[error("jokers are switched off")]
    JokersOff,
    /// Every joker of this game has been used.
    #[error("no jokers left")]
    NoJokersLeft,
    /// The pile has no card a joker would remove (it is empty or holds only aces).
    #[error("{place} holds no card a joker would remove")]
    NothingForJoker {
        /// The pile that was chosen.
        place: PlaceName,
    },
    /// A smart move (double tap) found nothing to do.
    #[error("{card} cannot be discarded and {}", .reason.explain())]
    NoSmartMove {
        /// The tapped card.
        card: Card,
        /// Why it cannot move either.
        reason: SmartMoveBlock,
    },
    /// Undo is switched off in the settings.
    #[error("undo is switched off")]
    UndoOff,
    /// Hints are switched off in the settings.
    #[error("hints are switched off")]
    HintsOff,
    /// Nothing to undo.
    #[error("there is nothing to undo")]
    NothingToUndo,
    /// Nothing to redo.
    #[error("there is nothing to redo")]
    NothingToRedo,
    /// Restart on a table that is already at the start of the deal.
    #[error("the game is already at the start of the deal")]
    AlreadyAtStart,
    /// A command the game does not know.
    #[error("\"{text}\" is not a command: {expected}")]
    UnknownCommand {
        /// The text that was given.
        text: String,
        /// What would have been accepted.
        expected: &'static str,
    },
}

impl ActionError {
    /// A stable, machine-readable name for the case (shells map it to localized text).
    pub fn code(&self) -> &'static str {
        match self {
            ActionError::GameOver => "game_over",
            ActionError::NoSuchPile { .. } => "no_such_pile",
            ActionError::NotAPlace { .. } => "not_a_place",
            ActionError::NoFreeCell => "no_free_cell",
            ActionError::EmptyPlace { .. } => "empty_place",
            ActionError::AceNeverDiscarded => "ace_never_discarded",
            ActionError::NoHigherCardShowing { .. } => "no_higher_card_showing",
            ActionError::PlaceNotEmpty { .. } => "place_not_empty",
            ActionError::SamePlace => "same_place",
            ActionError::OnlyAcesToEmptyPiles => "only_aces_to_empty_piles",
            ActionError::StockEmpty => "stock_empty",
            ActionError::JokersOff => "jokers_off",
            ActionError::NoJokersLeft => "no_jokers_left",
            ActionError::NothingForJoker { .. } => "nothing_for_joker",
            ActionError::NoSmartMove { .. } => "no_smart_move",
            ActionError::UndoOff => "undo_off",
            ActionError::HintsOff => "hints_off",
            ActionError::NothingToUndo => "nothing_to_undo",
            ActionError::NothingToRedo => "nothing_to_redo",
            ActionError::AlreadyAtStart => "already_at_start",
            ActionError::UnknownCommand { .. } => "unknown_command",
        }
    }
}

/// A place as people name it in messages ("pile 3", "the free cell").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlaceName(pub Place);

impl std::fmt::Display for PlaceName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Place::Pile(pile) => write!(f, "pile {}", pile.number()),
            Place::Cell => f.write_str("the free cell"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Rank, Suit};
    use crate::rules::PileIndex;

    #[test]
    fn messages_say_why() {
        let card = Card::new(Rank::Five, Suit::Hearts);
        assert_eq!(
            ActionError::NoHigherCardShowing { card }.to_string(),
            "5H cannot be discarded: no higher heart is showing"
        );
        let pile = PileIndex::from_number(3)
            .map(Place::Pile)
            .unwrap_or(Place::Cell);
        assert_eq!(
            ActionError::PlaceNotEmpty {
                place: PlaceName(pile)
            }
            .to_string(),
            "pile 3 is not empty"
        );
        assert_eq!(
            ActionError::EmptyPlace {
                place: PlaceName(Place::Cell)
            }
            .to_string(),
            "the free cell is empty"
        );
        assert_eq!(
            ActionError::AceNeverDiscarded.to_string(),
            "aces are never discarded"
        );
        assert_eq!(
            ActionError::NoSmartMove {
                card,
                reason: SmartMoveBlock::NoEmptyPile
            }
            .to_string(),
            "5H cannot be discarded and no pile is empty"
        );
    }

    #[test]
    fn codes_are_distinct() {
        let card = Card::new(Rank::Two, Suit::Clubs);
        let place = PlaceName(Place::Cell);
        let all = [
            ActionError::GameOver,
            ActionError::NoSuchPile { number: 9 },
            ActionError::NotAPlace {
                word: String::new(),
            },
            ActionError::NoFreeCell,
            ActionError::EmptyPlace { place },
            ActionError::AceNeverDiscarded,
            ActionError::NoHigherCardShowing { card },
            ActionError::PlaceNotEmpty { place },
            ActionError::SamePlace,
            ActionError::OnlyAcesToEmptyPiles,
            ActionError::StockEmpty,
            ActionError::JokersOff,
            ActionError::NoJokersLeft,
            ActionError::NothingForJoker { place },
            ActionError::NoSmartMove {
                card,
                reason: SmartMoveBlock::AloneInPile,
            },
            ActionError::UndoOff,
            ActionError::HintsOff,
            ActionError::NothingToUndo,
            ActionError::NothingToRedo,
            ActionError::AlreadyAtStart,
            ActionError::UnknownCommand {
                text: String::new(),
                expected: "",
            },
        ];
        let mut codes: Vec<&str> = all.iter().map(ActionError::code).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), all.len());
    }
}
