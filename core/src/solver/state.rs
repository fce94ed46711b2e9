//! The solver's compact position: a few machine words instead of `Table`'s vectors.
//!
//! # Representation
//! Every card that is not removed gets a *slot* (0–51) when the solver starts. Each pile has a
//! *home range* of slots: first the cards it held at the start (bottom to top), then the stock
//! cards that later deals will put on it, in deal order. The position stores:
//! - `home`: a mask of the slots that lie in their home pile;
//! - `foreign[p]`: the card (slot) that was moved onto pile `p` while it was empty, if any;
//! - `cell`: the free cell's card (slot);
//! - how many stock rows have been dealt, and jokers left.
//!
//! This is exact, because of two facts of the rules:
//! 1. Cards only leave a pile from the top, and the joker keeps the remaining aces in order, so
//!    what is left of a pile's starting cards is an ordered subsequence of them, and every card
//!    dealt later lies above them, in deal order.
//! 2. A card is only ever moved onto an *empty* pile, so a pile holds at most one card that is
//!    not from its home range (the one moved in), and it lies at the bottom, below every card
//!    dealt later. A pile cannot hold both a foreign card and starting cards (it was empty when
//!    the foreign card arrived, and starting cards never come back).
//!
//! So a pile is `[foreign?] ++ [home slots present, in slot order]`. A card moved onto an empty
//! pile that is its own home pile is stored as home (same pile, same order), which keeps one key
//! per position. [`Layout::key`] packs everything into a `u128` for the transposition tables.

use crate::cards::Card;
use crate::rules::{Action, PILE_COUNT, PileIndex, Place, Variant};
use crate::table::Table;

/// No card (an empty foreign slot or an empty cell).
pub(crate) const NONE: u8 = 63;
/// Most slots a valid table needs (52 cards minus nothing removed).
const SLOTS: usize = 64;
/// Stock rows at most (48 cards).
const MAX_ROWS: usize = 13;

/// Reads `array[index]` for a 64-entry table without a panicking index (the mask keeps it in
/// range, and the compiler drops the check).
#[inline(always)]
pub(crate) fn at<T: Copy + Default>(array: &[T; SLOTS], index: usize) -> T {
    array.get(index & (SLOTS - 1)).copied().unwrap_or_default()
}

/// A place in solver terms: piles 0–3 and the cell as 4.
pub(crate) const CELL: usize = 4;

/// What stays fixed during one solve: which card each slot is and where it belongs.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    /// Card index (0–51) of each slot.
    pub card: [u8; SLOTS],
    /// Suit (0–3) of each slot.
    pub suit: [u8; SLOTS],
    /// Rank value (2–14) of each slot.
    pub rank: [u8; SLOTS],
    /// Home pile of each slot (4 for the starting cell card, which has no home pile).
    pub home: [u8; SLOTS],
    /// For each slot, the slots of the same suit and lower rank.
    pub lower: [u64; SLOTS],
    /// For each slot, the slots of the same suit and higher rank: the cards that can justify
    /// its discard (none for an ace).
    pub higher: [u64; SLOTS],
    /// Slots whose home is each pile.
    pub pile_mask: [u64; PILE_COUNT],
    /// Slots that are aces.
    pub ace_mask: u64,
    /// Slots of each suit.
    pub suit_mask: [u64; 4],
    /// The slots of each stock row, piles left to right.
    pub rows: [[u8; PILE_COUNT]; MAX_ROWS],
    /// Stock rows in all.
    pub row_count: u8,
    /// For each number of rows dealt, the slots still in the stock.
    pub stock_after: [u64; MAX_ROWS + 1],
    /// For each slot, the number of rows dealt once it is on the table: 0 for a table card,
    /// its row plus one for a stock card.
    pub shows_after: [u8; SLOTS],
    /// The variant.
    pub variant: Variant,
    /// Whether jokers are switched on (`jokers_per_game > 0`).
    pub jokers_on: bool,
    /// Slots in use: every card not removed at the start.
    pub slot_count: u8,
    /// Cards removed before the solve started.
    pub base_score: u8,
}

/// One position, in a few words (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Pos {
    /// Slots that lie in their home pile.
    pub home: u64,
    /// The card moved onto each pile while it was empty, or [`NONE`].
    pub foreign: [u8; PILE_COUNT],
    /// The free cell's card, or [`NONE`].
    pub cell: u8,
    /// Stock rows dealt so far.
    pub dealt: u8,
    /// Jokers left (0 when jokers are off).
    pub jokers: u8,
}

