//! Commands: everything a player can ask of a game, and their text form.
//!
//! The text form is the scripted-mode syntax of the terminal player and the form of action logs
//! in saves and records. Piles are numbered 1–4; `cell` names the free cell:
//! `deal`, `discard 3`, `discard cell`, `move 1 4`, `move cell 4`, `cell 2` (same as
//! `move 2 cell`), `smart 3`, `joker 2`, `undo`, `redo`, `restart`, `resign`, `hint`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::ActionError;
use crate::rules::{Action, PileIndex, Place};

/// One thing a player asks of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// Change the table.
    Play(Action),
    /// Double tap: discard, or move to the leftmost empty pile (resolved by the game).
    Smart(Place),
    /// Step back one action.
    Undo,
    /// Step forward one undone action.
    Redo,
    /// Back to the start of the same deal.
    Restart,
    /// End the game with the current score.
    Resign,
    /// Ask for a hint (counted; the table does not change).
    Hint,
}

/// What the parser accepts, for error messages.
const EXPECTED: &str = "expected deal, discard N, move N M, cell N, smart N, joker N, undo, redo, \
                        restart, resign or hint (N, M: pile 1-4 or \"cell\")";

impl FromStr for Command {
    type Err = ActionError;

    fn from_str(text: &str) -> Result<Command, ActionError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let unknown = || ActionError::UnknownCommand {
            text: text.trim().to_owned(),
            expected: EXPECTED,
        };
        let verb = words.first().ok_or_else(unknown)?.to_ascii_lowercase();
        let command = match (verb.as_str(), words.get(1..).unwrap_or_default()) {
            ("deal", []) => Command::Play(Action::Deal),
            ("discard", [from]) => Command::Play(Action::Discard {
                from: Place::parse(from)?,
            }),
            ("move", [from, to]) => Command::Play(Action::Move {
                from: Place::parse(from)?,
                to: Place::parse(to)?,
            }),
            ("cell", [from]) => Command::Play(Action::Move {
                from: Place::parse(from)?,
                to: Place::Cell,
            }),
            ("smart", [place]) => Command::Smart(Place::parse(place)?),
            ("joker", [pile]) => match Place::parse(pile)? {
                Place::Pile(pile) => Command::Play(Action::Joker { pile }),
                Place::Cell => {
                    return Err(ActionError::NotAPlace {
                        word: (*pile).to_owned(),
                    });
                }
            },
            ("undo", []) => Command::Undo,
            ("redo", []) => Command::Redo,
            ("restart", []) => Command::Restart,
            ("resign", []) => Command::Resign,
            ("hint", []) => Command::Hint,
            _ => return Err(unknown()),
        };
        Ok(command)
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Play(action) => write!(f, "{action}"),
            Command::Smart(place) => write!(f, "smart {place}"),
            Command::Undo => f.write_str("undo"),
            Command::Redo => f.write_str("redo"),
            Command::Restart => f.write_str("restart"),
            Command::Resign => f.write_str("resign"),
            Command::Hint => f.write_str("hint"),
        }
    }
}

impl Serialize for Command {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Command {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Command, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Splits a script (`"discard 3; deal; move 1 4"`) into its commands; `;` or new lines separate
/// them. Returns the 1-based position and text of the first command that does not parse.
pub fn parse_script(script: &str) -> Result<Vec<Command>, (usize, String, ActionError)> {
    script
        .split([';', '\n'])
        .map(str::trim)
        .filter(|text| !text.is_empty())
        .enumerate()
        .map(|(index, text)| {
            text.parse::<Command>()
                .map_err(|error| (index + 1, text.to_owned(), error))
        })
        .collect()
}

/// A convenience for code and tests: pile `number` (1–4) as a place.
pub fn pile(number: usize) -> Result<Place, ActionError> {
    PileIndex::from_number(number).map(Place::Pile)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_round_trips_through_its_text() {
        let texts = [
            "deal",
            "discard 3",
            "discard cell",
            "move 1 4",
            "move cell 4",
            "move 2 cell",
            "smart 3",
            "smart cell",
            "joker 2",
            "undo",
            "redo",
            "restart",
            "resign",
            "hint",
        ];
        for text in texts {
            let command: Command = text.parse().unwrap_or(Command::Hint);
            assert_eq!(command.to_string(), text);
        }
        assert_eq!(
            "cell 2".parse::<Command>().map(|c| c.to_string()),
            Ok("move 2 cell".to_owned())
        );
        assert_eq!(
            "  DEAL ".parse::<Command>(),
            Ok(Command::Play(Action::Deal))
        );
    }

    #[test]
    fn bad_commands_get_typed_errors() {
        assert!(matches!(
            "".parse::<Command>(),
            Err(ActionError::UnknownCommand { .. })
        ));
        assert!(matches!(
            "fly 3".parse::<Command>(),
            Err(ActionError::UnknownCommand { .. })
        ));
        assert!(matches!(
            "deal 3".parse::<Command>(),
            Err(ActionError::UnknownCommand { .. })
        ));
        assert!(matches!(
            "move 1".parse::<Command>(),
            Err(ActionError::UnknownCommand { .. })
        ));
        assert_eq!(
            "discard 5".parse::<Command>(),
            Err(ActionError::NoSuchPile { number: 5 })
        );
        assert_eq!(
            "discard 0".parse::<Command>(),
            Err(ActionError::NoSuchPile { number: 0 })
        );
        assert!(matches!(
            "move x 1".parse::<Command>(),
            Err(ActionError::NotAPlace { .. })
        ));
        assert!(matches!(
            "joker cell".parse::<Command>(),
            Err(ActionError::NotAPlace { .. })
        ));
        assert!(matches!(
            "discard 99999999999999999999999".parse::<Command>(),
            Err(ActionError::NotAPlace { .. })
        ));
    }

    #[test]
    fn scripts_split_on_semicolons_and_report_the_bad_position() {
        let script = "discard 3; deal;\n move 1 4 ;";
        assert_eq!(parse_script(script).map(|c| c.len()), Ok(3));
        let bad = parse_script("deal; deal; jump 2");
        assert!(matches!(bad, Err((3, ref text, _)) if text == "jump 2"));
    }
}
