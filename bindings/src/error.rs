//! The one error type of the boundary: a stable case per failure, with a readable message.
//!
//! Kotlin sees `GameException` (a sealed class, one subclass per case) and Swift sees
//! `GameError` (an enum). Shells switch on the case and show their own localized text;
//! [`GameError::code`] gives the same case as a `snake_case` string (used in logs and tests).

use acesup_core::deal::DeckError;
use acesup_core::error::{ActionError, SmartMoveBlock};
use acesup_core::save::StorageError;
use acesup_core::session::SessionError;

use crate::types::Place;

/// Why a smart move (double tap) found nothing to do with a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum SmartMoveBlocked {
    /// The card cannot be discarded and no pile is empty.
    NoEmptyPile,
    /// The card is alone in its pile, so moving it would change nothing.
    AloneInPile,
    /// In the aces-only variant only an ace may go onto an empty pile.
    NotAnAce,
}

impl SmartMoveBlocked {
    fn explain(self) -> &'static str {
        match self {
            SmartMoveBlocked::NoEmptyPile => "no pile is empty",
            SmartMoveBlocked::AloneInPile => {
                "it is alone in its pile, so moving it changes nothing"
            }
            SmartMoveBlocked::NotAnAce => "only an ace may be moved onto an empty pile",
        }
    }
}

impl From<SmartMoveBlock> for SmartMoveBlocked {
    fn from(block: SmartMoveBlock) -> SmartMoveBlocked {
        match block {
            SmartMoveBlock::NoEmptyPile => SmartMoveBlocked::NoEmptyPile,
            SmartMoveBlock::AloneInPile => SmartMoveBlocked::AloneInPile,
            SmartMoveBlock::NotAnAce => SmartMoveBlocked::NotAnAce,
        }
    }
}

/// Why the session refused a call. A refused call changes nothing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, uniffi::Error)]
pub enum GameError {
    /// The game has ended (won, lost or resigned); only a new game can follow.
    #[error("the game is over")]
    GameOver,
    /// A pile index outside 0–3.
    #[error("there is no pile with index {index}: piles are 0 to 3")]
    NoSuchPile {
        /// The index that was given.
        index: u8,
    },
    /// The variant has no free cell.
    #[error("this variant has no free cell")]
    NoFreeCell,
    /// There is no card where the action takes one from.
    #[error("{place} is empty")]
    EmptyPlace {
        /// The empty place.
        place: Place,
    },
    /// Aces are never discarded.
    #[error("aces are never discarded")]
    AceNeverDiscarded,
    /// No higher card of the suit shows on another pile (or the cell).
    #[error("{card} cannot be discarded: no higher card of its suit is showing")]
    NoHigherCardShowing {
        /// The card that was to be discarded (its code, e.g. `5H`).
        card: String,
    },
    /// A card can only go onto an empty pile or the empty cell.
    #[error("{place} is not empty")]
    PlaceNotEmpty {
        /// The occupied target.
        place: Place,
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
    #[error("pile {} holds no card a joker would remove", u16::from(*.pile) + 1)]
    NothingForJoker {
        /// The pile that was chosen (0–3).
        pile: u8,
    },
    /// A smart move (double tap) found nothing to do.
    #[error("{card} cannot be discarded and {}", .reason.explain())]
    NoSmartMove {
        /// The tapped card (its code).
        card: String,
        /// Why it cannot be moved either.
        reason: SmartMoveBlocked,
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
    /// A custom deck does not have exactly 52 cards.
    #[error("a deck needs exactly 52 cards, this one has {found}")]
    DeckWrongCount {
        /// How many cards were given.
        found: u64,
    },
    /// A card appears twice in a custom deck.
    #[error("{card} appears more than once (positions {first} and {second})")]
    DeckDuplicate {
        /// The repeated card's code.
        card: String,
        /// 1-based position of its first appearance.
        first: u64,
        /// 1-based position of the repeat.
        second: u64,
    },
    /// A word of a custom deck is not a card.
    #[error(
        "card {position} (\"{text}\") is not a card: use a rank 2-10, T, J, Q, K or A and a suit C, D, H or S, e.g. 10H"
    )]
    DeckBadCard {
        /// 1-based position of the bad word.
        position: u64,
        /// The word.
        text: String,
    },
    /// A setting out of range.
    #[error("invalid setting: {reason}")]
    InvalidSetting {
        /// What is wrong.
        reason: String,
    },
    /// The storage path given by the shell is not usable as given (empty, relative, or with a
    /// NUL character).
    #[error("invalid storage path {path:?}: {reason}")]
    InvalidPath {
        /// The path as given.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The storage directory cannot be created or used.
    #[error("cannot use the storage directory {path}: {detail}")]
    StorageDirectory {
        /// The directory.
        path: String,
        /// What the system said.
        detail: String,
    },
    /// A save file could not be written.
    #[error("cannot save {file}: {detail}")]
    StorageWrite {
        /// The file name.
        file: String,
        /// What the system said.
        detail: String,
    },
    /// A save file was unreadable, malformed or inconsistent; it was set aside.
    #[error("{file} was damaged ({reason}) and was set aside as {moved_to}")]
    SaveDamaged {
        /// The file name.
        file: String,
        /// What was wrong.
        reason: String,
        /// The name it was moved to (in the same directory).
        moved_to: String,
    },
    /// A save file has a schema version this build does not read; it was set aside.
    #[error(
        "{file} has schema version {found}, this version reads {expected}; it was set aside as {moved_to}"
    )]
    SaveWrongSchema {
        /// The file name.
        file: String,
        /// The version in the file.
        found: u32,
        /// The version this build reads.
        expected: u32,
        /// The name it was moved to.
        moved_to: String,
    },
    /// The solver found no provably winnable deal (its search gave up).
    #[error("no provably winnable deal was found")]
    NoWinnableDeal,
    /// The analysis shows the solution, so it waits until the game is over.
    #[error("the analysis is available once the game is over")]
    GameInProgress,
    /// A review step beyond the end of the game's log.
    #[error("step {step} is beyond the end of the game ({steps} steps)")]
    NoSuchStep {
        /// The step asked for.
        step: u64,
        /// Steps in the game's log.
        steps: u64,
    },
    /// A command the game does not understand (only reachable through text commands).
    #[error("not a command: {text}")]
    InvalidCommand {
        /// What the game said about it.
        text: String,
    },
}

