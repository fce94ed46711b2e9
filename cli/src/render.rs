//! Drawing the table and statistics as text for people.

use std::fmt::Write;

use acesup_core::hint::Hint;
use acesup_core::session::{Analysis, Session};
use acesup_core::snapshot::Snapshot;
use acesup_core::stats::VariantStats;
use acesup_core::{Card, Status, Variant};

/// Whether to colour red suits (a terminal that is not asked to stay plain).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    /// ANSI colours.
    On,
    /// Plain text.
    Off,
}

impl Colour {
    /// Colour when standard output is a terminal and `NO_COLOR` is unset.
    pub fn detect() -> Colour {
        use std::io::IsTerminal;
        if std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none() {
            Colour::On
        } else {
            Colour::Off
        }
    }
}

const CELL_WIDTH: usize = 6;

fn card_text(card: Card, colour: Colour) -> String {
    let text = format!("{:>4}", card.pretty());
    match colour {
        Colour::On if card.suit.is_red() => format!("\x1b[31m{text}\x1b[0m"),
        _ => text,
    }
}

fn pad(text: &str, visible: usize) -> String {
    format!("{text}{}", " ".repeat(CELL_WIDTH.saturating_sub(visible)))
}

/// The table: header line, the piles as columns (bottom card first), the cell, the status.
pub fn table(snapshot: &Snapshot, colour: Colour) -> String {
    let mut out = String::new();
    let deal = snapshot
        .deal_number
        .map_or_else(|| "custom deck".to_owned(), |n| format!("deal {n}"));
    let _ = writeln!(
        out,
        "{deal} ({})   score {}/48   stock {}   jokers {}",
        snapshot.variant, snapshot.score, snapshot.stock, snapshot.jokers_left
    );
    let mut header = String::new();
    for number in 1..=snapshot.piles.len() {
        header.push_str(&pad(&format!("{number:>4}"), 4));
    }
    if snapshot.has_cell {
        header.push_str(&pad("cell", 4));
    }
    let _ = writeln!(out, "{}", header.trim_end());
    let height = snapshot
        .piles
        .iter()
        .map(Vec::len)
        .max()
        .unwrap_or(0)
        .max(1);
    for row in 0..height {
        let mut line = String::new();
        for pile in &snapshot.piles {
            match pile.get(row) {
                Some(card) => line.push_str(&pad(&card_text(*card, colour), 4)),
                None if row == 0 => line.push_str(&pad("   .", 4)),
                None => line.push_str(&pad("", 0)),
            }
        }
        if snapshot.has_cell && row == 0 {
            match snapshot.cell {
                Some(card) => line.push_str(&card_text(card, colour)),
                None => line.push_str("   ."),
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    match snapshot.status {
        Status::Playing => {}
        Status::Won => out.push_str("You won: all 48 cards removed. Aces up!\n"),
        Status::Lost => {
            let _ = writeln!(
                out,
                "Game over: no moves left, {} cards remain.",
                snapshot.cards_left
            );
        }
        Status::Resigned => {
            let _ = writeln!(out, "Resigned with {} cards left.", snapshot.cards_left);
        }
    }
    if let Some(hint) = snapshot.hint {
        let _ = writeln!(out, "Hint: {}", hint_text(hint));
    }
    if let Some(problem) = &snapshot.save_problem {
        let _ = writeln!(out, "Warning: {problem}");
    }
    out
}

/// The solver's verdict for a position, with its line in the command syntax.
pub fn analysis(label: &str, analysis: &Analysis) -> String {
    let verdict = match (analysis.winnable, analysis.best_score) {
        (Some(true), _) => "it was winnable. A winning line:".to_owned(),
        (Some(false), Some(best)) => {
            format!("it could not be won; the best score was {best}. One best line:")
        }
        _ => format!(
            "the solver ran out of budget: the best score is between {} and {}. Its best line:",
            analysis.lower_bound, analysis.upper_bound
        ),
    };
    let line: Vec<String> = analysis.line.iter().map(ToString::to_string).collect();
    format!("{label}, {verdict}\n  {}", line.join("; "))
}

/// A hint in the command syntax, or a sentence when nothing is useful.
pub fn hint_text(hint: Hint) -> String {
    match hint {
        Hint::Play(action) => action.to_string(),
        Hint::NoUsefulMove => "no useful move left (resign or start a new game)".to_owned(),
    }
}

fn variant_stats(out: &mut String, variant: Variant, stats: &VariantStats) {
    let average = stats
        .average_score()
        .map_or_else(|| "-".to_owned(), |a| format!("{a:.1}"));
    let best = stats
        .best_score
        .map_or_else(|| "-".to_owned(), |b| b.to_string());
    let _ = writeln!(
        out,
        "{variant:<10} played {:>4}  won {:>4} ({:>5.1}%)  streak {} (best {})  best score {best}  average {average}",
        stats.played,
        stats.won,
        stats.win_rate() * 100.0,
        stats.current_streak,
        stats.best_streak,
    );
    if stats.played > 0 {
        let peak = stats
            .score_histogram
            .iter()
            .copied()
            .max()
            .unwrap_or(1)
            .max(1);
        for (score, &count) in stats.score_histogram.iter().enumerate() {
            if count > 0 {
                let bar = "#".repeat(usize::try_from(count * 30 / peak).unwrap_or(30).max(1));
                let _ = writeln!(out, "    {score:>2} {bar} {count}");
            }
        }
    }
}

/// Statistics of every variant, the round of five, and the best games.
pub fn statistics(session: &Session) -> String {
    let mut out = String::new();
    for variant in Variant::ALL {
        variant_stats(&mut out, variant, session.statistics().for_variant(variant));
    }
    let rounds = session.round_history();
    if rounds.played > 0 || session.round().is_some() {
        let best = rounds
            .best_result
            .map_or_else(|| "-".to_owned(), |b| b.to_string());
        let _ = writeln!(
            out,
            "rounds of five: played {}, qualified {}, best result {best}",
            rounds.played, rounds.qualified
        );
    }
    if let Some(round) = session.round() {
        let _ = writeln!(
            out,
            "current round: hands {:?} (limit {})",
            round.hands, round.limit
        );
    }
    out
}
