//! The strong fair hint: expectation over the next deal, search over the moves before it.
//!
//! The hint only ever sees a [`PlayerView`]: the table, and the *set* of unseen cards.
//!
//! 1. **Search before the deal.** Inside a phase (between two deals) no card is revealed, so the
//!    order of actions does not matter, only where they lead. The hint lists every position
//!    reachable before the next deal (breadth first, so the path to any of them is shortest).
//!    Piles are interchangeable for a player who cannot see the stock (every unseen order is
//!    equally likely), so positions equal up to the order of the piles count once.
//!    A discard is played at once when no lower card of its suit is left anywhere (table or
//!    stock): that is safe for every stock order (see the solver's proof), so for the player too.
//! 2. **Expectation over the next deal.** Each candidate is valued by sampling the next row
//!    from the unseen cards (the same samples for every candidate, exactly all orders when four
//!    cards are left), and taking, for each sample, the best position reachable after that deal
//!    by the evaluation below. A candidate's value is the mean.
//! 3. **Evaluation.** A weighted sum of features of a position (cards still on the table, empty
//!    piles, aces at the bottom of a pile, buried aces, jokers kept, an empty free cell), with a
//!    large bonus for a won game. The weights were tuned by self-play (`acesup autoplay`).
//! 4. **Rollouts** (module `rollout`). The one-deal value is short-sighted, but good enough to
//!    pick the few candidates worth a closer look: the best [`HintConfig::rollout_top`]
//!    distinct ones are re-valued by playing a few deals further on sampled full orders of the
//!    unseen cards (the same orders for each), with a cheap policy (the best static value
//!    after each deal), and the best mean wins. In self-play on 20,000 standard deals this
//!    raised the win rate from 3.0% to 3.6% (average score 37.5 to 37.9). Not used in the
//!    free-cell variant, which the one-deal value already wins.
//!
//! The best candidate is the target: if it is the position now, the hint is *deal* (or, with
//! the stock empty, *no useful move*); otherwise it is the first action of the shortest path to
//! it. The samples and the rollout orders depend only on the set of unseen cards, which does not
//! change inside a phase, and equal positions get equal values, so a hint never depends on the
//! stock order, and following the hints heads for the same target. (A step towards it may cut
//! off some of the re-valued candidates and let another one into the few, so with rollouts the
//! target may change inside a phase; but every such step removes a card or fills an empty pile,
//! so the hints cannot go round in circles. The free-cell variant, where a card may go back and
//! forth through the cell, does not use rollouts.)

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use super::{Hint, PlayerView};
use crate::cards::Card;
use crate::rules::{Action, PILE_COUNT, PileIndex, Place, Variant};

/// Cards a pile may hold in the hint's compact form (a real game never exceeds 17).
const CAP: usize = 24;
/// No card.
const NO: u8 = 255;
/// Candidates valued per hint at most (the nearest ones, breadth first).
const MAX_CANDIDATES: usize = 160;
/// The cell's place index.
const CELL: u8 = 4;

