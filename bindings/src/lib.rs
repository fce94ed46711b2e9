//! `libacesup`: the Aces Up game session for Kotlin and Swift, through uniffi.
//!
//! A shell creates one [`Session`] on its storage directory and calls one method per touch;
//! every action returns the new [`TableSnapshot`] to draw, or a [`GameError`] and changes
//! nothing. The rules live in `acesup-core`; this crate only checks what crosses the boundary
//! and converts types. See `bindings/README.md` for the generated Kotlin and Swift.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use acesup_core::deal::Deck;
use acesup_core::session as core;
use acesup_core::snapshot as core_snapshot;

mod error;
mod types;

pub use error::{GameError, SmartMoveBlocked};
pub use types::{
    Action, Analysis, Card, Counters, DealChoice, GameRecord, GameStatus, Hint, HintResult,
    LoadProblem, NewGameOptions, Place, Rank, RoundHistory, RoundProgress, Settings, Statistics,
    Suit, TableSnapshot, TopCard, Variant, VariantStatistics,
};

uniffi::setup_scaffolding!();

/// The longest storage path accepted, in bytes.
pub const MAX_PATH_BYTES: usize = 4096;

/// Gives the session the current time. The session reads it to time games (play time, start
/// and end of records). Shells normally let the session use the system clock; tests pass their
/// own to make times predictable. Implementations must return quickly and must not throw.
#[uniffi::export(with_foreign)]
pub trait TimeSource: Send + Sync {
    /// The current time in milliseconds since the Unix epoch.
    fn now_ms(&self) -> u64;
}

/// A player's session: the game in progress, settings, statistics, records and the round of
/// five. Opened on a storage directory, it saves after every action and resumes on the next
/// open. Safe to call from any thread: calls are serialized.
#[derive(uniffi::Object)]
pub struct Session {
    inner: Mutex<core::Session>,
    clock: core::Clock,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session").finish_non_exhaustive()
    }
}

#[uniffi::export]
impl Session {
    /// Opens (creating it if needed) the storage directory at `storage_dir`, an absolute path
    /// (Android `filesDir`, iOS Application Support), and resumes the game saved there. Damaged
    /// files are set aside and listed by `load_problems`; only a directory that
    /// cannot be used at all is an error. Uses the system clock.
    #[uniffi::constructor]
    pub fn new(storage_dir: String) -> Result<Arc<Session>, GameError> {
        Session::open(&storage_dir, core::system_clock())
    }

    /// Like the main constructor, with the time read from `time_source` (for tests and
    /// previews).
    #[uniffi::constructor]
    pub fn with_time_source(
        storage_dir: String,
        time_source: Arc<dyn TimeSource>,
    ) -> Result<Arc<Session>, GameError> {
        Session::open(&storage_dir, clock_of(time_source))
    }

    /// A session that saves nothing, starting a random game with `settings` (for previews,
    /// tests and benchmarks). Uses the system clock.
    #[uniffi::constructor]
    pub fn in_memory(settings: Settings) -> Result<Arc<Session>, GameError> {
        let clock = core::system_clock();
        let session = core::Session::in_memory(settings.into(), Arc::clone(&clock))?;
        Ok(Arc::new(Session {
            inner: Mutex::new(session),
            clock,
        }))
    }

    /// The table as it is now.
    pub fn snapshot(&self) -> TableSnapshot {
        self.lock().snapshot().into()
    }

    /// Deals one stock card onto each pile, left to right.
    pub fn deal(&self) -> Result<TableSnapshot, GameError> {
        self.act(core::Session::deal)
    }

    /// Discards the top card of `from` (a pile or the cell).
    pub fn discard(&self, from: Place) -> Result<TableSnapshot, GameError> {
        let from = from.to_core()?;
        self.act(|session| session.discard(from))
    }

    /// Moves the top card of `from` onto `to`, an empty pile or the empty cell.
    pub fn move_card(&self, from: Place, to: Place) -> Result<TableSnapshot, GameError> {
        let (from, to) = (from.to_core()?, to.to_core()?);
        self.act(|session| session.move_card(from, to))
    }

    /// Moves the top card of `from` onto the empty free cell (free-cell variant).
    pub fn move_to_cell(&self, from: Place) -> Result<TableSnapshot, GameError> {
        self.move_card(from, Place::Cell)
    }

    /// Double tap on the card at `place`: discard it if legal, otherwise move it to the
    /// leftmost empty pile if that move is productive; otherwise the error `NoSmartMove`
    /// says why nothing happened.
    pub fn smart_move(&self, place: Place) -> Result<TableSnapshot, GameError> {
        let place = place.to_core()?;
        self.act(|session| session.smart_move(place))
    }

