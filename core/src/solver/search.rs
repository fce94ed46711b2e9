//! The exact search with its proven shortcuts.
//!
//! # Shape
//! The game splits into *phases*: the positions between two deals. Inside a phase no card is
//! revealed, so only the *set* of positions reachable before the next deal matters, not the
//! order in which the player gets there. The search therefore works on post-deal positions:
//! for one, it lists every position reachable without dealing (its *closure*, with a visited set
//! that also absorbs the cycles that lone-card moves create), and its value is the best value of
//! "deal from there" over the closure; after the last deal the value is the best score in the
//! closure. Post-deal positions (after the last deal too) go into a transposition table keyed
//! by the exact position. Before the exact search, beam probes (`beam.rs`) look for a good line,
//! so that the bounds prune from the start and most wins are found at once.
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

/// Widths of the beam probes run before the exact search. Measured on 300 standard deals at
/// the default budget: with these widths the probes prove 147 wins (win proofs median 0.2 ms,
/// p99 48 ms), against 137 with narrow depth-first probes.
const BEAM_WIDTHS: [usize; 4] = [8, 64, 512, 2048];

/// Entries the transposition table holds at most: just under 7/8 of 2^20, so the hash map
/// stays at 2^20 buckets (about 34 MB), enough for the default budget.
const TABLE_ENTRIES: usize = 900_000;

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

    /// An upper bound on the best final score from `pos` (shortcut 2): 48 minus the non-aces
    /// proven *dead* (never discardable). See [`Layout::dead_cards`].
    pub fn upper_bound(&self, pos: &Pos) -> u8 {
        self.upper_bound_against(pos, 0)
    }

    /// An upper bound on the best final score from `pos` for a caller that only asks whether
    /// it is at most `target`: once that is proven, the work stops (the bound returned is then
    /// at most `target`, but may be above the full bound).
    pub fn upper_bound_against(&self, pos: &Pos, target: u8) -> u8 {
        let enough = u32::from(WIN.saturating_sub(target));
        let dead = self.dead_cards(pos, enough);
        WIN.saturating_sub((dead & !self.ace_mask).count_ones() as u8)
    }

    /// Cards (slots) that can never be discarded from `pos`, or 0 when nothing is proven. The
    /// work stops once `enough` are found (every card returned is still dead).
    ///
    /// *The no-move world.* Call a pile's *sequence* the cards it holds now (a moved-in card at
    /// the bottom, then its home cards) followed by the stock cards that will be dealt onto it.
    /// While no card moves, cards leave a pile only by discard, so a card is a top card only
    /// after the deal that brings it (now, for a table card), and only in phases by which every
    /// card dealt onto it has been discarded. Call that set of phases the card's *window*; two
    /// cards of one sequence are never both top cards.
    ///
    /// A card's *earliest phase* is the first phase in which it could be discarded: the first
    /// phase its window shares with the window of a card of its suit that is higher, still in
    /// play and outside its sequence. A card whose window shares none is *dead* (`D`), and it
    /// never leaves; aces never leave either (in the standard variant). So a card `Y` dealt
    /// onto `X` in phase `s` takes the phases from `s` to `Y`'s earliest phase out of `X`'s
    /// window, and all phases from `s` on when `Y` is dead or an ace.
    ///
    /// Windows start as the phases from the card's deal on, cut only by aces; then a worklist
    /// computes earliest phases and cuts windows until nothing changes. Every step keeps each
    /// window a superset of the phases in which the card can really be a top card, and each
    /// earliest phase at most the real one (by induction on the steps, and on time within a
    /// line), so no `D` card is ever discarded *as long as no card moves*.
    ///
    /// *When nothing can move.* In the aces-only variant non-aces never move, so only non-aces
    /// cut windows; an ace may move away before a card is dealt onto it, so only a card already
    /// on the table above it cuts an ace's window; and an ace can justify a discard unless it
    /// lies below `X` (both on the table) in `X`'s pile. The rule is applied with only those
    /// aces excluded, so `D` holds for every line.
    ///
    /// In the standard variant a move needs an empty pile. If no pile is empty now and every
    /// pile holds an ace or a `D` card (neither can ever leave while nothing moves), no pile can
    /// ever become empty, so nothing ever moves and `D` holds for every line. A pile without
    /// one is also fine when the next deal brings it one (or no deal is left) and no pile can
    /// be emptied before that deal ([`Layout::no_pile_empties_this_phase`]). Otherwise (and in
    /// the free-cell variant, or with jokers left, which remove any card) nothing is claimed.
    pub fn dead_cards(&self, pos: &Pos, enough: u32) -> u64 {
        use crate::rules::Variant;
        if self.variant == Variant::FreeCell || (self.jokers_on && pos.jokers > 0) {
            return 0;
        }
        let aces_only = self.variant == Variant::AcesOnly;
        let stock = self.stock_mask(pos);
        let mut table = pos.home;
        let mut foreign_mask = 0u64;
        for &f in &pos.foreign {
            if f != NONE {
                foreign_mask |= 1u64 << (f & 63);
            }
        }
        table |= foreign_mask;
        let alive = table | stock;
        let now = pos.dealt;
        // Each pile's home cards (table and stock, bottom first in slot order) and sequence.
        let mut homes = [0u64; PILE_COUNT];
        let mut seq = [0u64; PILE_COUNT];
        for p in 0..PILE_COUNT {
            let h = (pos.home | stock) & self.pile_mask.get(p).copied().unwrap_or(0);
            let f = pos.foreign.get(p).copied().unwrap_or(NONE);
            if let (Some(hp), Some(sp)) = (homes.get_mut(p), seq.get_mut(p)) {
                *hp = h;
                *sp = if f == NONE { h } else { h | 1u64 << (f & 63) };
            }
        }
        // In standard a claim needs every pile to hold a card now: an empty pile lets cards
        // move (see the check at the end), so there is nothing to compute.
        if !aces_only && seq.iter().any(|s| s & table == 0) {
            return 0;
        }
        let pile_of = |x: u8| -> usize {
            if foreign_mask & (1u64 << (x & 63)) != 0 {
                pos.foreign.iter().position(|&f| f == x).unwrap_or(0)
            } else {
                usize::from(at(&self.home, usize::from(x)))
            }
        };
        // Table cards of pile p strictly below `x` (the moved-in card is the lowest).
        let below = |p: usize, x: u8| -> u64 {
            let f = pos.foreign.get(p).copied().unwrap_or(NONE);
            if f == x {
                return 0;
            }
            let under = homes.get(p).copied().unwrap_or(0) & table & ((1u64 << (x & 63)) - 1);
            if f == NONE {
                under
            } else {
                under | 1u64 << (f & 63)
            }
        };
        let covers_always = if aces_only { 0 } else { self.ace_mask };
        // A window as a set of phases: bit `k` is set when the card is a top card (if nothing
        // moves) after `k` deals. Phases run from 0 to 13, so 32 bits hold them all.
        let from_on = |from: u8| u32::MAX.checked_shl(u32::from(from)).unwrap_or(0);
        let before = |until: u8| !from_on(until);
        let shows = |x: u8| at(&self.shows_after, usize::from(x)).max(now);
        // An ace in aces-only keeps its window until a cover shows up that is on the table.
        let shortens = |y: u8, cover_shows: u8| {
            !(aces_only && self.ace_mask & (1u64 << (y & 63)) != 0 && cover_shows != now)
        };
        // The window of `x` when the nearest cover above it shows after `cover_at` deals.
        let window_of = |x: u8, cover_at: u8| {
            let end = if shortens(x, cover_at) {
                before(cover_at)
            } else {
                u32::MAX
            };
            from_on(shows(x)) & end
        };
        // Each card's window, first with the covers there always are.
        let mut window = [0u32; 64];
        for p in 0..PILE_COUNT {
            let mut cover_at = u8::MAX;
            let mut m = homes.get(p).copied().unwrap_or(0);
            while m != 0 {
                let x = 63 - m.leading_zeros() as u8;
                m &= !(1u64 << x);
                if let Some(w) = window.get_mut(usize::from(x)) {
                    *w = window_of(x, cover_at);
                }
                if covers_always & (1u64 << x) != 0 {
                    cover_at = shows(x);
                }
            }
            let f = pos.foreign.get(p).copied().unwrap_or(NONE);
            if let Some(w) = window.get_mut(usize::from(f)).filter(|_| f != NONE) {
                *w = window_of(f, cover_at);
            }
        }
        // Only the phases the game has: a window that extends past the last deal would
        // otherwise meet another one in phases that never come.
        let real = u32::MAX
            .checked_shl(u32::from(self.row_count) + 1)
            .map_or(u32::MAX, |m| !m);
        for w in &mut window {
            *w &= real;
        }
        // Whether a set of dead cards holds for every line: always in aces-only; in standard
        // only if no pile can ever become empty.
        let holds = |dead: u64| {
            if aces_only || dead == 0 {
                return true;
            }
            let cover = self.ace_mask | dead;
            let mut settle = false;
            for s in &seq {
                let held = s & table;
                if held & cover != 0 {
                    continue;
                }
                // A pile with no cover yet (it holds a card: see above): fine if no pile can
                // empty in this phase and the next deal covers it (or none comes).
                let next = (s & stock).trailing_zeros();
                if next < 64 && cover & (1u64 << next) == 0 {
                    return false;
                }
                settle = true;
            }
            !settle || self.no_pile_empties_this_phase(pos)
        };
        // The fixpoint, by a worklist. `earliest[x]` is a lower bound on the phase in which `x`
        // can first be discarded (`NEVER` for a dead card): the first phase its window meets a
        // justifier's. Until then `x` lies on the cards below it, so their windows lose the
        // phases from `x`'s deal to that phase; a dead `x` covers them for good. Windows only
        // shrink and earliest phases only grow, so the worklist ends. When a window shrinks,
        // its card and the lower cards of its suit (which it might justify) are checked again,
        // but only those whose earliest phase was cut away: for the others it still stands.
        const NEVER: u8 = 32;
        let candidates = alive & !self.ace_mask;
        let mut earliest = [0u8; 64];
        // The cards whose earliest phase is each phase: a cut only matters to the cards whose
        // earliest phase it removes from a justifier's window (or from their own).
        let mut by_earliest = [0u64; 33];
        if let Some(m) = by_earliest.first_mut() {
            *m = candidates;
        }
        let mut dead = 0u64;
        let mut pending = candidates;
        while pending != 0 {
            let x = pending.trailing_zeros() as u8;
            let xb = 1u64 << x;
            pending &= !xb;
            let x_window = at(&window, usize::from(x));
            let p = pile_of(x);
            let mut meets = 0u32;
            if x_window != 0 {
                let own = seq.get(p).copied().unwrap_or(0);
                let higher = alive & at(&self.higher, usize::from(x));
                let blocked = if aces_only {
                    // An ace below a card still to be dealt may move away first.
                    let stuck_aces = if table & xb != 0 {
                        below(p, x) & self.ace_mask
                    } else {
                        0
                    };
                    (own & !self.ace_mask) | stuck_aces
                } else {
                    own
                };
                // Stop once the first phase of `x`'s window is met: nothing earlier can be.
                let first_possible = x_window & x_window.wrapping_neg();
                let mut can_justify = higher & !blocked;
                while can_justify != 0 && meets & first_possible == 0 {
                    let y = can_justify.trailing_zeros() as usize;
                    can_justify &= can_justify - 1;
                    meets |= at(&window, y) & x_window;
                }
            }
            let first = if meets == 0 {
                NEVER
            } else {
                meets.trailing_zeros() as u8
            };
            if first <= at(&earliest, usize::from(x)) {
                continue;
            }
            if let Some(e) = earliest.get_mut(usize::from(x)) {
                if let Some(m) = by_earliest.get_mut(usize::from(*e)) {
                    *m &= !xb;
                }
                *e = first;
            }
            if let Some(m) = by_earliest.get_mut(usize::from(first)) {
                *m |= xb;
            }
            if first == NEVER {
                dead |= xb;
                if dead.count_ones() >= enough && holds(dead) {
                    return dead;
                }
            }
            // `x` lies on the cards below it in its pile (the home cards of lower slots and the
            // moved-in card, which lies below them all and covers nothing) from its deal until
            // it can leave.
            let lands = shows(x);
            let cut = from_on(lands) & before(first);
            if cut == 0 || foreign_mask & xb != 0 {
                continue;
            }
            let mut under = homes.get(p).copied().unwrap_or(0) & (xb - 1);
            let f = pos.foreign.get(p).copied().unwrap_or(NONE);
            if f != NONE {
                under |= 1u64 << (f & 63);
            }
            while under != 0 {
                let y = under.trailing_zeros() as u8;
                under &= under - 1;
                if !shortens(y, lands) {
                    continue;
                }
                if let Some(w) = window.get_mut(usize::from(y)) {
                    let mut removed = *w & cut;
                    *w &= !cut;
                    let mut touched = 0u64;
                    while removed != 0 {
                        let phase = removed.trailing_zeros() as usize;
                        removed &= removed - 1;
                        touched |= by_earliest.get(phase).copied().unwrap_or(0);
                    }
                    let yb = 1u64 << y;
                    pending |= (at(&self.lower, usize::from(y)) | yb) & touched & !dead;
                }
            }
        }
        if holds(dead) { dead } else { 0 }
    }

    /// Whether no pile can become empty before the next deal, for a position with no empty
    /// pile. Until a pile is empty nothing can move, so only discards happen; discards never
    /// disable each other (the card that justified a discarded card is beaten by what justified
    /// that discard, and it is still a top card), so every order of discards ends in the same
    /// position, and every discard-only position holds at least its cards. Playing all
    /// discards therefore shows whether any pile can be emptied.
    fn no_pile_empties_this_phase(&self, pos: &Pos) -> bool {
        // A pile emptied on the way stays empty: discards only remove cards.
        let end = self.discard_all(pos);
        self.tops(&end).iter().take(PILE_COUNT).all(|&t| t != NONE)
    }
}

