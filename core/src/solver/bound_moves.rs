//! The upper bound's second proof: cards that can never be discarded although cards can still
//! move. It serves where the no-move proof of [`Layout::dead_cards`] does not hold because a
//! pile may become empty, in the standard variant with no joker left, when exactly one pile
//! holds no ace on the table. With moves left out, it also sharpens the no-move proof (see
//! "No card moves" below); with none of its facts, it serves where a search starts and in
//! the aces-only variant (see "Any card may move").
//!
//! # Facts of the rules it stands on
//! 1. *A pile that holds an ace is never empty.* An ace is never discarded and leaves a pile
//!    only by a move onto an empty pile, which then holds it. So the number of piles holding
//!    an ace never drops: with three now, at most one pile is without an ace at any time, and
//!    at most one pile is empty at a time.
//! 2. *A card in a pile without an ace leaves only by discard.* A move needs an empty pile, and
//!    while that pile is not empty every other pile holds an ace (fact 1). This covers the
//!    cards of the pile without an ace, the cards below the only ace of a pile (they are top
//!    cards only after that ace moved away), and every card dealt onto a pile while it holds
//!    no ace. Only cards lying above an ace may move: those above an ace of their pile's
//!    sequence, and those dealt onto a pile after an ace could first be moved onto it.
//! 3. *A non-ace moved onto an empty pile never moves again*: its new pile holds no ace
//!    (fact 2). An ace may move on, as a lone card, onto any pile that is empty.
//! 4. *A pile that holds two aces is never empty*: one of them would move out first, onto an
//!    empty pile, and then all four piles hold an ace and nothing can ever move again.
//! 5. *Two cards that lie under an ace of their pile now, in two different piles, are never
//!    top cards at the same time*, so one never justifies the discard of the other. Each can be
//!    on top only after the last ace above it has moved away. Take the earlier of those two
//!    departures. If its pile then holds no ace, it is the only pile without one and it keeps
//!    its card until that card is discarded (fact 2), so no pile is empty until then and the
//!    other departure cannot happen first. If its pile still holds an ace (one below its card,
//!    or its card is an ace), the ace that left lands on the only pile without one, all four
//!    piles hold an ace, and nothing moves again.
//! 6. *In a pile that holds two aces, the cards under its upper ace never move*, the lower ace
//!    included. They are top cards only after the upper ace has moved away, onto the only pile
//!    without an ace (fact 1); its own pile still holds the lower ace, so then all four piles
//!    hold an ace and nothing moves again.
//!
//! # The analysis
//! It computes, per card, what can *possibly* happen, as sets of phases (phase `k`: after `k`
//! deals), starting from "nothing can happen" and adding what the rules allow until nothing
//! changes (a least fixpoint):
//! - `leave(x)`: the first phase in which `x` can leave the pile it is in (or will be dealt
//!   to): the earlier of its first discard and its first move;
//! - `top(x)`: the phases in which `x` can be the top card of that pile: from its deal on,
//!   except while a card above it cannot have left yet;
//! - `empty(p)`: the phases in which pile `p` can be empty: every card dealt to it by then can
//!   have left (never for a pile of two aces, fact 4);
//! - `moved(x)`: the phases in which `x` can be the top card of another pile: moved in phase
//!   `t` (a phase of `top(x)` in which that pile can be empty), then `t` and every later phase
//!   by which all cards dealt onto that pile after `t` can have left; an ace may go on moving;
//! - `x` can first move in the first phase of `top(x)` in which another pile can be empty, if
//!   facts 2 and 6 let it move at all; it can first be discarded in the first phase in which it can
//!   be a top card (`top` or `moved`) while a higher card of its suit can be a top card in
//!   another pile (not counting, for a card under an ace, the higher cards under an ace in
//!   other piles: fact 5).
//!
//! *Why it is sound.* Every event of a real line is derived: by induction over the line's
//! actions, each action's conditions (a card on top, a pile empty, a higher card on top
//! elsewhere) are facts of positions before it, hence derived, and the rules above derive the
//! action's effects. A card for which no discard is ever derived is therefore never discarded
//! in any line: it is *dead*, and the best score is at most 48 minus the dead non-aces.
//! Starting from nothing (rather than from everything and cutting down) matters: it never lets
//! two events justify each other in a circle ("this pile can be empty because that card moved
//! onto the other pile, which can be empty because ...").
//!
//! # No card moves
//! The same analysis serves lines in which no pile is ever empty again, whatever the number
//! of piles holding an ace ([`Layout::dead_cards_frozen`]): every pile's `empty` stays empty,
//! so no move is ever derived. It is sound for such lines by the same induction. It is
//! stronger than the no-move proof of [`Layout::dead_cards`], which starts from every window
//! and cuts: that one keeps a card's window until the phase its cover can first leave, so two
//! cards that each wait, in one phase, for the other's pile to be cleared (5♥ on 8♠ and 3♠ on
//! 9♥, where only 9♥ beats 5♥ and only 8♠ beats 3♠) keep each other alive there. Starting from
//! nothing, neither is ever derived to leave. These dead cards hold in lines where nothing
//! moves; the caller proves that nothing ever moves with the no-move proof's test (every pile
//! holds an ace or a card dead while nothing moves), given these dead cards. As the least
//! fixpoint of rules that the no-move proof's own fixpoint also satisfies, it finds every card
//! that proof finds, so before the last deal of a standard game it replaces it.
//! The bound runs this one as a worklist (module `bound_frozen`), which reaches the same
//! fixpoint with less work; the rounds here are its reference in the tests.
//!
//! # Any card may move
//! With more than one pile without an ace, facts 2-6 do not hold (two piles may take turns
//! being empty). The analysis still runs without them ([`Layout::dead_cards_moving_freely`]):
//! any card on top of its pile may move in a phase in which another pile can be empty, and a
//! moved card may move on like an ace; no card is kept from justifying another. Every rule
//! then only lists what the rules of the game allow, so the induction above holds for every
//! line, with any number of piles holding an ace. It is much weaker than the analysis with
//! the facts, but from the first deal it proves the cards that come too late. A last row of
//! four suits, say: after the last deal no pile is empty and no top card has a higher card of
//! its suit beside it, so none of the four is ever discarded. The search runs it once, on the
//! position it starts from ([`Layout::dead_cards_from_the_start`]).
//!
//! In the aces-only variant only aces move, so the same analysis lets only aces move. There it
//! is sharp everywhere (no non-ace ever leaves a pile but by discard), and the bound runs it
//! wherever the no-move proof falls short ([`Layout::dead_cards`]).
//!
//! # Rounds
//! Each round derives, from the first leave phases so far, every pile's facts and every
//! card's `top`, then the moves and `moved`, then the discards. A round recomputes only what
//! can have changed since the one before, which gives the same values as recomputing all: a
//! pile's facts and its cards' `top` depend only on when its own cards can leave; a card's
//! move facts on its `top`, on the other piles' facts and on when aces can arrive; a card's
//! discard on the `top` and `moved` of the cards of its suit. So the rounds end where full
//! rounds do, after as many rounds, in up to 15% less time in the standard variant and about
//! a fifth less in aces-only; the tests check it on every position the bounds stress test
//! samples.
//!
//! # Starting from the no-move fixpoint
//! Each rule only adds phases as the cards' first discard and move phases get earlier (a
//! card that can leave earlier uncovers the cards below it earlier, and so on), so the rounds
//! apply a monotone operator, and from any start that is not past its least fixpoint they
//! reach that fixpoint. The no-move analysis applies the same rules with fewer events (no
//! pile ever empty, so no move), so its fixpoint is not past the move-aware one: the
//! move-aware analysis of the same position starts from its first discard phases and ends
//! with exactly the dead cards it would find from nothing, in fewer rounds. It cannot find a
//! card the no-move analysis left alive, so when that one found too few, it does not run.

