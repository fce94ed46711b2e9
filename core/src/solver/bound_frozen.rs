//! The analysis of module `bound_moves` with no card moving ("No card moves" there), computed
//! by a worklist instead of in rounds.
//!
//! With no pile ever empty, nothing moves, so the analysis keeps two facts per card: `top(x)`,
//! the phases in which `x` can be the top card of its pile (from its deal on, except while a
//! card above it cannot have been discarded yet), and `discard(x)`, the first phase in which it
//! can be discarded (a phase of `top(x)` in which a higher card of its suit, in play, can be the
//! top card of another pile). A card under an ace is never on top (the ace never leaves), so
//! the other facts of `bound_moves` change nothing here.
//!
//! The rounds of `bound_moves` recompute every card each time. Here a card is looked at again
//! only when one of its inputs changed: when `discard(x)` gets earlier, the cards below `x` in
//! its pile can show earlier, and those whose `top` grew are checked again, with the lower
//! cards of their suit in other piles (they may now be justified by them). Every update only
//! makes a discard earlier and never past what the rules derive, so this reaches the same
//! least fixpoint as the rounds (chaotic iteration of a monotone operator), in a fraction of
//! the work: on the search's calls of four hard deals, 30-44% of the card evaluations.

use super::bound::nodes_for_evaluations;
use super::bound_moves::{Fixpoint, NEVER, first, from_on, pile_of_slots, span, top_down};
use super::state::{Layout, NONE, Pos, at};
use crate::rules::{PILE_COUNT, Variant};

impl Layout {
    /// The cards (slots) never discarded from `pos` in a line where nothing moves, 0 when none
    /// is proven, and each card's first discard phase (see the module docs and "No card moves"
    /// in module `bound_moves`). Its work, in positions of the search, is added to `work`.
    pub(super) fn dead_cards_frozen(&self, pos: &Pos, work: &mut u64) -> Fixpoint {
        if self.variant != Variant::Standard || (self.jokers_on && pos.jokers > 0) {
            return Fixpoint::NOTHING;
        }
        let table = pos.home | super::bound::foreign_cards(pos);
        let alive = table | self.stock_mask(pos);
        let non_aces = alive & !self.ace_mask;
        let seq = self.sequences(pos);
        let now = pos.dealt;
        let real = span(now, self.row_count.saturating_add(1));
        let pile_of = pile_of_slots(&seq);
        let mut discard = [NEVER; 64];
        let mut top = [0u32; 64];
        // Each pile's tops, top down; returns the cards whose top phases changed.
        let walk = |p: usize, discard: &[u8; 64], top: &mut [u32; 64]| -> u64 {
            let s = seq.get(p).copied().unwrap_or(0);
            let mut cover = 0u32;
            let mut changed = 0u64;
            for x in top_down(s, pos.foreign.get(p).copied().unwrap_or(NONE)) {
                let from = at(&self.shows_after, x).max(now);
                let phases = from_on(from) & real & !cover;
                if let Some(slot) = top.get_mut(x)
                    && *slot != phases
                {
                    *slot = phases;
                    changed |= 1u64 << x;
                }
                cover |= span(from, at(discard, x)) & real;
            }
            changed
        };
        for p in 0..PILE_COUNT {
            walk(p, &discard, &mut top);
        }
        let mut undecided = non_aces.count_ones();
        if undecided == 0 {
            // Nothing left to prove dead.
            return Fixpoint::NOTHING;
        }
        let mut pending = non_aces;
        let mut evaluations = 0u64;
        while pending != 0 {
            let x = pending.trailing_zeros() as usize;
            pending &= pending - 1;
            evaluations += 1;
            let own = at(&top, x);
            if own == 0 {
                continue;
            }
            let p = usize::from(at(&pile_of, x));
            // Stop once the first phase `x` shows is met: nothing earlier can be.
            let first_possible = own & own.wrapping_neg();
            let mut justifiers = alive & at(&self.higher, x) & !seq.get(p).copied().unwrap_or(0);
            let mut meets = 0u32;
            while justifiers != 0 && meets & first_possible == 0 {
                let z = justifiers.trailing_zeros() as usize;
                justifiers &= justifiers - 1;
                meets |= at(&top, z) & own;
            }
            let t = first(meets);
            if t >= at(&discard, x) {
                continue;
            }
            if at(&discard, x) == NEVER {
                undecided -= 1;
                if undecided == 0 {
                    *work += nodes_for_evaluations(evaluations);
                    return Fixpoint::NOTHING;
                }
            }
            if let Some(slot) = discard.get_mut(x) {
                *slot = t;
            }
            // `x` can leave earlier: the cards below it may show earlier.
            let mut grew = walk(p, &discard, &mut top);
            let own_pile = seq.get(p).copied().unwrap_or(0);
            while grew != 0 {
                let y = grew.trailing_zeros() as usize;
                grew &= grew - 1;
                pending |= (1u64 << y | (at(&self.lower, y) & !own_pile)) & non_aces;
            }
        }
        *work += nodes_for_evaluations(evaluations);
        Fixpoint::reached(non_aces, discard)
    }
}