/// Tunable parts of the policy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HintConfig {
    /// Next-row samples per candidate (fewer when the stock is small).
    pub samples: usize,
    /// Value of one non-ace card on the table (negative: cards left are bad).
    pub card: f32,
    /// Value of an empty pile.
    pub empty: f32,
    /// Value of an ace at the bottom of a pile.
    pub ace_bottom: f32,
    /// Value of an ace that is not at the bottom of its pile.
    pub ace_buried: f32,
    /// Value of a joker still in hand.
    pub joker: f32,
    /// Value of an empty free cell.
    pub cell_empty: f32,
    /// Value of a card lying on a higher card of its own suit (it covers its own beater).
    pub self_block: f32,
    /// Value of a high card (queen, king) lying under other cards.
    pub high_buried: f32,
    /// Value per squared pile height (tall piles bury cards).
    pub height2: f32,
    /// Next-but-one rows sampled to value each position after the next deal (0: none, use
    /// the static evaluation directly).
    pub lookahead: usize,
    /// Risk appetite: samples are averaged as `exp(risk × value)` (0: plain mean). Winning
    /// needs every card, so a policy that aims at wins rather than at a high mean score should
    /// prefer lines that sometimes go very well.
    pub risk: f32,
    /// Bonus for a won game.
    pub win: f32,
    /// Candidates (the best by the one-deal value) re-valued by a two-deal expectimax: for
    /// each sampled next row, the best of the few most promising positions after it, each
    /// valued by the mean over sampled rows after that (0: off). Not used in the free-cell
    /// variant.
    pub deep: usize,
    /// Orders of the unseen cards on which the best candidates are played on (module
    /// `rollout`; 0: off). The same orders serve every candidate.
    pub rollouts: usize,
    /// Distinct candidates (the best by the one-deal or two-deal value) re-valued by
    /// rollouts; the rest are out of the running.
    pub rollout_top: usize,
    /// Bonus for a won game in a rollout that reaches the end of the stock (its base is the
    /// cards removed).
    pub rollout_win: f32,
    /// Deals a rollout plays before it stops and takes the static value (0: to the end).
    pub rollout_depth: usize,
}

impl Default for HintConfig {
    fn default() -> HintConfig {
        HintConfig {
            samples: 12,
            card: -1.0,
            empty: 2.0,
            ace_bottom: 1.5,
            ace_buried: -1.0,
            joker: 4.0,
            cell_empty: 1.0,
            self_block: -0.5,
            high_buried: -0.3,
            height2: 0.0,
            lookahead: 0,
            risk: 0.0,
            win: 30.0,
            deep: 0,
            rollouts: 192,
            rollout_top: 3,
            rollout_win: 30.0,
            rollout_depth: 3,
        }
    }
}

#[derive(Default, Clone, Copy)]
struct FxHasher(u64);

impl Hasher for FxHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0.rotate_left(5) ^ value).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type Seen = HashSet<u64, BuildHasherDefault<FxHasher>>;

#[inline(always)]
fn suit(card: u8) -> u8 {
    card / 13
}
#[inline(always)]
fn rank(card: u8) -> u8 {
    card % 13
}
#[inline(always)]
fn is_ace(card: u8) -> bool {
    card % 13 == 12
}

/// One position in compact form.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct S {
    piles: [[u8; CAP]; PILE_COUNT],
    lens: [u8; PILE_COUNT],
    cell: u8,
    jokers: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Act {
    Discard(u8),
    Move(u8, u8),
    Joker(u8),
}

impl Act {
    pub(super) fn action(self) -> Action {
        let place = |i: u8| match PileIndex::new(usize::from(i)) {
            Ok(pile) if i < CELL => Place::Pile(pile),
            _ => Place::Cell,
        };
        match self {
            Act::Discard(from) => Action::Discard { from: place(from) },
            Act::Move(from, to) => Action::Move {
                from: place(from),
                to: place(to),
            },
            Act::Joker(p) => Action::Joker {
                pile: PileIndex::new(usize::from(p)).unwrap_or(PileIndex::ALL[0]),
            },
        }
    }
}

impl S {
    pub(super) fn from_view(view: &PlayerView) -> Option<S> {
        let mut s = S {
            piles: [[NO; CAP]; PILE_COUNT],
            lens: [0; PILE_COUNT],
            cell: view.cell.map_or(NO, |c| c.index() as u8),
            jokers: view.jokers_left,
        };
        for (p, pile) in view.piles.iter().enumerate() {
            if pile.len() > CAP {
                return None;
            }
            let dst = s.piles.get_mut(p)?;
            for (slot, card) in dst.iter_mut().zip(pile) {
                *slot = card.index() as u8;
            }
            *s.lens.get_mut(p)? = pile.len() as u8;
        }
        Some(s)
    }

    #[inline(always)]
    fn len(&self, p: usize) -> usize {
        usize::from(self.lens.get(p).copied().unwrap_or(0))
    }

