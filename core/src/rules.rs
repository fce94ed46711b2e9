//! The words of the rules: variants, places on the table and the actions a player takes.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::ActionError;

/// The rule variant of a game (RULES.md "Rule variants").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// The classic game: any top card may go onto an empty pile.
    #[default]
    Standard,
    /// Only an ace may be moved onto an empty pile.
    AcesOnly,
    /// A fifth place that holds one card and that deals never touch.
    FreeCell,
}

impl Variant {
    /// Every variant, in menu order.
    pub const ALL: [Variant; 3] = [Variant::Standard, Variant::AcesOnly, Variant::FreeCell];

    /// Whether the table has a free cell.
    pub fn has_cell(self) -> bool {
        self == Variant::FreeCell
    }

    /// The name used on the command line and in saves (`standard`, `aces-only`, `free-cell`).
    pub fn code(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::AcesOnly => "aces-only",
            Variant::FreeCell => "free-cell",
        }
    }

    /// Reads a variant code as printed by [`Variant::code`].
    pub fn from_code(code: &str) -> Option<Variant> {
        Variant::ALL
            .into_iter()
            .find(|variant| variant.code() == code)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.code())
    }
}

/// Number of piles on the table.
pub const PILE_COUNT: usize = 4;

/// A pile, 0–3 in code (piles 1–4 for people). Only valid indexes can be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct PileIndex(u8);

impl PileIndex {
    /// The four piles, left to right.
    pub const ALL: [PileIndex; PILE_COUNT] =
        [PileIndex(0), PileIndex(1), PileIndex(2), PileIndex(3)];

    /// A pile from a 0-based index; refuses anything above 3.
    pub fn new(index: usize) -> Result<PileIndex, ActionError> {
        u8::try_from(index)
            .ok()
            .filter(|&i| usize::from(i) < PILE_COUNT)
            .map(PileIndex)
            .ok_or(ActionError::NoSuchPile {
                number: index.saturating_add(1),
            })
    }

    /// A pile from the number people use (1–4).
    pub fn from_number(number: usize) -> Result<PileIndex, ActionError> {
        match number.checked_sub(1) {
            Some(index) if index < PILE_COUNT => PileIndex::new(index),
            _ => Err(ActionError::NoSuchPile { number }),
        }
    }

    /// The 0-based index, always below 4.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The number people see (1–4).
    pub fn number(self) -> usize {
        self.index() + 1
    }
}

impl TryFrom<u8> for PileIndex {
    type Error = ActionError;

    fn try_from(index: u8) -> Result<PileIndex, ActionError> {
        PileIndex::new(usize::from(index))
    }
}

impl From<PileIndex> for u8 {
    fn from(pile: PileIndex) -> u8 {
        pile.0
    }
}

/// A place a card can be taken from or put on: one of the piles or the free cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Place {
    /// One of the four piles.
    Pile(PileIndex),
    /// The free cell (free-cell variant only).
    Cell,
}

impl Place {
    /// Every place in table order: the piles left to right, then the cell.
    pub const ALL: [Place; 5] = [
        Place::Pile(PileIndex(0)),
        Place::Pile(PileIndex(1)),
        Place::Pile(PileIndex(2)),
        Place::Pile(PileIndex(3)),
        Place::Cell,
    ];

    /// Reads `1`–`4` or `cell`.
    pub fn parse(word: &str) -> Result<Place, ActionError> {
        if word.eq_ignore_ascii_case("cell") || word.eq_ignore_ascii_case("c") {
            return Ok(Place::Cell);
        }
        let number: usize = word.parse().map_err(|_| ActionError::NotAPlace {
            word: word.to_owned(),
        })?;
        PileIndex::from_number(number).map(Place::Pile)
    }
}

impl fmt::Display for Place {
    /// `1`–`4` or `cell`: the form people type.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Pile(pile) => write!(f, "{}", pile.number()),
            Place::Cell => f.write_str("cell"),
        }
    }
}

/// One change to the table that a player makes (what undo steps over and the solver searches).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// One stock card onto each pile, left to right.
    Deal,
    /// Remove the top card of a pile (or the cell card).
    Discard {
        /// Where the discarded card is.
        from: Place,
    },
    /// Move a top card onto an empty pile or the empty cell.
    Move {
        /// Where the card is.
        from: Place,
        /// Where it goes (must be empty).
        to: Place,
    },
    /// Clear every non-ace card from one pile.
    Joker {
        /// The pile to clear.
        pile: PileIndex,
    },
}

impl fmt::Display for Action {
    /// The scripted-mode syntax: `deal`, `discard 3`, `discard cell`, `move 1 4`, `move 2 cell`,
    /// `joker 2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Deal => f.write_str("deal"),
            Action::Discard { from } => write!(f, "discard {from}"),
            Action::Move { from, to } => write!(f, "move {from} {to}"),
            Action::Joker { pile } => write!(f, "joker {}", pile.number()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pile_numbers_are_checked() {
        assert_eq!(PileIndex::from_number(1).map(PileIndex::index), Ok(0));
        assert_eq!(PileIndex::from_number(4).map(PileIndex::index), Ok(3));
        assert_eq!(
            PileIndex::from_number(0),
            Err(ActionError::NoSuchPile { number: 0 })
        );
        assert_eq!(
            PileIndex::from_number(5),
            Err(ActionError::NoSuchPile { number: 5 })
        );
        assert_eq!(
            PileIndex::new(4),
            Err(ActionError::NoSuchPile { number: 5 })
        );
        assert!(PileIndex::new(usize::MAX).is_err());
        assert!(serde_json::from_str::<PileIndex>("4").is_err());
        assert_eq!(
            serde_json::from_str::<PileIndex>("3").ok(),
            PileIndex::new(3).ok()
        );
    }

    #[test]
    fn places_parse_from_what_people_type() {
        assert_eq!(Place::parse("cell"), Ok(Place::Cell));
        assert_eq!(Place::parse("CELL"), Ok(Place::Cell));
        assert_eq!(
            Place::parse("2"),
            PileIndex::from_number(2).map(Place::Pile)
        );
        assert!(matches!(
            Place::parse("x"),
            Err(ActionError::NotAPlace { .. })
        ));
        assert!(matches!(
            Place::parse("9"),
            Err(ActionError::NoSuchPile { number: 9 })
        ));
        assert!(matches!(
            Place::parse("-1"),
            Err(ActionError::NotAPlace { .. })
        ));
    }

    #[test]
    fn variant_codes_round_trip() {
        for variant in Variant::ALL {
            assert_eq!(Variant::from_code(variant.code()), Some(variant));
        }
        assert_eq!(Variant::from_code("klondike"), None);
        assert_eq!(
            serde_json::to_string(&Variant::FreeCell).ok().as_deref(),
            Some("\"free-cell\"")
        );
    }
}
