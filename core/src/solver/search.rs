//! The exact search with its proven shortcuts.
//!
//! # Shape
//! The game splits into *phases*: the positions between two deals. Inside a phase no card is
//! revealed, so only the *set* of positions reachable before the next deal matters, not the
//! order in which the player gets there. The search therefore works on post-deal positions:
//! for one, it lists every position reachable without dealing (its *closure*, with a visited set
//! that also absorbs the cycles that lone-card moves create), and its value is the best value of
//! "deal from there" over the closure; after the last deal the value is the best score in the
//! closure. Post-deal positions go into a transposition table keyed by the exact position.
//!
//! # Shortcuts, each with its proof
//! 1. **Safe discards** ([`Layout::safe_discard`]). A discardable card `X` is discarded at once,
//!    and the positions that keep it are not searched, when (a) no card of `X`'s suit and lower
//!    rank is left anywhere (table or stock), or (b) the stock is empty.
//!    *Proof* (simulation): let `K` keep `X` and `D` be `K` without `X` (one more removed card).
//!    Every action sequence from `K` can be mirrored from `D` with a final score at least as high:
//!    an action not involving `X` stays legal in `D` (a move needs an empty target, and `D`'s
//!    piles hold a subset of `K`'s cards; a moved or discarded card that is a top in `K` is a top
//!    in `D`), except a discard justified by `X` itself, or a joker on a pile whose only non-ace
//!    is `X` (then `D` skips it and keeps the joker). A discard or move of `X` is skipped in `D`.
//!    Deals put the same cards on the same piles. So the relation "`D` = `K` minus `X`, with at
//!    least as many jokers" is kept, and `D`'s score is never below `K`'s. A discard justified by
//!    `X` needs a lower card of `X`'s suit: in case (a) there is none. In case (b) no card is ever
//!    covered again (only moves onto empty places remain), so the highest top card of each suit
//!    can never leave (nothing beats it) and the highest top of `X`'s suit stays at or above the
//!    card `Y` that beats `X` now; any card `X` could justify is justified by that top in `D`.
//! 2. **Bounds** ([`Layout::upper_bound`]). A subtree whose proven upper bound cannot beat the
//!    best score found so far is skipped; its value is stored as an upper bound, never as exact.
//! 3. **Lone moves after the last deal.** With the stock empty, moving a lone card from one
//!    pile to another empty pile gives the same position with two piles swapped; with no deal to
//!    come, piles are interchangeable, so the value is the same and the move is not searched.
//! 4. **Win cut-off.** 48 is the highest score there is: the search stops at the first win.
//!
//! `reference.rs` holds the same question answered with none of these shortcuts, and the tests
//! compare the two.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

use super::state::{Act, Layout, NONE, Pos, at};
use crate::rules::PILE_COUNT;

/// The score of a won game.
pub const WIN: u8 = 48;

/// A fast hasher for keys that are already well mixed position words.
#[derive(Default, Clone, Copy)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u128(&mut self, value: u128) {
        let lo = value as u64;
        let hi = (value >> 64) as u64;
        let mut h = lo.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ hi.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        h ^= h >> 29;
        h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^= h >> 32;
        self.0 = h;
    }
    fn write_u64(&mut self, value: u64) {
        self.write_u128(u128::from(value));
    }
}

/// Hash maps keyed by position keys.
pub(crate) type KeyMap<V> = HashMap<u128, V, BuildHasherDefault<KeyHasher>>;

impl Layout {
    /// A discard of the top of `place` that is proven safe (shortcut 1 in the module docs).
    #[inline]
    pub fn safe_discard(&self, pos: &Pos, tops: &[u8; 5], discardable: u8) -> Option<u8> {
        if discardable == 0 {
            return None;
        }
        if self.stock_empty(pos) {
            return Some(discardable.trailing_zeros() as u8);
        }
        let alive = self.alive(pos);
        for (i, &t) in tops.iter().enumerate() {
            if discardable & (1 << i) != 0 && at(&self.lower, usize::from(t)) & alive == 0 {
                return Some(i as u8);
            }
        }
        None
    }

