//! The session: the one object a shell talks to.
//!
//! It owns the game in progress, the settings, statistics, records and the round of five, and
//! (when opened on a storage directory) saves after every action. Every method either succeeds
//! and returns the new [`Snapshot`], or returns a typed [`SessionError`] and changes nothing.
//!
//! Play time comes from timestamps the shell passes to [`Session::resume`] and
//! [`Session::pause`]; the end of a game is timed with the session's clock, which tests replace.

use std::path::PathBuf;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::command::Command;
use crate::deal::{Deck, DeckError, random_deal_number};
use crate::error::ActionError;
use crate::game::{Counters, Game, GameSetup, Status};
use crate::hint::{self, Hint, PlayerView};
use crate::records::{GameRecord, ranking};
use crate::round::{Round, RoundHistory};
use crate::rules::{Action, PileIndex, Place, Variant};
use crate::save::{StorageError, Store, StoreFile};
use crate::snapshot::{SessionView, Snapshot};
use crate::solver::{self, Budget};
use crate::stats::Statistics;
use crate::table::Table;

/// Records kept on disk; the oldest go first (statistics keep counting them).
pub const MAX_RECORDS: usize = 1000;

/// Where a new game's cards come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DealChoice {
    /// A fresh random deal number.
    Random,
    /// A given deal number.
    Number(u64),
    /// An explicit card order.
    Deck(Deck),
}

/// Options for a new game; the variant defaults to the settings' variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    /// The cards.
    pub deal: DealChoice,
    /// The variant, or `None` for the settings' variant.
    pub variant: Option<Variant>,
}

impl NewGame {
    /// A random deal in the settings' variant.
    pub fn random() -> NewGame {
        NewGame {
            deal: DealChoice::Random,
            variant: None,
        }
    }
}

/// Why the session refused something.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// The game refused the action.
    #[error(transparent)]
    Action(#[from] ActionError),
    /// A custom deck was malformed.
    #[error(transparent)]
    Deck(#[from] DeckError),
    /// The storage directory could not be used.
    #[error(transparent)]
    Storage(#[from] StorageError),
    /// A setting out of range.
    #[error("invalid setting: {0}")]
    Settings(String),
    /// The solver found no provably winnable deal (the search gave up).
    #[error("no provably winnable deal was found")]
    NoWinnableDeal,
    /// Analysis shows the solution, so it waits until the game is over.
    #[error("the analysis is available once the game is over")]
    GameInProgress,
    /// A review step beyond the game's log.
    #[error("step {step} is beyond the end of the game ({steps} steps)")]
    NoSuchStep {
        /// The step asked for.
        step: usize,
        /// Steps in the game's log.
        steps: usize,
    },
}

impl SessionError {
    /// A stable, machine-readable name for the case.
    pub fn code(&self) -> &'static str {
        match self {
            SessionError::Action(error) => error.code(),
            SessionError::Deck(DeckError::WrongCount { .. }) => "deck_wrong_count",
            SessionError::Deck(DeckError::Duplicate { .. }) => "deck_duplicate",
            SessionError::Deck(DeckError::BadCard { .. }) => "deck_bad_card",
            SessionError::Storage(error) => error.code(),
            SessionError::Settings(_) => "invalid_setting",
            SessionError::NoWinnableDeal => "no_winnable_deal",
            SessionError::GameInProgress => "game_in_progress",
            SessionError::NoSuchStep { .. } => "no_such_step",
        }
    }
}

/// Reads the current time in milliseconds since the Unix epoch.
pub type Clock = Arc<dyn Fn() -> u64 + Send + Sync>;

/// The deal a winnable-deals-only new game gets from `start`: the next deal number that the
/// solver proves winnable in `variant` within [`WINNABLE_PICK_NODES`] per deal tried.
pub fn pick_winnable_deal(start: u64, variant: Variant) -> Option<u64> {
    solver::next_winnable_deal(start, variant, Budget::nodes(WINNABLE_PICK_NODES))
        .map(|(number, _)| number)
}

/// The system clock.
pub fn system_clock() -> Clock {
    Arc::new(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
    })
}

