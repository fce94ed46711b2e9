//! One game: the table plus status, undo/redo history, counters and the action log.
//!
//! Every command either succeeds or returns an [`ActionError`] and leaves the game exactly as it
//! was. The log holds every successful command (smart moves as the action they resolved to), so
//! [`Game::replay`] rebuilds the same game, counters included, from the deal alone.
//!
//! Decisions where RULES.md is silent:
//! - Won, lost and resigned are final: a finished game takes no more commands (undo included),
//!   so statistics cannot be rewritten after the fact. "Play this deal again" is a new game.
//! - Restart is an action like any other: undo takes it back (the counter stays).
//! - `moves` counts every successful table action (deals, discards, moves, jokers);
//!   `jokers_used` counts every joker played, even one later undone (undo returns the joker).

use serde::{Deserialize, Serialize};

use crate::command::Command;
use crate::deal::Deck;
use crate::error::ActionError;
use crate::rules::{Action, Place, Variant};
use crate::table::Table;

/// Where a game stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Still going.
    #[default]
    Playing,
    /// All 48 non-aces removed.
    Won,
    /// Stock empty and nothing productive left.
    Lost,
    /// The player gave up.
    Resigned,
}

impl Status {
    /// Whether the game has ended.
    pub fn is_over(self) -> bool {
        self != Status::Playing
    }

    /// The lower-case name used in JSON (`playing`, `won`, `lost`, `resigned`).
    pub fn code(self) -> &'static str {
        match self {
            Status::Playing => "playing",
            Status::Won => "won",
            Status::Lost => "lost",
            Status::Resigned => "resigned",
        }
    }
}

/// How often each helper was used in a game (RULES.md "Records").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Counters {
    /// Successful table actions (deals, discards, moves, jokers).
    pub moves: u32,
    /// Undos.
    pub undos: u32,
    /// Redos.
    pub redos: u32,
    /// Hints asked for.
    pub hints: u32,
    /// Jokers played.
    pub jokers_used: u32,
    /// Restarts.
    pub restarts: u32,
}

/// What a game is dealt from: the deck, where it came from, the variant and the jokers.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameSetup {
    /// The card order.
    pub deck: Deck,
    /// The deal number the deck came from; `None` for a custom deck.
    pub deal_number: Option<u64>,
    /// The rule variant.
    pub variant: Variant,
    /// Jokers the game starts with (0 switches jokers off).
    pub jokers: u8,
}

impl GameSetup {
    /// A numbered deal.
    pub fn numbered(deal_number: u64, variant: Variant, jokers: u8) -> GameSetup {
        GameSetup {
            deck: Deck::from_deal_number(deal_number),
            deal_number: Some(deal_number),
            variant,
            jokers,
        }
    }

    /// A custom deck.
    pub fn custom(deck: Deck, variant: Variant, jokers: u8) -> GameSetup {
        GameSetup {
            deck,
            deal_number: None,
            variant,
            jokers,
        }
    }
}

/// A game in progress or finished.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    setup: GameSetup,
    table: Table,
    status: Status,
    undo_stack: Vec<Table>,
    redo_stack: Vec<Table>,
    counters: Counters,
    log: Vec<Command>,
}

/// A log entry that could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("step {step} ({command}) cannot be replayed: {error}")]
pub struct ReplayError {
    /// 1-based position in the log.
    pub step: usize,
    /// The command that failed.
    pub command: Command,
    /// Why it failed.
    pub error: ActionError,
}

impl Game {
    /// A fresh game at the opening position.
    pub fn new(setup: GameSetup) -> Game {
        let table = Table::new(&setup.deck, setup.jokers);
        let mut game = Game {
            setup,
            table,
            status: Status::Playing,
            undo_stack: Vec::new(),
            redo_stack: Vec::new(),
            counters: Counters::default(),
            log: Vec::new(),
        };
        game.update_status();
        game
    }

    /// Rebuilds a game by replaying a log from the deal.
    pub fn replay(setup: GameSetup, log: &[Command]) -> Result<Game, ReplayError> {
        let mut game = Game::new(setup);
        for (index, &command) in log.iter().enumerate() {
            game.execute(command).map_err(|error| ReplayError {
                step: index + 1,
                command,
                error,
            })?;
        }
        Ok(game)
    }

    /// The deal, variant and jokers.
    pub fn setup(&self) -> &GameSetup {
        &self.setup
    }