/// The actions searched from `pos` inside a phase (never a deal), into `out`.
///
/// Returns `false` when a proven-safe discard was forced (shortcut 1): `out` then holds that
/// discard alone and `pos` is not a candidate for dealing. Otherwise `out` holds every discard,
/// every move onto an empty place except lone moves after the last deal (shortcut 3), and every
/// joker.
pub(crate) fn phase_actions(lay: &Layout, pos: &Pos, out: &mut Vec<Act>) -> bool {
    let tops = lay.tops(pos);
    if let Some(place) = lay.safe_discard(pos, &tops, lay.discardable(&tops)) {
        out.clear();
        out.push(Act::Discard(place));
        return false;
    }
    lay.legal(pos, out);
    let stock_empty = lay.stock_empty(pos);
    out.retain(|&act| match act {
        Act::Deal => false,
        // Shortcut 3.
        Act::Move(from, to) => {
            let (from, to) = (usize::from(from), usize::from(to));
            !(stock_empty && from < PILE_COUNT && to < PILE_COUNT && lay.pile_len(pos, from) == 1)
        }
        Act::Discard(_) | Act::Joker(_) => true,
    });
    true
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
    ///
    /// First come beam probes ([`super::beam`]) of growing width, each allowed a quarter of
    /// the budget: they find most wins within a few thousand positions, and otherwise give the
    /// exact search a good score to beat (so its bounds prune from the start). Their lines are
    /// real lines, so a win they find is a proven win.
    pub fn run(&mut self, root: Pos) -> bool {
        self.best = self.lay.score(&root);
        self.best_line.clear();
        self.found = false;
        let limit = self.node_limit;
        for width in BEAM_WIDTHS {
            if self.best >= WIN {
                break;
            }
            let cap = self.nodes.saturating_add(limit / 4).min(limit);
            if let Some(found) = super::beam::probe(
                self.lay,
                root,
                width,
                self.best,
                &mut self.nodes,
                cap,
                self.deadline,
            ) && (found.score > self.best || !self.found)
            {
                self.best = found.score;
                self.best_line = found.line;
                self.found = true;
            }
            if self.nodes >= limit {
                break;
            }
        }
        if self.best >= WIN && self.found {
            return true;
        }
        if self.nodes >= limit {
            self.aborted = true;
            return false;
        }
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
        let lay = self.lay;
        pool.nodes.push(Node {
            pos: start,
            parent: u32::MAX,
            act: Act::Deal,
        });
        pool.seen.insert(lay.key(&start), ());
        let stock_empty = lay.stock_empty(&start);
        let mut acts = Vec::new();
        // Breadth first, so that the path to every position is a shortest one.
        let mut next_index = 0u32;
        while let Some(node) = pool.nodes.get(next_index as usize).copied() {
            let index = next_index;
            next_index += 1;
            self.tick();
            if self.aborted {
                break;
            }
            let pos = node.pos;
            let push = |pool: &mut Closure, act: Act| {
                let next = lay.apply(&pos, act);
                let key = lay.key(&next);
                if pool.seen.insert(key, ()).is_none() {
                    pool.nodes.push(Node {
                        pos: next,
                        parent: index,
                        act,
                    });
                }
            };
            if !phase_actions(lay, &pos, &mut acts) {
                if let Some(&act) = acts.first() {
                    push(&mut pool, act);
                }
                continue;
            }
            pool.candidates
                .push((index, order_key(lay, &pos, stock_empty)));
            for &act in &acts {
                push(&mut pool, act);
            }
        }
        if let Some(slot) = self.pools.get_mut(depth) {
            *slot = pool;
        }
    }

    fn path_to(&self, depth: usize, index: u32, out: &mut Vec<Act>) {
        if let Some(pool) = self.pools.get(depth) {
            append_path(out, index, |i| {
                pool.nodes
                    .get(i as usize)
                    .map(|node| (node.parent, node.act))
            });
        }
    }

    /// Returns (value, exact): the best final score from `pos` if `exact`, else an upper bound
    /// no higher than the best score already found.
    fn search(&mut self, pos: Pos, depth: usize) -> (u8, bool) {
        let lay = self.lay;
        let key = lay.key(&pos);
        let alpha = self.best;
        let final_phase = lay.stock_empty(&pos);
        if let Some(e) = self.tt.get(&key)
            && (e.exact || e.value <= alpha)
        {
            return (e.value, e.exact);
        }
        let ub = lay.upper_bound_against(&pos, alpha);
        if ub <= alpha {
            if final_phase {
                return (ub, false);
            }
            self.remember(
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
            self.remember(key, Entry { value, exact: true });
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
        self.remember(key, Entry { value: hi, exact });
        (hi, exact)
    }

    /// Stores a value in the transposition table while it has room: a full table keeps what it
    /// holds (it is only a cache), so memory stays bounded whatever the budget.
    fn remember(&mut self, key: u128, entry: Entry) {
        if self.tt.len() < TABLE_ENTRIES {
            self.tt.insert(key, entry);
        }
    }

    fn record(&mut self, depth: usize, index: u32, score: u8) {
        let mut line = self.path.clone();
        self.path_to(depth, index, &mut line);
        self.best = score;
        self.best_line = line;
        self.found = true;
    }
}

/// Appends the actions from a phase's start to its position `index`, given each position's
/// parent and the action that reached it (the start's parent is `u32::MAX`).
pub(crate) fn append_path(
    out: &mut Vec<Act>,
    index: u32,
    link: impl Fn(u32) -> Option<(u32, Act)>,
) {
    let start = out.len();
    let mut i = index;
    while let Some((parent, act)) = link(i) {
        if parent == u32::MAX {
            break;
        }
        out.push(act);
        i = parent;
    }
    if let Some(tail) = out.get_mut(start..) {
        tail.reverse();
    }
}

/// Move ordering: try first the positions that look best: the score after the next deal and
/// the discards it allows at once, then empty piles, then aces at the bottom of piles.
pub(crate) fn order_key(lay: &Layout, pos: &Pos, stock_empty: bool) -> u32 {
    let ahead = if stock_empty {
        *pos
    } else {
        lay.discard_all(&lay.apply(pos, Act::Deal))
    };
    let score = u32::from(lay.score(&ahead));
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