use super::bound::{NODES_PER_ROUND, foreign_cards};
use super::state::{Layout, NONE, Pos, at};
use crate::rules::PILE_COUNT;

/// No card, in the lists by suit.
const NO_SLOT: u8 = u8::MAX;

/// "Never", as a phase: past the last one (phases run from 0 to 13).
pub(super) const NEVER: u8 = 32;

/// Rounds after which the analysis gives up (it then claims nothing, which is always true).
/// A round changes at least one of about a hundred values, each at most 32 times; in the
/// search the fixpoint takes about a dozen rounds on average.
const MAX_ROUNDS: usize = 256;

/// Phases from `from` on.
pub(super) fn from_on(from: u8) -> u32 {
    u32::MAX.checked_shl(u32::from(from)).unwrap_or(0)
}

/// Phases from `from` up to, not including, `until`.
pub(super) fn span(from: u8, until: u8) -> u32 {
    from_on(from) & !from_on(until)
}

/// The first phase of a set, or [`NEVER`].
pub(super) fn first(phases: u32) -> u8 {
    if phases == 0 {
        NEVER
    } else {
        phases.trailing_zeros() as u8
    }
}

/// Writes `array[index]` for a 64-entry table without a panicking index.
fn set<T: Copy>(array: &mut [T; 64], index: usize, value: T) {
    if let Some(slot) = array.get_mut(index & 63) {
        *slot = value;
    }
}