/// A solver action: the same four kinds as [`Action`], in compact form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Act {
    /// Deal a row.
    Deal,
    /// Discard the top card of place (0–3 pile, 4 cell).
    Discard(u8),
    /// Move the top card of `from` onto the empty `to`.
    Move(u8, u8),
    /// Joker on a pile.
    Joker(u8),
}

fn place_of(index: u8) -> Place {
    match PileIndex::new(usize::from(index)) {
        Ok(pile) if usize::from(index) < PILE_COUNT => Place::Pile(pile),
        _ => Place::Cell,
    }
}

impl Act {
    /// The public action.
    pub fn action(self) -> Action {
        match self {
            Act::Deal => Action::Deal,
            Act::Discard(from) => Action::Discard {
                from: place_of(from),
            },
            Act::Move(from, to) => Action::Move {
                from: place_of(from),
                to: place_of(to),
            },
            Act::Joker(pile) => Action::Joker {
                pile: PileIndex::new(usize::from(pile)).unwrap_or(PileIndex::ALL[0]),
            },
        }
    }
}

#[cfg_attr(not(test), allow(dead_code))]
fn place_index(place: Place) -> u8 {
    match place {
        Place::Pile(pile) => pile.index() as u8,
        Place::Cell => CELL as u8,
    }
}

/// The compact form of a public action.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn act_of(action: Action) -> Act {
    match action {
        Action::Deal => Act::Deal,
        Action::Discard { from } => Act::Discard(place_index(from)),
        Action::Move { from, to } => Act::Move(place_index(from), place_index(to)),
        Action::Joker { pile } => Act::Joker(pile.index() as u8),
    }
}

#[inline(always)]
fn bit(slot: u8) -> u64 {
    1u64 << (slot & 63)
}

impl Layout {
    /// The layout and starting position of a table. Refuses tables that
    /// [`Table::validate`] refuses, so every later step stays within its ranges.
    pub fn new(
        table: &Table,
        variant: Variant,
        jokers_per_game: u8,
    ) -> Result<(Layout, Pos), String> {
        table.validate(variant)?;
        let mut layout = Layout {
            card: [0; SLOTS],
            suit: [0; SLOTS],
            rank: [0; SLOTS],
            home: [CELL as u8; SLOTS],
            lower: [0; SLOTS],
            higher: [0; SLOTS],
            pile_mask: [0; PILE_COUNT],
            ace_mask: 0,
            suit_mask: [0; 4],
            rows: [[NONE; PILE_COUNT]; MAX_ROWS],
            row_count: 0,
            stock_after: [0; MAX_ROWS + 1],
            shows_after: [0; SLOTS],
            variant,
            jokers_on: jokers_per_game > 0,
            slot_count: 0,
            base_score: u8::try_from(table.score()).unwrap_or(u8::MAX),
        };
        let mut pos = Pos {
            home: 0,
            foreign: [NONE; PILE_COUNT],
            cell: NONE,
            dealt: 0,
            jokers: if jokers_per_game > 0 {
                table.jokers_left()
            } else {
                0
            },
        };
        let stock: Vec<Card> = table.stock_in_deal_order().collect();
        let rows = stock.len() / PILE_COUNT;
        if rows > MAX_ROWS {
            return Err("the stock holds more than 48 cards".to_owned());
        }
        layout.row_count = rows as u8;
        let mut next: u8 = 0;
        let mut add = |layout: &mut Layout, card: Card, home: u8| -> u8 {
            let slot = next;
            next = next.saturating_add(1);
            let s = usize::from(slot & 63);
            if let Some(x) = layout.card.get_mut(s) {
                *x = card.index() as u8;
            }
            if let Some(x) = layout.suit.get_mut(s) {
                *x = card.suit.index() as u8;
            }
            if let Some(x) = layout.rank.get_mut(s) {
                *x = card.rank.value();
            }
            if let Some(x) = layout.home.get_mut(s) {
                *x = home;
            }
            if let Some(m) = layout.suit_mask.get_mut(card.suit.index()) {
                *m |= bit(slot);
            }
            if card.is_ace() {
                layout.ace_mask |= bit(slot);
            }
            if let Some(m) = layout.pile_mask.get_mut(usize::from(home)) {
                *m |= bit(slot);
            }
            slot
        };
        for (p, pile) in table.piles().iter().enumerate() {
            for &card in pile {
                let slot = add(&mut layout, card, p as u8);
                pos.home |= bit(slot);
            }
            for row in 0..rows {
                if let Some(&card) = stock.get(row * PILE_COUNT + p) {
                    let slot = add(&mut layout, card, p as u8);
                    if let Some(r) = layout.rows.get_mut(row).and_then(|r| r.get_mut(p)) {
                        *r = slot;
                    }
                    if let Some(x) = layout.shows_after.get_mut(usize::from(slot & 63)) {
                        *x = (row + 1) as u8;
                    }
                }
            }
        }
        if let Some(card) = table.cell() {
            pos.cell = add(&mut layout, card, CELL as u8);
        }
        layout.slot_count = next;
        for dealt in 0..=MAX_ROWS {
            let mut mask = 0;
            for row in dealt..rows {
                if let Some(r) = layout.rows.get(row) {
                    for &slot in r {
                        mask |= bit(slot);
                    }
                }
            }
            if let Some(m) = layout.stock_after.get_mut(dealt) {
                *m = mask;
            }
        }
        for a in 0..usize::from(next) {
            let mut lower = 0;
            for b in 0..usize::from(next) {
                if at(&layout.suit, a) == at(&layout.suit, b)
                    && at(&layout.rank, b) < at(&layout.rank, a)
                {
                    lower |= 1u64 << b;
                }
            }
            if let Some(x) = layout.lower.get_mut(a) {
                *x = lower;
            }
        }
        for a in 0..usize::from(next) {
            let suit = layout
                .suit_mask
                .get(usize::from(at(&layout.suit, a)))
                .copied()
                .unwrap_or(0);
            if let Some(x) = layout.higher.get_mut(a) {
                *x = suit & !at(&layout.lower, a) & !(1u64 << a);
            }
        }
        Ok((layout, pos))
    }

