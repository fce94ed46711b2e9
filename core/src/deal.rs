//! Deal numbers and decks: the order in which the 52 cards come out.
//!
//! # The pinned shuffle (must never change)
//! A deal number `n` (any `u64`) gives its card order like this, so that any port reproduces it:
//!
//! 1. Start from the ordered deck: index `i` (0–51) is suit `i / 13` (clubs, diamonds, hearts,
//!    spades) and rank `2 + i % 13` (2 … 10, J, Q, K, A). So 2♣ is 0, A♣ is 12, A♠ is 51.
//! 2. Seed a SplitMix64 generator with `state = n`. Each draw does, in wrapping 64-bit arithmetic:
//!    `state += 0x9E3779B97F4A7C15; z = state; z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
//!    z = (z ^ (z >> 27)) * 0x94D049BB133111EB; return z ^ (z >> 31)`.
//! 3. A uniform number below `bound` rejects draws below `threshold = (2^64 - bound) % bound`
//!    and returns `draw % bound` for the first draw that is not rejected.
//! 4. Fisher–Yates from the top: for `i` from 51 down to 1, `j = uniform(i + 1)`, swap `i` and `j`.
//! 5. The result is the deal order: cards 0–3 are the first deal (piles 1–4), 4–7 the second, …
//!
//! Golden tests below pin several deal numbers, including 0 and `u64::MAX`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::cards::{Card, ParseCardError};

/// Cards in a deck.
pub const DECK_SIZE: usize = 52;

