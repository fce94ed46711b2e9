//! The table: four piles, the free cell, the stock and the removed cards, and the rules that
//! decide which actions are legal on it.
//!
//! A `Table` is one position. It knows nothing of undo, counters or status; [`crate::game`] adds
//! those. Every method that changes a table checks first and changes nothing when it refuses.

use serde::{Deserialize, Serialize};

use crate::cards::Card;
use crate::deal::Deck;
use crate::error::{ActionError, PlaceName, SmartMoveBlock};
use crate::rules::{Action, PILE_COUNT, PileIndex, Place, Variant};

/// Non-ace cards in the deck: removing them all wins the game.
pub const NON_ACES: usize = 48;

/// One position of the game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Table {
    /// The four piles, each bottom to top.
    piles: [Vec<Card>; PILE_COUNT],
    /// The free cell's card (free-cell variant only).
    cell: Option<Card>,
    /// Cards still to deal; the next card to deal is the last element.
    stock: Vec<Card>,
    /// Removed cards in the order they left the table.
    removed: Vec<Card>,
    /// Jokers the player may still use.
    jokers_left: u8,
}

impl Table {
    /// The opening position: the first four cards of the deck dealt onto the piles.
    pub fn new(deck: &Deck, jokers: u8) -> Table {
        let mut stock: Vec<Card> = deck.cards().to_vec();
        stock.reverse();
        let mut table = Table {
            piles: Default::default(),
            cell: None,
            stock,
            removed: Vec::new(),
            jokers_left: jokers,
        };
        table.deal_row();
        table
    }

    /// The piles, each bottom to top.
    pub fn piles(&self) -> &[Vec<Card>; PILE_COUNT] {
        &self.piles
    }

    /// One pile, bottom to top.
    pub fn pile(&self, pile: PileIndex) -> &[Card] {
        self.piles.get(pile.index()).map_or(&[], Vec::as_slice)
    }

    /// The free cell's card.
    pub fn cell(&self) -> Option<Card> {
        self.cell
    }