    /// An upper bound on the best final score from `pos` (shortcut 2).
    ///
    /// Counts as lost for good every card that can never be discarded:
    /// - in the aces-only variant a non-ace never moves, so a non-ace whose every higher card of
    ///   its suit still in play lies *below* it in its own pile can never be discarded (those
    ///   cards can only show after it leaves, and it can only leave by a discard), and neither
    ///   can any card below it in that pile.
    pub fn upper_bound(&self, pos: &Pos) -> u8 {
        let mut lost = 0u32;
        if self.variant == crate::rules::Variant::AcesOnly {
            let alive = self.alive(pos);
            for p in 0..PILE_COUNT {
                let pile = self.pile_mask.get(p).copied().unwrap_or(0);
                let home = pos.home & pile;
                let mut rest = home & !self.ace_mask;
                // Highest dead card in the pile: everything from it down is dead.
                let mut dead_from: Option<u8> = None;
                while rest != 0 {
                    let slot = 63 - rest.leading_zeros() as u8;
                    rest &= !(1u64 << slot);
                    let s = usize::from(at(&self.suit, usize::from(slot)));
                    let higher = self.suit_mask.get(s).copied().unwrap_or(0)
                        & alive
                        & !at(&self.lower, usize::from(slot))
                        & !(1u64 << slot);
                    let below = home & ((1u64 << slot) - 1);
                    if higher & !below == 0 {
                        dead_from = Some(slot);
                        break;
                    }
                }
                if let Some(slot) = dead_from {
                    let f = pos.foreign.get(p).copied().unwrap_or(NONE);
                    let dead_home = home & ((2u64 << slot) - 1) & !self.ace_mask;
                    lost += dead_home.count_ones();
                    if f != NONE && self.ace_mask & (1u64 << (f & 63)) == 0 {
                        lost += 1;
                    }
                }
            }
        }
        if self.jokers_on && pos.jokers > 0 {
            // A joker can remove any card: the simple bound would need care; keep it trivial.
            lost = 0;
        }
        WIN.saturating_sub(lost as u8)
    }
}

/// One position of a closure, with how it was reached.
#[derive(Clone, Copy, Debug)]
struct Node {
    pos: Pos,
    parent: u32,
    act: Act,
}

/// Buffers for one phase, reused across the search at the same depth.
#[derive(Default)]
struct Closure {
    nodes: Vec<Node>,
    seen: KeyMap<()>,
    candidates: Vec<(u32, u32)>,
    stack: Vec<u32>,
}

#[derive(Clone, Copy)]
struct Entry {
    value: u8,
    exact: bool,
}

/// The search state of one solve.
pub(crate) struct Search<'a> {
    lay: &'a Layout,
    tt: KeyMap<Entry>,
    /// Nodes expanded (closure positions generated).
    pub nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    /// Whether the budget ran out.
    pub aborted: bool,
    /// The best final score found so far (a proven lower bound).
    pub best: u8,
    /// A line that reaches `best`.
    pub best_line: Vec<Act>,
    path: Vec<Act>,
    pools: Vec<Closure>,
    found: bool,
}

impl<'a> Search<'a> {
    /// A search over `lay` with a node limit and an optional deadline.
    pub fn new(lay: &'a Layout, node_limit: u64, deadline: Option<Instant>) -> Search<'a> {
        Search {
            lay,
            tt: KeyMap::default(),
            nodes: 0,
            node_limit,
            deadline,
            aborted: false,
            best: 0,
            best_line: Vec::new(),
            path: Vec::new(),
            pools: Vec::new(),
            found: false,
        }
    }

    /// Solves from `root`. Returns whether the answer is exact (else the budget ran out).
    pub fn run(&mut self, root: Pos) -> bool {
        self.best = self.lay.score(&root);
        self.best_line.clear();
        self.found = false;
        self.search(root, 0);
        !self.aborted
    }

    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes > self.node_limit {
            self.aborted = true;
        }
        if self.nodes & 1023 == 0
            && let Some(deadline) = self.deadline
            && Instant::now() >= deadline
        {
            self.aborted = true;
        }
    }

