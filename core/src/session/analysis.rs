//! The solver's verdict on a position, for winnable-only deals and the post-game review.

use crate::rules::Action;
use crate::solver::{SolveOutcome, SolveResult};
use crate::table::NON_ACES;

/// Solver nodes spent on each candidate deal when picking a winnable deal. Win proofs are fast
/// (median well under a millisecond); deals whose proof needs more are skipped, which keeps a
/// "new game" tap short on a phone.
pub const WINNABLE_PICK_NODES: u64 = 200_000;

/// The solver's verdict on a position, for the post-game review.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// `Some(true)`: winnable; `Some(false)`: proven not; `None`: the budget ran out.
    pub winnable: Option<bool>,
    /// The exact best final score, when the answer is definite.
    pub best_score: Option<u32>,
    /// A final score `line` reaches (the best score when definite).
    pub lower_bound: u32,
    /// No line can score more than this.
    pub upper_bound: u32,
    /// From the position: a solution, an optimal line, or the best line found; it replays.
    pub line: Vec<Action>,
    /// Positions the solver generated.
    pub nodes: u64,
    /// Time the solver took, in milliseconds.
    pub millis: u64,
}

impl Analysis {
    pub(crate) fn of(outcome: &SolveOutcome) -> Analysis {
        let upper_bound = match outcome.result {
            SolveResult::Won { .. } => NON_ACES as u32,
            SolveResult::Lost { best_score, .. } => u32::from(best_score),
            SolveResult::Unknown { upper_bound, .. } => u32::from(upper_bound),
        };
        Analysis {
            winnable: outcome.winnable(),
            best_score: outcome.best_score().map(u32::from),
            lower_bound: u32::from(outcome.line_score()),
            upper_bound,
            line: outcome.line().to_vec(),
            nodes: outcome.nodes,
            millis: u64::try_from(outcome.elapsed.as_millis()).unwrap_or(u64::MAX),
        }
    }
}
