//! Fair hints: one suggested action computed from what the player can see.
//!
//! [`suggest`] is the strong policy (module `strong`): a search over the positions reachable
//! before the next deal, each valued by the expectation over sampled next deals of the best
//! position reachable after it. [`greedy`] is the simple baseline, and [`suggest_pimc`]
//! (module `pimc`) the classic perfect-information Monte Carlo player, measured against it.
//!
//! Fairness is structural: the policy receives a [`PlayerView`], which holds the table and the
//! *set* of cards still in the stock, never their order. Two games that differ only in the
//! order of the stock produce identical views, hence identical hints.

mod pimc;
mod rollout;
mod strong;

pub use pimc::{PimcConfig, suggest_pimc};
pub use strong::{HintConfig, suggest_with};

use crate::cards::{Card, CardSet};
use crate::game::Game;
use crate::rules::{Action, PILE_COUNT, PileIndex, Place, Variant};

/// What the player can see of a game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayerView {
    /// The piles, bottom to top.
    pub piles: [Vec<Card>; PILE_COUNT],
    /// The free cell's card.
    pub cell: Option<Card>,
    /// The cards still in the stock, as a set (their order is hidden).
    pub unseen: CardSet,
    /// The rule variant.
    pub variant: Variant,
    /// Jokers the player may still use.
    pub jokers_left: u8,
}

impl PlayerView {
    /// The player's view of a game.
    pub fn of(game: &Game) -> PlayerView {
        let table = game.table();
        PlayerView {
            piles: table.piles().clone(),
            cell: table.cell(),
            unseen: table.stock_in_deal_order().collect(),
            variant: game.variant(),
            jokers_left: table.jokers_left(),
        }
    }

    fn top(&self, place: Place) -> Option<Card> {
        match place {
            Place::Pile(pile) => self.piles.get(pile.index()).and_then(|p| p.last().copied()),
            Place::Cell => self.cell,
        }
    }

    fn pile_len(&self, pile: PileIndex) -> usize {
        self.piles.get(pile.index()).map_or(0, Vec::len)
    }

    fn places(&self) -> impl Iterator<Item = Place> + '_ {
        Place::ALL
            .into_iter()
            .filter(|place| *place != Place::Cell || self.variant.has_cell())
    }

    /// Top cards that may be discarded now.
    pub fn discards(&self) -> Vec<Place> {
        self.places()
            .filter(|&from| {
                self.top(from).is_some_and(|card| {
                    !card.is_ace()
                        && self
                            .places()
                            .filter(|&other| other != from)
                            .filter_map(|other| self.top(other))
                            .any(|other| card.is_beaten_by(other))
                })
            })
            .collect()
    }

    /// Moves that uncover a card (from a pile of two or more onto an empty pile or cell).
    pub fn productive_moves(&self) -> Vec<Action> {
        let targets: Vec<Place> = self.places().filter(|p| self.top(*p).is_none()).collect();
        let mut moves = Vec::new();
        for pile in PileIndex::ALL {
            let from = Place::Pile(pile);
            let Some(card) = self.top(from) else { continue };
            if self.pile_len(pile) < 2 {
                continue;
            }
            for &to in &targets {
                let allowed = self.variant != Variant::AcesOnly || card.is_ace();
                if allowed {
                    moves.push(Action::Move { from, to });
                }
            }
        }
        moves
    }
}

/// A hint's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Hint {
    /// Take this action.
    Play(Action),
    /// Nothing useful is left: the game is over, or resigning is all that remains.
    NoUsefulMove,
}

/// Suggests one action for the view: the strong policy (`hint/strong.rs`): search over the
/// moves before the next deal, an expectation over the next row, and short rollouts.
pub fn suggest(view: &PlayerView) -> Hint {
    strong::suggest(view)
}

