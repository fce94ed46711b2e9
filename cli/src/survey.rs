//! `acesup survey`: solve many deals on every core and summarise.

use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use acesup_core::solver::{self, SolveResult};
use acesup_core::{Deck, Table};

use crate::CliError;
use crate::args::Args;
use crate::solve::{budget, variant};

const HELP: &str = "\
usage: acesup survey --deals N [--seed S] [--variant V] [--jokers J] [--budget NODES]
                     [--time-ms MS] [--threads T] [--json]

Solves deal numbers S, S+1, ..., S+N-1 (default S = 1) with the stock order known, on every
core, with a progress bar on stderr. Prints the winnable fraction with its 95% Wilson confidence
interval, how many deals were decided exactly, the best-score histogram and the solve times.";

/// The 95% Wilson score interval of `k` successes in `n` trials.
pub(crate) fn wilson(k: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_964;
    let n = n as f64;
    let p = k as f64 / n;
    let denom = 1.0 + z * z / n;
    let center = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((center - half).max(0.0), (center + half).min(1.0))
}

/// The `q` quantile (0–1) of sorted values (nearest rank).
pub(crate) fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted.get(rank - 1).copied().unwrap_or(0.0)
}

/// A progress bar on stderr.
pub(crate) struct Progress {
    total: usize,
    shown: AtomicUsize,
    started: Instant,
}

impl Progress {
    pub(crate) fn new(total: usize) -> Progress {
        Progress {
            total,
            shown: AtomicUsize::new(usize::MAX),
            started: Instant::now(),
        }
    }

    /// Reports `done` items finished; redraws at most once per percent.
    pub(crate) fn update(&self, done: usize) {
        let percent = done * 100 / self.total.max(1);
        if self.shown.swap(percent, Ordering::Relaxed) == percent {
            return;
        }
        let width = 30;
        let filled = percent * width / 100;
        let elapsed = self.started.elapsed().as_secs_f64();
        let eta = if done > 0 {
            elapsed * (self.total - done.min(self.total)) as f64 / done as f64
        } else {
            0.0
        };
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r[{}{}] {percent:3}% {done}/{} {elapsed:.0}s elapsed, ~{eta:.0}s left ",
            "#".repeat(filled),
            " ".repeat(width - filled),
            self.total
        );
        if done >= self.total {
            let _ = writeln!(err);
        }
        let _ = err.flush();
    }
}

/// Runs `work(i)` for every `i` in `0..count` on `threads` threads, with a progress bar;
/// returns the results in order.
pub(crate) fn parallel<T: Send, F: Fn(usize) -> T + Sync>(
    count: usize,
    threads: usize,
    work: F,
) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let progress = Progress::new(count);
    let results: Mutex<Vec<(usize, T)>> = Mutex::new(Vec::with_capacity(count));
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut local = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    local.push((i, work(i)));
                    progress.update(done.fetch_add(1, Ordering::Relaxed) + 1);
                }
                if let Ok(mut all) = results.lock() {
                    all.extend(local);
                }
            });
        }
    });
    let mut all = results.into_inner().unwrap_or_default();
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, t)| t).collect()
}

/// Threads to use: `--threads`, else every core.
pub(crate) fn threads(args: &Args) -> Result<usize, CliError> {
    Ok(args.parsed::<usize>("threads")?.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get)
    }))
}

struct Row {
    result: Option<bool>,
    best: Option<u8>,
    lower: u8,
    nodes: u64,
    elapsed: Duration,
}