    /// Plays a joker on `pile` (0–3): removes every non-ace card of it; its aces stay, in order.
    pub fn use_joker(&self, pile: u8) -> Result<TableSnapshot, GameError> {
        let pile = types::pile_index(pile)?;
        self.act(|session| session.use_joker(pile))
    }

    /// Steps back one action (a deal or a joker is one action; undoing a joker gives it back).
    pub fn undo(&self) -> Result<TableSnapshot, GameError> {
        self.act(core::Session::undo)
    }

    /// Steps forward one undone action.
    pub fn redo(&self) -> Result<TableSnapshot, GameError> {
        self.act(core::Session::redo)
    }

    /// Asks for a hint (counted). The snapshot shows it until the next action.
    pub fn hint(&self) -> Result<HintResult, GameError> {
        let mut session = self.lock();
        let hint = session.hint()?;
        Ok(HintResult {
            hint: hint.into(),
            snapshot: session.snapshot().into(),
        })
    }

    /// Goes back to the start of the same deal (counted; undo takes it back).
    pub fn restart(&self) -> Result<TableSnapshot, GameError> {
        self.act(core::Session::restart)
    }

    /// Ends the game with the current score.
    pub fn resign(&self) -> Result<TableSnapshot, GameError> {
        self.act(core::Session::resign)
    }

    /// Starts a new game. A game in progress that has seen any action is resigned first (and
    /// counted); an untouched one is simply replaced. A round of five in progress takes the
    /// new game as its next hand.
    pub fn new_game(&self, options: NewGameOptions) -> Result<TableSnapshot, GameError> {
        let deal = match options.deal {
            DealChoice::Random => core::DealChoice::Random,
            DealChoice::Number { number } => core::DealChoice::Number(number),
            DealChoice::Deck { cards } => core::DealChoice::Deck(cards.parse::<Deck>()?),
        };
        let options = core::NewGame {
            deal,
            variant: options.variant.map(Into::into),
        };
        self.act(|session| session.new_game(options))
    }

    /// Starts a round of five with a new random game as its first hand (a game in progress is
    /// resigned first).
    pub fn start_round(&self) -> Result<TableSnapshot, GameError> {
        self.act(core::Session::start_round)
    }

    /// After the game: was the deal winnable from the start, the best score possible, and a
    /// line reaching it (a step-by-step solution when the deal was winnable).
    pub fn analyze_deal(&self) -> Result<Analysis, GameError> {
        self.lock()
            .analyze_deal()
            .map(Analysis::from)
            .map_err(GameError::from)
    }

    /// After the game: the solver's verdict on the position after the first `step` entries of
    /// the game's log (0 is the start): "was it still winnable here?".
    pub fn analyze_position(&self, step: u32) -> Result<Analysis, GameError> {
        let step = usize::try_from(step).unwrap_or(usize::MAX);
        self.lock()
            .analyze_position(step)
            .map(Analysis::from)
            .map_err(GameError::from)
    }

    /// The round of five in progress or just finished, if any.
    pub fn round(&self) -> Option<RoundProgress> {
        self.lock().round().map(RoundProgress::from)
    }

    /// Totals over finished rounds of five.
    pub fn round_history(&self) -> RoundHistory {
        self.lock().round_history().into()
    }

    /// The settings.
    pub fn settings(&self) -> Settings {
        self.lock().settings().into()
    }

    /// Changes the settings (checked: jokers 0–9, round limit 0–48). Undo and hint switches
    /// apply at once; the variant and jokers apply from the next game.
    pub fn set_settings(&self, settings: Settings) -> Result<TableSnapshot, GameError> {
        self.act(|session| session.set_settings(settings.into()))
    }

    /// Statistics per variant.
    pub fn statistics(&self) -> Statistics {
        self.lock().statistics().into()
    }

    /// Finished games, oldest first (the latest 1000).
    pub fn records(&self) -> Vec<GameRecord> {
        self.lock().records().iter().map(GameRecord::from).collect()
    }

    /// The best finished games of `variant`, best first (higher score, then fewer restarts,
    /// hints, undos, jokers, shorter time, fewer moves, earlier finish), at most `limit`.
    pub fn best_records(&self, variant: Variant, limit: u32) -> Vec<GameRecord> {
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        self.lock()
            .best_records(variant.into(), limit)
            .iter()
            .map(GameRecord::from)
            .collect()
    }