impl GameError {
    /// The case as a stable `snake_case` name (`stock_empty`, `no_such_pile`, …): the
    /// machine-readable code shells and tests compare.
    pub fn code(&self) -> &'static str {
        match self {
            GameError::GameOver => "game_over",
            GameError::NoSuchPile { .. } => "no_such_pile",
            GameError::NoFreeCell => "no_free_cell",
            GameError::EmptyPlace { .. } => "empty_place",
            GameError::AceNeverDiscarded => "ace_never_discarded",
            GameError::NoHigherCardShowing { .. } => "no_higher_card_showing",
            GameError::PlaceNotEmpty { .. } => "place_not_empty",
            GameError::SamePlace => "same_place",
            GameError::OnlyAcesToEmptyPiles => "only_aces_to_empty_piles",
            GameError::StockEmpty => "stock_empty",
            GameError::JokersOff => "jokers_off",
            GameError::NoJokersLeft => "no_jokers_left",
            GameError::NothingForJoker { .. } => "nothing_for_joker",
            GameError::NoSmartMove { .. } => "no_smart_move",
            GameError::UndoOff => "undo_off",
            GameError::HintsOff => "hints_off",
            GameError::NothingToUndo => "nothing_to_undo",
            GameError::NothingToRedo => "nothing_to_redo",
            GameError::AlreadyAtStart => "already_at_start",
            GameError::DeckWrongCount { .. } => "deck_wrong_count",
            GameError::DeckDuplicate { .. } => "deck_duplicate",
            GameError::DeckBadCard { .. } => "deck_bad_card",
            GameError::InvalidSetting { .. } => "invalid_setting",
            GameError::InvalidPath { .. } => "invalid_path",
            GameError::StorageDirectory { .. } => "storage_directory",
            GameError::StorageWrite { .. } => "storage_write",
            GameError::SaveDamaged { .. } => "save_damaged",
            GameError::SaveWrongSchema { .. } => "save_wrong_schema",
            GameError::NoWinnableDeal => "no_winnable_deal",
            GameError::GameInProgress => "game_in_progress",
            GameError::NoSuchStep { .. } => "no_such_step",
            GameError::InvalidCommand { .. } => "invalid_command",
        }
    }
}