/// The phase sets of one pile for one round.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct PileFacts {
    /// Phases in which the pile can be empty.
    empty: u32,
    /// For each phase `t` in which it can be empty: the phases in which a card moved onto it
    /// in phase `t` can be its top card.
    top_after_move: [u32; 16],
}

impl PileFacts {
    /// The phases in which a card moved onto this pile in one of `when` can be a top card.
    fn reach(&self, when: u32) -> u32 {
        let mut t = when & self.empty;
        let mut reach = 0;
        while t != 0 {
            let phase = t.trailing_zeros() as usize;
            t &= t - 1;
            reach |= self.top_after_move.get(phase).copied().unwrap_or(u32::MAX);
        }
        reach
    }
}

/// Which rules an analysis runs with (see the module docs).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// No pile is ever empty, so no move is derived ("No card moves"). The bound computes
    /// this one by a worklist (module `bound_frozen`); the rounds serve as its reference.
    #[cfg_attr(not(test), allow(dead_code))]
    Frozen,
    /// Exactly one pile holds no ace on the table: facts 1-6 hold.
    OnePileWithoutAce,
    /// Any piles: none of facts 2-6 is used, and any card (in aces-only: any ace) may move,
    /// and move on ("Any card may move").
    Free,
}

/// Where an analysis ended: the cards it proves dead and, when it reached its fixpoint, each
/// card's first discard phase there.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Fixpoint {
    /// Cards (slots) never discarded (0 when none is proven).
    pub dead: u64,
    /// Each card's first discard phase at the fixpoint ([`NEVER`] for a dead card); `None`
    /// when the analysis stopped before it.
    discard: Option<[u8; 64]>,
}

impl Fixpoint {
    /// Nothing proven, nothing to start from.
    pub(super) const NOTHING: Fixpoint = Fixpoint {
        dead: 0,
        discard: None,
    };

    /// The fixpoint reached with each card's first `discard` phase: its dead cards are the
    /// `non_aces` never discarded.
    pub(super) fn reached(non_aces: u64, discard: [u8; 64]) -> Fixpoint {
        let mut dead = 0u64;
        let mut m = non_aces;
        while m != 0 {
            let x = m.trailing_zeros() as usize;
            m &= m - 1;
            if at(&discard, x) == NEVER {
                dead |= 1u64 << x;
            }
        }
        Fixpoint {
            dead,
            discard: Some(discard),
        }
    }
}

/// Each slot's pile, from the piles' sequences ([`Layout::sequences`]).
pub(super) fn pile_of_slots(seq: &[u64; PILE_COUNT]) -> [u8; 64] {
    let mut pile_of = [0u8; 64];
    for (p, &s) in seq.iter().enumerate() {
        let mut m = s;
        while m != 0 {
            let x = m.trailing_zeros() as usize;
            m &= m - 1;
            set(&mut pile_of, x, p as u8);
        }
    }
    pile_of
}