/// The game in progress as saved: the deal and the log, plus the table, status and counters
/// the log must replay to (checked on load), and its timing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct SavedGame {
    /// The game's random id (records use it to count each game once).
    #[serde(default)]
    id: u64,
    setup: GameSetup,
    log: Vec<Command>,
    table: Table,
    status: Status,
    counters: Counters,
    started_at_ms: u64,
    play_time_ms: u64,
    /// Whether a finished game has reached the records (guards against counting it twice).
    recorded: bool,
}

impl SavedGame {
    /// Rebuilds the game by replaying its log, and checks that it comes out as saved.
    fn restore(&self) -> Result<Game, String> {
        self.table.validate(self.setup.variant)?;
        if self.setup.jokers > MAX_JOKERS {
            return Err(format!("{} jokers per game", self.setup.jokers));
        }
        let game =
            Game::replay(self.setup.clone(), &self.log).map_err(|error| error.to_string())?;
        if game.table() != &self.table {
            return Err("the action log does not replay to the saved table".to_owned());
        }
        if game.status() != self.status || game.counters() != self.counters {
            return Err(
                "the action log does not replay to the saved status and counters".to_owned(),
            );
        }
        Ok(game)
    }
}

/// Statistics and the round of five, saved together.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
struct Progress {
    statistics: Statistics,
    round: Option<Round>,
    rounds: RoundHistory,
}

impl Progress {
    fn check(&self) -> Result<(), String> {
        self.statistics.validate()?;
        if let Some(round) = &self.round {
            round.validate()?;
        }
        self.rounds.validate()
    }
}

/// The game in progress with its timing.
#[derive(Clone, Debug)]
struct Current {
    id: u64,
    game: Game,
    started_at_ms: u64,
    play_time_ms: u64,
    running_since: Option<u64>,
    recorded: bool,
}

impl Current {
    fn new(game: Game, now: u64) -> Current {
        Current {
            id: rand::random(),
            game,
            started_at_ms: now,
            play_time_ms: 0,
            running_since: Some(now),
            recorded: false,
        }
    }

    fn play_time_at(&self, now: u64) -> u64 {
        let running = self
            .running_since
            .map_or(0, |since| now.saturating_sub(since));
        self.play_time_ms.saturating_add(running)
    }

    fn stop_clock(&mut self, now: u64) {
        self.play_time_ms = self.play_time_at(now);
        self.running_since = None;
    }

    fn saved(&self, now: u64) -> SavedGame {
        SavedGame {
            id: self.id,
            setup: self.game.setup().clone(),
            log: self.game.log().to_vec(),
            table: self.game.table().clone(),
            status: self.game.status(),
            counters: self.game.counters(),
            started_at_ms: self.started_at_ms,
            play_time_ms: self.play_time_at(now),
            recorded: self.recorded,
        }
    }
}

/// A player's session: game, settings, statistics, records and saves.
pub struct Session {
    store: Option<Store>,
    clock: Clock,
    settings: Settings,
    current: Current,
    progress: Progress,
    records: Vec<GameRecord>,
    hint: Option<Hint>,
    load_problems: Vec<StorageError>,
    save_problem: Option<StorageError>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("store", &self.store)
            .field("settings", &self.settings)
            .field("game", &self.current.game)
            .finish_non_exhaustive()
    }
}

impl Session {
    /// A session that keeps nothing on disk, starting a random game with the given settings.
    pub fn in_memory(settings: Settings, clock: Clock) -> Result<Session, SessionError> {
        settings.validate().map_err(SessionError::Settings)?;
        let now = clock();
        let setup = GameSetup::numbered(
            random_deal_number(),
            settings.variant,
            settings.jokers_per_game,
        );
        Ok(Session {
            store: None,
            current: Current::new(Game::new(setup), now),
            clock,
            settings,
            progress: Progress::default(),
            records: Vec::new(),
            hint: None,
            load_problems: Vec::new(),
            save_problem: None,
        })
    }

    /// Opens a storage directory with the system clock; see [`Session::open_with_clock`].
    pub fn open(dir: impl Into<PathBuf>) -> Result<Session, SessionError> {
        Session::open_with_clock(dir, system_clock())
    }

