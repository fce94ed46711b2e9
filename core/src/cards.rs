//! Cards, suits and ranks, and their text form (`10H`, `TH`, `A♠`).
//!
//! Canonical output is rank `2`–`10`, `J`, `Q`, `K`, `A` followed by suit `C`, `D`, `H`, `S`.
//! Input also accepts `T` for ten, lower case, and the suit symbols ♣ ♦ ♥ ♠ (♧ ♢ ♡ ♤ too).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A suit. Suits never outrank each other; they only matter for matching.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    /// ♣
    Clubs,
    /// ♦
    Diamonds,
    /// ♥
    Hearts,
    /// ♠
    Spades,
}

impl Suit {
    /// All suits in their fixed order (clubs, diamonds, hearts, spades).
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// Position in [`Suit::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The letter used in card codes.
    pub fn letter(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Diamonds => 'D',
            Suit::Hearts => 'H',
            Suit::Spades => 'S',
        }
    }

    /// The suit symbol, for display.
    pub fn symbol(self) -> char {
        match self {
            Suit::Clubs => '♣',
            Suit::Diamonds => '♦',
            Suit::Hearts => '♥',
            Suit::Spades => '♠',
        }
    }

    /// The singular English name ("heart"), used in error messages.
    pub fn name(self) -> &'static str {
        match self {
            Suit::Clubs => "club",
            Suit::Diamonds => "diamond",
            Suit::Hearts => "heart",
            Suit::Spades => "spade",
        }
    }

    /// Hearts and diamonds are red.
    pub fn is_red(self) -> bool {
        matches!(self, Suit::Diamonds | Suit::Hearts)
    }

    fn from_char(c: char) -> Option<Suit> {
        match c {
            'C' | 'c' | '♣' | '♧' => Some(Suit::Clubs),
            'D' | 'd' | '♦' | '♢' => Some(Suit::Diamonds),
            'H' | 'h' | '♥' | '♡' => Some(Suit::Hearts),
            'S' | 's' | '♠' | '♤' => Some(Suit::Spades),
            _ => None,
        }
    }
}

/// A rank, aces high. The discriminant is the rank's value (2–14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Rank {
    /// 2
    Two = 2,
    /// 3
    Three,
    /// 4
    Four,
    /// 5
    Five,
    /// 6
    Six,
    /// 7
    Seven,
    /// 8
    Eight,
    /// 9
    Nine,
    /// 10
    Ten,
    /// Jack
    Jack,
    /// Queen
    Queen,
    /// King
    King,
    /// Ace, the highest rank.
    Ace,
}

impl Rank {
    /// All ranks from low (2) to high (ace).
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// The rank's value: 2–10, jack 11, queen 12, king 13, ace 14.
    pub fn value(self) -> u8 {
        self as u8
    }

    /// Position in [`Rank::ALL`] (two is 0, ace is 12).
    pub fn index(self) -> usize {
        usize::from(self.value() - 2)
    }

    /// The canonical text: `2`–`10`, `J`, `Q`, `K`, `A`.
    pub fn code(self) -> &'static str {
        match self {
            Rank::Two => "2",
            Rank::Three => "3",
            Rank::Four => "4",
            Rank::Five => "5",
            Rank::Six => "6",
            Rank::Seven => "7",
            Rank::Eight => "8",
            Rank::Nine => "9",
            Rank::Ten => "10",
            Rank::Jack => "J",
            Rank::Queen => "Q",
            Rank::King => "K",
            Rank::Ace => "A",
        }
    }

    fn from_code(code: &str) -> Option<Rank> {
        let rank = match code.to_ascii_uppercase().as_str() {
            "2" => Rank::Two,
            "3" => Rank::Three,
            "4" => Rank::Four,
            "5" => Rank::Five,
            "6" => Rank::Six,
            "7" => Rank::Seven,
            "8" => Rank::Eight,
            "9" => Rank::Nine,
            "10" | "T" => Rank::Ten,
            "J" => Rank::Jack,
            "Q" => Rank::Queen,
            "K" => Rank::King,
            "A" => Rank::Ace,
            _ => return None,
        };
        Some(rank)
    }
}

/// One playing card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card {
    /// The card's rank.
    pub rank: Rank,
    /// The card's suit.
    pub suit: Suit,
}

impl Card {
    /// Builds a card.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card { rank, suit }
    }

    /// Whether this card is an ace (aces are never discarded).
    pub fn is_ace(self) -> bool {
        self.rank == Rank::Ace
    }

    /// A number 0–51 unique to the card: suit × 13 + rank index (2♣ is 0, A♠ is 51).
    ///
    /// This is the card's position in the ordered deck that deal numbers shuffle.
    pub fn index(self) -> usize {
        self.suit.index() * 13 + self.rank.index()
    }

    /// The card with the given [`Card::index`], if the index is below 52.
    pub fn from_index(index: usize) -> Option<Card> {
        let suit = *Suit::ALL.get(index / 13)?;
        let rank = *Rank::ALL.get(index % 13)?;
        Some(Card { rank, suit })
    }

    /// The whole deck in index order (2♣ … A♣, 2♦ … A♠).
    pub fn all() -> impl Iterator<Item = Card> {
        Suit::ALL
            .into_iter()
            .flat_map(|suit| Rank::ALL.into_iter().map(move |rank| Card { rank, suit }))
    }

    /// Whether `other` has the same suit and a higher rank, so this card may be discarded
    /// when `other` shows.
    pub fn is_beaten_by(self, other: Card) -> bool {
        self.suit == other.suit && other.rank > self.rank
    }

    /// The card with its suit symbol instead of the letter (`10♥`), for people.
    pub fn pretty(self) -> String {
        format!("{}{}", self.rank.code(), self.suit.symbol())
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank.code(), self.suit.letter())
    }
}