    /// The card in a slot.
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn card_of(&self, slot: u8) -> Option<Card> {
        Card::from_index(usize::from(at(&self.card, usize::from(slot))))
    }

    /// Whether the stock is empty in `pos`.
    #[inline(always)]
    pub fn stock_empty(&self, pos: &Pos) -> bool {
        pos.dealt >= self.row_count
    }

    /// The slots of the stock still to deal.
    #[inline(always)]
    pub fn stock_mask(&self, pos: &Pos) -> u64 {
        self.stock_after
            .get(usize::from(pos.dealt))
            .copied()
            .unwrap_or(0)
    }

    /// Every slot still in play: on the table or in the stock.
    #[inline(always)]
    pub fn alive(&self, pos: &Pos) -> u64 {
        let mut mask = pos.home | self.stock_mask(pos);
        for &f in &pos.foreign {
            if f != NONE {
                mask |= bit(f);
            }
        }
        if pos.cell != NONE {
            mask |= bit(pos.cell);
        }
        mask
    }

    /// The top card (slot) of pile `p`, or [`NONE`].
    #[inline(always)]
    pub fn top(&self, pos: &Pos, p: usize) -> u8 {
        let home = pos.home & self.pile_mask.get(p).copied().unwrap_or(0);
        if home != 0 {
            63 - home.leading_zeros() as u8
        } else {
            pos.foreign.get(p).copied().unwrap_or(NONE)
        }
    }

    /// The top cards of the four piles and the cell ([`NONE`] where empty).
    #[inline(always)]
    pub fn tops(&self, pos: &Pos) -> [u8; 5] {
        [
            self.top(pos, 0),
            self.top(pos, 1),
            self.top(pos, 2),
            self.top(pos, 3),
            pos.cell,
        ]
    }

    /// Cards in pile `p`.
    #[inline(always)]
    pub fn pile_len(&self, pos: &Pos, p: usize) -> u32 {
        let home = pos.home & self.pile_mask.get(p).copied().unwrap_or(0);
        home.count_ones() + u32::from(pos.foreign.get(p).copied().unwrap_or(NONE) != NONE)
    }

    /// Cards on the table (piles and cell).
    #[inline(always)]
    pub fn table_count(&self, pos: &Pos) -> u32 {
        pos.home.count_ones()
            + pos.foreign.iter().filter(|&&f| f != NONE).count() as u32
            + u32::from(pos.cell != NONE)
    }