    /// Opens (creating if needed) a storage directory and resumes what it holds. Damaged files
    /// are set aside one by one and listed in [`Session::load_problems`]; whatever else is
    /// there still loads. Only a directory that cannot be used at all is an error.
    pub fn open_with_clock(dir: impl Into<PathBuf>, clock: Clock) -> Result<Session, SessionError> {
        let store = Store::open(dir)?;
        let mut problems = Vec::new();
        let settings: Settings = keep(
            store.load(StoreFile::Settings, Settings::validate),
            &mut problems,
        )
        .unwrap_or_default();
        let progress: Progress = keep(
            store.load(StoreFile::Statistics, Progress::check),
            &mut problems,
        )
        .unwrap_or_default();
        let records = load_records(&store, &mut problems);
        let saved: Option<SavedGame> = keep(store.load(StoreFile::Game, |_| Ok(())), &mut problems);
        let resumed = saved.and_then(|saved| match saved.restore() {
            Ok(game) => Some((saved, game)),
            Err(reason) => {
                problems.push(store.set_aside(StoreFile::Game, reason));
                None
            }
        });
        let mut session = Session::in_memory(settings, clock)?;
        session.store = Some(store);
        session.progress = progress;
        session.records = records;
        session.load_problems = problems;
        if let Some((saved, game)) = resumed {
            session.current = Current {
                id: saved.id,
                game,
                started_at_ms: saved.started_at_ms,
                play_time_ms: saved.play_time_ms,
                running_since: None,
                recorded: saved.recorded,
            };
            if session.current.game.status().is_over() && !session.current.recorded {
                session.record_finished_game();
            }
        } else {
            session.save_game();
        }
        Ok(session)
    }

    /// Files that were damaged when the session opened (each was set aside, not deleted).
    pub fn load_problems(&self) -> &[StorageError] {
        &self.load_problems
    }

    /// The storage directory, if the session saves.
    pub fn storage_dir(&self) -> Option<PathBuf> {
        self.store.as_ref().map(|store| store.dir().to_path_buf())
    }

    /// The game in progress (read-only).
    pub fn game(&self) -> &Game {
        &self.current.game
    }