fn count(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

impl From<ActionError> for GameError {
    fn from(error: ActionError) -> GameError {
        match error {
            ActionError::GameOver => GameError::GameOver,
            ActionError::NoSuchPile { number } => GameError::NoSuchPile {
                index: u8::try_from(number.saturating_sub(1)).unwrap_or(u8::MAX),
            },
            ActionError::NotAPlace { .. } | ActionError::UnknownCommand { .. } => {
                GameError::InvalidCommand {
                    text: error.to_string(),
                }
            }
            ActionError::NoFreeCell => GameError::NoFreeCell,
            ActionError::EmptyPlace { place } => GameError::EmptyPlace {
                place: place.0.into(),
            },
            ActionError::AceNeverDiscarded => GameError::AceNeverDiscarded,
            ActionError::NoHigherCardShowing { card } => GameError::NoHigherCardShowing {
                card: card.to_string(),
            },
            ActionError::PlaceNotEmpty { place } => GameError::PlaceNotEmpty {
                place: place.0.into(),
            },
            ActionError::SamePlace => GameError::SamePlace,
            ActionError::OnlyAcesToEmptyPiles => GameError::OnlyAcesToEmptyPiles,
            ActionError::StockEmpty => GameError::StockEmpty,
            ActionError::JokersOff => GameError::JokersOff,
            ActionError::NoJokersLeft => GameError::NoJokersLeft,
            ActionError::NothingForJoker { place } => match Place::from(place.0) {
                Place::Pile { index } => GameError::NothingForJoker { pile: index },
                Place::Cell => GameError::InvalidCommand {
                    text: error.to_string(),
                },
            },
            ActionError::NoSmartMove { card, reason } => GameError::NoSmartMove {
                card: card.to_string(),
                reason: reason.into(),
            },
            ActionError::UndoOff => GameError::UndoOff,
            ActionError::HintsOff => GameError::HintsOff,
            ActionError::NothingToUndo => GameError::NothingToUndo,
            ActionError::NothingToRedo => GameError::NothingToRedo,
            ActionError::AlreadyAtStart => GameError::AlreadyAtStart,
        }
    }
}

impl From<DeckError> for GameError {
    fn from(error: DeckError) -> GameError {
        match error {
            DeckError::WrongCount { found } => GameError::DeckWrongCount {
                found: count(found),
            },
            DeckError::Duplicate {
                card,
                first,
                second,
            } => GameError::DeckDuplicate {
                card: card.to_string(),
                first: count(first),
                second: count(second),
            },
            DeckError::BadCard { position, source } => GameError::DeckBadCard {
                position: count(position),
                text: source.text,
            },
        }
    }
}

impl From<StorageError> for GameError {
    fn from(error: StorageError) -> GameError {
        match error {
            StorageError::Directory { path, message } => GameError::StorageDirectory {
                path,
                detail: message,
            },
            StorageError::Write { file, message } => GameError::StorageWrite {
                file,
                detail: message,
            },
            StorageError::Damaged {
                file,
                reason,
                moved_to,
            } => GameError::SaveDamaged {
                file,
                reason,
                moved_to,
            },
            StorageError::WrongSchema {
                file,
                found,
                expected,
                moved_to,
            } => GameError::SaveWrongSchema {
                file,
                found,
                expected,
                moved_to,
            },
        }
    }
}

impl From<SessionError> for GameError {
    fn from(error: SessionError) -> GameError {
        match error {
            SessionError::Action(error) => error.into(),
            SessionError::Deck(error) => error.into(),
            SessionError::Storage(error) => error.into(),
            SessionError::Settings(reason) => GameError::InvalidSetting { reason },
            SessionError::NoWinnableDeal => GameError::NoWinnableDeal,
            SessionError::GameInProgress => GameError::GameInProgress,
            SessionError::NoSuchStep { step, steps } => GameError::NoSuchStep {
                step: count(step),
                steps: count(steps),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_match_the_core_codes_for_the_same_failure() {
        let core_errors: Vec<SessionError> = vec![
            ActionError::GameOver.into(),
            ActionError::NoSuchPile { number: 5 }.into(),
            ActionError::NoFreeCell.into(),
            ActionError::SamePlace.into(),
            ActionError::StockEmpty.into(),
            ActionError::UndoOff.into(),
            DeckError::WrongCount { found: 3 }.into(),
            SessionError::Settings("x".to_owned()),
            SessionError::NoWinnableDeal,
            SessionError::GameInProgress,
            SessionError::NoSuchStep { step: 4, steps: 2 },
            StorageError::Directory {
                path: "/x".to_owned(),
                message: "no".to_owned(),
            }
            .into(),
        ];
        for error in core_errors {
            let code = error.code();
            assert_eq!(GameError::from(error).code(), code);
        }
        assert_eq!(
            GameError::from(ActionError::NoSuchPile { number: 5 }),
            GameError::NoSuchPile { index: 4 }
        );
    }

    #[test]
    fn messages_name_piles_as_people_see_them() {
        let error = GameError::EmptyPlace {
            place: Place::Pile { index: 2 },
        };
        assert_eq!(error.to_string(), "pile 3 is empty");
        assert_eq!(
            GameError::NothingForJoker { pile: 0 }.to_string(),
            "pile 1 holds no card a joker would remove"
        );
    }
}
