//! Rollouts: the value of a candidate position measured by playing a few deals further.
//!
//! The one-deal value of the strong hint sees only the next deal; a position that looks good
//! after it may still be a dead end two deals later. A rollout samples a full order of the
//! unseen cards and plays on from the candidate with a cheap fair policy: after each deal, the
//! position reachable before the next deal with the best static evaluation (nothing of the
//! sampled order beyond the row just dealt is used). It stops after
//! [`HintConfig::rollout_depth`] deals and takes the static value there, or, when the stock
//! runs out first, plays the last phase for the best score and takes the cards removed plus a
//! bonus for a won game. All candidates of a phase have the same stock left, so their
//! rollouts all end the same way and their values compare on one scale. The mean over the
//! sampled orders estimates what the candidate is worth when play goes on sensibly: one step
//! of policy improvement over the cheap policy. Stopping after a few deals keeps a hint fast
//! and, in self-play, won as often as playing to the end: the cheap policy's own mistakes
//! late in a long rollout only add noise.
//!
//! Every candidate is played out on the same sampled orders (common random numbers), so the
//! differences between candidates are not drowned in the luck of the draw. The orders are
//! seeded from the unseen set only, which the player sees and which does not change inside a
//! phase: the hint stays fair and deterministic.
//!
//! Following the hints asks again after every action of a phase, and each time the same
//! candidates come up. A small per-thread memo keeps the rollout values of the current phase
//! (same unseen set, variant and configuration); it returns exactly what recomputing would, so
//! it changes the speed only, never a hint.

use std::cell::RefCell;

use super::strong::{Closure, HintConfig, Rng, S, evaluate, non_aces};
use crate::rules::Variant;

/// Positions one phase of a rollout may list (the same bound as the one-deal value).
const PHASE_LIMIT: usize = 128;

/// `count` full orders of the unseen cards, seeded from the unseen set only.
pub(super) fn sample_orders(unseen: u64, count: usize, variant: Variant) -> Vec<Vec<u8>> {
    let cards: Vec<u8> = (0..52u8).filter(|&c| unseen & (1u64 << c) != 0).collect();
    let mut rng = Rng(unseen.rotate_left(7) ^ ((variant as u64) << 58) ^ 0x0D15_EA5E_C0FF_EE00);
    (0..count)
        .map(|_| {
            let mut order = cards.clone();
            for i in (1..order.len()).rev() {
                let j = (rng.next() % (i as u64 + 1)) as usize;
                order.swap(i, j);
            }
            order
        })
        .collect()
}

/// Memo entries kept at most (a phase rarely needs more than a few dozen).
const MEMO_CAP: usize = 4096;

/// Rollout values of one phase, by the candidate's canonical key.
#[derive(Default)]
struct Memo {
    phase: Option<(u64, Variant, HintConfig)>,
    values: Vec<(u64, f32)>,
}

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::new(Memo::default());
}

/// The rollout value of the canonical position `start` (key `key`), from the memo when this
/// phase already computed it.
pub(super) fn value(
    start: &S,
    key: u64,
    variant: Variant,
    cfg: &HintConfig,
    unseen: u64,
    orders: &mut Option<Vec<Vec<u8>>>,
    closure: &mut Closure,
) -> f32 {
    let phase = Some((unseen, variant, *cfg));
    let known = MEMO.with(|memo| {
        let mut memo = memo.borrow_mut();
        if memo.phase != phase {
            memo.phase = phase;
            memo.values.clear();
        }
        memo.values.iter().find(|(k, _)| *k == key).map(|&(_, v)| v)
    });
    if let Some(v) = known {
        return v;
    }
    let orders = orders.get_or_insert_with(|| sample_orders(unseen, cfg.rollouts, variant));
    let v = mean(start, variant, cfg, unseen, orders, closure);
    MEMO.with(|memo| {
        let mut memo = memo.borrow_mut();
        if memo.values.len() >= MEMO_CAP {
            memo.values.clear();
        }
        memo.values.push((key, v));
    });
    v
}

/// The mean final result of playing `start` (a position before a deal) out on each order.
fn mean(
    start: &S,
    variant: Variant,
    cfg: &HintConfig,
    unseen: u64,
    orders: &[Vec<u8>],
    closure: &mut Closure,
) -> f32 {
    let total: f32 = orders
        .iter()
        .map(|order| play_out(start, variant, cfg, unseen, order, closure))
        .sum();
    total / orders.len().max(1) as f32
}

/// Plays one rollout: deal a row, move to the best position by the static evaluation, and so
/// on, for at most `rollout_depth` deals (then the static value) or until the stock is empty
/// (then the best score reachable: cards removed in the whole game, plus the win bonus).
fn play_out(
    start: &S,
    variant: Variant,
    cfg: &HintConfig,
    unseen: u64,
    order: &[u8],
    closure: &mut Closure,
) -> f32 {
    let mut s = *start;
    let mut left = unseen;
    let depth = if cfg.rollout_depth == 0 {
        usize::MAX
    } else {
        cfg.rollout_depth
    };
    for (dealt, chunk) in order.chunks_exact(4).enumerate() {
        if dealt >= depth {
            // Cut short: the static value, on the same footing for every candidate (the same
            // number of cards dealt).
            return evaluate(&s, variant, cfg, left);
        }
        let mut row = [0u8; 4];
        for (slot, &card) in row.iter_mut().zip(chunk) {
            *slot = card;
            left &= !(1u64 << (card & 63));
        }
        closure.build(s.deal(&row), variant, left, PHASE_LIMIT);
        let mut best: Option<(f32, S)> = None;
        for &j in &closure.candidates {
            if let Some(&(t, _, _)) = closure.nodes.get(j as usize) {
                let v = if left == 0 {
                    -(non_aces(t.table_mask()) as f32)
                } else {
                    evaluate(&t, variant, cfg, left)
                };
                if best.is_none_or(|(bv, _)| v > bv) {
                    best = Some((v, t));
                }
            }
        }
        if let Some((_, t)) = best {
            s = t;
        }
    }
    let on_table = non_aces(s.table_mask()) + non_aces(left);
    let removed = 48u32.saturating_sub(on_table) as f32;
    if on_table == 0 {
        removed + cfg.rollout_win
    } else {
        removed
    }
}