/// The cards of a pile's sequence `seq`, top first: its home cards from the highest slot
/// down, then the moved-in card `foreign` (or [`NONE`]) at the bottom.
pub(super) fn top_down(seq: u64, foreign: u8) -> impl Iterator<Item = usize> {
    let moved_in = if foreign == NONE {
        0
    } else {
        seq & (1u64 << (foreign & 63))
    };
    let mut homes = seq & !moved_in;
    let mut bottom = (moved_in != 0).then_some(usize::from(foreign & 63));
    std::iter::from_fn(move || {
        if homes != 0 {
            let x = 63 - homes.leading_zeros() as usize;
            homes &= !(1u64 << x);
            Some(x)
        } else {
            bottom.take()
        }
    })
}

impl Layout {
    /// Cards (slots) that can never be discarded from `pos` although cards may still move, or
    /// 0 when nothing is proven or fewer than `enough` would be (see the module docs). Only in
    /// the standard variant with no joker left, and only when exactly one pile holds no ace on
    /// the table. (The search starts it from the no-move analysis's fixpoint instead:
    /// [`Layout::dead_cards_with_moves_after`].)
    #[cfg(test)]
    pub(super) fn dead_cards_with_moves(&self, pos: &Pos, enough: u32, work: &mut u64) -> u64 {
        self.least_dead::<false>(pos, enough, work, Mode::OnePileWithoutAce, None)
            .dead
    }

    /// [`Layout::dead_cards_with_moves`], started from where the no-move analysis of the same
    /// position ended ("Starting from the no-move fixpoint" in the module docs): the same
    /// answer in fewer rounds, and no rounds at all when that analysis leaves too few dead
    /// cards.
    pub(super) fn dead_cards_with_moves_after(
        &self,
        frozen: &Fixpoint,
        pos: &Pos,
        enough: u32,
        work: &mut u64,
    ) -> u64 {
        match &frozen.discard {
            Some(discard) if (frozen.dead & !self.ace_mask).count_ones() >= enough.max(1) => {
                self.least_dead::<false>(pos, enough, work, Mode::OnePileWithoutAce, Some(discard))
                    .dead
            }
            _ => 0,
        }
    }

    /// The analysis in rounds with no card moving ("No card moves" in the module docs): the
    /// reference that the worklist the bound uses ([`Layout::dead_cards_frozen`], module
    /// `bound_frozen`) is tested against.
    #[cfg(test)]
    pub(super) fn dead_cards_frozen_in_rounds(&self, pos: &Pos, work: &mut u64) -> Fixpoint {
        self.least_dead::<false>(pos, 1, work, Mode::Frozen, None)
    }

    /// The cards (slots) never discarded from `pos` although any card may move, with any
    /// number of piles holding an ace (see "Any card may move" in the module docs), or 0 when
    /// none is proven. In the standard variant, and in aces-only where only aces move; with no
    /// joker left.
    pub(super) fn dead_cards_moving_freely(&self, pos: &Pos, work: &mut u64) -> u64 {
        self.least_dead::<false>(pos, 1, work, Mode::Free, None)
            .dead
    }

    /// Whether the rounds that recompute only what changed end exactly where full rounds do,
    /// in every mode, from nothing and (with moves) from the no-move fixpoint.
    #[cfg(test)]
    pub(super) fn rounds_agree_with_full_rounds(&self, pos: &Pos) -> bool {
        let frozen = self.dead_cards_frozen(pos, &mut 0);
        let starts = [None, frozen.discard.as_ref()];
        [Mode::Frozen, Mode::OnePileWithoutAce, Mode::Free]
            .into_iter()
            .all(|mode| {
                starts.iter().all(|&start| {
                    let (mut work, mut full_work) = (0, 0);
                    self.least_dead::<false>(pos, 1, &mut work, mode, start)
                        == self.least_dead::<true>(pos, 1, &mut full_work, mode, start)
                        && work == full_work
                })
            })
    }