    /// The rule variant.
    pub fn variant(&self) -> Variant {
        self.setup.variant
    }

    /// The current position.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// Where the game stands.
    pub fn status(&self) -> Status {
        self.status
    }

    /// How often each helper was used.
    pub fn counters(&self) -> Counters {
        self.counters
    }

    /// Every successful command so far, smart moves resolved.
    pub fn log(&self) -> &[Command] {
        &self.log
    }

    /// Whether an undo is possible now.
    pub fn can_undo(&self) -> bool {
        !self.status.is_over() && !self.undo_stack.is_empty()
    }

    /// Whether a redo is possible now.
    pub fn can_redo(&self) -> bool {
        !self.status.is_over() && !self.redo_stack.is_empty()
    }

    /// Every legal table action now (empty once the game is over).
    pub fn legal_actions(&self) -> Vec<Action> {
        if self.status.is_over() {
            return Vec::new();
        }
        self.table
            .legal_actions(self.setup.variant, self.setup.jokers)
    }

    /// Checks a table action without applying it.
    pub fn check(&self, action: Action) -> Result<(), ActionError> {
        self.ensure_playing()?;
        self.table
            .check(action, self.setup.variant, self.setup.jokers)
    }

    /// What a smart move on `place` would do.
    pub fn smart_action(&self, place: Place) -> Result<Action, ActionError> {
        self.ensure_playing()?;
        self.table.smart_action(place, self.setup.variant)
    }

    /// Carries out any command; returns the command as logged (a smart move as its action).
    pub fn execute(&mut self, command: Command) -> Result<Command, ActionError> {
        self.ensure_playing()?;
        let logged = match command {
            Command::Play(action) => self.play(action)?,
            Command::Smart(place) => {
                self.play(self.table.smart_action(place, self.setup.variant)?)?
            }
            Command::Undo => self.undo()?,
            Command::Redo => self.redo()?,
            Command::Restart => self.restart()?,
            Command::Resign => {
                self.status = Status::Resigned;
                Command::Resign
            }
            Command::Hint => {
                self.counters.hints = self.counters.hints.saturating_add(1);
                Command::Hint
            }
        };
        self.log.push(logged);
        Ok(logged)
    }

    fn ensure_playing(&self) -> Result<(), ActionError> {
        if self.status.is_over() {
            Err(ActionError::GameOver)
        } else {
            Ok(())
        }
    }

    fn play(&mut self, action: Action) -> Result<Command, ActionError> {
        let before = self.table.clone();
        self.table
            .apply(action, self.setup.variant, self.setup.jokers)?;
        self.undo_stack.push(before);
        self.redo_stack.clear();
        self.counters.moves = self.counters.moves.saturating_add(1);
        if matches!(action, Action::Joker { .. }) {
            self.counters.jokers_used = self.counters.jokers_used.saturating_add(1);
        }
        self.update_status();
        Ok(Command::Play(action))
    }

    fn undo(&mut self) -> Result<Command, ActionError> {
        let previous = self.undo_stack.pop().ok_or(ActionError::NothingToUndo)?;
        self.redo_stack
            .push(std::mem::replace(&mut self.table, previous));
        self.counters.undos = self.counters.undos.saturating_add(1);
        Ok(Command::Undo)
    }

    fn redo(&mut self) -> Result<Command, ActionError> {
        let next = self.redo_stack.pop().ok_or(ActionError::NothingToRedo)?;
        self.undo_stack
            .push(std::mem::replace(&mut self.table, next));
        self.counters.redos = self.counters.redos.saturating_add(1);
        self.update_status();
        Ok(Command::Redo)
    }

    fn restart(&mut self) -> Result<Command, ActionError> {
        let start = Table::new(&self.setup.deck, self.setup.jokers);
        if start == self.table {
            return Err(ActionError::AlreadyAtStart);
        }
        self.undo_stack
            .push(std::mem::replace(&mut self.table, start));
        self.redo_stack.clear();
        self.counters.restarts = self.counters.restarts.saturating_add(1);
        Ok(Command::Restart)
    }

    fn update_status(&mut self) {
        if self.table.is_won() {
            self.status = Status::Won;
        } else if self.table.is_stuck(self.setup.variant, self.setup.jokers) {
            self.status = Status::Lost;
        }
    }
}

#[cfg(test)]
mod tests;
