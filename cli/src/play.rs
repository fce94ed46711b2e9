//! `acesup play`: the interactive terminal game, and scripted mode (`--actions … --json`).

use std::io::{BufRead, Write};
use std::path::PathBuf;

use acesup_core::command::parse_script;
use acesup_core::session::{DealChoice, NewGame, Session, Settings, system_clock};
use acesup_core::{Command, Deck, Variant};

use crate::CliError;
use crate::args::{Args, UsageError};
use crate::render::{self, Colour};

const HELP: &str = "\
usage: acesup play [options]

Plays Aces Up in the terminal. Without options it resumes your saved game.

options:
  --deal N          start deal number N
  --deck \"CARDS\"    start a custom deck: 52 cards in deal order, e.g. \"AS 10H TD ...\"
  --variant V       standard | aces-only | free-cell
  --jokers K        jokers per game (0-9; 0 turns them off)
  --no-undo         switch undo and redo off
  --no-hints        switch hints off
  --winnable-only   random deals are ones the solver proves winnable
  --data-dir DIR    where the game, settings and statistics are saved
  --actions \"...\"   scripted mode: apply these commands (separated by ';') and exit
  --json            scripted mode: print the final table as JSON
  --no-color        never colour the cards

In scripted mode without --data-dir nothing is read or written.";

const COMMANDS: &str = "\
commands (piles are 1-4; `cell` is the free cell):
  deal            deal one card onto each pile           (also: d)
  discard N       discard the top card of pile N          (discard cell)
  move N M        move the top card of pile N onto empty pile M (move cell M)
  cell N          put the top card of pile N on the free cell
  smart N         discard, or move to the leftmost empty pile   (also: just N)
  joker N         remove every non-ace card of pile N
  hint            suggest an action
  undo / redo     step back / forward                    (also: u / r)
  restart         back to the start of this deal
  resign          give up this game
  new [N]         new game (deal number N, or random)
  analyze         after the game: was the deal winnable? best score and a line
  review K        after the game: the solver's verdict after the first K steps
  round           start a round of five
  stats           statistics
  help            this text
  quit            save and leave                         (also: q)";

/// Options of `acesup play`.
struct PlayOptions {
    deal: Option<DealChoice>,
    variant: Option<Variant>,
    jokers: Option<u8>,
    no_undo: bool,
    no_hints: bool,
    winnable_only: bool,
    data_dir: Option<PathBuf>,
    actions: Option<String>,
    json: bool,
    colour: Colour,
}

impl PlayOptions {
    fn parse(words: &[String]) -> Result<PlayOptions, UsageError> {
        let args = Args::parse(
            words,
            &["deal", "deck", "variant", "jokers", "data-dir", "actions"],
            &["no-undo", "no-hints", "winnable-only", "json", "no-color"],
        )?;
        args.no_positional()?;
        let bad = |option: &str, message: String| UsageError::BadValue {
            option: option.to_owned(),
            message,
        };
        let deal = match (args.parsed::<u64>("deal")?, args.value("deck")) {
            (Some(_), Some(_)) => {
                return Err(bad(
                    "--deck",
                    "give either --deal or --deck, not both".to_owned(),
                ));
            }
            (Some(number), None) => Some(DealChoice::Number(number)),
            (None, Some(text)) => Some(DealChoice::Deck(
                text.parse::<Deck>()
                    .map_err(|error| bad("--deck", error.to_string()))?,
            )),
            (None, None) => None,
        };
        let variant = args.variant()?;
        let jokers = args.parsed::<u8>("jokers")?;
        if jokers.is_some_and(|k| k > acesup_core::session::MAX_JOKERS) {
            return Err(bad("--jokers", "at most 9 jokers per game".to_owned()));
        }
        let json = args.flag("json");
        if json && args.value("actions").is_none() {
            return Err(bad(
                "--json",
                "goes with --actions (scripted mode)".to_owned(),
            ));
        }
        Ok(PlayOptions {
            deal,
            variant,
            jokers,
            no_undo: args.flag("no-undo"),
            no_hints: args.flag("no-hints"),
            winnable_only: args.flag("winnable-only"),
            data_dir: args.value("data-dir").map(PathBuf::from),
            actions: args.value("actions").map(str::to_owned),
            json,
            colour: if args.flag("no-color") {
                Colour::Off
            } else {
                Colour::detect()
            },
        })
    }

    /// Applies the settings options on top of `settings`.
    fn settings(&self, mut settings: Settings) -> Settings {
        if let Some(variant) = self.variant {
            settings.variant = variant;
        }
        if let Some(jokers) = self.jokers {
            settings.jokers_per_game = jokers;
        }
        if self.no_undo {
            settings.undo_enabled = false;
        }
        if self.no_hints {
            settings.hints_enabled = false;
        }
        if self.winnable_only {
            settings.winnable_only = true;
        }
        settings
    }

    /// Whether the options ask for a new game rather than the saved one.
    fn wants_new_game(&self) -> bool {
        self.deal.is_some() || self.variant.is_some() || self.jokers.is_some()
    }
}

/// The per-user data directory: `$ACESUP_DATA_DIR`, else `$XDG_DATA_HOME/acesup`, else
/// `~/.local/share/acesup`.
fn default_data_dir() -> Result<PathBuf, CliError> {
    if let Some(dir) = std::env::var_os("ACESUP_DATA_DIR") {
        return Ok(PathBuf::from(dir));
    }
    if let Some(dir) = std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir).join("acesup"));
    }
    std::env::var_os("HOME")
        .map(|home| PathBuf::from(home).join(".local/share/acesup"))
        .ok_or_else(|| CliError::Failed("no home directory: give --data-dir".to_owned()))
}

fn failed(error: impl std::fmt::Display) -> CliError {
    CliError::Failed(error.to_string())
}

