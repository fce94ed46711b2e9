//! The exact perfect-information solver: it knows the stock order and answers "can this
//! position be won, what is the best final score, and how".
//!
//! - [`solve`] answers for any table, any variant, with or without jokers, within a [`Budget`]
//!   (nodes, and optionally time). When the budget runs out it says so ([`SolveResult::Unknown`])
//!   with the best line found so far as a proven lower bound.
//! - [`next_winnable_deal`] serves "winnable deals only": the next deal number, from a start and
//!   wrapping around, that the solver proves winnable **without jokers** (so the proof never
//!   relies on a power-up the player may have switched off; with jokers the deal stays winnable).
//! - [`still_winnable`] answers the post-game review's "was it still winnable here?" for the
//!   position after the first `step` commands of a game's log.
//!
//! How the search works and why its shortcuts keep the answer exact is told in `search.rs`, and
//! its upper bound in `bound.rs`; the beam probes that run first are in `beam.rs`; an unpruned
//! reference search (`reference.rs`) checks it in the tests.

mod beam;
mod bound;
mod bound_frozen;
mod bound_moves;
mod final_phase;
mod reference;
mod search;
mod state;

#[cfg(test)]
mod tests;
#[cfg(test)]
pub(crate) use tests::sized as test_size;

use std::time::{Duration, Instant};

use crate::command::Command;
use crate::deal::Deck;
use crate::game::{Game, GameSetup, ReplayError};
use crate::rules::{Action, PILE_COUNT, Variant};
use crate::table::Table;

use state::{Act, Layout, Pos};

pub use search::WIN as WINNING_SCORE;

/// How much work one solve may do. Nodes are positions generated, plus the work of the bound's
/// analyses counted in positions that take as long (module `bound`: `EVALUATIONS_PER_NODE`,
/// `NODES_PER_ROUND`), so that a budget takes about the same time on every deal. On the
/// 2-core development machines one core gets through about 7 million nodes a second when
/// the machine is quiet, and about half as many under load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Positions the search may generate (with the bound's work, counted as above) before it
    /// gives up.
    pub nodes: u64,
    /// Wall-clock limit, if any. Results then depend on the machine's speed; node limits alone
    /// give the same answer everywhere.
    pub time: Option<Duration>,
}

impl Budget {
    /// The default node budget (standard and free-cell): at most 0.82 s per solve on 1,000
    /// standard deals on a quiet development machine (both cores busy) when it was set, a few
    /// seconds on a slow phone. (The same deal's time varies by up to 15% between runs; this
    /// leaves room for that under 1 s.) Machines differ: a slower one later took up to 1.6 s
    /// (1.9 s before the last phase got its own valuation, shortcut 6 of the search).
    pub const DEFAULT_NODES: u64 = 4_600_000;

    /// The default node budget in the aces-only variant: at most 0.78 s per solve on 600
    /// aces-only deals, measured as above (1.2 s on the slower machine).
    pub const ACES_ONLY_NODES: u64 = 8_600_000;

    /// The default budget for a variant.
    pub const fn default_for(variant: Variant) -> Budget {
        match variant {
            Variant::AcesOnly => Budget::nodes(Budget::ACES_ONLY_NODES),
            Variant::Standard | Variant::FreeCell => Budget::nodes(Budget::DEFAULT_NODES),
        }
    }

    /// A budget of `nodes` positions and no time limit.
    pub const fn nodes(nodes: u64) -> Budget {
        Budget { nodes, time: None }
    }

    /// No limit at all (for tools and tests; may take very long on a hard deal).
    pub const fn unlimited() -> Budget {
        Budget {
            nodes: u64::MAX,
            time: None,
        }
    }
}

/// The standard variant's default budget.
impl Default for Budget {
    fn default() -> Budget {
        Budget::default_for(Variant::Standard)
    }
}