    /// The score (cards removed) in `pos`.
    #[inline(always)]
    pub fn score(&self, pos: &Pos) -> u8 {
        let left = self.table_count(pos) + 4 * u32::from(self.row_count.saturating_sub(pos.dealt));
        let gone = u32::from(self.slot_count).saturating_sub(left);
        self.base_score.saturating_add(gone as u8)
    }

    /// For each top (piles then cell), whether it may be discarded now: as a bit mask over
    /// places 0–4. A top may go when a higher card of its suit is a top too.
    #[inline(always)]
    pub fn discardable(&self, tops: &[u8; 5]) -> u8 {
        let mut showing = 0u64;
        for &t in tops {
            if t != NONE {
                showing |= bit(t);
            }
        }
        let mut out = 0u8;
        for (i, &t) in tops.iter().enumerate() {
            if t != NONE && at(&self.higher, usize::from(t)) & showing != 0 {
                out |= 1 << i;
            }
        }
        out
    }

    /// Takes the top card off a place (which must not be empty); returns it.
    #[inline(always)]
    fn take(&self, pos: &mut Pos, place: usize) -> u8 {
        if place >= PILE_COUNT {
            let card = pos.cell;
            pos.cell = NONE;
            return card;
        }
        let home = pos.home & self.pile_mask.get(place).copied().unwrap_or(0);
        if home != 0 {
            let slot = 63 - home.leading_zeros() as u8;
            pos.home &= !bit(slot);
            slot
        } else if let Some(f) = pos.foreign.get_mut(place) {
            std::mem::replace(f, NONE)
        } else {
            NONE
        }
    }

    /// Puts a card onto an empty place.
    #[inline(always)]
    fn put(&self, pos: &mut Pos, place: usize, slot: u8) {
        if place >= PILE_COUNT {
            pos.cell = slot;
        } else if usize::from(at(&self.home, usize::from(slot))) == place {
            pos.home |= bit(slot);
        } else if let Some(f) = pos.foreign.get_mut(place) {
            *f = slot;
        }
    }

    /// Applies an action that [`Layout::legal`] listed.
    #[inline]
    pub fn apply(&self, pos: &Pos, act: Act) -> Pos {
        let mut next = *pos;
        match act {
            Act::Deal => {
                if let Some(row) = self.rows.get(usize::from(pos.dealt)) {
                    for &slot in row {
                        next.home |= bit(slot);
                    }
                }
                next.dealt = pos.dealt.saturating_add(1);
            }
            Act::Discard(from) => {
                self.take(&mut next, usize::from(from));
            }
            Act::Move(from, to) => {
                let card = self.take(&mut next, usize::from(from));
                self.put(&mut next, usize::from(to), card);
            }
            Act::Joker(p) => {
                let mask = self.pile_mask.get(usize::from(p)).copied().unwrap_or(0);
                next.home &= !(mask & !self.ace_mask);
                if let Some(f) = next.foreign.get_mut(usize::from(p))
                    && *f != NONE
                    && self.ace_mask & bit(*f) == 0
                {
                    *f = NONE;
                }
                next.jokers = pos.jokers.saturating_sub(1);
            }
        }
        next
    }

    /// Whether a joker on pile `p` is legal.
    #[inline(always)]
    pub fn joker_legal(&self, pos: &Pos, p: usize) -> bool {
        if !self.jokers_on || pos.jokers == 0 {
            return false;
        }
        let mask = self.pile_mask.get(p).copied().unwrap_or(0);
        let f = pos.foreign.get(p).copied().unwrap_or(NONE);
        pos.home & mask & !self.ace_mask != 0 || (f != NONE && self.ace_mask & bit(f) == 0)
    }

    /// `pos` after every discard that can follow. Discards never disable each other (what
    /// justified a discarded card still beats the others it beat), so every order ends in this
    /// same position; this one takes every discardable top at once, round after round (the
    /// highest top of each suit is never discardable, so it stays to justify the others).
    pub fn discard_all(&self, pos: &Pos) -> Pos {
        let mut next = *pos;
        let mut tops = self.tops(&next);
        loop {
            let mut disc = self.discardable(&tops);
            if disc == 0 {
                return next;
            }
            while disc != 0 {
                let place = disc.trailing_zeros() as usize;
                disc &= disc - 1;
                self.take(&mut next, place);
                if let Some(t) = tops.get_mut(place) {
                    *t = if place < PILE_COUNT {
                        self.top(&next, place)
                    } else {
                        NONE
                    };
                }
            }
        }
    }