/// The SplitMix64 generator, pinned as described in the module docs.
#[derive(Clone, Debug)]
struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..bound` (bound > 0) without modulo bias.
    fn below(&mut self, bound: u64) -> u64 {
        let bound = bound.max(1);
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let draw = self.next();
            if draw >= threshold {
                return draw % bound;
            }
        }
    }
}

/// 52 distinct cards in deal order (the first four are the first deal, piles left to right).
///
/// A `Deck` can only be built valid: from a deal number or from checked text/cards.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Deck {
    cards: [Card; DECK_SIZE],
}

/// Why a custom deck was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeckError {
    /// A deck must have exactly 52 cards.
    #[error("a deck needs exactly 52 cards, this one has {found}")]
    WrongCount {
        /// How many cards were given.
        found: usize,
    },
    /// A card appears twice.
    #[error("{card} appears more than once (positions {first} and {second})")]
    Duplicate {
        /// The repeated card.
        card: Card,
        /// 1-based position of its first appearance.
        first: usize,
        /// 1-based position of the repeat.
        second: usize,
    },
    /// A word is not a card.
    #[error("card {position}: {source}")]
    BadCard {
        /// 1-based position of the bad word.
        position: usize,
        /// What was wrong with it.
        source: ParseCardError,
    },
}

impl Deck {
    /// The card order for a deal number (see the module docs for the pinned algorithm).
    pub fn from_deal_number(number: u64) -> Deck {
        let mut cards = ordered_cards();
        let mut rng = SplitMix64 { state: number };
        for i in (1..DECK_SIZE).rev() {
            // `below(i + 1)` is at most `i`, so the index is always in range.
            let j = usize::try_from(rng.below(i as u64 + 1)).unwrap_or(0).min(i);
            cards.swap(i, j);
        }
        Deck { cards }
    }

    /// A deck from 52 cards in deal order; refuses wrong counts and duplicates.
    pub fn from_cards(cards: &[Card]) -> Result<Deck, DeckError> {
        let array: [Card; DECK_SIZE] = cards
            .try_into()
            .map_err(|_| DeckError::WrongCount { found: cards.len() })?;
        let mut seen: [Option<usize>; DECK_SIZE] = [None; DECK_SIZE];
        for (position, card) in array.iter().enumerate() {
            let slot = seen
                .get_mut(card.index())
                .ok_or(DeckError::WrongCount { found: cards.len() })?;
            if let Some(first) = *slot {
                return Err(DeckError::Duplicate {
                    card: *card,
                    first: first + 1,
                    second: position + 1,
                });
            }
            *slot = Some(position);
        }
        Ok(Deck { cards: array })
    }

    /// The cards in deal order.
    pub fn cards(&self) -> &[Card; DECK_SIZE] {
        &self.cards
    }
}

fn ordered_cards() -> [Card; DECK_SIZE] {
    let mut cards = [Card::new(crate::cards::Rank::Two, crate::cards::Suit::Clubs); DECK_SIZE];
    for (slot, card) in cards.iter_mut().zip(Card::all()) {
        *slot = card;
    }
    cards
}

impl FromStr for Deck {
    type Err = DeckError;

    /// Reads 52 card codes separated by spaces and/or commas (`"AS 10H TD …"`).
    fn from_str(text: &str) -> Result<Deck, DeckError> {
        let cards = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|word| !word.is_empty())
            .enumerate()
            .map(|(index, word)| {
                word.parse::<Card>().map_err(|source| DeckError::BadCard {
                    position: index + 1,
                    source,
                })
            })
            .collect::<Result<Vec<Card>, DeckError>>()?;
        Deck::from_cards(&cards)
    }
}

impl fmt::Display for Deck {
    /// Canonical codes separated by single spaces; parses back to the same deck.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, card) in self.cards.iter().enumerate() {
            if index > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{card}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Deck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Deck({self})")
    }
}

impl Serialize for Deck {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Deck {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Deck, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Picks a fresh random deal number for "new game" (from the operating system's randomness).
///
/// Numbers stay below one billion so people can read them out and type them in.
pub fn random_deal_number() -> u64 {
    use rand::Rng;
    rand::rng().random_range(1..1_000_000_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deal_text(number: u64) -> String {
        Deck::from_deal_number(number).to_string()
    }

    #[test]
    fn splitmix64_matches_its_published_reference_values() {
        // Reference outputs of SplitMix64 seeded with 1234567 (from the algorithm's published
        // test vector), so a port can check its generator before its shuffle.
        let mut rng = SplitMix64 { state: 1_234_567 };
        let first: Vec<u64> = (0..5).map(|_| rng.next()).collect();
        assert_eq!(
            first,
            vec![
                6_457_827_717_110_365_317,
                3_203_168_211_198_807_973,
                9_817_491_932_198_370_423,
                4_593_380_528_125_082_431,
                16_408_922_859_458_223_821,
            ]
        );
    }

    #[test]
    fn golden_deal_orders_never_change() {
        let golden: [(u64, &str); 4] = [
            (0, GOLDEN_0),
            (1, GOLDEN_1),
            (123_456_789, GOLDEN_123456789),
            (u64::MAX, GOLDEN_MAX),
        ];
        for (number, expected) in golden {
            assert_eq!(deal_text(number), expected, "deal {number}");
        }
    }

    // Checked against an independent port of the module docs' algorithm.
    const GOLDEN_0: &str = "9S QH 10C 3S 3D KD 7S JC 4D 2C QC 8C 10H 9C KS AH 6H 3C 4H 6C 2H 7C 5S JD 6D 9H \
     9D 2D KH JS KC QD 4S 5D 3H 10D 4C AD 2S 8S 10S 8D QS 7H AS 5C 8H 6S 7D 5H AC JH";
    const GOLDEN_1: &str = "8D 10C 5D 9H 9D 6S QD 7D 10S QC 6D AD 4C 3D QH 6H 8H 5H 3C 2D 7S AC AH JH JS QS \
     JD 9S KC 5S 7C 8C 2S 6C 2H AS 7H KS KH KD 10D 4D 4S 2C 5C 3H 9C JC 4H 3S 10H 8S";
    const GOLDEN_123456789: &str = "AC QC 5H KC 7D 8S 2S QH 8D 4C JH AH 9C QS 6D 4S 3D 10D 2D JC 10H 8H 6H 2H 5C 10C \
     5S QD 6C 10S 8C 4H KS 7H 4D 2C 7C KH 9D 9H KD 7S 5D 3H 9S 3S AS 6S JD AD JS 3C";
    const GOLDEN_MAX: &str = "QC AS 8S 5C 2D QH 6D 3H 2H 8D 7D 7S 5D 2S 5S 8H 4D 3D 10H KH 9D 4S 6S 10S 2C 9S \
     KD JD 8C KS 10C 5H QD AH AC 7H 10D 9H 9C JH 7C AD 3S 4H KC QS 4C 6H JS 3C JC 6C";

    #[test]
    fn every_deal_number_gives_a_valid_deck() {
        for number in [0, 1, 2, 42, 999_999_999, u64::MAX - 1, u64::MAX] {
            let deck = Deck::from_deal_number(number);
            assert_eq!(Deck::from_cards(deck.cards()).as_ref(), Ok(&deck));
        }
        assert_ne!(Deck::from_deal_number(1), Deck::from_deal_number(2));
    }

    #[test]
    fn deck_text_round_trips() {
        let deck = Deck::from_deal_number(7);
        assert_eq!(deck.to_string().parse::<Deck>(), Ok(deck.clone()));
        let with_symbols_and_commas = deck
            .cards()
            .iter()
            .map(|card| card.pretty())
            .collect::<Vec<_>>()
            .join(", ");
        assert_eq!(with_symbols_and_commas.parse::<Deck>(), Ok(deck));
    }

    #[test]
    fn malformed_decks_get_typed_errors() {
        let full = Deck::from_deal_number(3).to_string();
        let words: Vec<&str> = full.split(' ').collect();

        let short = words[..51].join(" ");
        assert_eq!(
            short.parse::<Deck>(),
            Err(DeckError::WrongCount { found: 51 })
        );

        let mut long = words.clone();
        long.push(words[0]);
        assert!(matches!(
            long.join(" ").parse::<Deck>(),
            Err(DeckError::WrongCount { found: 53 })
        ));

        let mut duplicated = words.clone();
        duplicated[10] = words[2];
        assert!(matches!(
            duplicated.join(" ").parse::<Deck>(),
            Err(DeckError::Duplicate {
                first: 3,
                second: 11,
                ..
            })
        ));

        let mut unknown = words.clone();
        unknown[4] = "1X";
        assert!(matches!(
            unknown.join(" ").parse::<Deck>(),
            Err(DeckError::BadCard { position: 5, .. })
        ));
        assert_eq!("".parse::<Deck>(), Err(DeckError::WrongCount { found: 0 }));
    }

    #[test]
    fn random_deal_numbers_are_in_the_readable_range() {
        for _ in 0..100 {
            let number = random_deal_number();
            assert!((1..1_000_000_000).contains(&number));
        }
    }
}