    /// Builds the closure of `start` into `pools[depth]`; returns nothing, fills candidates.
    fn build_closure(&mut self, start: Pos, depth: usize) {
        while self.pools.len() <= depth {
            self.pools.push(Closure::default());
        }
        let mut pool = self
            .pools
            .get_mut(depth)
            .map(std::mem::take)
            .unwrap_or_default();
        pool.nodes.clear();
        pool.seen.clear();
        pool.candidates.clear();
        pool.stack.clear();
        let lay = self.lay;
        pool.nodes.push(Node {
            pos: start,
            parent: u32::MAX,
            act: Act::Deal,
        });
        pool.seen.insert(lay.key(&start), ());
        pool.stack.push(0);
        let stock_empty = lay.stock_empty(&start);
        let places = if lay.variant.has_cell() { 5 } else { 4 };
        let aces_only = lay.variant == crate::rules::Variant::AcesOnly;
        while let Some(index) = pool.stack.pop() {
            self.tick();
            if self.aborted {
                break;
            }
            let Some(node) = pool.nodes.get(index as usize).copied() else {
                continue;
            };
            let pos = node.pos;
            let tops = lay.tops(&pos);
            let disc = lay.discardable(&tops);
            let push = |pool: &mut Closure, act: Act| {
                let next = lay.apply(&pos, act);
                let key = lay.key(&next);
                if pool.seen.insert(key, ()).is_none() {
                    let id = pool.nodes.len() as u32;
                    pool.nodes.push(Node {
                        pos: next,
                        parent: index,
                        act,
                    });
                    pool.stack.push(id);
                }
            };
            if let Some(place) = lay.safe_discard(&pos, &tops, disc) {
                push(&mut pool, Act::Discard(place));
                continue;
            }
            pool.candidates.push((index, order_key(lay, &pos)));
            for from in 0..places {
                if disc & (1 << from) != 0 {
                    push(&mut pool, Act::Discard(from as u8));
                }
            }
            for from in 0..places {
                let card = tops.get(from).copied().unwrap_or(NONE);
                if card == NONE {
                    continue;
                }
                if aces_only && lay.ace_mask & (1u64 << (card & 63)) == 0 {
                    continue;
                }
                let lone = from < PILE_COUNT && lay.pile_len(&pos, from) == 1;
                for to in 0..places {
                    if to == from || tops.get(to).copied().unwrap_or(0) != NONE {
                        continue;
                    }
                    if stock_empty && lone && to < PILE_COUNT {
                        continue; // shortcut 3
                    }
                    push(&mut pool, Act::Move(from as u8, to as u8));
                }
            }
            for p in 0..PILE_COUNT {
                if lay.joker_legal(&pos, p) {
                    push(&mut pool, Act::Joker(p as u8));
                }
            }
        }
        if let Some(slot) = self.pools.get_mut(depth) {
            *slot = pool;
        }
    }

    fn path_to(&self, depth: usize, index: u32, out: &mut Vec<Act>) {
        let start = out.len();
        let Some(pool) = self.pools.get(depth) else {
            return;
        };
        let mut i = index;
        while let Some(node) = pool.nodes.get(i as usize) {
            if node.parent == u32::MAX {
                break;
            }
            out.push(node.act);
            i = node.parent;
        }
        if let Some(tail) = out.get_mut(start..) {
            tail.reverse();
        }
    }