    #[inline(always)]
    fn top(&self, p: usize) -> u8 {
        if p >= PILE_COUNT {
            return self.cell;
        }
        let len = self.len(p);
        if len == 0 {
            return NO;
        }
        self.piles
            .get(p)
            .and_then(|pile| pile.get(len - 1))
            .copied()
            .unwrap_or(NO)
    }

    #[inline(always)]
    fn tops(&self) -> [u8; 5] {
        [
            self.top(0),
            self.top(1),
            self.top(2),
            self.top(3),
            self.cell,
        ]
    }

    pub(super) fn table_mask(&self) -> u64 {
        let mut mask = 0u64;
        for p in 0..PILE_COUNT {
            for &c in self
                .piles
                .get(p)
                .map_or(&[][..], |pile| pile.get(..self.len(p)).unwrap_or(&[]))
            {
                mask |= 1u64 << (c & 63);
            }
        }
        if self.cell != NO {
            mask |= 1u64 << (self.cell & 63);
        }
        mask
    }

    fn take(&mut self, place: u8) -> u8 {
        if place >= CELL {
            return std::mem::replace(&mut self.cell, NO);
        }
        let p = usize::from(place);
        let len = self.len(p);
        if len == 0 {
            return NO;
        }
        let card = self.top(p);
        if let Some(l) = self.lens.get_mut(p) {
            *l = (len - 1) as u8;
        }
        card
    }

    fn put(&mut self, place: u8, card: u8) {
        if place >= CELL {
            self.cell = card;
            return;
        }
        let p = usize::from(place);
        let len = self.len(p);
        if let Some(slot) = self.piles.get_mut(p).and_then(|pile| pile.get_mut(len)) {
            *slot = card;
            if let Some(l) = self.lens.get_mut(p) {
                *l = (len + 1) as u8;
            }
        }
    }

    fn apply(&self, act: Act) -> S {
        let mut next = *self;
        match act {
            Act::Discard(from) => {
                next.take(from);
            }
            Act::Move(from, to) => {
                let card = next.take(from);
                next.put(to, card);
            }
            Act::Joker(p) => {
                let pu = usize::from(p);
                let len = next.len(pu);
                if let Some(pile) = next.piles.get_mut(pu) {
                    let mut kept = 0;
                    for i in 0..len {
                        let c = pile.get(i).copied().unwrap_or(NO);
                        if is_ace(c)
                            && let Some(slot) = pile.get_mut(kept)
                        {
                            *slot = c;
                            kept += 1;
                        }
                    }
                    if let Some(l) = next.lens.get_mut(pu) {
                        *l = kept as u8;
                    }
                }
                next.jokers = next.jokers.saturating_sub(1);
            }
        }
        next
    }

    pub(super) fn deal(&self, row: &[u8; 4]) -> S {
        let mut next = *self;
        for (p, &card) in row.iter().enumerate() {
            next.put(p as u8, card);
        }
        next
    }

    /// Discardable places as a mask (bit 4 is the cell).
    fn discardable(&self) -> u8 {
        let tops = self.tops();
        let mut best = [0u8; 4];
        let mut has = [false; 4];
        for &t in &tops {
            if t != NO {
                let s = usize::from(suit(t) & 3);
                if let (Some(b), Some(h)) = (best.get_mut(s), has.get_mut(s)) {
                    *b = (*b).max(rank(t));
                    *h = true;
                }
            }
        }
        let mut out = 0u8;
        for (i, &t) in tops.iter().enumerate() {
            if t != NO
                && !is_ace(t)
                && rank(t) < best.get(usize::from(suit(t) & 3)).copied().unwrap_or(0)
            {
                out |= 1 << i;
            }
        }
        out
    }

    /// The piles as cards, bottom to top, and the cell's card.
    pub(super) fn cards(&self) -> ([Vec<Card>; PILE_COUNT], Option<Card>) {
        let piles = std::array::from_fn(|p| {
            self.piles
                .get(p)
                .and_then(|pile| pile.get(..self.len(p)))
                .unwrap_or(&[])
                .iter()
                .filter_map(|&c| Card::from_index(usize::from(c)))
                .collect()
        });
        let cell = (self.cell != NO)
            .then(|| Card::from_index(usize::from(self.cell)))
            .flatten();
        (piles, cell)
    }