    /// Game over by [`Table::is_stuck`]: stock empty, no discard, no productive move (from a
    /// pile of two or more onto an empty place), no joker.
    pub fn is_stuck(&self, pos: &Pos) -> bool {
        if !self.stock_empty(pos) {
            return false;
        }
        let tops = self.tops(pos);
        if self.discardable(&tops) != 0 {
            return false;
        }
        let places = if self.variant.has_cell() { 5 } else { 4 };
        let any_empty = tops.iter().take(places).any(|&t| t == NONE);
        if any_empty {
            for p in 0..PILE_COUNT {
                let top = tops.get(p).copied().unwrap_or(NONE);
                let movable = self.variant != Variant::AcesOnly || self.ace_mask & bit(top) != 0;
                if self.pile_len(pos, p) >= 2 && movable {
                    return false;
                }
            }
        }
        !(0..PILE_COUNT).any(|p| self.joker_legal(pos, p))
    }

    /// Every legal action (the same set as [`Table::legal_actions`]).
    pub fn legal(&self, pos: &Pos, out: &mut Vec<Act>) {
        out.clear();
        let tops = self.tops(pos);
        let places = if self.variant.has_cell() { 5 } else { 4 };
        let disc = self.discardable(&tops);
        for from in 0..places {
            if disc & (1 << from) != 0 {
                out.push(Act::Discard(from as u8));
            }
        }
        for from in 0..places {
            let card = tops.get(from).copied().unwrap_or(NONE);
            if card == NONE {
                continue;
            }
            if self.variant == Variant::AcesOnly && self.ace_mask & bit(card) == 0 {
                continue;
            }
            for to in 0..places {
                if to != from && tops.get(to).copied().unwrap_or(0) == NONE {
                    out.push(Act::Move(from as u8, to as u8));
                }
            }
        }
        if !self.stock_empty(pos) {
            out.push(Act::Deal);
        }
        for p in 0..PILE_COUNT {
            if self.joker_legal(pos, p) {
                out.push(Act::Joker(p as u8));
            }
        }
    }

    /// Packs a position into a key: equal keys mean equal positions (for one layout).
    #[inline(always)]
    pub fn key(&self, pos: &Pos) -> u128 {
        let mut key = u128::from(pos.home);
        let mut shift = 64;
        for &f in &pos.foreign {
            key |= u128::from(f & 63) << shift;
            shift += 6;
        }
        key |= u128::from(pos.cell & 63) << shift;
        key |= u128::from(pos.dealt & 15) << (shift + 6);
        key |= u128::from(pos.jokers) << (shift + 10);
        key
    }

    /// Rebuilds the public table of a position (slow; for tests, hints and tools).
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn to_table(&self, pos: &Pos, original: &Table) -> Option<Table> {
        let mut piles: [Vec<Card>; PILE_COUNT] = Default::default();
        for (p, pile) in piles.iter_mut().enumerate() {
            let f = pos.foreign.get(p).copied().unwrap_or(NONE);
            if f != NONE {
                pile.push(self.card_of(f)?);
            }
            let mut home = pos.home & self.pile_mask.get(p).copied().unwrap_or(0);
            while home != 0 {
                let slot = home.trailing_zeros() as u8;
                home &= home - 1;
                pile.push(self.card_of(slot)?);
            }
        }
        let cell = if pos.cell == NONE {
            None
        } else {
            Some(self.card_of(pos.cell)?)
        };
        let mut stock = Vec::new();
        for row in usize::from(pos.dealt)..usize::from(self.row_count) {
            for &slot in self.rows.get(row)? {
                stock.push(self.card_of(slot)?);
            }
        }
        let mut on: Vec<Card> = piles.iter().flatten().copied().collect();
        on.extend(cell);
        on.extend(stock.iter().copied());
        let mut removed: Vec<Card> = original.removed().to_vec();
        for slot in 0..self.slot_count {
            let card = self.card_of(slot)?;
            if !on.contains(&card) {
                removed.push(card);
            }
        }
        let jokers = if self.jokers_on {
            pos.jokers
        } else {
            original.jokers_left()
        };
        Table::from_parts(piles, cell, stock, removed, jokers, self.variant).ok()
    }
}
