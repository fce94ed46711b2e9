//! Aces Up solitaire: the whole game in one crate with no platform code.
//!
//! The shells (terminal, Android, iOS) only draw what this crate decides. Start at
//! [`session::Session`] for the one object a shell talks to, or at [`game::Game`] for the rules.

pub mod cards;
pub mod command;
pub mod deal;
pub mod error;
pub mod game;
pub mod hint;
pub mod records;
pub mod round;
pub mod rules;
pub mod save;
#[cfg(test)]
mod scratch;
pub mod session;
pub mod snapshot;
pub mod solver;
pub mod stats;
pub mod table;

pub use cards::{Card, Rank, Suit};
pub use command::Command;
pub use deal::Deck;
pub use error::ActionError;
pub use game::{Counters, Game, GameSetup, Status};
pub use rules::{Action, PileIndex, Place, Variant};
pub use table::Table;