/// The simple greedy policy, kept as a baseline: discard when possible; otherwise make a
/// productive move; otherwise deal; otherwise play a joker on the pile it clears most;
/// otherwise there is no useful move.
pub fn greedy(view: &PlayerView) -> Hint {
    if let Some(&from) = view.discards().first() {
        return Hint::Play(Action::Discard { from });
    }
    if let Some(&action) = view.productive_moves().first() {
        return Hint::Play(action);
    }
    if !view.unseen.is_empty() {
        return Hint::Play(Action::Deal);
    }
    if view.jokers_left > 0 {
        let best = PileIndex::ALL
            .into_iter()
            .map(|pile| {
                let removable = view
                    .piles
                    .get(pile.index())
                    .map_or(0, |cards| cards.iter().filter(|c| !c.is_ace()).count());
                (removable, pile)
            })
            .filter(|(removable, _)| *removable > 0)
            .max_by_key(|(removable, pile)| (*removable, std::cmp::Reverse(*pile)));
        if let Some((_, pile)) = best {
            return Hint::Play(Action::Joker { pile });
        }
    }
    Hint::NoUsefulMove
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::Deck;
    use crate::game::GameSetup;

    #[test]
    fn games_that_differ_only_in_stock_order_get_the_same_hint() {
        let deck = Deck::from_deal_number(11);
        let mut cards = deck.cards().to_vec();
        cards[4..].reverse();
        let shuffled = Deck::from_cards(&cards).unwrap();
        let a = Game::new(GameSetup::custom(deck, Variant::Standard, 1));
        let b = Game::new(GameSetup::custom(shuffled, Variant::Standard, 1));
        assert_ne!(a.table(), b.table());
        assert_eq!(PlayerView::of(&a), PlayerView::of(&b));
        assert_eq!(suggest(&PlayerView::of(&a)), suggest(&PlayerView::of(&b)));
    }

    /// Plays deal `number` (standard, no joker) by following `policy`, and checks at every step
    /// that a twin game with the rest of the stock reversed has the same view and gets the same
    /// hint, and that the hint is legal. Returns the game once over (or after 400 steps).
    pub(super) fn play_against_a_twin(number: u64, policy: impl Fn(&PlayerView) -> Hint) -> Game {
        let deck = Deck::from_deal_number(number);
        let mut game = Game::new(GameSetup::custom(deck.clone(), Variant::Standard, 0));
        let mut steps = 0;
        while !game.status().is_over() && steps < 400 {
            steps += 1;
            // The same table with the rest of the stock in another order.
            let dealt = 52 - game.table().stock_len();
            let mut other = deck.cards().to_vec();
            if let Some(rest) = other.get_mut(dealt..) {
                rest.reverse();
            }
            let view = PlayerView::of(&game);
            let hint = policy(&view);
            let mut twin = Game::new(GameSetup::custom(
                Deck::from_cards(&other).unwrap(),
                Variant::Standard,
                0,
            ));
            for command in game.log() {
                twin.execute(*command).unwrap();
            }
            assert_eq!(PlayerView::of(&twin), view);
            assert_eq!(policy(&PlayerView::of(&twin)), hint);
            match hint {
                Hint::Play(action) => {
                    assert_eq!(game.check(action), Ok(()), "deal {number}: {action}");
                    game.execute(crate::Command::Play(action)).unwrap();
                }
                Hint::NoUsefulMove => break,
            }
        }
        game
    }

    #[test]
    fn the_two_deal_hint_is_fair_and_legal() {
        let cfg = HintConfig {
            deep: 3,
            ..HintConfig::default()
        };
        for number in 0..crate::solver::test_size(20, 3) as u64 {
            play_against_a_twin(number, |view| suggest_with(view, &cfg));
        }
    }

    #[test]
    fn every_suggested_action_is_legal() {
        for number in 0..crate::solver::test_size(200, 30) as u64 {
            let mut game = Game::new(GameSetup::numbered(
                number,
                Variant::ALL[number as usize % 3],
                1,
            ));
            let mut steps = 0;
            while !game.status().is_over() {
                steps += 1;
                assert!(steps < 1000, "deal {number}: hints go round in circles");
                match suggest(&PlayerView::of(&game)) {
                    Hint::Play(action) => {
                        assert_eq!(game.check(action), Ok(()), "deal {number}: {action}");
                        game.execute(crate::Command::Play(action)).unwrap();
                    }
                    Hint::NoUsefulMove => {
                        // Only once nothing can raise the score: stock empty, no discard, no
                        // joker. Moves may remain, but none can help; resigning is all left.
                        let table = game.table();
                        assert_eq!(table.stock_len(), 0, "deal {number}");
                        assert!(
                            game.legal_actions()
                                .iter()
                                .all(|a| matches!(a, Action::Move { .. })),
                            "deal {number}: {:?}",
                            game.legal_actions()
                        );
                        let before = table.score();
                        let best =
                            crate::solver::solve_game(&game, crate::solver::Budget::nodes(20_000));
                        if let Some(score) = best.best_score() {
                            assert_eq!(score, before as u8, "deal {number}");
                        }
                        game.execute(crate::Command::Resign).unwrap();
                    }
                }
            }
        }
    }

    #[test]
    fn the_strong_hint_beats_the_greedy_one() {
        let play = |policy: fn(&PlayerView) -> Hint| {
            let mut total = 0;
            for number in 0..crate::solver::test_size(150, 60) as u64 {
                let mut game = Game::new(GameSetup::numbered(number, Variant::Standard, 0));
                for _ in 0..1000 {
                    if game.status().is_over() {
                        break;
                    }
                    match policy(&PlayerView::of(&game)) {
                        Hint::Play(action) => {
                            game.execute(crate::Command::Play(action)).unwrap();
                        }
                        Hint::NoUsefulMove => break,
                    }
                }
                total += game.table().score();
            }
            total
        };
        assert!(play(suggest) > play(greedy));
    }

    #[test]
    fn a_joker_is_only_suggested_when_jokers_are_on() {
        for number in 0..crate::solver::test_size(60, 12) as u64 {
            let mut game = Game::new(GameSetup::numbered(number, Variant::Standard, 0));
            while !game.status().is_over() {
                match suggest(&PlayerView::of(&game)) {
                    Hint::Play(action) => {
                        assert!(!matches!(action, Action::Joker { .. }));
                        game.execute(crate::Command::Play(action)).unwrap();
                    }
                    Hint::NoUsefulMove => break,
                }
            }
        }
    }

    #[test]
    fn a_hint_does_not_depend_on_the_hints_asked_before() {
        // The rollout values are memoised per thread: asking in another order, on a thread
        // with an empty memo, must give the same hints.
        let mut views = Vec::new();
        let mut hints = Vec::new();
        for number in 0..crate::solver::test_size(6, 2) as u64 {
            let mut game = Game::new(GameSetup::numbered(number, Variant::Standard, 0));
            while !game.status().is_over() {
                let view = PlayerView::of(&game);
                let hint = suggest(&view);
                views.push(view);
                hints.push(hint);
                match hint {
                    Hint::Play(action) => {
                        game.execute(crate::Command::Play(action)).unwrap();
                    }
                    Hint::NoUsefulMove => break,
                }
            }
        }
        let again = std::thread::spawn(move || {
            let mut out: Vec<Hint> = views.iter().rev().map(suggest).collect();
            out.reverse();
            out
        })
        .join()
        .unwrap();
        assert_eq!(again, hints);
    }
}