    /// Cards still in the stock, in the order they will be dealt.
    pub fn stock_in_deal_order(&self) -> impl Iterator<Item = Card> + '_ {
        self.stock.iter().rev().copied()
    }

    /// How many cards the stock holds.
    pub fn stock_len(&self) -> usize {
        self.stock.len()
    }

    /// Removed cards, in the order they left.
    pub fn removed(&self) -> &[Card] {
        &self.removed
    }

    /// The score: cards removed so far (discards and jokers).
    pub fn score(&self) -> usize {
        self.removed.len()
    }

    /// Jokers still available.
    pub fn jokers_left(&self) -> u8 {
        self.jokers_left
    }

    /// The card on top of a place, if any.
    pub fn top(&self, place: Place) -> Option<Card> {
        match place {
            Place::Pile(pile) => self.pile(pile).last().copied(),
            Place::Cell => self.cell,
        }
    }

    /// Every card that is on the table (piles and cell) or in the stock or removed, in no
    /// particular order. A valid table always yields all 52 cards exactly once.
    pub fn all_cards(&self) -> impl Iterator<Item = Card> + '_ {
        self.piles
            .iter()
            .flatten()
            .chain(self.cell.iter())
            .chain(self.stock.iter())
            .chain(self.removed.iter())
            .copied()
    }

    /// Whether all 48 non-aces have been removed.
    pub fn is_won(&self) -> bool {
        self.score() >= NON_ACES
    }

    fn is_empty(&self, place: Place) -> bool {
        self.top(place).is_none()
    }

    fn pile_len(&self, place: Place) -> usize {
        match place {
            Place::Pile(pile) => self.pile(pile).len(),
            Place::Cell => usize::from(self.cell.is_some()),
        }
    }

    /// Places that exist in this variant: the four piles, and the cell in the free-cell variant.
    pub fn places(variant: Variant) -> impl Iterator<Item = Place> {
        Place::ALL
            .into_iter()
            .filter(move |place| *place != Place::Cell || variant.has_cell())
    }

    fn check_place(place: Place, variant: Variant) -> Result<(), ActionError> {
        if place == Place::Cell && !variant.has_cell() {
            return Err(ActionError::NoFreeCell);
        }
        Ok(())
    }

    /// Whether the card at `from` may be discarded, and if not, why.
    pub fn check_discard(&self, from: Place, variant: Variant) -> Result<(), ActionError> {
        Table::check_place(from, variant)?;
        let card = self.top(from).ok_or(ActionError::EmptyPlace {
            place: PlaceName(from),
        })?;
        if card.is_ace() {
            return Err(ActionError::AceNeverDiscarded);
        }
        let beaten = Table::places(variant)
            .filter(|other| *other != from)
            .filter_map(|other| self.top(other))
            .any(|other| card.is_beaten_by(other));
        if beaten {
            Ok(())
        } else {
            Err(ActionError::NoHigherCardShowing { card })
        }
    }

    /// Whether the card at `from` may be moved to `to`, and if not, why.
    pub fn check_move(&self, from: Place, to: Place, variant: Variant) -> Result<(), ActionError> {
        Table::check_place(from, variant)?;
        Table::check_place(to, variant)?;
        if from == to {
            return Err(ActionError::SamePlace);
        }
        let card = self.top(from).ok_or(ActionError::EmptyPlace {
            place: PlaceName(from),
        })?;
        if !self.is_empty(to) {
            return Err(ActionError::PlaceNotEmpty {
                place: PlaceName(to),
            });
        }
        if variant == Variant::AcesOnly && !card.is_ace() {
            return Err(ActionError::OnlyAcesToEmptyPiles);
        }
        Ok(())
    }

    /// Whether the stock can be dealt.
    pub fn check_deal(&self) -> Result<(), ActionError> {
        if self.stock.is_empty() {
            Err(ActionError::StockEmpty)
        } else {
            Ok(())
        }
    }

    /// Whether a joker may be played on `pile`, and if not, why.
    pub fn check_joker(&self, pile: PileIndex, jokers_per_game: u8) -> Result<(), ActionError> {
        if jokers_per_game == 0 {
            return Err(ActionError::JokersOff);
        }
        if self.jokers_left == 0 {
            return Err(ActionError::NoJokersLeft);
        }
        if self.pile(pile).iter().all(|card| card.is_ace()) {
            return Err(ActionError::NothingForJoker {
                place: PlaceName(Place::Pile(pile)),
            });
        }
        Ok(())
    }

    /// Checks any action.
    pub fn check(
        &self,
        action: Action,
        variant: Variant,
        jokers_per_game: u8,
    ) -> Result<(), ActionError> {
        match action {
            Action::Deal => self.check_deal(),
            Action::Discard { from } => self.check_discard(from, variant),
            Action::Move { from, to } => self.check_move(from, to, variant),
            Action::Joker { pile } => self.check_joker(pile, jokers_per_game),
        }
    }

    /// Applies an action if it is legal; otherwise returns why and leaves the table untouched.
    pub fn apply(
        &mut self,
        action: Action,
        variant: Variant,
        jokers_per_game: u8,
    ) -> Result<(), ActionError> {
        self.check(action, variant, jokers_per_game)?;
        match action {
            Action::Deal => self.deal_row(),
            Action::Discard { from } => {
                if let Some(card) = self.take(from) {
                    self.removed.push(card);
                }
            }
            Action::Move { from, to } => {
                if let Some(card) = self.take(from) {
                    self.put(to, card);
                }
            }
            Action::Joker { pile } => {
                if let Some(cards) = self.piles.get_mut(pile.index()) {
                    let (aces, others): (Vec<Card>, Vec<Card>) =
                        cards.iter().partition(|card| card.is_ace());
                    *cards = aces;
                    self.removed.extend(others);
                    self.jokers_left = self.jokers_left.saturating_sub(1);
                }
            }
        }
        Ok(())
    }

    fn take(&mut self, place: Place) -> Option<Card> {
        match place {
            Place::Pile(pile) => self.piles.get_mut(pile.index())?.pop(),
            Place::Cell => self.cell.take(),
        }
    }

    fn put(&mut self, place: Place, card: Card) {
        match place {
            Place::Pile(pile) => {
                if let Some(cards) = self.piles.get_mut(pile.index()) {
                    cards.push(card);
                }
            }
            Place::Cell => self.cell = Some(card),
        }
    }

    /// Deals up to one card onto each pile, left to right (empty piles included).
    fn deal_row(&mut self) {
        for pile in &mut self.piles {
            if let Some(card) = self.stock.pop() {
                pile.push(card);
            }
        }
    }

    /// Whether a move uncovers a card: it takes a card from a pile of two or more onto an empty
    /// pile (or the empty cell). Only such moves can lead anywhere; RULES.md calls them
    /// productive.
    pub fn is_productive_move(&self, from: Place, to: Place, variant: Variant) -> bool {
        self.check_move(from, to, variant).is_ok()
            && matches!(from, Place::Pile(_))
            && self.pile_len(from) >= 2
    }

    /// What a smart move (double tap) on `place` does (RULES.md "Smart move"): discard the card
    /// if legal; otherwise move it to the leftmost empty pile if that move is productive. The
    /// free cell's card, which has no pile to uncover, goes to the leftmost empty pile.
    pub fn smart_action(&self, place: Place, variant: Variant) -> Result<Action, ActionError> {
        Table::check_place(place, variant)?;
        let card = self.top(place).ok_or(ActionError::EmptyPlace {
            place: PlaceName(place),
        })?;
        if self.check_discard(place, variant).is_ok() {
            return Ok(Action::Discard { from: place });
        }
        let blocked = |reason| ActionError::NoSmartMove { card, reason };
        let target = PileIndex::ALL
            .into_iter()
            .map(Place::Pile)
            .find(|&to| to != place && self.is_empty(to))
            .ok_or(blocked(SmartMoveBlock::NoEmptyPile))?;
        if place != Place::Cell && self.pile_len(place) < 2 {
            return Err(blocked(SmartMoveBlock::AloneInPile));
        }
        if variant == Variant::AcesOnly && !card.is_ace() {
            return Err(blocked(SmartMoveBlock::NotAnAce));
        }
        Ok(Action::Move {
            from: place,
            to: target,
        })
    }

    /// Every legal action, in a fixed order: discards, moves (piles then cell), deal, jokers.
    pub fn legal_actions(&self, variant: Variant, jokers_per_game: u8) -> Vec<Action> {
        let mut actions = Vec::new();
        for from in Table::places(variant) {
            if self.check_discard(from, variant).is_ok() {
                actions.push(Action::Discard { from });
            }
        }
        for from in Table::places(variant) {
            for to in Table::places(variant) {
                if self.check_move(from, to, variant).is_ok() {
                    actions.push(Action::Move { from, to });
                }
            }
        }
        if self.check_deal().is_ok() {
            actions.push(Action::Deal);
        }
        for pile in PileIndex::ALL {
            if self.check_joker(pile, jokers_per_game).is_ok() {
                actions.push(Action::Joker { pile });
            }
        }
        actions
    }

    /// Game over (RULES.md): the stock is empty, no discard is legal, no productive move exists,
    /// and no joker could remove a card.
    pub fn is_stuck(&self, variant: Variant, jokers_per_game: u8) -> bool {
        if !self.stock.is_empty() {
            return false;
        }
        let places: Vec<Place> = Table::places(variant).collect();
        let any_discard = places
            .iter()
            .any(|&from| self.check_discard(from, variant).is_ok());
        let any_productive = places.iter().any(|&from| {
            places
                .iter()
                .any(|&to| self.is_productive_move(from, to, variant))
        });
        let any_joker = PileIndex::ALL
            .into_iter()
            .any(|pile| self.check_joker(pile, jokers_per_game).is_ok());
        !(any_discard || any_productive || any_joker)
    }

    /// Checks that the table holds each of the 52 cards exactly once and nothing else is off.
    pub fn validate(&self, variant: Variant) -> Result<(), String> {
        let mut seen = [false; 52];
        let mut count = 0usize;
        for card in self.all_cards() {
            count += 1;
            match seen.get_mut(card.index()) {
                Some(slot) if !*slot => *slot = true,
                _ => return Err(format!("{card} is on the table twice")),
            }
        }
        if count != 52 {
            return Err(format!("the table holds {count} cards instead of 52"));
        }
        if self.cell.is_some() && !variant.has_cell() {
            return Err(format!(
                "a card sits in the free cell but the variant is {variant}"
            ));
        }
        if !self.stock.len().is_multiple_of(PILE_COUNT) {
            return Err(format!(
                "the stock holds {} cards, not a multiple of 4",
                self.stock.len()
            ));
        }
        if self.removed.iter().any(|card| card.is_ace()) {
            return Err("an ace was removed".to_owned());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;

impl Table {
    /// A table from its parts, checked with [`Table::validate`] (for puzzles, tools and tests).
    ///
    /// `stock` is in deal order (the first card goes onto pile 1 at the next deal).
    pub fn from_parts(
        piles: [Vec<Card>; PILE_COUNT],
        cell: Option<Card>,
        stock: Vec<Card>,
        removed: Vec<Card>,
        jokers_left: u8,
        variant: Variant,
    ) -> Result<Table, String> {
        let mut stock = stock;
        stock.reverse();
        let table = Table {
            piles,
            cell,
            stock,
            removed,
            jokers_left,
        };
        table.validate(variant)?;
        Ok(table)
    }
}