    /// The current snapshot.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot::of(
            &self.current.game,
            SessionView {
                undo_enabled: self.settings.undo_enabled,
                hints_enabled: self.settings.hints_enabled,
                hint: self.hint,
                play_time_ms: self.current.play_time_at((self.clock)()),
                round: self.progress.round.clone(),
                save_problem: self.save_problem.as_ref().map(ToString::to_string),
            },
        )
    }

    /// Carries out a command and saves; returns the new snapshot.
    pub fn execute(&mut self, command: Command) -> Result<Snapshot, SessionError> {
        match command {
            Command::Undo | Command::Redo if !self.settings.undo_enabled => {
                return Err(ActionError::UndoOff.into());
            }
            Command::Hint => {
                self.hint()?;
                return Ok(self.snapshot());
            }
            _ => {}
        }
        self.current.game.execute(command)?;
        self.after_change();
        Ok(self.snapshot())
    }

    /// Asks the hint engine for one action (counted). The snapshot shows it until the next
    /// action.
    pub fn hint(&mut self) -> Result<Hint, SessionError> {
        if !self.settings.hints_enabled {
            return Err(ActionError::HintsOff.into());
        }
        let suggestion = hint::suggest(&PlayerView::of(&self.current.game));
        self.current.game.execute(Command::Hint)?;
        self.after_change();
        self.hint = Some(suggestion);
        Ok(suggestion)
    }

    /// Deals the stock.
    pub fn deal(&mut self) -> Result<Snapshot, SessionError> {
        self.execute(Command::Play(Action::Deal))
    }

    /// Discards the top card of a place.
    pub fn discard(&mut self, from: Place) -> Result<Snapshot, SessionError> {
        self.execute(Command::Play(Action::Discard { from }))
    }

    /// Moves a top card onto an empty pile or the empty cell.
    pub fn move_card(&mut self, from: Place, to: Place) -> Result<Snapshot, SessionError> {
        self.execute(Command::Play(Action::Move { from, to }))
    }

    /// Double tap: discard, or move to the leftmost empty pile.
    pub fn smart_move(&mut self, place: Place) -> Result<Snapshot, SessionError> {
        self.execute(Command::Smart(place))
    }

    /// Plays a joker on a pile.
    pub fn use_joker(&mut self, pile: PileIndex) -> Result<Snapshot, SessionError> {
        self.execute(Command::Play(Action::Joker { pile }))
    }

    /// Steps back one action.
    pub fn undo(&mut self) -> Result<Snapshot, SessionError> {
        self.execute(Command::Undo)
    }

    /// Steps forward one undone action.
    pub fn redo(&mut self) -> Result<Snapshot, SessionError> {
        self.execute(Command::Redo)
    }

    /// Back to the start of the same deal (counted; undo takes it back).
    pub fn restart(&mut self) -> Result<Snapshot, SessionError> {
        self.execute(Command::Restart)
    }

    /// Ends the game with the current score.
    pub fn resign(&mut self) -> Result<Snapshot, SessionError> {
        self.execute(Command::Resign)
    }

    /// Starts a new game. A game in progress that has seen any action is resigned first (and
    /// counted); an untouched one is simply replaced.
    pub fn new_game(&mut self, options: NewGame) -> Result<Snapshot, SessionError> {
        let variant = options.variant.unwrap_or(self.settings.variant);
        let jokers = self.settings.jokers_per_game;
        let setup = match options.deal {
            DealChoice::Random if self.settings.winnable_only => {
                let number = pick_winnable_deal(random_deal_number(), variant)
                    .ok_or(SessionError::NoWinnableDeal)?;
                GameSetup::numbered(number, variant, jokers)
            }
            DealChoice::Random => GameSetup::numbered(random_deal_number(), variant, jokers),
            DealChoice::Number(number) => GameSetup::numbered(number, variant, jokers),
            DealChoice::Deck(deck) => GameSetup::custom(deck, variant, jokers),
        };
        self.abandon_current();
        if self.progress.round.as_ref().is_some_and(Round::is_complete) {
            self.progress.round = None;
            self.save_progress();
        }
        self.current = Current::new(Game::new(setup), (self.clock)());
        self.hint = None;
        self.save_game();
        Ok(self.snapshot())
    }

    /// Starts a round of five with a new random game as its first hand.
    pub fn start_round(&mut self) -> Result<Snapshot, SessionError> {
        self.abandon_current();
        self.progress.round = Some(Round::new(self.settings.round_limit));
        self.save_progress();
        self.new_game(NewGame::random())
    }

    /// After the game: was the deal winnable from the start, the best score possible, and a
    /// line reaching it (a step-by-step solution when the deal was winnable).
    pub fn analyze_deal(&self) -> Result<Analysis, SessionError> {
        self.analyze_position(0)
    }

    /// After the game: the solver's verdict on the position after the first `step` entries of
    /// the game's log (0 is the start). "Was it still winnable here?"
    pub fn analyze_position(&self, step: usize) -> Result<Analysis, SessionError> {
        let game = &self.current.game;
        if !game.status().is_over() {
            return Err(SessionError::GameInProgress);
        }
        let steps = game.log().len();
        if step > steps {
            return Err(SessionError::NoSuchStep { step, steps });
        }
        let budget = Budget::default_for(game.variant());
        let outcome = solver::still_winnable(game.setup(), game.log(), step, budget)
            .map_err(|error| SessionError::Action(error.error))?;
        Ok(Analysis::of(&outcome))
    }

    /// The round of five in progress or just finished.
    pub fn round(&self) -> Option<&Round> {
        self.progress.round.as_ref()
    }

    /// Totals over finished rounds.
    pub fn round_history(&self) -> &RoundHistory {
        &self.progress.rounds
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Changes the settings. Undo and hint switches apply at once; variant and jokers apply
    /// from the next game.
    pub fn set_settings(&mut self, settings: Settings) -> Result<Snapshot, SessionError> {
        settings.validate().map_err(SessionError::Settings)?;
        self.settings = settings;
        if let Some(store) = &self.store {
            self.save_problem = store.save(StoreFile::Settings, &self.settings).err();
        }
        Ok(self.snapshot())
    }

    /// Statistics per variant.
    pub fn statistics(&self) -> &Statistics {
        &self.progress.statistics
    }

    /// Finished-game records, oldest first (at most [`MAX_RECORDS`]).
    pub fn records(&self) -> &[GameRecord] {
        &self.records
    }

    /// The best records of a variant in ranking order (RULES.md), at most `limit`.
    pub fn best_records(&self, variant: Variant, limit: usize) -> Vec<GameRecord> {
        let mut best: Vec<GameRecord> = self
            .records
            .iter()
            .filter(|record| record.setup.variant == variant)
            .cloned()
            .collect();
        best.sort_by(ranking);
        best.truncate(limit);
        best
    }

    /// The app went to the background at `now_ms`: play time stops.
    pub fn pause(&mut self, now_ms: u64) {
        if self.current.running_since.is_some() {
            self.current.stop_clock(now_ms);
            self.save_game();
        }
    }

    /// The app came back at `now_ms`: play time runs again (if the game is in progress).
    pub fn resume(&mut self, now_ms: u64) {
        if self.current.running_since.is_none() && !self.current.game.status().is_over() {
            self.current.running_since = Some(now_ms);
        }
    }

    fn abandon_current(&mut self) {
        let game = &mut self.current.game;
        if !game.status().is_over()
            && !game.log().is_empty()
            && game.execute(Command::Resign).is_ok()
        {
            self.record_finished_game();
        }
    }

    /// Bookkeeping after any successful command: restart the clock if it was paused, record a
    /// game that just ended, forget the shown hint, save.
    fn after_change(&mut self) {
        let now = (self.clock)();
        self.hint = None;
        if self.current.game.status().is_over() {
            if !self.current.recorded {
                self.current.stop_clock(now);
                self.record_finished_game();
            }
        } else if self.current.running_since.is_none() {
            self.current.running_since = Some(now);
        }
        self.save_game();
    }

    /// Counts the finished current game in records, statistics and the round, then saves.
    /// The game file is saved first as "not yet recorded", then the records, then the game as
    /// recorded: a crash at any point neither loses nor double-counts the game.
    fn record_finished_game(&mut self) {
        let now = (self.clock)();
        self.current.stop_clock(now);
        self.current.recorded = false;
        self.save_game();
        let record = GameRecord::of(
            &self.current.game,
            self.current.play_time_ms,
            self.current.started_at_ms,
            now,
        );
        if let Ok(mut record) = record {
            record.id = self.current.id;
            let duplicate = self.records.iter().any(|known| known.id == record.id);
            if !duplicate {
                self.progress.statistics.add(&record);
                if let Some(round) = self.progress.round.as_mut().filter(|r| !r.is_complete()) {
                    round.add_hand(record.cards_left());
                    if round.is_complete() {
                        self.progress.rounds.add(round);
                    }
                }
                self.records.push(record);
                let excess = self.records.len().saturating_sub(MAX_RECORDS);
                self.records.drain(..excess);
            }
        }
        self.save_records();
        self.save_progress();
        self.current.recorded = true;
        self.save_game();
    }

    fn save_game(&mut self) {
        if let Some(store) = &self.store {
            let saved = self.current.saved((self.clock)());
            self.save_problem = store.save(StoreFile::Game, &saved).err();
        }
    }

    fn save_progress(&mut self) {
        if let Some(store) = &self.store {
            self.save_problem = store.save(StoreFile::Statistics, &self.progress).err();
        }
    }

    fn save_records(&mut self) {
        if let Some(store) = &self.store {
            self.save_problem = store.save(StoreFile::Records, &self.records).err();
        }
    }
}

