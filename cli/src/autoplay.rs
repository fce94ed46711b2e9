//! `acesup autoplay`: play many deals by following a hint policy, on every core.

use std::time::Instant;

use acesup_core::hint::{self, Hint, HintConfig, PimcConfig, PlayerView};
use acesup_core::{Command, Game, GameSetup};

use crate::CliError;
use crate::args::{Args, UsageError};
use crate::solve::variant;
use crate::survey::{parallel, quantile, threads, wilson};

const HELP: &str = "\
usage: acesup autoplay [--policy hint|greedy|pimc] [--deals N] [--seed S] [--variant V]
                       [--jokers J] [--threads T] [--set name=value,...] [--per-deal FILE]
                       [--json]

Plays deal numbers S, S+1, ..., S+N-1 (default S = 1, N = 1000) by always following the hint
(policy `hint`, the default), the greedy baseline (`greedy`) or the perfect-information Monte
Carlo baseline (`pimc`: solve sampled stock orders, take the move that wins most of them), on
every core, and prints the win rate with its 95% Wilson confidence interval, the average score
and the hint latency.
--set overrides the hint's tuning (samples, card, empty, ace_bottom, ace_buried, joker,
cell_empty, self_block, high_buried, height2, risk, win, rollout_win; lookahead, deep, rollouts,
rollout_top, rollout_depth), e.g. --set samples=20,rollouts=0, and PIMC's (pimc_samples,
pimc_nodes, pimc_candidates)
--per-deal FILE also writes one line per deal: the deal number, 1 if won or 0, and the score, so
that two settings played on the same deals can be compared deal by deal.";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Policy {
    Hint,
    Greedy,
    Pimc,
}

fn config(text: Option<&str>) -> Result<(HintConfig, PimcConfig), UsageError> {
    let mut cfg = HintConfig::default();
    let mut pimc = PimcConfig::default();
    let Some(text) = text else {
        return Ok((cfg, pimc));
    };
    for item in text.split(',').filter(|s| !s.is_empty()) {
        let bad = |message: String| UsageError::BadValue {
            option: "--set".to_owned(),
            message,
        };
        let (name, value) = item
            .split_once('=')
            .ok_or_else(|| bad(format!("\"{item}\" is not name=value")))?;
        if let Some(setting) = name.strip_prefix("pimc_") {
            let count = value
                .parse()
                .map_err(|_| bad(format!("{name}: \"{value}\" is not a count")))?;
            match setting {
                "samples" => pimc.samples = usize::try_from(count).unwrap_or(usize::MAX),
                "nodes" => pimc.nodes = count,
                "candidates" => pimc.candidates = usize::try_from(count).unwrap_or(usize::MAX),
                _ => return Err(bad(format!("unknown setting \"{name}\""))),
            }
            continue;
        }
        if [
            "samples",
            "lookahead",
            "deep",
            "rollouts",
            "rollout_top",
            "rollout_depth",
        ]
        .contains(&name)
        {
            let count = value
                .parse()
                .map_err(|_| bad(format!("{name}: \"{value}\" is not a count")))?;
            match name {
                "samples" => cfg.samples = count,
                "deep" => cfg.deep = count,
                "rollouts" => cfg.rollouts = count,
                "rollout_top" => cfg.rollout_top = count,
                "rollout_depth" => cfg.rollout_depth = count,
                _ => cfg.lookahead = count,
            }
            continue;
        }
        let number: f32 = value
            .parse()
            .map_err(|_| bad(format!("{name}: \"{value}\" is not a number")))?;
        let slot = match name {
            "card" => &mut cfg.card,
            "empty" => &mut cfg.empty,
            "ace_bottom" => &mut cfg.ace_bottom,
            "ace_buried" => &mut cfg.ace_buried,
            "joker" => &mut cfg.joker,
            "cell_empty" => &mut cfg.cell_empty,
            "self_block" => &mut cfg.self_block,
            "high_buried" => &mut cfg.high_buried,
            "win" => &mut cfg.win,
            "height2" => &mut cfg.height2,
            "risk" => &mut cfg.risk,
            "rollout_win" => &mut cfg.rollout_win,
            _ => return Err(bad(format!("unknown setting \"{name}\""))),
        };
        *slot = number;
    }
    Ok((cfg, pimc))
}

struct Played {
    won: bool,
    score: usize,
    latencies: Vec<f64>,
}

