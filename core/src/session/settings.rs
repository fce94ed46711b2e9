//! The player's settings.

use serde::{Deserialize, Serialize};

use crate::round::DEFAULT_ROUND_LIMIT;
use crate::rules::Variant;
use crate::table::NON_ACES;

/// Most jokers a game may start with.
pub const MAX_JOKERS: u8 = 9;

/// The player's settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The variant of new games.
    pub variant: Variant,
    /// Jokers each new game starts with (0 switches the power-up off).
    pub jokers_per_game: u8,
    /// Undo and redo allowed.
    pub undo_enabled: bool,
    /// Hints allowed.
    pub hints_enabled: bool,
    /// The qualifying limit of a round of five.
    pub round_limit: u32,
    /// Random new games only use deals the solver proves winnable (without jokers).
    pub winnable_only: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            variant: Variant::Standard,
            jokers_per_game: 1,
            undo_enabled: true,
            hints_enabled: true,
            round_limit: DEFAULT_ROUND_LIMIT,
            winnable_only: false,
        }
    }
}

impl Settings {
    /// Checks the ranges.
    pub fn validate(&self) -> Result<(), String> {
        if self.jokers_per_game > MAX_JOKERS {
            return Err(format!(
                "at most {MAX_JOKERS} jokers per game, not {}",
                self.jokers_per_game
            ));
        }
        if self.round_limit > NON_ACES as u32 {
            return Err(format!(
                "the round limit must be 0-48, not {}",
                self.round_limit
            ));
        }
        Ok(())
    }
}
