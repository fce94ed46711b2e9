//! The upper bound of shortcut 2 in `search.rs`: cards that can never be discarded.
//!
//! A position's best final score is at most 48 minus the non-aces proven *dead*. The proof
//! works in the world where no card moves, and holds for every line once no pile can become
//! empty again; [`Layout::dead_cards`] tells both parts.

use super::search::WIN;
use super::state::{Layout, NONE, Pos, at};
use crate::rules::PILE_COUNT;

/// The cards lying on a pile that is not their home: moved there while it was empty.
pub(super) fn foreign_cards(pos: &Pos) -> u64 {
    pos.foreign
        .iter()
        .filter(|&&f| f != NONE)
        .fold(0, |mask, &f| mask | 1u64 << (f & 63))
}

/// Card evaluations of the worklist analyses (the no-move ones) that cost as much as one
/// position of the search. Fitted on the time of 30 hard deals: a position, with its closure
/// and table work, takes about 0.13 µs; a card evaluation about 0.011 µs; a round of the
/// analyses of `bound_moves` about 0.37 µs ([`NODES_PER_ROUND`]).
pub(super) const EVALUATIONS_PER_NODE: u64 = 12;

/// Positions of the search that one round of an analysis of `bound_moves` costs as much as.
pub(super) const NODES_PER_ROUND: u64 = 3;

/// The work of `evaluations` card evaluations, in positions (rounded to the nearest).
pub(super) fn nodes_for_evaluations(evaluations: u64) -> u64 {
    (evaluations + EVALUATIONS_PER_NODE / 2) / EVALUATIONS_PER_NODE
}

impl Layout {
    /// An upper bound on the best final score from `pos` (shortcut 2): 48 minus the non-aces
    /// proven *dead* (never discardable). See [`Layout::dead_cards`].
    #[cfg(test)]
    pub fn upper_bound(&self, pos: &Pos) -> u8 {
        self.upper_bound_against(pos, 0)
    }

    /// An upper bound on the best final score from `pos` for a caller that only asks whether
    /// it is at most `target`: once that is proven, the work stops (the bound returned is then
    /// at most `target`, but may be above the full bound).
    #[cfg(test)]
    pub fn upper_bound_against(&self, pos: &Pos, target: u8) -> u8 {
        self.upper_bound_counting(pos, target, 0, &mut 0)
    }

    /// [`Layout::upper_bound_against`] with the no-move proof alone: cheaper, for the beam
    /// probes, which look for a good line fast and can do without the move-aware analysis
    /// (with it, win proofs took longer: p99 88 ms against 34 ms on deals 1-1,000).
    pub fn upper_bound_if_nothing_moves(&self, pos: &Pos, target: u8) -> u8 {
        if self.claims_nothing(pos) {
            return WIN;
        }
        let enough = u32::from(WIN.saturating_sub(target));
        self.bound_from(
            self.dead_cards_if_nothing_moves(pos, enough, &mut 0)
                .unwrap_or(0),
        )
    }

    /// [`Layout::upper_bound_against`], adding to `work` what its analyses took, in positions
    /// of the search that take as long ([`EVALUATIONS_PER_NODE`], [`NODES_PER_ROUND`]): a
    /// search counts it into its budget. `known_dead` are cards already proven dead in every
    /// line through `pos` (see [`Layout::dead_cards_from_the_start`]).
    pub fn upper_bound_counting(
        &self,
        pos: &Pos,
        target: u8,
        known_dead: u64,
        work: &mut u64,
    ) -> u8 {
        let enough = u32::from(WIN.saturating_sub(target));
        self.bound_from(self.dead_cards(pos, enough, work) | known_dead)
    }

    /// Cards (slots) never discarded from `pos`, nor from any position reached from it, by the
    /// analysis in which any card may move (module `bound_moves`, "Any card may move").
    ///
    /// Deep in a search it almost never proves anything: with two piles without an ace, one
    /// can nearly always be emptied and any card moved there (measured on deals 1-200: no dead
    /// card in 2.0 million calls below the first position). From the first deal, though, it
    /// often proves that some cards come too late to ever be discarded, and those cards stay
    /// dead in every position the game goes through. So a search runs it once, where it
    /// starts, and adds its cards to every bound ([`Layout::upper_bound_counting`]).
    pub fn dead_cards_from_the_start(&self, pos: &Pos, work: &mut u64) -> u64 {
        if self.claims_nothing(pos) {
            return 0;
        }
        self.dead_cards_moving_freely(pos, work)
    }

