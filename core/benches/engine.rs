//! Benchmarks of the engines: `cargo bench -p acesup-core`.
//!
//! - `solve/*`: the exact solver from the start of a standard deal: an easy win (deal 9, about
//!   600 nodes), a typical win (deal 20, about six thousand nodes), a slow win (deal 115, about
//!   150 thousand nodes: among the slowest 1% of the win proofs on deals 1–1,000), a loss one
//!   card short of a win (deal 19, about 44 thousand nodes) and a deep loss (deal 36, best 35,
//!   about 42 thousand nodes).
//! - `hint`: one strong hint, cold, from mid-game positions of one game (a different phase
//!   each time, so no rollout value is reused).
//! - `action_and_snapshot`: one action through `Game::execute` plus a clone of the game, the
//!   stand-in for a session snapshot.
//! - `winnable_pick/*`: what a "new game" tap costs in winnable-deals-only mode: the next deal
//!   the session picks (`session::pick_winnable_deal`), from a different start each time
//!   (40 starts, 1,000 apart), in the standard and the aces-only variant (where about one deal
//!   in nine is proven winnable, so a pick tries several deals).

use std::hint::black_box;

use acesup_core::hint::{self, PlayerView};
use acesup_core::session;
use acesup_core::solver::{self, Budget};
use acesup_core::{Action, Command, Deck, Game, GameSetup, Table, Variant};
use criterion::{Criterion, criterion_group, criterion_main};

fn solve_deal(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    for (name, deal) in [
        ("easy_win_deal_9", 9u64),
        ("typical_win_deal_20", 20),
        ("slow_win_deal_115", 115),
        ("loss_at_47_deal_19", 19),
        ("loss_at_35_deal_36", 36),
    ] {
        let table = Table::new(&Deck::from_deal_number(deal), 0);
        group.bench_function(name, |b| {
            b.iter(|| solver::solve(black_box(&table), Variant::Standard, 0, Budget::default()))
        });
    }
    group.finish();
}

fn one_hint(c: &mut Criterion) {
    // Positions of one game, one per phase, taken while following the hints. Asking about
    // them in turn keeps every hint cold: the rollout memo only serves the same phase.
    let mut game = Game::new(GameSetup::numbered(42, Variant::Standard, 1));
    let mut views = Vec::new();
    let mut dealt = 0;
    while views.len() < 8 && !game.status().is_over() {
        match hint::suggest(&PlayerView::of(&game)) {
            hint::Hint::Play(action) => {
                if matches!(action, Action::Deal) {
                    dealt += 1;
                    if dealt >= 2 {
                        views.push(PlayerView::of(&game));
                    }
                }
                let _ = game.execute(Command::Play(action));
            }
            hint::Hint::NoUsefulMove => break,
        }
    }
    let mut next = 0;
    c.bench_function("hint", |b| {
        b.iter(|| {
            next = (next + 1) % views.len().max(1);
            views.get(next).map(|view| hint::suggest(black_box(view)))
        })
    });
}

fn action_and_snapshot(c: &mut Criterion) {
    let game = Game::new(GameSetup::numbered(7, Variant::Standard, 1));
    c.bench_function("action_and_snapshot", |b| {
        b.iter_batched(
            || game.clone(),
            |mut g| {
                let _ = g.execute(Command::Play(Action::Deal));
                black_box(g.clone())
            },
            criterion::BatchSize::SmallInput,
        )
    });
}

fn winnable_pick(c: &mut Criterion) {
    let mut group = c.benchmark_group("winnable_pick");
    group.sample_size(10);
    for (name, variant) in [
        ("standard", Variant::Standard),
        ("aces_only", Variant::AcesOnly),
    ] {
        let mut start = 0u64;
        group.bench_function(name, |b| {
            b.iter(|| {
                start = (start + 1000) % 40_000;
                session::pick_winnable_deal(black_box(start), variant)
            })
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    solve_deal,
    one_hint,
    action_and_snapshot,
    winnable_pick
);
criterion_main!(benches);