/// What the solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveResult {
    /// The position can be won; `solution` replays from it to a won game.
    Won {
        /// The actions, in order.
        solution: Vec<Action>,
    },
    /// The position cannot be won; `best_score` is the exact best final score and `line`
    /// replays from the position to a lost game with that score.
    Lost {
        /// The best final score (cards removed, counting those removed before the position).
        best_score: u8,
        /// One optimal line, played to the end.
        line: Vec<Action>,
    },
    /// The budget ran out first.
    Unknown {
        /// A score `line` reaches (a proven lower bound on the best score).
        lower_bound: u8,
        /// A proven upper bound on the best score.
        upper_bound: u8,
        /// The best line found, played to the end.
        line: Vec<Action>,
    },
}

/// A solve's answer and cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveOutcome {
    /// The answer.
    pub result: SolveResult,
    /// Positions generated, plus the work of the bound's analyses counted in positions (see
    /// [`Budget`]).
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
}

impl SolveOutcome {
    /// `Some(true)` if proven winnable, `Some(false)` if proven not, `None` if unknown.
    pub fn winnable(&self) -> Option<bool> {
        match self.result {
            SolveResult::Won { .. } => Some(true),
            SolveResult::Lost { .. } => Some(false),
            SolveResult::Unknown { .. } => None,
        }
    }

    /// The exact best final score, if the answer is definite.
    pub fn best_score(&self) -> Option<u8> {
        match self.result {
            SolveResult::Won { .. } => Some(WINNING_SCORE),
            SolveResult::Lost { best_score, .. } => Some(best_score),
            SolveResult::Unknown { .. } => None,
        }
    }

    /// The score the returned line reaches (the best score, or the lower bound).
    pub fn line_score(&self) -> u8 {
        match self.result {
            SolveResult::Won { .. } => WINNING_SCORE,
            SolveResult::Lost { best_score, .. } => best_score,
            SolveResult::Unknown { lower_bound, .. } => lower_bound,
        }
    }

    /// The line: a solution, an optimal line, or the best line found.
    pub fn line(&self) -> &[Action] {
        match &self.result {
            SolveResult::Won { solution } => solution,
            SolveResult::Lost { line, .. } | SolveResult::Unknown { line, .. } => line,
        }
    }

    /// Whether the answer is definite (won, or lost with the exact best score).
    pub fn is_exact(&self) -> bool {
        !matches!(self.result, SolveResult::Unknown { .. })
    }
}

/// Solves a position with the stock order known.
///
/// `jokers_per_game` is the game's setting (0 switches jokers off); the jokers still available
/// are the table's. A table that fails [`Table::validate`] gets `Unknown` with its current score
/// as both bounds' floor and an empty line; the solver never panics.
pub fn solve(table: &Table, variant: Variant, jokers_per_game: u8, budget: Budget) -> SolveOutcome {
    let started = Instant::now();
    let Ok((lay, root)) = Layout::new(table, variant, jokers_per_game) else {
        let score = u8::try_from(table.score()).unwrap_or(u8::MAX);
        return SolveOutcome {
            result: SolveResult::Unknown {
                lower_bound: score,
                upper_bound: WINNING_SCORE,
                line: Vec::new(),
            },
            nodes: 0,
            elapsed: started.elapsed(),
        };
    };
    let deadline = budget.time.map(|limit| started + limit);
    let mut search = search::Search::new(&lay, budget.nodes, deadline);
    let exact = search.run(root);
    let best = search.best;
    let mut acts = std::mem::take(&mut search.best_line);
    let upper = lay
        .upper_bound_counting(&root, 0, search.dead_from_the_start, &mut 0)
        .max(best);
    let nodes = search.nodes;
    drop(search);
    // The game ends at the first won or stuck position: cut the line there (the score cannot
    // rise after it), then play it on to the end if it stops early.
    let mut end = root;
    let mut kept = 0;
    for &act in &acts {
        if lay.score(&end) >= WINNING_SCORE || lay.is_stuck(&end) {
            break;
        }
        end = lay.apply(&end, act);
        kept += 1;
    }
    acts.truncate(kept);
    let end = finish(&lay, end, &mut acts);
    let reached = lay.score(&end);
    let line: Vec<Action> = acts.iter().map(|act| act.action()).collect();
    let result = if exact && reached >= WINNING_SCORE {
        SolveResult::Won { solution: line }
    } else if exact {
        SolveResult::Lost {
            best_score: reached.max(best),
            line,
        }
    } else if reached >= WINNING_SCORE {
        SolveResult::Won { solution: line }
    } else {
        SolveResult::Unknown {
            lower_bound: reached,
            upper_bound: upper,
            line,
        }
    };
    SolveOutcome {
        result,
        nodes,
        elapsed: started.elapsed(),
    }
}