    /// Jokers left.
    pub(super) fn jokers(&self) -> u8 {
        self.jokers
    }

    /// A key equal for positions that differ only in the order of the piles.
    pub(super) fn canonical_key(&self) -> u64 {
        let mut hashes = [0u64; PILE_COUNT];
        for (p, h) in hashes.iter_mut().enumerate() {
            let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
            for &c in self
                .piles
                .get(p)
                .and_then(|pile| pile.get(..self.len(p)))
                .unwrap_or(&[])
            {
                x = (x ^ u64::from(c))
                    .wrapping_mul(0x100_0000_01b3)
                    .rotate_left(23);
            }
            *h = x ^ (self.len(p) as u64);
        }
        hashes.sort_unstable();
        let mut key = u64::from(self.cell) | (u64::from(self.jokers) << 8);
        for h in hashes {
            key = (key.rotate_left(17) ^ h).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        key
    }

    /// The same position with the piles in a canonical order (for values that must not depend
    /// on which pile is which).
    pub(super) fn canonical(&self) -> S {
        let mut order = [0usize, 1, 2, 3];
        order.sort_by(|&a, &b| {
            let pa = self
                .piles
                .get(a)
                .and_then(|p| p.get(..self.len(a)))
                .unwrap_or(&[]);
            let pb = self
                .piles
                .get(b)
                .and_then(|p| p.get(..self.len(b)))
                .unwrap_or(&[]);
            pa.cmp(pb)
        });
        let mut out = *self;
        for (dst, &src) in order.iter().enumerate() {
            if let (Some(pile), Some(len)) = (self.piles.get(src), self.lens.get(src)) {
                if let Some(d) = out.piles.get_mut(dst) {
                    *d = *pile;
                }
                if let Some(l) = out.lens.get_mut(dst) {
                    *l = *len;
                }
            }
        }
        out
    }
}

/// A phase's positions with how each was reached (breadth first).
pub(super) struct Closure {
    pub(super) nodes: Vec<(S, u32, Option<Act>)>,
    pub(super) candidates: Vec<u32>,
    seen: Seen,
}

impl Closure {
    pub(super) fn new() -> Closure {
        Closure {
            nodes: Vec::new(),
            candidates: Vec::new(),
            seen: Seen::default(),
        }
    }

    /// Lists the positions reachable from `start` without dealing. `alive` is every card still
    /// in play (table and unseen); `stock_empty` says whether the stock is empty.
    pub(super) fn build(&mut self, start: S, variant: Variant, unseen: u64, limit: usize) {
        self.nodes.clear();
        self.candidates.clear();
        self.seen.clear();
        self.nodes.push((start, u32::MAX, None));
        self.seen.insert(start.canonical_key());
        let stock_empty = unseen == 0;
        let places: u8 = if variant.has_cell() { 5 } else { 4 };
        let mut head = 0usize;
        while let Some(&(s, _, _)) = self.nodes.get(head) {
            let index = head as u32;
            head += 1;
            let disc = s.discardable();
            let push = |this: &mut Closure, act: Act| {
                let next = s.apply(act);
                if this.nodes.len() < limit && this.seen.insert(next.canonical_key()) {
                    this.nodes.push((next, index, Some(act)));
                }
            };
            // A safe discard is played at once (it is never worse, whatever the stock).
            if disc != 0 {
                let alive = s.table_mask() | unseen;
                let tops = s.tops();
                let safe = (0..places).find(|&i| {
                    disc & (1 << i) != 0 && {
                        let t = tops.get(usize::from(i)).copied().unwrap_or(NO);
                        let lower = ((1u64 << rank(t)) - 1) << (13 * u64::from(suit(t)));
                        stock_empty || alive & lower == 0
                    }
                });
                if let Some(i) = safe {
                    push(self, Act::Discard(i));
                    continue;
                }
            }
            self.candidates.push(index);
            for i in 0..places {
                if disc & (1 << i) != 0 {
                    push(self, Act::Discard(i));
                }
            }
            let tops = s.tops();
            for from in 0..places {
                let card = tops.get(usize::from(from)).copied().unwrap_or(NO);
                if card == NO || (variant == Variant::AcesOnly && !is_ace(card)) {
                    continue;
                }
                let lone = from < CELL && s.len(usize::from(from)) == 1;
                for to in 0..places {
                    if to == from || tops.get(usize::from(to)).copied().unwrap_or(0) != NO {
                        continue;
                    }
                    // Piles are interchangeable to the player: a lone card moved to another
                    // empty pile gives the same position up to pile order.
                    if lone && to < CELL {
                        continue;
                    }
                    push(self, Act::Move(from, to));
                }
            }
            if s.jokers > 0 {
                for p in 0..PILE_COUNT {
                    let len = s.len(p);
                    let has_non_ace = s
                        .piles
                        .get(p)
                        .and_then(|pile| pile.get(..len))
                        .is_some_and(|cards| cards.iter().any(|&c| !is_ace(c)));
                    if has_non_ace {
                        push(self, Act::Joker(p as u8));
                    }
                }
            }
        }
    }

