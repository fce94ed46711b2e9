//! Statistics per variant, kept up to date from finished-game records.

use serde::{Deserialize, Serialize};

use crate::records::GameRecord;
use crate::rules::Variant;

/// Scores run from 0 to 48.
pub const SCORE_BUCKETS: usize = 49;

/// Statistics of one variant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantStats {
    /// Finished games.
    pub played: u32,
    /// Won games.
    pub won: u32,
    /// Wins in a row up to the last game.
    pub current_streak: u32,
    /// The longest run of wins.
    pub best_streak: u32,
    /// The best score, if any game was played.
    pub best_score: Option<u32>,
    /// The sum of all scores (for the average).
    pub total_score: u64,
    /// How many games ended with each score, 0 to 48.
    pub score_histogram: Vec<u32>,
}

impl Default for VariantStats {
    fn default() -> VariantStats {
        VariantStats {
            played: 0,
            won: 0,
            current_streak: 0,
            best_streak: 0,
            best_score: None,
            total_score: 0,
            score_histogram: vec![0; SCORE_BUCKETS],
        }
    }
}

impl VariantStats {
    /// Won ÷ played, 0 when nothing was played.
    pub fn win_rate(&self) -> f64 {
        if self.played == 0 {
            0.0
        } else {
            f64::from(self.won) / f64::from(self.played)
        }
    }

    /// The average score, if any game was played.
    pub fn average_score(&self) -> Option<f64> {
        (self.played > 0).then(|| self.total_score as f64 / f64::from(self.played))
    }

    fn add(&mut self, record: &GameRecord) {
        self.played = self.played.saturating_add(1);
        if record.won() {
            self.won = self.won.saturating_add(1);
            self.current_streak = self.current_streak.saturating_add(1);
            self.best_streak = self.best_streak.max(self.current_streak);
        } else {
            self.current_streak = 0;
        }
        self.best_score = Some(
            self.best_score
                .map_or(record.score, |best| best.max(record.score)),
        );
        self.total_score = self.total_score.saturating_add(u64::from(record.score));
        if self.score_histogram.len() != SCORE_BUCKETS {
            self.score_histogram.resize(SCORE_BUCKETS, 0);
        }
        let bucket = usize::try_from(record.score)
            .unwrap_or(usize::MAX)
            .min(SCORE_BUCKETS - 1);
        if let Some(count) = self.score_histogram.get_mut(bucket) {
            *count = count.saturating_add(1);
        }
    }

    /// Checks that the numbers agree with each other (used when loading a save).
    pub fn validate(&self) -> Result<(), String> {
        let histogram_total: u64 = self.score_histogram.iter().map(|&n| u64::from(n)).sum();
        if self.score_histogram.len() != SCORE_BUCKETS {
            return Err(format!(
                "the score histogram has {} buckets",
                self.score_histogram.len()
            ));
        }
        if histogram_total != u64::from(self.played) {
            return Err(format!(
                "{histogram_total} scores for {} games",
                self.played
            ));
        }
        if self.won > self.played
            || self.current_streak > self.best_streak
            || self.best_streak > self.won
        {
            return Err("wins and streaks do not add up".to_owned());
        }
        if self.score_histogram.last().map_or(0, |&n| n) != self.won {
            return Err("wins do not match the games that scored 48".to_owned());
        }
        let weighted: u64 = self
            .score_histogram
            .iter()
            .zip(0u64..)
            .map(|(&count, score)| u64::from(count) * score)
            .sum();
        if weighted != self.total_score {
            return Err("the total score does not match the histogram".to_owned());
        }
        let best = self.score_histogram.iter().rposition(|&n| n > 0);
        if best.map(|b| b as u32) != self.best_score {
            return Err("the best score does not match the histogram".to_owned());
        }
        Ok(())
    }
}

/// Statistics for every variant.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Statistics {
    /// Standard games.
    pub standard: VariantStats,
    /// Aces-only games.
    pub aces_only: VariantStats,
    /// Free-cell games.
    pub free_cell: VariantStats,
}

impl Statistics {
    /// The statistics of one variant.
    pub fn for_variant(&self, variant: Variant) -> &VariantStats {
        match variant {
            Variant::Standard => &self.standard,
            Variant::AcesOnly => &self.aces_only,
            Variant::FreeCell => &self.free_cell,
        }
    }

    /// Counts a finished game.
    pub fn add(&mut self, record: &GameRecord) {
        let stats = match record.setup.variant {
            Variant::Standard => &mut self.standard,
            Variant::AcesOnly => &mut self.aces_only,
            Variant::FreeCell => &mut self.free_cell,
        };
        stats.add(record);
    }

    /// Checks every variant's numbers.
    pub fn validate(&self) -> Result<(), String> {
        for variant in Variant::ALL {
            self.for_variant(variant)
                .validate()
                .map_err(|error| format!("{variant}: {error}"))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, GameSetup, Status};

    fn record(variant: Variant, score: u32, won: bool) -> GameRecord {
        let mut game = Game::new(GameSetup::numbered(3, variant, 0));
        game.execute(crate::Command::Resign).unwrap();
        let mut record = GameRecord::of(&game, 0, 0, 0).unwrap();
        record.score = score;
        record.status = if won { Status::Won } else { Status::Lost };
        record
    }

    #[test]
    fn counts_wins_streaks_scores_and_the_histogram() {
        let mut stats = Statistics::default();
        for (score, won) in [(48, true), (48, true), (30, false), (48, true), (12, false)] {
            stats.add(&record(Variant::Standard, score, won));
        }
        let s = stats.for_variant(Variant::Standard);
        assert_eq!((s.played, s.won), (5, 3));
        assert_eq!((s.current_streak, s.best_streak), (0, 2));
        assert_eq!(s.best_score, Some(48));
        assert_eq!(s.average_score(), Some((48.0 * 3.0 + 42.0) / 5.0));
        assert!((s.win_rate() - 0.6).abs() < 1e-12);
        assert_eq!(s.score_histogram[48], 3);
        assert_eq!(s.score_histogram[30], 1);
        assert_eq!(s.validate(), Ok(()));
        assert_eq!(stats.for_variant(Variant::FreeCell).played, 0);
        assert_eq!(stats.validate(), Ok(()));
    }

    #[test]
    fn empty_statistics_are_valid_and_have_no_average() {
        let stats = Statistics::default();
        assert_eq!(stats.validate(), Ok(()));
        assert_eq!(stats.standard.average_score(), None);
        assert_eq!(stats.standard.win_rate(), 0.0);
    }

    #[test]
    fn inconsistent_numbers_are_caught() {
        let mut stats = Statistics::default();
        stats.add(&record(Variant::AcesOnly, 20, false));
        let mut broken = stats.clone();
        broken.aces_only.played = 2;
        assert!(broken.validate().is_err());
        let mut broken = stats.clone();
        broken.aces_only.total_score = 5;
        assert!(broken.validate().is_err());
        let mut broken = stats;
        broken.aces_only.score_histogram.pop();
        assert!(broken.validate().is_err());
    }
}