/// Plays a position on to the end without ever lowering the score: discard, else joker, else a
/// productive move, else deal. Used to turn a best line into a finished game.
fn finish(lay: &Layout, mut pos: Pos, acts: &mut Vec<Act>) -> Pos {
    let mut legal = Vec::new();
    loop {
        lay.legal(&pos, &mut legal);
        let productive = |act: &Act| match *act {
            Act::Move(from, _) => {
                usize::from(from) < PILE_COUNT && lay.pile_len(&pos, usize::from(from)) >= 2
            }
            _ => false,
        };
        let pick = legal
            .iter()
            .find(|a| matches!(a, Act::Discard(_)))
            .or_else(|| legal.iter().find(|a| matches!(a, Act::Joker(_))))
            .or_else(|| legal.iter().find(|a| productive(a)))
            .or_else(|| legal.iter().find(|a| matches!(a, Act::Deal)))
            .copied();
        match pick {
            Some(act) if lay.score(&pos) < WINNING_SCORE => {
                pos = lay.apply(&pos, act);
                acts.push(act);
            }
            _ => return pos,
        }
    }
}

/// Solves the current position of a game (its variant and joker setting).
pub fn solve_game(game: &Game, budget: Budget) -> SolveOutcome {
    solve(game.table(), game.variant(), game.setup().jokers, budget)
}

/// Solves the position after the first `step` commands of `log` (post-game review: "was it
/// still winnable here?"). Fails if the log does not replay.
pub fn still_winnable(
    setup: &GameSetup,
    log: &[Command],
    step: usize,
    budget: Budget,
) -> Result<SolveOutcome, ReplayError> {
    let prefix = log.get(..step.min(log.len())).unwrap_or(log);
    let game = Game::replay(setup.clone(), prefix)?;
    Ok(solve_game(&game, budget))
}

/// Deals tried by [`next_winnable_deal`] before it gives up.
pub const WINNABLE_SEARCH_LIMIT: u64 = 100_000;

/// The first deal number from `start` upward (wrapping after `u64::MAX`) that the solver proves
/// winnable in `variant` **with no jokers**, with its outcome (whose solution replays).
///
/// Each candidate gets `budget`; a deal whose proof does not fit is skipped, so the answer only
/// depends on the budget's node count (not on time, unless the budget sets one). Gives up
/// (`None`) after [`WINNABLE_SEARCH_LIMIT`] deals; in practice the first few are enough.
pub fn next_winnable_deal(
    start: u64,
    variant: Variant,
    budget: Budget,
) -> Option<(u64, SolveOutcome)> {
    let mut number = start;
    for _ in 0..WINNABLE_SEARCH_LIMIT {
        let table = Table::new(&Deck::from_deal_number(number), 0);
        let outcome = solve(&table, variant, 0, budget);
        if outcome.winnable() == Some(true) {
            return Some((number, outcome));
        }
        number = number.wrapping_add(1);
    }
    None
}

/// The unpruned reference answer (every legal action, no shortcut; see `reference.rs`): the
/// best reachable score, or `None` when more than `limit` positions would be needed. Slow; for
/// checks and tools.
pub fn reference_best_score(
    table: &Table,
    variant: Variant,
    jokers_per_game: u8,
    limit: usize,
) -> Option<u8> {
    let (lay, root) = Layout::new(table, variant, jokers_per_game).ok()?;
    reference::best_score(&lay, root, limit)
}