    pub(super) fn path(&self, index: u32) -> Vec<Act> {
        let mut path = Vec::new();
        let mut i = index;
        while let Some(&(_, parent, act)) = self.nodes.get(i as usize) {
            match act {
                Some(act) => path.push(act),
                None => break,
            }
            i = parent;
        }
        path.reverse();
        path
    }
}

/// The static evaluation of a position (higher is better).
pub(super) fn evaluate(s: &S, variant: Variant, cfg: &HintConfig, unseen: u64) -> f32 {
    let unseen_non_aces = non_aces(unseen);
    let mut on_table = 0u32;
    let mut empty = 0u32;
    let mut ace_bottom = 0u32;
    let mut ace_buried = 0u32;
    let mut self_block = 0u32;
    let mut high_buried = 0u32;
    let mut height2 = 0u32;
    for p in 0..PILE_COUNT {
        let len = s.len(p);
        height2 += (len * len) as u32;
        let cards = s
            .piles
            .get(p)
            .and_then(|pile| pile.get(..len))
            .unwrap_or(&[]);
        if len == 0 {
            empty += 1;
            continue;
        }
        for (i, &c) in cards.iter().enumerate() {
            if is_ace(c) {
                if i == 0 {
                    ace_bottom += 1;
                } else {
                    ace_buried += 1;
                }
            } else {
                on_table += 1;
                if i + 1 < len && rank(c) >= 10 {
                    high_buried += 1;
                }
                if i > 0
                    && cards.get(..i).is_some_and(|below| {
                        below
                            .iter()
                            .any(|&b| suit(b) == suit(c) && rank(b) > rank(c))
                    })
                {
                    self_block += 1;
                }
            }
        }
    }
    if s.cell != NO && !is_ace(s.cell) {
        on_table += 1;
    }
    if on_table + unseen_non_aces == 0 {
        return cfg.win + f32::from(s.jokers) * cfg.joker;
    }
    let mut value = cfg.card * on_table as f32
        + cfg.empty * empty as f32
        + cfg.ace_bottom * ace_bottom as f32
        + cfg.ace_buried * ace_buried as f32
        + cfg.self_block * self_block as f32
        + cfg.high_buried * high_buried as f32
        + cfg.height2 * height2 as f32
        + cfg.joker * f32::from(s.jokers);
    if variant.has_cell() && s.cell == NO {
        value += cfg.cell_empty;
    }
    value
}

/// A small deterministic generator.
pub(super) struct Rng(pub(super) u64);

impl Rng {
    pub(super) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// The next rows to average over: all orders of the last four cards, or samples.
fn sample_rows(unseen: u64, samples: usize, variant: Variant) -> Vec<[u8; 4]> {
    let cards: Vec<u8> = (0..52u8).filter(|&c| unseen & (1u64 << c) != 0).collect();
    let mut rows = Vec::new();
    if cards.len() < 4 {
        return rows;
    }
    if cards.len() == 4 {
        let perms: [[usize; 4]; 24] = [
            [0, 1, 2, 3],
            [0, 1, 3, 2],
            [0, 2, 1, 3],
            [0, 2, 3, 1],
            [0, 3, 1, 2],
            [0, 3, 2, 1],
            [1, 0, 2, 3],
            [1, 0, 3, 2],
            [1, 2, 0, 3],
            [1, 2, 3, 0],
            [1, 3, 0, 2],
            [1, 3, 2, 0],
            [2, 0, 1, 3],
            [2, 0, 3, 1],
            [2, 1, 0, 3],
            [2, 1, 3, 0],
            [2, 3, 0, 1],
            [2, 3, 1, 0],
            [3, 0, 1, 2],
            [3, 0, 2, 1],
            [3, 1, 0, 2],
            [3, 1, 2, 0],
            [3, 2, 0, 1],
            [3, 2, 1, 0],
        ];
        for perm in perms {
            rows.push(perm.map(|i| cards.get(i).copied().unwrap_or(NO)));
        }
        return rows;
    }
    // Seeded by the unseen set only: it does not change inside a phase.
    let mut rng = Rng(unseen ^ ((variant as u64) << 60) ^ 0xA5A5_5A5A_1234_5678);
    for _ in 0..samples {
        let mut pool = cards.clone();
        let mut row = [NO; 4];
        for slot in &mut row {
            let i = (rng.next() % pool.len() as u64) as usize;
            *slot = pool.swap_remove(i.min(pool.len().saturating_sub(1)));
        }
        rows.push(row);
    }
    rows
}

/// The mean static value after one more sampled deal and the discards it allows at once.
fn lookahead(s: &S, variant: Variant, cfg: &HintConfig, unseen: u64) -> f32 {
    let cards: Vec<u8> = (0..52u8).filter(|&c| unseen & (1u64 << c) != 0).collect();
    if cards.len() < 4 {
        return evaluate(s, variant, cfg, unseen);
    }
    let mut rng = Rng(unseen ^ s.canonical_key());
    let mut total = 0.0;
    for _ in 0..cfg.lookahead {
        let mut pool = cards.clone();
        let mut row = [NO; 4];
        let mut mask = 0u64;
        for slot in &mut row {
            let i = (rng.next() % pool.len() as u64) as usize;
            *slot = pool.swap_remove(i.min(pool.len().saturating_sub(1)));
            mask |= 1u64 << (*slot & 63);
        }
        let mut t = s.deal(&row);
        loop {
            let disc = t.discardable();
            if disc == 0 {
                break;
            }
            t = t.apply(Act::Discard(disc.trailing_zeros() as u8));
        }
        total += evaluate(&t, variant, cfg, unseen & !mask);
    }
    total / cfg.lookahead as f32
}

/// Positions after a sampled deal that the two-deal value looks beyond.
const DEEP_INNER: usize = 4;
/// Rows sampled for the second deal of the two-deal value.
const DEEP_ROWS: usize = 6;

/// The two-deal value of the pre-deal position `c`: the mean over `rows` (the next row) of the
/// best, over the [`DEEP_INNER`] most promising positions reachable after that deal, of the
/// mean over sampled following rows of the best static value reachable after them. Uses only
/// the unseen set, like everything in the hint.
fn two_deal(
    c: &S,
    variant: Variant,
    cfg: &HintConfig,
    unseen: u64,
    rows: &[[u8; 4]],
    inner: &mut Closure,
    inner2: &mut Closure,
) -> f32 {
    let mut total = 0.0f32;
    for row in rows {
        let mut dealt_mask = 0u64;
        for &card in row {
            dealt_mask |= 1u64 << (card & 63);
        }
        let after = unseen & !dealt_mask;
        inner.build(c.deal(row), variant, after, 128);
        let mut firsts: Vec<(f32, S)> = inner
            .candidates
            .iter()
            .filter_map(|&j| inner.nodes.get(j as usize).map(|&(t, _, _)| t))
            .map(|t| (evaluate(&t, variant, cfg, after), t))
            .collect();
        firsts.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal));
        firsts.truncate(DEEP_INNER);
        let mut best = f32::MIN;
        if after.count_ones() < 4 {
            best = firsts.first().map_or(best, |f| f.0);
        } else {
            let rows2 = sample_rows(after, DEEP_ROWS, variant);
            for (_, t) in &firsts {
                let mut sum = 0.0f32;
                for r2 in &rows2 {
                    let mut m2 = 0u64;
                    for &card in r2 {
                        m2 |= 1u64 << (card & 63);
                    }
                    let after2 = after & !m2;
                    inner2.build(t.deal(r2), variant, after2, 128);
                    let mut b2 = f32::MIN;
                    for &k in &inner2.candidates {
                        if let Some(&(u, _, _)) = inner2.nodes.get(k as usize) {
                            b2 = b2.max(evaluate(&u, variant, cfg, after2));
                        }
                    }
                    sum += b2;
                }
                best = best.max(sum / rows2.len().max(1) as f32);
            }
        }
        total += best;
    }
    total / rows.len().max(1) as f32
}

