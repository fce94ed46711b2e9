//! Finished-game records: what was played, how, and how it ended; and the ranking order.
//!
//! A record carries its deal and its full action log, so anyone can replay it through the
//! rules and check the result: [`GameRecord::verify`] does exactly that, and a record that does
//! not replay to what it claims is rejected.

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};

use crate::command::Command;
use crate::game::{Counters, Game, GameSetup, Status};
use crate::table::NON_ACES;

/// One finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// A random number that tells this game apart from every other (set by the session).
    #[serde(default)]
    pub id: u64,
    /// Deck, deal number, variant and jokers.
    pub setup: GameSetup,
    /// How the game ended (never `playing`).
    pub status: Status,
    /// Cards removed.
    pub score: u32,
    /// Helper use.
    pub counters: Counters,
    /// Active play time in milliseconds (time in the background does not count).
    pub play_time_ms: u64,
    /// When the game started, in milliseconds since the Unix epoch.
    pub started_at_ms: u64,
    /// When it ended, in milliseconds since the Unix epoch.
    pub ended_at_ms: u64,
    /// Every command, as [`Game::log`] gives it.
    pub log: Vec<Command>,
}

/// Why a record was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Records are made of finished games only.
    #[error("the game is not finished")]
    NotFinished,
    /// The log does not replay.
    #[error("the action log does not replay: {0}")]
    DoesNotReplay(String),
    /// The log replays, but not to what the record claims.
    #[error("the record claims {claimed} but its log replays to {replayed}")]
    Mismatch {
        /// What the record says.
        claimed: String,
        /// What the replay gives.
        replayed: String,
    },
}

impl GameRecord {
    /// The record of a finished game.
    pub fn of(
        game: &Game,
        play_time_ms: u64,
        started_at_ms: u64,
        ended_at_ms: u64,
    ) -> Result<GameRecord, RecordError> {
        if !game.status().is_over() {
            return Err(RecordError::NotFinished);
        }
        Ok(GameRecord {
            id: 0,
            setup: game.setup().clone(),
            status: game.status(),
            score: score_of(game),
            counters: game.counters(),
            play_time_ms,
            started_at_ms,
            ended_at_ms,
            log: game.log().to_vec(),
        })
    }

    /// Replays the log from the deal and checks status, score and counters.
    pub fn verify(&self) -> Result<(), RecordError> {
        let game = Game::replay(self.setup.clone(), &self.log)
            .map_err(|error| RecordError::DoesNotReplay(error.to_string()))?;
        if !self.status.is_over() {
            return Err(RecordError::NotFinished);
        }
        let claimed = (self.status, self.score, self.counters);
        let replayed = (game.status(), score_of(&game), game.counters());
        if claimed != replayed {
            return Err(RecordError::Mismatch {
                claimed: format!("{claimed:?}"),
                replayed: format!("{replayed:?}"),
            });
        }
        Ok(())
    }

    /// Whether the game was won.
    pub fn won(&self) -> bool {
        self.status == Status::Won
    }

    /// Non-ace cards left on the table (0 is a win: "Aces Up").
    pub fn cards_left(&self) -> u32 {
        (NON_ACES as u32).saturating_sub(self.score)
    }
}

fn score_of(game: &Game) -> u32 {
    u32::try_from(game.table().score()).unwrap_or(u32::MAX)
}

/// The ranking order of RULES.md, best first: higher score, then fewer restarts, fewer hints,
/// fewer undos, fewer jokers, shorter play time, fewer moves, earlier finish.
pub fn ranking(a: &GameRecord, b: &GameRecord) -> Ordering {
    b.score
        .cmp(&a.score)
        .then(a.counters.restarts.cmp(&b.counters.restarts))
        .then(a.counters.hints.cmp(&b.counters.hints))
        .then(a.counters.undos.cmp(&b.counters.undos))
        .then(a.counters.jokers_used.cmp(&b.counters.jokers_used))
        .then(a.play_time_ms.cmp(&b.play_time_ms))
        .then(a.counters.moves.cmp(&b.counters.moves))
        .then(a.ended_at_ms.cmp(&b.ended_at_ms))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    fn finished(script: &str) -> Game {
        let mut game = Game::new(GameSetup::numbered(42, Variant::Standard, 1));
        for command in crate::command::parse_script(script).unwrap() {
            game.execute(command).unwrap();
        }
        game
    }

    fn record(score: u32, tweak: impl FnOnce(&mut GameRecord)) -> GameRecord {
        let mut record = GameRecord::of(&finished("resign"), 1000, 0, 10).unwrap();
        record.score = score;
        tweak(&mut record);
        record
    }

    #[test]
    fn only_finished_games_make_records() {
        let playing = Game::new(GameSetup::numbered(1, Variant::Standard, 1));
        assert_eq!(
            GameRecord::of(&playing, 0, 0, 0),
            Err(RecordError::NotFinished)
        );
    }

    #[test]
    fn a_record_replays_to_its_result() {
        let game = finished("deal; hint; deal; undo; redo; joker 1; resign");
        let record = GameRecord::of(&game, 5000, 100, 200).unwrap();
        assert_eq!(record.verify(), Ok(()));
        assert_eq!(record.counters.undos, 1);
        assert!(!record.won());
    }

    #[test]
    fn a_record_that_does_not_replay_is_rejected() {
        let mut record = GameRecord::of(&finished("deal; resign"), 0, 0, 0).unwrap();
        record.score += 1;
        assert!(matches!(record.verify(), Err(RecordError::Mismatch { .. })));
        let mut record = GameRecord::of(&finished("deal; resign"), 0, 0, 0).unwrap();
        record.log.insert(0, Command::Undo);
        assert!(matches!(
            record.verify(),
            Err(RecordError::DoesNotReplay(_))
        ));
        let mut record = GameRecord::of(&finished("deal; resign"), 0, 0, 0).unwrap();
        record.log.pop();
        assert!(record.verify().is_err());
    }

    #[test]
    fn ranking_follows_the_rule_book_order() {
        let base = record(40, |_| {});
        let cases: Vec<GameRecord> = vec![
            record(41, |r| r.counters.restarts = 9),
            record(40, |r| r.counters.restarts = 1),
            record(40, |r| r.counters.hints = 1),
            record(40, |r| r.counters.undos = 1),
            record(40, |r| r.counters.jokers_used = 1),
            record(40, |r| r.play_time_ms += 1),
            record(40, |r| r.counters.moves += 1),
            record(40, |r| r.ended_at_ms += 1),
        ];
        // the first case beats the base; every other loses to it on exactly one key
        assert_eq!(ranking(&cases[0], &base), Ordering::Less);
        for worse in &cases[1..] {
            assert_eq!(
                ranking(&base, worse),
                Ordering::Less,
                "{:?}",
                worse.counters
            );
            assert_eq!(ranking(worse, &base), Ordering::Greater);
        }
        // earlier keys win over later ones
        let fewer_restarts_more_hints = record(40, |r| r.counters.hints = 5);
        let more_restarts = record(40, |r| r.counters.restarts = 1);
        assert_eq!(
            ranking(&fewer_restarts_more_hints, &more_restarts),
            Ordering::Less
        );
        assert_eq!(ranking(&base, &base.clone()), Ordering::Equal);
    }
}