/// Why a piece of card text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "\"{text}\" is not a card (expected a rank 2-10, T, J, Q, K or A and a suit C, D, H, S or ♣ ♦ ♥ ♠, e.g. 10H)"
)]
pub struct ParseCardError {
    /// The text that was rejected.
    pub text: String,
}

impl FromStr for Card {
    type Err = ParseCardError;

    fn from_str(text: &str) -> Result<Card, ParseCardError> {
        let error = || ParseCardError {
            text: text.to_owned(),
        };
        let trimmed = text.trim();
        let suit_char = trimmed.chars().next_back().ok_or_else(error)?;
        let suit = Suit::from_char(suit_char).ok_or_else(error)?;
        let rank_text = trimmed
            .get(..trimmed.len() - suit_char.len_utf8())
            .ok_or_else(error)?;
        let rank = Rank::from_code(rank_text).ok_or_else(error)?;
        Ok(Card { rank, suit })
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Card, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_accepted_spelling() {
        let ten_hearts = Card::new(Rank::Ten, Suit::Hearts);
        for text in ["10H", "TH", "th", "10♥", "T♡", " 10h "] {
            assert_eq!(text.parse::<Card>(), Ok(ten_hearts), "{text}");
        }
        assert_eq!("A♠".parse::<Card>(), Ok(Card::new(Rank::Ace, Suit::Spades)));
        assert_eq!("2c".parse::<Card>(), Ok(Card::new(Rank::Two, Suit::Clubs)));
        assert_eq!(
            "qd".parse::<Card>(),
            Ok(Card::new(Rank::Queen, Suit::Diamonds))
        );
    }

    #[test]
    fn rejects_malformed_text() {
        for text in [
            "", "H", "10", "1H", "11H", "AX", "A♠♠", "ZZ", "♠", "10 H", "AHS",
        ] {
            assert!(text.parse::<Card>().is_err(), "{text:?} should be rejected");
        }
    }

    #[test]
    fn canonical_text_round_trips_for_every_card() {
        for card in Card::all() {
            let text = card.to_string();
            assert_eq!(text.parse::<Card>(), Ok(card));
            assert_eq!(card.pretty().parse::<Card>(), Ok(card));
        }
        assert_eq!(Card::new(Rank::Ten, Suit::Clubs).to_string(), "10C");
        assert_eq!(Card::new(Rank::Jack, Suit::Diamonds).pretty(), "J♦");
    }

    #[test]
    fn index_is_a_bijection_onto_0_to_51() {
        let indexes: Vec<usize> = Card::all().map(Card::index).collect();
        assert_eq!(indexes, (0..52).collect::<Vec<_>>());
        for index in 0..52 {
            assert_eq!(Card::from_index(index).map(Card::index), Some(index));
        }
        assert_eq!(Card::from_index(52), None);
    }

    #[test]
    fn only_a_higher_card_of_the_same_suit_beats_a_card() {
        let five_h = Card::new(Rank::Five, Suit::Hearts);
        assert!(five_h.is_beaten_by(Card::new(Rank::Six, Suit::Hearts)));
        assert!(five_h.is_beaten_by(Card::new(Rank::Ace, Suit::Hearts)));
        assert!(!five_h.is_beaten_by(Card::new(Rank::Four, Suit::Hearts)));
        assert!(!five_h.is_beaten_by(five_h));
        assert!(!five_h.is_beaten_by(Card::new(Rank::Ace, Suit::Spades)));
    }

    #[test]
    fn serde_uses_the_canonical_code() {
        let card = Card::new(Rank::Ten, Suit::Spades);
        assert_eq!(
            serde_json::to_string(&card).ok(),
            Some("\"10S\"".to_owned())
        );
        let back: Result<Card, _> = serde_json::from_str("\"T♠\"");
        assert_eq!(back.ok(), Some(card));
        assert!(serde_json::from_str::<Card>("\"1S\"").is_err());
    }
}

/// A set of cards as a 52-bit mask (bit [`Card::index`]); cheap to copy and compare.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CardSet(u64);

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);

    /// Adds a card.
    pub fn insert(&mut self, card: Card) {
        self.0 |= 1 << card.index();
    }

    /// Whether the card is in the set.
    pub fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.index()) != 0
    }

    /// How many cards the set holds.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The cards in index order.
    pub fn iter(self) -> impl Iterator<Item = Card> {
        Card::all().filter(move |card| self.contains(*card))
    }

    /// The raw mask (bit i is the card with index i).
    pub fn bits(self) -> u64 {
        self.0
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(cards: I) -> CardSet {
        let mut set = CardSet::EMPTY;
        for card in cards {
            set.insert(card);
        }
        set
    }
}

#[cfg(test)]
mod card_set_tests {
    use super::*;

    #[test]
    fn a_card_set_holds_what_was_inserted() {
        let set: CardSet = ["AS", "2C", "10H"]
            .iter()
            .filter_map(|t| t.parse().ok())
            .collect();
        assert_eq!(set.len(), 3);
        assert!(set.contains(Card::new(Rank::Ace, Suit::Spades)));
        assert!(!set.contains(Card::new(Rank::Ace, Suit::Hearts)));
        assert_eq!(
            set.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
            ["2C", "10H", "AS"]
        );
        assert!(CardSet::EMPTY.is_empty());
        assert_eq!(Card::all().collect::<CardSet>().len(), 52);
    }
}