/// The best of the few most promising candidates by their rollout value (module `rollout`),
/// or `None` when fewer than two distinct positions are left to compare.
fn rollout_best(
    root: &Closure,
    scored: &mut [(f32, u32)],
    variant: Variant,
    cfg: &HintConfig,
    unseen: u64,
) -> Option<(f32, u32)> {
    // Stable sort: among equal values the nearer candidate stays first.
    scored.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal));
    let mut picked: Vec<(u64, u32, S)> = Vec::new();
    for &(_, i) in scored.iter() {
        let Some(&(s, _, _)) = root.nodes.get(i as usize) else {
            continue;
        };
        let key = s.canonical_key();
        if picked.iter().all(|(k, _, _)| *k != key) {
            picked.push((key, i, s));
            if picked.len() >= cfg.rollout_top {
                break;
            }
        }
    }
    if picked.len() < 2 {
        return None;
    }
    let mut orders = None;
    let mut closure = Closure::new();
    let mut best: Option<(f32, u32)> = None;
    for (key, i, s) in &picked {
        let v = super::rollout::value(
            &s.canonical(),
            *key,
            variant,
            cfg,
            unseen,
            &mut orders,
            &mut closure,
        );
        if best.is_none_or(|(bv, _)| v > bv) {
            best = Some((v, *i));
        }
    }
    best
}

