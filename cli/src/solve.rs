//! `acesup solve`: the exact solver on one deal.

use std::time::Duration;

use acesup_core::solver::{self, Budget, SolveResult};
use acesup_core::{Deck, Table, Variant};

use crate::CliError;
use crate::args::{Args, UsageError};

const HELP: &str = "\
usage: acesup solve (--deal N | --deck \"52 cards\") [--variant V] [--jokers J] [--budget NODES]
                    [--time-ms MS] [--json]

Solves a deal with the stock order known: is it winnable, the best final score, and one optimal
line in the scripted syntax (deal, discard 3, move 1 4, move 2 cell, joker 2).

  --deal N        a deal number
  --deck TEXT     a custom deck: 52 card codes in deal order (10H, TH, A♠, ...)
  --variant V     standard (default), aces-only or free-cell
  --jokers J      jokers the game starts with (default 0)
  --budget NODES  positions the search may generate, counting the bound's analyses as the
                  positions they take as long as (default 4600000, 8600000 in aces-only:
                  about 1 s on a desktop; --time-ms sets a hard limit)
  --time-ms MS    also stop after MS milliseconds
  --json          print one JSON object

When the budget runs out, winnable and best_score are null, lower_bound is the score the printed
line reaches and upper_bound a proven ceiling.";

/// Reads the variant option shared by the analysis commands (standard when absent).
pub(crate) fn variant(args: &Args) -> Result<Variant, UsageError> {
    Ok(args.variant()?.unwrap_or_default())
}

/// Reads `--budget` and `--time-ms` (the variant's default budget when absent).
pub(crate) fn budget(args: &Args, variant: Variant) -> Result<Budget, UsageError> {
    let nodes = args
        .parsed::<u64>("budget")?
        .unwrap_or(Budget::default_for(variant).nodes);
    let time = args.parsed::<u64>("time-ms")?.map(Duration::from_millis);
    Ok(Budget { nodes, time })
}

/// Runs `acesup solve`.
pub fn run(words: &[String]) -> Result<(), CliError> {
    let Some(args) = Args::for_command(
        words,
        &["deal", "deck", "variant", "jokers", "budget", "time-ms"],
        &["json"],
        HELP,
    )?
    else {
        return Ok(());
    };
    let variant = variant(&args)?;
    let budget = budget(&args, variant)?;
    let jokers = args.parsed::<u8>("jokers")?.unwrap_or(0);
    let deal = args.parsed::<u64>("deal")?;
    let deck = match (deal, args.value("deck")) {
        (Some(number), None) => Deck::from_deal_number(number),
        (None, Some(text)) => text.parse::<Deck>().map_err(|error| UsageError::BadValue {
            option: "--deck".to_owned(),
            message: error.to_string(),
        })?,
        _ => {
            return Err(CliError::Usage(UsageError::BadValue {
                option: "--deal/--deck".to_owned(),
                message: "give exactly one of --deal N or --deck \"...\"".to_owned(),
            }));
        }
    };
    let table = Table::new(&deck, jokers);
    let outcome = solver::solve(&table, variant, jokers, budget);
    let solution: Vec<String> = outcome.line().iter().map(ToString::to_string).collect();
    let (lower, upper) = match outcome.result {
        SolveResult::Unknown {
            lower_bound,
            upper_bound,
            ..
        } => (Some(lower_bound), Some(upper_bound)),
        _ => (None, None),
    };
    let millis = outcome.elapsed.as_secs_f64() * 1000.0;
    if args.flag("json") {
        let value = serde_json::json!({
            "deal": deal,
            "deck": deck.to_string(),
            "variant": variant.code(),
            "jokers": jokers,
            "winnable": outcome.winnable(),
            "best_score": outcome.best_score(),
            "lower_bound": lower,
            "upper_bound": upper,
            "solution": solution,
            "nodes": outcome.nodes,
            "millis": (millis * 1000.0).round() / 1000.0,
        });
        println!("{value}");
        return Ok(());
    }
    match deal {
        Some(number) => println!("deal {number} ({variant}, {jokers} jokers)"),
        None => println!("custom deck ({variant}, {jokers} jokers)"),
    }
    match outcome.winnable() {
        Some(true) => println!("winnable: yes"),
        Some(false) => println!("winnable: no"),
        None => println!("winnable: unknown (budget ran out)"),
    }
    match outcome.best_score() {
        Some(score) => println!("best score: {score} of 48 ({} cards left)", 48 - score),
        None => println!(
            "best score: between {} and {}",
            lower.unwrap_or(0),
            upper.unwrap_or(48)
        ),
    }
    println!("line ({} actions): {}", solution.len(), solution.join("; "));
    println!("nodes: {}, millis: {millis:.3}", outcome.nodes);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_names_the_default_budget() {
        let text = format!(
            "(default {}, {} in aces-only",
            Budget::DEFAULT_NODES,
            Budget::ACES_ONLY_NODES
        );
        assert!(HELP.contains(&text));
    }
}