/// Runs `acesup survey`.
pub fn run(words: &[String]) -> Result<(), CliError> {
    let Some(args) = Args::for_command(
        words,
        &[
            "deals", "seed", "variant", "jokers", "budget", "time-ms", "threads",
        ],
        &["json"],
        HELP,
    )?
    else {
        return Ok(());
    };
    let deals = args.parsed::<usize>("deals")?.unwrap_or(1000);
    let seed = args.parsed::<u64>("seed")?.unwrap_or(1);
    let variant = variant(&args)?;
    let jokers = args.parsed::<u8>("jokers")?.unwrap_or(0);
    let budget = budget(&args, variant)?;
    let threads = threads(&args)?;
    let started = Instant::now();
    let rows = parallel(deals, threads, |i| {
        let number = seed.wrapping_add(i as u64);
        let table = Table::new(&Deck::from_deal_number(number), jokers);
        let outcome = solver::solve(&table, variant, jokers, budget);
        let lower = match outcome.result {
            SolveResult::Unknown { lower_bound, .. } => lower_bound,
            _ => outcome.line_score(),
        };
        Row {
            result: outcome.winnable(),
            best: outcome.best_score(),
            lower,
            nodes: outcome.nodes,
            elapsed: outcome.elapsed,
        }
    });
    let wall = started.elapsed();
    let won = rows.iter().filter(|r| r.result == Some(true)).count();
    let lost = rows.iter().filter(|r| r.result == Some(false)).count();
    let unknown = rows.len() - won - lost;
    let (lo, hi) = wilson(won, rows.len());
    let mut histogram = [0usize; 49];
    for row in &rows {
        if let Some(slot) = row.best.and_then(|b| histogram.get_mut(usize::from(b))) {
            *slot += 1;
        }
    }
    let mut millis: Vec<f64> = rows
        .iter()
        .map(|r| r.elapsed.as_secs_f64() * 1000.0)
        .collect();
    millis.sort_by(f64::total_cmp);
    let mut win_millis: Vec<f64> = rows
        .iter()
        .filter(|r| r.result == Some(true))
        .map(|r| r.elapsed.as_secs_f64() * 1000.0)
        .collect();
    win_millis.sort_by(f64::total_cmp);
    let mut loss_millis: Vec<f64> = rows
        .iter()
        .filter(|r| r.result == Some(false))
        .map(|r| r.elapsed.as_secs_f64() * 1000.0)
        .collect();
    loss_millis.sort_by(f64::total_cmp);
    let nodes: u64 = rows.iter().map(|r| r.nodes).sum();
    let _unknown_lower: Vec<u8> = rows
        .iter()
        .filter(|r| r.result.is_none())
        .map(|r| r.lower)
        .collect();
    let n = rows.len().max(1) as f64;
    if args.flag("json") {
        let value = serde_json::json!({
            "variant": variant.code(),
            "jokers": jokers,
            "deals": rows.len(),
            "first_deal": seed,
            "budget_nodes": budget.nodes,
            "winnable": won,
            "lost": lost,
            "unknown": unknown,
            "winnable_fraction": won as f64 / n,
            "ci95": [lo, hi],
            "decided_fraction": (won + lost) as f64 / n,
            "histogram": histogram.to_vec(),
            "millis": {
                "median": quantile(&millis, 0.5),
                "p99": quantile(&millis, 0.99),
                "max": quantile(&millis, 1.0),
                "win_median": quantile(&win_millis, 0.5),
                "win_p99": quantile(&win_millis, 0.99),
                "loss_median": quantile(&loss_millis, 0.5),
                "loss_p99": quantile(&loss_millis, 0.99),
            },
            "nodes": nodes,
            "wall_seconds": wall.as_secs_f64(),
        });
        println!("{value}");
        return Ok(());
    }
    println!(
        "{} deals ({variant}, {jokers} jokers, deal numbers {seed}..{}), budget {} nodes, {threads} threads, {:.1} s",
        rows.len(),
        seed.wrapping_add(rows.len() as u64).wrapping_sub(1),
        budget.nodes,
        wall.as_secs_f64()
    );
    println!(
        "winnable: {won} ({:.2}%, 95% CI {:.2}%-{:.2}%)",
        won as f64 * 100.0 / n,
        lo * 100.0,
        hi * 100.0
    );
    println!(
        "decided exactly: {} ({:.3}%): {won} won, {lost} lost; unknown (budget ran out): {unknown}",
        won + lost,
        (won + lost) as f64 * 100.0 / n
    );
    if unknown > 0 {
        let (ulo, uhi) = wilson(won + unknown, rows.len());
        println!(
            "  counting every unknown as winnable: {:.2}% (95% CI up to {:.2}%)",
            (won + unknown) as f64 * 100.0 / n,
            uhi.max(ulo) * 100.0
        );
    }
    println!(
        "solve time ms: median {:.3}, p99 {:.3}, max {:.3}; win proofs: median {:.3}, p99 {:.3}; loss proofs: median {:.3}, p99 {:.3}",
        quantile(&millis, 0.5),
        quantile(&millis, 0.99),
        quantile(&millis, 1.0),
        quantile(&win_millis, 0.5),
        quantile(&win_millis, 0.99),
        quantile(&loss_millis, 0.5),
        quantile(&loss_millis, 0.99),
    );
    println!("nodes: {nodes} in all, {:.0} per deal", nodes as f64 / n);
    println!("best score (cards removed) histogram, decided deals:");
    for (score, &count) in histogram.iter().enumerate() {
        if count > 0 {
            let bar = "#".repeat(((count as f64 / n) * 200.0).ceil() as usize);
            println!("  {score:2} ({:2} left): {count:7} {bar}", 48 - score);
        }
    }
    Ok(())
}