/// Runs `acesup autoplay`.
pub fn run(words: &[String]) -> Result<(), CliError> {
    let Some(args) = Args::for_command(
        words,
        &[
            "policy", "deals", "seed", "variant", "jokers", "threads", "set", "per-deal",
        ],
        &["json"],
        HELP,
    )?
    else {
        return Ok(());
    };
    let policy = match args.value("policy").unwrap_or("hint") {
        "hint" => Policy::Hint,
        "greedy" => Policy::Greedy,
        "pimc" => Policy::Pimc,
        other => {
            return Err(CliError::Usage(UsageError::BadValue {
                option: "--policy".to_owned(),
                message: format!("\"{other}\" is not hint, greedy or pimc"),
            }));
        }
    };
    let deals = args.parsed::<usize>("deals")?.unwrap_or(1000);
    let seed = args.parsed::<u64>("seed")?.unwrap_or(1);
    let variant = variant(&args)?;
    let jokers = args.parsed::<u8>("jokers")?.unwrap_or(0);
    let threads = threads(&args)?;
    let (cfg, pimc) = config(args.value("set"))?;
    let started = Instant::now();
    let games = parallel(deals, threads, |i| {
        let number = seed.wrapping_add(i as u64);
        let mut game = Game::new(GameSetup::numbered(number, variant, jokers));
        let mut latencies = Vec::new();
        for _ in 0..2000 {
            if game.status().is_over() {
                break;
            }
            let view = PlayerView::of(&game);
            let t = Instant::now();
            let hint = match policy {
                Policy::Hint => hint::suggest_with(&view, &cfg),
                Policy::Greedy => hint::greedy(&view),
                Policy::Pimc => hint::suggest_pimc(&view, &pimc),
            };
            latencies.push(t.elapsed().as_secs_f64() * 1000.0);
            let command = match hint {
                Hint::Play(action) => Command::Play(action),
                Hint::NoUsefulMove => Command::Resign,
            };
            if game.execute(command).is_err() {
                let _ = game.execute(Command::Resign);
            }
        }
        Played {
            won: game.table().is_won(),
            score: game.table().score(),
            latencies,
        }
    });
    let wall = started.elapsed().as_secs_f64();
    if let Some(path) = args.value("per-deal") {
        let lines: String = games
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let number = seed.wrapping_add(i as u64);
                format!("{number} {} {}\n", u8::from(g.won), g.score)
            })
            .collect();
        std::fs::write(path, lines)
            .map_err(|e| CliError::Failed(format!("cannot write {path}: {e}")))?;
    }
    let n = games.len();
    let won = games.iter().filter(|g| g.won).count();
    let (lo, hi) = wilson(won, n);
    let average = games.iter().map(|g| g.score as f64).sum::<f64>() / n.max(1) as f64;
    let mut latencies: Vec<f64> = games
        .iter()
        .flat_map(|g| g.latencies.iter().copied())
        .collect();
    latencies.sort_by(f64::total_cmp);
    let name = match policy {
        Policy::Hint => "hint",
        Policy::Greedy => "greedy",
        Policy::Pimc => "pimc",
    };
    if args.flag("json") {
        let value = serde_json::json!({
            "policy": name,
            "variant": variant.code(),
            "jokers": jokers,
            "deals": n,
            "first_deal": seed,
            "won": won,
            "win_rate": won as f64 / n.max(1) as f64,
            "ci95": [lo, hi],
            "average_score": average,
            "hints": latencies.len(),
            "latency_ms": {
                "median": quantile(&latencies, 0.5),
                "p99": quantile(&latencies, 0.99),
                "max": quantile(&latencies, 1.0),
            },
            "wall_seconds": wall,
        });
        println!("{value}");
        return Ok(());
    }
    println!(
        "{n} deals ({variant}, {jokers} jokers, deal numbers {seed}..{}), policy {name}, {threads} threads, {wall:.1} s",
        seed.wrapping_add(n as u64).wrapping_sub(1)
    );
    println!(
        "won: {won} ({:.2}%, 95% CI {:.2}%-{:.2}%)",
        won as f64 * 100.0 / n.max(1) as f64,
        lo * 100.0,
        hi * 100.0
    );
    println!("average score: {average:.2} of 48");
    println!(
        "hint latency ms ({} hints): median {:.3}, p99 {:.3}, max {:.3}",
        latencies.len(),
        quantile(&latencies, 0.5),
        quantile(&latencies, 0.99),
        quantile(&latencies, 1.0)
    );
    Ok(())
}