    /// The app went to the background: play time stops (and the game is saved).
    pub fn pause(&self) {
        let now = (self.clock)();
        self.lock().pause(now);
    }

    /// The app came back: play time runs again if the game is in progress.
    pub fn resume(&self) {
        let now = (self.clock)();
        self.lock().resume(now);
    }

    /// Save files that were damaged when the session opened (each was set aside, not deleted).
    pub fn load_problems(&self) -> Vec<LoadProblem> {
        self.lock()
            .load_problems()
            .iter()
            .map(|problem| {
                let error = GameError::from(problem.clone());
                LoadProblem {
                    code: error.code().to_owned(),
                    detail: error.to_string(),
                }
            })
            .collect()
    }

    /// The storage directory, or `None` for an in-memory session.
    pub fn storage_dir(&self) -> Option<String> {
        self.lock()
            .storage_dir()
            .map(|dir| dir.to_string_lossy().into_owned())
    }
}

impl Session {
    fn open(storage_dir: &str, clock: core::Clock) -> Result<Arc<Session>, GameError> {
        let dir = storage_path(storage_dir)?;
        let session = core::Session::open_with_clock(dir, Arc::clone(&clock))?;
        Ok(Arc::new(Session {
            inner: Mutex::new(session),
            clock,
        }))
    }

    /// The core session. A panic in another call cannot happen in the core (it is written not
    /// to panic); should a foreign time source have panicked mid-call, the session is still
    /// whole (every core method checks before it changes anything), so the lock is recovered
    /// instead of poisoning every later call.
    fn lock(&self) -> MutexGuard<'_, core::Session> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn act(
        &self,
        action: impl FnOnce(&mut core::Session) -> Result<core_snapshot::Snapshot, core::SessionError>,
    ) -> Result<TableSnapshot, GameError> {
        Ok(action(&mut self.lock())?.into())
    }
}

fn clock_of(source: Arc<dyn TimeSource>) -> core::Clock {
    Arc::new(move || source.now_ms())
}

/// Checks a storage path from a shell: non-empty, absolute, no NUL, at most
/// [`MAX_PATH_BYTES`].
fn storage_path(path: &str) -> Result<PathBuf, GameError> {
    let invalid = |reason: &str| GameError::InvalidPath {
        path: path.to_owned(),
        reason: reason.to_owned(),
    };
    if path.trim().is_empty() {
        return Err(invalid("the path is empty"));
    }
    if path.contains('\0') {
        return Err(invalid("the path contains a NUL character"));
    }
    if path.len() > MAX_PATH_BYTES {
        return Err(invalid("the path is too long"));
    }
    if !Path::new(path).is_absolute() {
        return Err(invalid("the path must be absolute"));
    }
    Ok(PathBuf::from(path))
}

/// The default settings: standard variant, one joker, undo and hints on, round limit 5.
#[uniffi::export]
pub fn default_settings() -> Settings {
    (&core::Settings::default()).into()
}

/// The 52 cards of a deal number in deal order, as card codes separated by spaces (the same on
/// every platform and in every version). Any number is a valid deal.
#[uniffi::export]
pub fn deck_of_deal(number: u64) -> String {
    Deck::from_deal_number(number).to_string()
}

/// Checks a custom deck's text (52 distinct card codes separated by spaces or commas) and
/// returns its cards in deal order.
#[uniffi::export]
pub fn parse_deck(text: String) -> Result<Vec<Card>, GameError> {
    let deck: Deck = text.parse()?;
    Ok(deck.cards().iter().copied().map(Card::from).collect())
}

/// The stable `snake_case` code of an error's case (`stock_empty`, `no_such_pile`, …).
#[uniffi::export]
pub fn error_code(error: &GameError) -> String {
    error.code().to_owned()
}

/// A readable English explanation of an error (shells show their own localized text by case).
#[uniffi::export]
pub fn error_message(error: &GameError) -> String {
    error.to_string()
}

/// The version of the library (the workspace version).
#[uniffi::export]
pub fn library_version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storage_paths_are_checked_before_use() {
        for bad in ["", "  ", "relative/dir", "/tmp/a\0b"] {
            assert_eq!(
                storage_path(bad).map_err(|e| e.code()),
                Err("invalid_path"),
                "{bad:?}"
            );
        }
        let long = format!("/{}", "a".repeat(MAX_PATH_BYTES));
        assert!(storage_path(&long).is_err());
        assert!(storage_path("/tmp/acesup").is_ok());
    }
}