    /// The best score possible with the non-aces of `dead` left on the table.
    pub(super) fn bound_from(&self, dead: u64) -> u8 {
        WIN.saturating_sub((dead & !self.ace_mask).count_ones() as u8)
    }

    /// Each pile's *sequence*: the card moved onto it while it was empty (if any), then its
    /// home cards, on the table and still in the stock.
    pub(super) fn sequences(&self, pos: &Pos) -> [u64; PILE_COUNT] {
        let stock = self.stock_mask(pos);
        std::array::from_fn(|p| {
            let homes = (pos.home | stock) & self.pile_mask.get(p).copied().unwrap_or(0);
            match pos.foreign.get(p).copied().unwrap_or(NONE) {
                NONE => homes,
                f => homes | 1u64 << (f & 63),
            }
        })
    }

    /// Whether no dead card can be claimed at all: in the free-cell variant, or with jokers
    /// left (they remove any card).
    fn claims_nothing(&self, pos: &Pos) -> bool {
        self.variant == crate::rules::Variant::FreeCell || (self.jokers_on && pos.jokers > 0)
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
    /// Windows start as the phases from the card's deal on, cut only by aces (standard); then a
    /// worklist computes earliest phases and cuts windows until nothing changes. Every step
    /// keeps each window a superset of the phases in which the card can really be a top card,
    /// and each earliest phase at most the real one (by induction on the steps, and on time
    /// within a line), so no `D` card is ever discarded *as long as no card moves*.
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
    /// be emptied before that deal ([`Layout::no_pile_empties_this_phase`]).
    ///
    /// Before the last deal, in the aces-only variant, module `bound_moves` adds the analysis
    /// in which any ace may move (non-aces never do there), which holds for every line.
    ///
    /// Before the last deal, in the standard variant, module `bound_moves` serves instead, with
    /// two proofs. Its analysis with moves left out starts from nothing rather than from every
    /// window, so it finds every `D` card and also cards that wait for each other inside one
    /// phase; the test above is applied to its dead cards (the same argument holds for them).
    /// Otherwise a pile may become empty and cards may move: the move-aware proof takes over.
    /// In the free-cell variant, or with jokers left (they remove any card), nothing is
    /// claimed.
    ///
    /// The analyses' work, in positions of the search, is added to `work`.
    pub fn dead_cards(&self, pos: &Pos, enough: u32, work: &mut u64) -> u64 {
        if self.claims_nothing(pos) {
            return 0;
        }
        // The analyses of module `bound_moves` serve the standard and aces-only variants, and
        // not after the last deal: there the closure cost less than an analysis (measured on
        // deals 1-1,000 at the default budget: 630 decided without the move-aware one there,
        // 627 with), and the search now values those positions exactly (its shortcut 6).
        if self.stock_empty(pos) {
            return self
                .dead_cards_if_nothing_moves(pos, enough, work)
                .unwrap_or(0);
        }
        // Asked for every dead card (`enough` of 48), an analysis of `bound_moves` gives up
        // only when it can prove none.
        let need = |found: u64| {
            if enough >= u32::from(WIN) {
                1
            } else {
                enough.saturating_sub((found & !self.ace_mask).count_ones())
            }
        };
        if self.variant == crate::rules::Variant::AcesOnly {
            // Only aces move there, so the analysis in which any card may move (here: any
            // ace) is sharp enough to run everywhere.
            let dead = self
                .dead_cards_if_nothing_moves(pos, enough, work)
                .unwrap_or(0);
            if need(dead) == 0 {
                return dead;
            }
            return dead | self.dead_cards_moving_freely(pos, work);
        }
        // The analysis with moves left out finds every card the no-move proof above finds
        // (the least fixpoint of rules that the no-move proof's fixpoint satisfies too; the
        // bounds stress test checks it on every position it samples), so in the standard
        // variant it runs alone. (Running the cheaper proof first, for the cases where it is
        // enough, cost 2-10% more instructions on four hard deals.) If its dead cards prove
        // that no pile is ever empty again, nothing ever moves and they all hold.
        let frozen = self.dead_cards_frozen(pos, work);
        if self.never_empties(pos, frozen.dead) {
            return frozen.dead;
        }
        self.dead_cards_with_moves_after(&frozen, pos, need(0), work)
    }

    /// Whether no pile can ever become empty from `pos` (standard variant), given cards
    /// `dead` that are never discarded while nothing moves: every pile holds an ace or a
    /// `dead` card (neither leaves while nothing moves, so no pile empties and nothing ever
    /// moves), or gets one from the next deal while no pile can be emptied before it.
    pub(super) fn never_empties(&self, pos: &Pos, dead: u64) -> bool {
        let table = pos.home | foreign_cards(pos);
        let stock = self.stock_mask(pos);
        let cover = self.ace_mask | dead;
        let mut settle = false;
        for s in &self.sequences(pos) {
            let held = s & table;
            if held == 0 {
                return false;
            }
            if held & cover != 0 {
                continue;
            }
            let next = (s & stock).trailing_zeros();
            if next < 64 && cover & (1u64 << next) == 0 {
                return false;
            }
            settle = true;
        }
        !settle || self.no_pile_empties_this_phase(pos)
    }

    /// The no-move proof of [`Layout::dead_cards`]: `None` when it does not hold (in the
    /// standard variant, when a pile may become empty). Its work, in positions of the search,
    /// is added to `work`.
    pub(super) fn dead_cards_if_nothing_moves(
        &self,
        pos: &Pos,
        enough: u32,
        work: &mut u64,
    ) -> Option<u64> {
        let mut evaluations = 0;
        let dead = self.no_move_worklist(pos, enough, &mut evaluations);
        *work += nodes_for_evaluations(evaluations);
        dead
    }

    /// [`Layout::dead_cards_if_nothing_moves`], counting the cards it looks at.
    fn no_move_worklist(&self, pos: &Pos, enough: u32, evaluations: &mut u64) -> Option<u64> {
        use crate::rules::Variant;
        let aces_only = self.variant == Variant::AcesOnly;
        let stock = self.stock_mask(pos);
        let foreign_mask = foreign_cards(pos);
        let table = pos.home | foreign_mask;
        let alive = table | stock;
        let now = pos.dealt;
        // Each pile's sequence, and its home cards (table and stock, bottom first in slot order).
        let seq = self.sequences(pos);
        let homes = seq.map(|s| s & !foreign_mask);
        // In standard a claim needs every pile to hold a card now: an empty pile lets cards
        // move (see the check at the end), so there is nothing to compute.
        if !aces_only && seq.iter().any(|s| s & table == 0) {
            return None;
        }
        let pile_of = |x: u8| -> usize {
            if foreign_mask & (1u64 << (x & 63)) != 0 {
                pos.foreign.iter().position(|&f| f == x).unwrap_or(0)
            } else {
                usize::from(at(&self.home, usize::from(x)))
            }
        };
        // The cards of pile p below `x`, on the table and still to come: its home cards of
        // lower slots and the moved-in card, which lies below them all (and has none below).
        let below = |p: usize, x: u8| -> u64 {
            let xb = 1u64 << (x & 63);
            if foreign_mask & xb != 0 {
                return 0;
            }
            let f = pos.foreign.get(p).copied().unwrap_or(NONE);
            let moved_in = if f == NONE { 0 } else { 1u64 << (f & 63) };
            homes.get(p).copied().unwrap_or(0) & (xb - 1) | moved_in
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
        let holds = |dead: u64| aces_only || dead == 0 || self.never_empties(pos, dead);
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
            *evaluations += 1;
            let x_window = at(&window, usize::from(x));
            let p = pile_of(x);
            let mut meets = 0u32;
            if x_window != 0 {
                let own = seq.get(p).copied().unwrap_or(0);
                let higher = alive & at(&self.higher, usize::from(x));
                let blocked = if aces_only {
                    // An ace below a card still to be dealt may move away first.
                    let stuck_aces = if table & xb != 0 {
                        below(p, x) & table & self.ace_mask
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
                    return Some(dead);
                }
            }
            // `x` lies on the cards below it in its pile from its deal until it can leave.
            let lands = shows(x);
            let cut = from_on(lands) & before(first);
            if cut == 0 {
                continue;
            }
            let mut under = below(p, x);
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
        holds(dead).then_some(dead)
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
