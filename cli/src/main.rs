//! `acesup`: Aces Up in the terminal.
//!
//! Subcommands: `play` (interactive, or scripted with `--actions … --json`), and the analysis
//! tools. Run `acesup help` for the list.

mod args;
mod autoplay;
mod json;
mod play;
mod render;
mod solve;
mod survey;

use std::process::ExitCode;

use args::UsageError;

/// Why a subcommand failed; decides the exit code.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The command line was wrong (exit code 2).
    #[error(transparent)]
    Usage(#[from] UsageError),
    /// The command ran and failed (exit code 1).
    #[error("{0}")]
    Failed(String),
}

impl CliError {
    fn exit_code(&self) -> ExitCode {
        match self {
            CliError::Usage(_) => ExitCode::from(2),
            CliError::Failed(_) => ExitCode::from(1),
        }
    }
}

const USAGE: &str = "\
Aces Up solitaire

usage: acesup <command> [options]

commands:
  play       play in the terminal (resumes your saved game), or run a script with --actions
  solve      solve a deal with the stock order known (winnable? best score, solution)
  autoplay   play many deals by following the hints (or the greedy baseline)
  survey     solve many random deals: winnable fraction, score histogram, solve times
  help       this text

Run `acesup <command> --help` for a command's options.";

fn main() -> ExitCode {
    let words: Vec<String> = std::env::args().skip(1).collect();
    let (command, rest) = match words.split_first() {
        Some((command, rest)) => (command.as_str(), rest),
        None => ("help", &[][..]),
    };
    let result = match command {
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            Ok(())
        }
        "play" => play::run(rest),
        "--version" | "-V" => {
            println!("acesup {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        "solve" => solve::run(rest),
        "survey" => survey::run(rest),
        "autoplay" => autoplay::run(rest),
        _ => Err(CliError::Usage(UsageError::Unexpected(command.to_owned()))),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("acesup: {error}");
            error.exit_code()
        }
    }
}