    /// Returns (value, exact): the best final score from `pos` if `exact`, else an upper bound
    /// no higher than the best score already found.
    fn search(&mut self, pos: Pos, depth: usize) -> (u8, bool) {
        let lay = self.lay;
        let key = lay.key(&pos);
        let alpha = self.best;
        if let Some(e) = self.tt.get(&key)
            && (e.exact || e.value <= alpha)
        {
            return (e.value, e.exact);
        }
        let ub = lay.upper_bound(&pos);
        if ub <= alpha {
            self.tt.insert(
                key,
                Entry {
                    value: ub,
                    exact: false,
                },
            );
            return (ub, false);
        }
        self.build_closure(pos, depth);
        if self.aborted {
            return (WIN, false);
        }
        let Some(pool) = self.pools.get_mut(depth) else {
            return (WIN, false);
        };
        let mut candidates = std::mem::take(&mut pool.candidates);
        if std::env::var_os("ACESUP_STATS").is_some() {
            STATS.with(|st| {
                let mut st = st.borrow_mut();
                let d = depth.min(15);
                st[d][0] += 1;
                st[d][1] += pool.nodes.len() as u64;
                st[d][2] += candidates.len() as u64;
            });
        }
        if lay.stock_empty(&pos) {
            let mut best: Option<(u8, u32)> = None;
            for &(index, _) in &candidates {
                if let Some(node) = pool.nodes.get(index as usize) {
                    let s = lay.score(&node.pos);
                    if best.is_none_or(|(b, _)| s > b) {
                        best = Some((s, index));
                    }
                }
            }
            let value = best.map_or(lay.score(&pos), |(s, _)| s);
            if let Some((s, index)) = best
                && (s > self.best || !self.found)
            {
                self.record(depth, index, s);
            }
            if let Some(pool) = self.pools.get_mut(depth) {
                pool.candidates = candidates;
            }
            self.tt.insert(key, Entry { value, exact: true });
            return (value, true);
        }
        candidates.sort_unstable_by_key(|&(_, order)| std::cmp::Reverse(order));
        let mut hi = 0u8;
        let mut lo = 0u8;
        let mut any_exact = false;
        let mut steps = Vec::new();
        for &(index, _) in &candidates {
            let Some(node) = self
                .pools
                .get(depth)
                .and_then(|p| p.nodes.get(index as usize))
            else {
                continue;
            };
            let next = lay.apply(&node.pos, Act::Deal);
            steps.clear();
            self.path_to(depth, index, &mut steps);
            let mark = self.path.len();
            self.path.extend_from_slice(&steps);
            self.path.push(Act::Deal);
            let (value, exact) = self.search(next, depth + 1);
            self.path.truncate(mark);
            if self.aborted {
                if let Some(pool) = self.pools.get_mut(depth) {
                    pool.candidates = candidates;
                }
                return (WIN, false);
            }
            hi = hi.max(value);
            if exact {
                lo = lo.max(value);
                any_exact = true;
            }
            if lo >= WIN {
                break;
            }
        }
        if let Some(pool) = self.pools.get_mut(depth) {
            pool.candidates = candidates;
        }
        let exact = any_exact && lo >= hi;
        self.tt.insert(key, Entry { value: hi, exact });
        (hi, exact)
    }

    fn record(&mut self, depth: usize, index: u32, score: u8) {
        let mut line = self.path.clone();
        self.path_to(depth, index, &mut line);
        self.best = score;
        self.best_line = line;
        self.found = true;
    }
}

/// Move ordering: try first the positions that look best (more removed, more empty piles).
fn order_key(lay: &Layout, pos: &Pos) -> u32 {
    let score = u32::from(lay.score(pos));
    let mut empty = 0u32;
    let mut ace_bottoms = 0u32;
    for p in 0..PILE_COUNT {
        let len = lay.pile_len(pos, p);
        if len == 0 {
            empty += 1;
        } else {
            // An ace at the bottom of a pile is where it must end.
            let home = pos.home & lay.pile_mask.get(p).copied().unwrap_or(0);
            let f = pos.foreign.get(p).copied().unwrap_or(NONE);
            let bottom = if f != NONE {
                f
            } else {
                home.trailing_zeros() as u8
            };
            if lay.ace_mask & (1u64 << (bottom & 63)) != 0 {
                ace_bottoms += 1;
            }
        }
    }
    score * 64 + empty * 8 + ace_bottoms
}

thread_local! {
    /// Per depth: expansions, closure nodes, candidates (debug statistics).
    pub static STATS: std::cell::RefCell<[[u64; 3]; 16]> = const { std::cell::RefCell::new([[0; 3]; 16]) };
}