/// The loaded value, or `None` with the problem noted.
fn keep<T>(result: Result<Option<T>, StorageError>, problems: &mut Vec<StorageError>) -> Option<T> {
    result.unwrap_or_else(|error| {
        problems.push(error);
        None
    })
}

/// Loads the records file, keeping every record that replays. If any record is bad, the file
/// is set aside (so nothing is lost), the problem noted, and the good records written back.
fn load_records(store: &Store, problems: &mut Vec<StorageError>) -> Vec<GameRecord> {
    let loaded = store.load::<Vec<serde_json::Value>>(StoreFile::Records, |_| Ok(()));
    let Some(raw) = keep(loaded, problems) else {
        return Vec::new();
    };
    let total = raw.len();
    let good: Vec<GameRecord> = raw
        .into_iter()
        .filter_map(|value| serde_json::from_value::<GameRecord>(value).ok())
        .filter(|record| record.verify().is_ok())
        .collect();
    if good.len() < total {
        let reason = format!("{} of {total} records do not replay", total - good.len());
        problems.push(store.set_aside(StoreFile::Records, reason));
        if let Err(error) = store.save(StoreFile::Records, &good) {
            problems.push(error);
        }
    }
    good
}

mod analysis;
mod settings;

pub use analysis::{Analysis, WINNABLE_PICK_NODES};
pub use settings::{MAX_JOKERS, Settings};

#[cfg(test)]
mod tests;