pub(super) fn non_aces(mask: u64) -> u32 {
    let aces = (1u64 << 12) | (1u64 << 25) | (1u64 << 38) | (1u64 << 51);
    (mask & !aces).count_ones()
}

/// The strong hint with the default configuration.
pub fn suggest(view: &PlayerView) -> Hint {
    suggest_with(view, &HintConfig::default())
}

/// The strong hint with a given configuration (for tuning by self-play).
pub fn suggest_with(view: &PlayerView, cfg: &HintConfig) -> Hint {
    let Some(start) = S::from_view(view) else {
        return super::greedy(view);
    };
    let variant = view.variant;
    let unseen = view.unseen.bits() & ((1u64 << 52) - 1);
    let mut root = Closure::new();
    root.build(start, variant, unseen, 1024);
    if unseen == 0 {
        // Stock empty: the best score reachable; nothing better than now means no useful move.
        let score = |s: &S| {
            let left = non_aces(s.table_mask());
            (u32::MAX - left, s.jokers)
        };
        let start_score = score(&start);
        let mut best: Option<(u32, (u32, u8))> = None;
        for &i in &root.candidates {
            if let Some(&(s, _, _)) = root.nodes.get(i as usize) {
                let sc = score(&s);
                if best.is_none_or(|(_, b)| sc.0 > b.0) {
                    best = Some((i, sc));
                }
            }
        }
        return match best {
            Some((i, sc)) if sc.0 > start_score.0 => match root.path(i).first() {
                Some(act) => Hint::Play(act.action()),
                None => Hint::NoUsefulMove,
            },
            _ => {
                // Nothing can raise the score. A productive move (a card from a pile of two or
                // more onto an empty pile) is still a legal step of the game, which is not over
                // while one exists: suggest it; only then is there no useful move.
                match view.productive_moves().first() {
                    Some(&action) => Hint::Play(action),
                    None => Hint::NoUsefulMove,
                }
            }
        };
    }
    // Bound the work so a hint stays fast on a phone: fewer samples when there are many
    // candidates (the samples still depend only on the unseen set and the candidate count).
    root.candidates.truncate(MAX_CANDIDATES);
    let samples = (3000 / root.candidates.len().max(1)).clamp(2, cfg.samples.max(2));
    let rows = sample_rows(unseen, samples, variant);
    // Candidate values, computed on the canonical form so equal positions get equal values.
    let mut inner = Closure::new();
    let mut best: Option<(f32, u32)> = None;
    let mut values: Vec<(u64, f32)> = Vec::new();
    let mut scored: Vec<(f32, u32)> = Vec::new();
    for &i in &root.candidates {
        let Some(&(s, _, _)) = root.nodes.get(i as usize) else {
            continue;
        };
        let key = s.canonical_key();
        let value = if let Some(&(_, v)) = values.iter().find(|(k, _)| *k == key) {
            v
        } else {
            let c = s.canonical();
            let mut total = 0.0f32;
            for row in &rows {
                let mut dealt_mask = 0u64;
                for &card in row {
                    dealt_mask |= 1u64 << (card & 63);
                }
                let after = unseen & !dealt_mask;
                let next = c.deal(row);
                inner.build(next, variant, after, 128);
                let mut best_inner = f32::MIN;
                for &j in &inner.candidates {
                    if let Some(&(t, _, _)) = inner.nodes.get(j as usize) {
                        let v = if cfg.lookahead > 0 && after != 0 {
                            lookahead(&t, variant, cfg, after)
                        } else {
                            evaluate(&t, variant, cfg, after)
                        };
                        best_inner = best_inner.max(v);
                    }
                }
                total += if cfg.risk > 0.0 {
                    (cfg.risk * (best_inner - 20.0).min(40.0)).exp()
                } else {
                    best_inner
                };
            }
            let v = total / rows.len().max(1) as f32;
            values.push((key, v));
            v
        };
        // Strictly better only: ties keep the earlier (nearer) candidate, the position now first.
        if best.is_none_or(|(bv, _)| value > bv) {
            best = Some((value, i));
        }
        scored.push((value, i));
    }
    // Not in the free-cell variant: it wins every deal without it, and its closures are large.
    if cfg.deep > 0 && !variant.has_cell() && scored.len() > 1 && unseen.count_ones() >= 8 {
        // Two-deal expectimax on the most promising candidates (stable: ties keep the nearer).
        scored.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal));
        scored.truncate(cfg.deep);
        let mut deep_best: Option<(f32, u32)> = None;
        let mut inner2 = Closure::new();
        for &(_, i) in &scored {
            let Some(&(s, _, _)) = root.nodes.get(i as usize) else {
                continue;
            };
            let v = two_deal(
                &s.canonical(),
                variant,
                cfg,
                unseen,
                &rows,
                &mut inner,
                &mut inner2,
            );
            if deep_best.is_none_or(|(bv, _)| v > bv) {
                deep_best = Some((v, i));
            }
        }
        if deep_best.is_some() {
            best = deep_best;
        }
    }
    // Not in the free-cell variant either: it wins every deal without them, and its closures
    // would take a rollout over the latency budget.
    if cfg.rollouts > 0 && cfg.rollout_top > 1 && !variant.has_cell() && scored.len() > 1 {
        best = rollout_best(&root, &mut scored, variant, cfg, unseen).or(best);
    }
    match best {
        Some((_, i)) => match root.path(i).first() {
            Some(act) => Hint::Play(act.action()),
            None => Hint::Play(Action::Deal),
        },
        None => Hint::Play(Action::Deal),
    }
}
