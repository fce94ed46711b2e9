//! Round of five (tournament mode): up to five hands; the best hand counts.

use serde::{Deserialize, Serialize};

/// Hands in a full round.
pub const HANDS_PER_ROUND: usize = 5;

/// The default qualifying limit: a round result above it does not qualify.
pub const DEFAULT_ROUND_LIMIT: u32 = 5;

/// A round in progress or finished. A hand's result is the number of non-ace cards left
/// (0 is "Aces Up"); the round's result is its lowest hand.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// The qualifying limit for this round.
    pub limit: u32,
    /// Cards left in each finished hand, in order.
    pub hands: Vec<u32>,
}

impl Round {
    /// A new round with a qualifying limit.
    pub fn new(limit: u32) -> Round {
        Round {
            limit,
            hands: Vec::new(),
        }
    }

    /// Whether the round is over: five hands, or a hand reached 0.
    pub fn is_complete(&self) -> bool {
        self.hands.len() >= HANDS_PER_ROUND || self.hands.contains(&0)
    }

    /// Adds a finished hand; ignored once the round is complete.
    pub fn add_hand(&mut self, cards_left: u32) {
        if !self.is_complete() {
            self.hands.push(cards_left);
        }
    }

    /// The lowest hand so far.
    pub fn result(&self) -> Option<u32> {
        self.hands.iter().copied().min()
    }

    /// Whether the round's result is within the limit.
    pub fn qualifies(&self) -> bool {
        self.result().is_some_and(|result| result <= self.limit)
    }

    /// Checks a loaded round.
    pub fn validate(&self) -> Result<(), String> {
        let zero_at = self.hands.iter().position(|&h| h == 0);
        let too_long = self.hands.len() > HANDS_PER_ROUND;
        let after_zero = zero_at.is_some_and(|index| index + 1 != self.hands.len());
        if too_long || after_zero || self.hands.iter().any(|&h| h > 48) {
            return Err(format!("the round's hands {:?} are impossible", self.hands));
        }
        Ok(())
    }
}

/// Totals over finished rounds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundHistory {
    /// Rounds finished.
    pub played: u32,
    /// Rounds whose result was within their limit.
    pub qualified: u32,
    /// The lowest round result.
    pub best_result: Option<u32>,
}

impl RoundHistory {
    /// Counts a finished round.
    pub fn add(&mut self, round: &Round) {
        let Some(result) = round.result() else { return };
        self.played = self.played.saturating_add(1);
        if round.qualifies() {
            self.qualified = self.qualified.saturating_add(1);
        }
        self.best_result = Some(self.best_result.map_or(result, |best| best.min(result)));
    }

    /// Checks loaded totals.
    pub fn validate(&self) -> Result<(), String> {
        if self.qualified > self.played || (self.played > 0) != self.best_result.is_some() {
            return Err("the round totals do not add up".to_owned());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_is_five_hands_and_its_result_is_the_lowest() {
        let mut round = Round::new(DEFAULT_ROUND_LIMIT);
        for left in [12, 7, 9, 3] {
            round.add_hand(left);
            assert!(!round.is_complete());
        }
        round.add_hand(20);
        assert!(round.is_complete());
        assert_eq!(round.result(), Some(3));
        assert!(round.qualifies());
        round.add_hand(0);
        assert_eq!(round.hands.len(), 5, "a complete round takes no more hands");
    }

    #[test]
    fn the_round_stops_early_at_aces_up() {
        let mut round = Round::new(5);
        round.add_hand(10);
        round.add_hand(0);
        assert!(round.is_complete());
        assert_eq!(round.result(), Some(0));
    }

    #[test]
    fn above_the_limit_does_not_qualify() {
        let mut round = Round::new(5);
        for left in [6, 9, 8, 7, 12] {
            round.add_hand(left);
        }
        assert_eq!(round.result(), Some(6));
        assert!(!round.qualifies());
        assert!(!Round::new(5).qualifies());
    }

    #[test]
    fn history_counts_rounds_qualified_and_the_best() {
        let mut history = RoundHistory::default();
        let mut good = Round::new(5);
        good.add_hand(0);
        let mut bad = Round::new(5);
        bad.hands = vec![9; 5];
        history.add(&bad);
        history.add(&good);
        history.add(&Round::new(5));
        assert_eq!(
            history,
            RoundHistory {
                played: 2,
                qualified: 1,
                best_result: Some(0)
            }
        );
        assert!(history.validate().is_ok());
        assert!(
            RoundHistory {
                played: 1,
                qualified: 2,
                best_result: Some(3)
            }
            .validate()
            .is_err()
        );
    }

    #[test]
    fn impossible_rounds_are_caught() {
        assert!(
            Round {
                limit: 5,
                hands: vec![0, 3]
            }
            .validate()
            .is_err()
        );
        assert!(
            Round {
                limit: 5,
                hands: vec![1; 6]
            }
            .validate()
            .is_err()
        );
        assert!(
            Round {
                limit: 5,
                hands: vec![49]
            }
            .validate()
            .is_err()
        );
        assert!(
            Round {
                limit: 5,
                hands: vec![4, 0]
            }
            .validate()
            .is_ok()
        );
    }
}