/// Opens the session the options ask for, with settings and new game applied.
fn open_session(options: &PlayOptions, data_dir: Option<PathBuf>) -> Result<Session, CliError> {
    let mut session = match data_dir {
        Some(dir) => {
            let session = Session::open(dir).map_err(failed)?;
            for problem in session.load_problems() {
                eprintln!("acesup: {problem}");
            }
            session
        }
        None => Session::in_memory(Settings::default(), system_clock()).map_err(failed)?,
    };
    let settings = options.settings(session.settings().clone());
    if &settings != session.settings() {
        session.set_settings(settings).map_err(failed)?;
    }
    let scripted_without_storage = options.actions.is_some() && options.data_dir.is_none();
    if options.wants_new_game() || scripted_without_storage {
        let deal = options.deal.clone().unwrap_or(DealChoice::Random);
        session
            .new_game(NewGame {
                deal,
                variant: options.variant,
            })
            .map_err(failed)?;
    }
    Ok(session)
}

/// Runs `acesup play`.
pub fn run(words: &[String]) -> Result<(), CliError> {
    if words.iter().any(|word| word == "--help" || word == "-h") {
        println!("{HELP}");
        return Ok(());
    }
    let options = PlayOptions::parse(words)?;
    match &options.actions {
        Some(script) => scripted(&options, script),
        None => {
            let dir = match &options.data_dir {
                Some(dir) => dir.clone(),
                None => default_data_dir()?,
            };
            interactive(&options, dir)
        }
    }
}

fn scripted(options: &PlayOptions, script: &str) -> Result<(), CliError> {
    let commands = parse_script(script).map_err(|(position, text, error)| {
        CliError::Failed(format!("action {position} ({text}): {error}"))
    })?;
    let mut session = open_session(options, options.data_dir.clone())?;
    for (index, command) in commands.iter().enumerate() {
        if let Err(error) = session.execute(*command) {
            return Err(CliError::Failed(format!(
                "action {} ({command}): {error} [{}]",
                index + 1,
                error.code()
            )));
        }
    }
    let snapshot = session.snapshot();
    let text = if options.json {
        format!(
            "{}\n",
            crate::json::snapshot(&snapshot, &session.game().setup().deck)
        )
    } else {
        render::table(&snapshot, options.colour)
    };
    say(&text);
    Ok(())
}

/// Writes to standard output; `false` once the reader has gone (a closed pipe is not an error
/// worth a crash: the game is saved after every action anyway).
fn say(text: &str) -> bool {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .is_ok()
}

fn now_ms() -> u64 {
    (system_clock())()
}

fn interactive(options: &PlayOptions, dir: PathBuf) -> Result<(), CliError> {
    let mut session = open_session(options, Some(dir.clone()))?;
    session.resume(now_ms());
    let welcome = format!(
        "Aces Up. Type `help` for commands. Your game is saved in {}.\n\n{}",
        dir.display(),
        render::table(&session.snapshot(), options.colour)
    );
    let mut open = say(&welcome);
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    while open && say("> ") {
        let Some(Ok(line)) = lines.next() else { break };
        open = match respond(&mut session, line.trim()) {
            Reply::Quit => false,
            Reply::Text(text) => say(&format!("{text}\n")),
            Reply::Table => say(&render::table(&session.snapshot(), options.colour)),
        };
    }
    session.pause(now_ms());
    say("\nSaved. Run `acesup play` to carry on.\n");
    Ok(())
}

enum Reply {
    Quit,
    Text(String),
    Table,
}

/// Answers one line typed by the player.
fn respond(session: &mut Session, line: &str) -> Reply {
    let words: Vec<&str> = line.split_whitespace().collect();
    let outcome = match words.as_slice() {
        [] => return Reply::Table,
        ["q" | "quit" | "exit"] => return Reply::Quit,
        ["help" | "?"] => return Reply::Text(COMMANDS.to_owned()),
        ["stats" | "statistics"] => return Reply::Text(render::statistics(session)),
        ["d"] => session
            .execute(Command::Play(acesup_core::Action::Deal))
            .map(drop),
        ["u"] => session.undo().map(drop),
        ["r"] => session.redo().map(drop),
        ["new"] => session.new_game(NewGame::random()).map(drop),
        ["new", number] => match number.parse::<u64>() {
            Ok(number) => session
                .new_game(NewGame {
                    deal: DealChoice::Number(number),
                    variant: None,
                })
                .map(drop),
            Err(_) => return Reply::Text(format!("\"{number}\" is not a deal number")),
        },
        ["round"] => session.start_round().map(drop),
        ["analyze" | "analyse"] => {
            return Reply::Text(match session.analyze_deal() {
                Ok(analysis) => render::analysis("From the deal", &analysis),
                Err(error) => format!("Not possible: {error}"),
            });
        }
        ["review", step] => {
            let Ok(step) = step.parse::<usize>() else {
                return Reply::Text(format!("\"{step}\" is not a step number"));
            };
            return Reply::Text(match session.analyze_position(step) {
                Ok(analysis) => render::analysis(&format!("After step {step}"), &analysis),
                Err(error) => format!("Not possible: {error}"),
            });
        }
        [single] if single.parse::<usize>().is_ok() || single.eq_ignore_ascii_case("cell") => {
            match acesup_core::Place::parse(single) {
                Ok(place) => session.smart_move(place).map(drop),
                Err(error) => return Reply::Text(error.to_string()),
            }
        }
        _ => match line.parse::<Command>() {
            Ok(command) => session.execute(command).map(drop),
            Err(error) => return Reply::Text(format!("{error} (type `help`)")),
        },
    };
    match outcome {
        Ok(()) => Reply::Table,
        Err(error) => Reply::Text(format!("Not possible: {error}")),
    }
}