    /// The analysis of the module docs, with the rules of `mode`. `start` gives each card's
    /// first discard phase to start from (none: "never" for every card); it must not be
    /// earlier than the fixpoint's. With `FULL_ROUNDS` every round recomputes everything (the
    /// tests' reference for the rounds that recompute only what changed).
    fn least_dead<const FULL_ROUNDS: bool>(
        &self,
        pos: &Pos,
        enough: u32,
        work: &mut u64,
        mode: Mode,
        start: Option<&[u8; 64]>,
    ) -> Fixpoint {
        use crate::rules::Variant;
        let aces_only = self.variant == Variant::AcesOnly && mode == Mode::Free;
        if (self.variant != Variant::Standard && !aces_only) || (self.jokers_on && pos.jokers > 0) {
            return Fixpoint::NOTHING;
        }
        let foreign = foreign_cards(pos);
        let table = pos.home | foreign;
        let alive = table | self.stock_mask(pos);
        let now = pos.dealt;
        // Each pile's sequence (a moved-in card at the bottom, then its home cards, table and
        // stock, bottom first in slot order), and the cards above an ace in it.
        let seq = self.sequences(pos);
        let mut above_ace = 0u64;
        let mut two_aces = [false; PILE_COUNT];
        let mut without_ace = 0;
        let pile_of = pile_of_slots(&seq);
        for (p, s) in seq.iter().enumerate() {
            let moved_in = *s & foreign;
            let aces = *s & self.ace_mask;
            let homes = *s & !moved_in;
            if aces & moved_in != 0 {
                // A moved-in ace lies below every home card.
                above_ace |= homes;
            } else if aces != 0 {
                // Above the lowest ace: the home cards of higher slots.
                let lowest = aces & aces.wrapping_neg();
                above_ace |= homes & !(lowest | (lowest - 1));
            }
            match (*s & table & self.ace_mask).count_ones() {
                0 => without_ace += 1,
                1 => {}
                _ => {
                    if let Some(t) = two_aces.get_mut(p) {
                        *t = true;
                    }
                }
            }
        }
        if mode == Mode::OnePileWithoutAce && without_ace != 1 {
            return Fixpoint::NOTHING;
        }
        let (frozen, free) = (mode == Mode::Frozen, mode == Mode::Free);
        if free {
            // Fact 4 needs one pile without an ace.
            two_aces = [false; PILE_COUNT];
        }
        // The table cards lying under an ace of their pile (fact 5), and those of them in a
        // pile holding two aces, which never move (fact 6). Neither fact serves a free
        // analysis.
        let mut under_ace = 0u64;
        let mut never_move = 0u64;
        for (s, &two) in seq.iter().zip(&two_aces).filter(|_| !free) {
            let held = *s & table;
            let moved_in = held & foreign;
            let homes = held & !moved_in;
            let home_aces = homes & self.ace_mask;
            if home_aces != 0 {
                // A moved-in card lies below every home card.
                let highest = 63 - home_aces.leading_zeros();
                let under = (homes & ((1u64 << highest) - 1)) | moved_in;
                under_ace |= under;
                if two {
                    never_move |= under;
                }
            }
        }
        let shows = |x: usize| at(&self.shows_after, x).max(now);
        let real = span(now, self.row_count.saturating_add(1));
        // The cards in play of each suit, highest first (an ace beats every card of its suit).
        let mut by_suit = [[NO_SLOT; 13]; 4];
        for (suit, slots) in by_suit.iter_mut().enumerate() {
            let mut cards = alive & self.suit_mask.get(suit).copied().unwrap_or(0);
            let mut n = 0;
            while cards != 0 && n < 13 {
                // The highest: the card no other card in play of the suit beats.
                let mut m = cards;
                while m != 0 {
                    let x = m.trailing_zeros() as usize;
                    m &= m - 1;
                    if at(&self.higher, x) & cards == 0 {
                        if let Some(slot) = slots.get_mut(n) {
                            *slot = x as u8;
                        }
                        n += 1;
                        cards &= !(1u64 << x);
                        break;
                    }
                }
            }
        }

        let mut discard = start.copied().unwrap_or([NEVER; 64]);
        let mut moves = [NEVER; 64];
        let mut top = [0u32; 64];
        let mut moved = [0u32; 64];
        let mut ace_onto = [NEVER; PILE_COUNT];
        let non_aces = alive & !self.ace_mask;
        let suit_cards = self.suit_mask.map(|mask| mask & alive);
        let mut undecided = (0..64)
            .filter(|&x| non_aces & (1u64 << x) != 0 && at(&discard, x) == NEVER)
            .count() as u32;
        // A round recomputes only what can have changed since the last one (module docs,
        // "Rounds"): the piles with a card that can leave earlier, the moves when a pile's facts
        // or an ace's arrival changed (else only for the cards whose tops changed), and the
        // suits with a card whose `top` or `moved` changed.
        let mut piles = [PileFacts::default(); PILE_COUNT];
        let mut leave_changed = u64::MAX;
        let mut first_round = true;
        let mut ace_arrived = false;
        for _ in 0..MAX_ROUNDS {
            *work += NODES_PER_ROUND;
            let leave = |x: usize| at(&discard, x).min(at(&moves, x));
            // Top phases, top down through each sequence, and each pile's empty phases.
            let mut top_changed = 0u64;
            let mut facts_changed = first_round || ace_arrived || FULL_ROUNDS;
            for (p, facts) in piles.iter_mut().enumerate() {
                let s = seq.get(p).copied().unwrap_or(0);
                if !first_round && !FULL_ROUNDS && s & leave_changed == 0 {
                    continue;
                }
                let before = *facts;
                *facts = PileFacts::default();
                let mut cover = 0u32;
                // What the cards dealt in each phase block (for the tops after a move).
                let mut blocked_by_deal = [0u32; 16];
                for x in top_down(s, pos.foreign.get(p).copied().unwrap_or(NONE)) {
                    let from = shows(x);
                    let phases = from_on(from) & real & !cover;
                    if at(&top, x) != phases {
                        set(&mut top, x, phases);
                        top_changed |= 1u64 << x;
                    }
                    let blocks = span(from, leave(x)) & real;
                    cover |= blocks;
                    if let Some(b) = blocked_by_deal.get_mut(usize::from(from)) {
                        *b |= blocks;
                    }
                }
                if !two_aces.get(p).copied().unwrap_or(false) {
                    facts.empty = if frozen { 0 } else { real & !cover };
                    let mut later = 0u32;
                    for t in (usize::from(now)..=usize::from(self.row_count)).rev() {
                        if facts.empty & (1 << t) != 0
                            && let Some(slot) = facts.top_after_move.get_mut(t)
                        {
                            *slot = (1 << t) | (from_on(t as u8 + 1) & real & !later);
                        }
                        later |= blocked_by_deal.get(t).copied().unwrap_or(0);
                    }
                }
                facts_changed |= *facts != before;
            }
            leave_changed = 0;
            ace_arrived = false;
            let any_empty = piles.iter().fold(0u32, |acc, f| acc | f.empty);
            let mut changed = false;
            let mut moved_changed = 0u64;
            // Moves, the phases after them, and the first phase an ace can arrive on a pile
            // (none when frozen: no pile is ever empty, so nothing here could be derived).
            let mut m = if frozen {
                0
            } else if facts_changed {
                alive
            } else {
                alive & top_changed
            };
            while m != 0 {
                let x = m.trailing_zeros() as usize;
                m &= m - 1;
                let p = usize::from(at(&pile_of, x));
                let is_ace = self.ace_mask & (1u64 << x) != 0;
                let may_move = if free {
                    is_ace || !aces_only
                } else {
                    never_move & (1u64 << x) == 0
                        && (is_ace
                            || above_ace & (1u64 << x) != 0
                            || shows(x) > ace_onto.get(p).copied().unwrap_or(NEVER))
                };
                let own_top = at(&top, x);
                if !may_move || own_top == 0 {
                    // Not allowed to move, or never on top of its pile (yet).
                    if at(&moved, x) != 0 {
                        set(&mut moved, x, 0);
                        moved_changed |= 1u64 << x;
                    }
                    continue;
                }
                let mut others = 0u32;
                let mut after = 0u32;
                for (q, facts) in piles.iter().enumerate() {
                    if q != p {
                        others |= facts.empty;
                        after |= facts.reach(own_top);
                    }
                }
                if is_ace || free {
                    // A moved ace (any moved card, with fact 3 left out) may move on, as a
                    // lone card, onto any empty pile.
                    loop {
                        let more = piles
                            .iter()
                            .fold(after, |acc, facts| acc | facts.reach(after & any_empty));
                        if more == after {
                            break;
                        }
                        after = more;
                    }
                    for (q, arrives) in ace_onto.iter_mut().enumerate() {
                        let empty = piles.get(q).map_or(0, |f| f.empty);
                        let own = if q == p { 0 } else { own_top };
                        let t = first((own | after) & empty);
                        if t < *arrives {
                            *arrives = t;
                            changed = true;
                            ace_arrived = true;
                        }
                    }
                    if ace_arrived {
                        // Later cards may now move (a card dealt after an ace can arrive):
                        // look at all of them, as a full round would.
                        m = alive & u64::MAX.checked_shl(x as u32 + 1).unwrap_or(0);
                    }
                }
                if at(&moved, x) != after {
                    set(&mut moved, x, after);
                    moved_changed |= 1u64 << x;
                }
                let t = first(own_top & others);
                if t < at(&moves, x) {
                    set(&mut moves, x, t);
                    changed = true;
                    leave_changed |= 1u64 << x;
                }
            }
            let suits_changed = top_changed | moved_changed;
            // Discards: a top card, and a higher card of its suit on top of another pile. Each
            // suit is walked from its highest card down, gathering the higher cards' phases.
            for (suit, &cards) in by_suit.iter().zip(&suit_cards) {
                if !first_round && !FULL_ROUNDS && cards & suits_changed == 0 {
                    // Nothing its cards' discards depend on has changed.
                    continue;
                }
                // The higher cards' top phases by pile, and the phases they can be on top
                // after a move; the same for those not lying under an ace (fact 5).
                let mut on_pile = [0u32; PILE_COUNT];
                let mut free_on_pile = [0u32; PILE_COUNT];
                let mut after_move = 0u32;
                let mut free_after_move = 0u32;
                let mut under_moved_on_pile = [0u32; PILE_COUNT];
                for &x in suit.iter().take_while(|&&x| x != NO_SLOT) {
                    let x = usize::from(x);
                    let xb = 1u64 << x;
                    let p = usize::from(at(&pile_of, x));
                    if non_aces & xb != 0 {
                        // Fact 5: a card under an ace is never on top together with a card
                        // under an ace in another pile.
                        let x_under = under_ace & xb != 0;
                        let (mut elsewhere, mut anywhere) = (0u32, 0u32);
                        for q in 0..PILE_COUNT {
                            let phases = if x_under && q != p {
                                free_on_pile.get(q).copied().unwrap_or(0)
                            } else {
                                on_pile.get(q).copied().unwrap_or(0)
                            };
                            anywhere |= phases;
                            if q != p {
                                elsewhere |= phases;
                            }
                        }
                        let moved_justifiers = if x_under {
                            free_after_move | under_moved_on_pile.get(p).copied().unwrap_or(0)
                        } else {
                            after_move
                        };
                        let meets = (at(&top, x) & (elsewhere | moved_justifiers))
                            | (at(&moved, x) & (anywhere | moved_justifiers));
                        let t = first(meets);
                        if t < at(&discard, x) {
                            if at(&discard, x) == NEVER {
                                undecided -= 1;
                            }
                            set(&mut discard, x, t);
                            changed = true;
                            leave_changed |= xb;
                        }
                    }
                    let (top_x, moved_x) = (at(&top, x), at(&moved, x));
                    if let Some(phases) = on_pile.get_mut(p) {
                        *phases |= top_x;
                    }
                    after_move |= moved_x;
                    if under_ace & xb == 0 {
                        if let Some(phases) = free_on_pile.get_mut(p) {
                            *phases |= top_x;
                        }
                        free_after_move |= moved_x;
                    } else if let Some(phases) = under_moved_on_pile.get_mut(p) {
                        *phases |= moved_x;
                    }
                }
            }
            if undecided < enough.max(1) {
                return Fixpoint::NOTHING;
            }
            if !changed {
                return Fixpoint::reached(non_aces, discard);
            }
            first_round = false;
        }
        Fixpoint::NOTHING
    }
}
