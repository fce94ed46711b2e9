//! One test per rule sentence of RULES.md that concerns a single position.

use super::*;
use crate::cards::Card;

fn card(text: &str) -> Card {
    text.parse().unwrap_or_else(|_| panic!("bad card {text}"))
}

fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace().map(card).collect()
}

fn pile(number: usize) -> Place {
    Place::Pile(PileIndex::ALL[number - 1])
}

/// A table with the given piles (bottom first), cell and stock (deal order). Every other card
/// is put among the removed cards (aces too: these tests look at single positions only).
fn table(piles: [&str; 4], cell: Option<&str>, stock: &str) -> Table {
    let piles = piles.map(cards);
    let cell = cell.map(card);
    let stock = cards(stock);
    let used: Vec<Card> = piles
        .iter()
        .flatten()
        .chain(cell.iter())
        .chain(stock.iter())
        .copied()
        .collect();
    let removed: Vec<Card> = Card::all().filter(|c| !used.contains(c)).collect();
    let mut stock_rev = stock;
    stock_rev.reverse();
    Table {
        piles,
        cell,
        stock: stock_rev,
        removed,
        jokers_left: 1,
    }
}

const STD: Variant = Variant::Standard;

#[test]
fn setup_deals_one_card_to_each_pile_and_leaves_48_in_the_stock() {
    let deck = Deck::from_deal_number(5);
    let table = Table::new(&deck, 1);
    for (index, pile) in table.piles().iter().enumerate() {
        assert_eq!(pile.as_slice(), &deck.cards()[index..index + 1]);
    }
    assert_eq!(table.stock_len(), 48);
    assert_eq!(table.score(), 0);
    assert!(table.validate(STD).is_ok());
}

#[test]
fn a_discard_needs_a_higher_card_of_the_same_suit_on_another_pile() {
    let t = table(["5H", "9H", "KS", "2C"], None, "");
    assert_eq!(t.check_discard(pile(1), STD), Ok(()));
    assert_eq!(
        t.check_discard(pile(2), STD),
        Err(ActionError::NoHigherCardShowing { card: card("9H") })
    );
    // a higher spade is showing but 2C needs a higher club
    assert_eq!(
        t.check_discard(pile(4), STD),
        Err(ActionError::NoHigherCardShowing { card: card("2C") })
    );
}

#[test]
fn only_top_cards_count_for_a_discard() {
    // KH is buried under 3S: it cannot justify discarding 5H
    let t = table(["5H", "KH 3S", "4D", "2C"], None, "");
    assert_eq!(
        t.check_discard(pile(1), STD),
        Err(ActionError::NoHigherCardShowing { card: card("5H") })
    );
}

#[test]
fn a_higher_card_in_the_same_pile_does_not_justify_a_discard() {
    let t = table(["KH 5H", "", "", ""], None, "");
    assert!(t.check_discard(pile(1), STD).is_err());
}

#[test]
fn aces_are_never_discarded() {
    let t = table(["AH", "KH", "", ""], None, "");
    assert_eq!(
        t.check_discard(pile(1), STD),
        Err(ActionError::AceNeverDiscarded)
    );
}

#[test]
fn discarding_from_an_empty_pile_is_refused() {
    let t = table(["", "KH", "", ""], None, "");
    assert_eq!(
        t.check_discard(pile(1), STD),
        Err(ActionError::EmptyPlace {
            place: PlaceName(pile(1))
        })
    );
}

#[test]
fn each_discard_scores_one() {
    let mut t = table(["5H", "9H", "KS", "2C"], None, "");
    let before = t.score();
    assert_eq!(t.apply(Action::Discard { from: pile(1) }, STD, 1), Ok(()));
    assert_eq!(t.score(), before + 1);
    assert!(t.pile(PileIndex::ALL[0]).is_empty());
}

#[test]
fn any_top_card_may_move_onto_an_empty_pile_but_not_onto_a_full_one() {
    let t = table(["5H 7C", "", "KS", "2C"], None, "");
    assert_eq!(t.check_move(pile(1), pile(2), STD), Ok(()));
    assert_eq!(
        t.check_move(pile(1), pile(3), STD),
        Err(ActionError::PlaceNotEmpty {
            place: PlaceName(pile(3))
        })
    );
    assert_eq!(
        t.check_move(pile(1), pile(1), STD),
        Err(ActionError::SamePlace)
    );
    assert_eq!(
        t.check_move(pile(2), pile(1), STD),
        Err(ActionError::EmptyPlace {
            place: PlaceName(pile(2))
        })
    );
}

#[test]
fn moving_a_lone_card_is_legal_but_not_productive() {
    let t = table(["5H", "", "KS 2D", "2C"], None, "");
    assert_eq!(t.check_move(pile(1), pile(2), STD), Ok(()));
    assert!(!t.is_productive_move(pile(1), pile(2), STD));
    assert!(t.is_productive_move(pile(3), pile(2), STD));
}

#[test]
fn a_move_carries_one_card_only() {
    let mut t = table(["5H 7C 9D", "", "KS", "2C"], None, "");
    assert_eq!(
        t.apply(
            Action::Move {
                from: pile(1),
                to: pile(2)
            },
            STD,
            1
        ),
        Ok(())
    );
    assert_eq!(t.pile(PileIndex::ALL[0]), cards("5H 7C").as_slice());
    assert_eq!(t.pile(PileIndex::ALL[1]), cards("9D").as_slice());
}

#[test]
fn a_deal_puts_one_card_on_each_pile_left_to_right_including_empty_piles() {
    let mut t = table(["5H", "", "KS", "2C"], None, "3D 4D 5D 6D 7D 8D 9D 10D");
    assert_eq!(t.apply(Action::Deal, STD, 1), Ok(()));
    assert_eq!(t.pile(PileIndex::ALL[0]), cards("5H 3D").as_slice());
    assert_eq!(t.pile(PileIndex::ALL[1]), cards("4D").as_slice());
    assert_eq!(t.pile(PileIndex::ALL[2]), cards("KS 5D").as_slice());
    assert_eq!(t.pile(PileIndex::ALL[3]), cards("2C 6D").as_slice());
    assert_eq!(t.stock_len(), 4);
}

#[test]
fn dealing_is_allowed_while_discards_remain() {
    let t = table(["5H", "9H", "KS", "2C"], None, "3D 4D 5D 6D");
    assert!(t.check_discard(pile(1), STD).is_ok());
    assert_eq!(t.check_deal(), Ok(()));
    assert!(t.legal_actions(STD, 0).contains(&Action::Deal));
}

#[test]
fn there_is_no_redeal() {
    let t = table(["5H", "9H", "KS", "2C"], None, "");
    assert_eq!(t.check_deal(), Err(ActionError::StockEmpty));
}

#[test]
fn the_game_is_not_over_while_the_stock_has_cards() {
    let t = table(["5H", "9C", "KS", "2D"], None, "3D 4D 5D 6D");
    assert!(!t.is_stuck(STD, 0));
}

#[test]
fn the_game_is_over_only_without_discards_productive_moves_or_stock() {
    let stuck = table(["5H", "9C", "KS", "2D"], None, "");
    assert!(stuck.is_stuck(STD, 0));
    let discard_left = table(["5H", "9H", "KS", "2D"], None, "");
    assert!(!discard_left.is_stuck(STD, 0));
    let productive_left = table(["5H 3C", "", "KS", "2D"], None, "");
    assert!(!productive_left.is_stuck(STD, 0));
    // only an unproductive move (a lone card onto an empty pile) remains: game over
    let unproductive_only = table(["5H", "", "KS", "2D"], None, "");
    assert!(unproductive_only.is_stuck(STD, 0));
}

#[test]
fn a_usable_joker_keeps_the_game_going() {
    let t = table(["5H", "9C", "KS", "2D"], None, "");
    assert!(t.is_stuck(STD, 0));
    assert!(!t.is_stuck(STD, 1));
}

#[test]
fn the_joker_removes_every_non_ace_and_keeps_aces_in_order() {
    let mut t = table(["AS 5H AH 9C 2D", "KD", "", ""], None, "");
    let before = t.score();
    assert_eq!(
        t.apply(
            Action::Joker {
                pile: PileIndex::ALL[0]
            },
            STD,
            1
        ),
        Ok(())
    );
    assert_eq!(t.pile(PileIndex::ALL[0]), cards("AS AH").as_slice());
    assert_eq!(t.score(), before + 3);
    assert_eq!(t.jokers_left(), 0);
    assert_eq!(
        t.check_joker(PileIndex::ALL[1], 1),
        Err(ActionError::NoJokersLeft)
    );
}

#[test]
fn a_joker_on_a_pile_of_aces_or_an_empty_pile_is_refused() {
    let t = table(["AS AH", "", "KD", ""], None, "");
    assert!(matches!(
        t.check_joker(PileIndex::ALL[0], 1),
        Err(ActionError::NothingForJoker { .. })
    ));
    assert!(matches!(
        t.check_joker(PileIndex::ALL[1], 1),
        Err(ActionError::NothingForJoker { .. })
    ));
    assert_eq!(
        t.check_joker(PileIndex::ALL[2], 0),
        Err(ActionError::JokersOff)
    );
}

#[test]
fn aces_only_refuses_a_king_into_an_empty_pile_but_takes_an_ace() {
    let v = Variant::AcesOnly;
    let t = table(["5H KS", "", "2C AD", "3C"], None, "");
    assert_eq!(
        t.check_move(pile(1), pile(2), v),
        Err(ActionError::OnlyAcesToEmptyPiles)
    );
    assert_eq!(t.check_move(pile(3), pile(2), v), Ok(()));
    assert!(t.is_productive_move(pile(3), pile(2), v));
}

#[test]
fn aces_only_game_over_ignores_moves_of_non_aces() {
    let v = Variant::AcesOnly;
    let t = table(["5H KS", "", "2C", "3D"], None, "");
    assert!(t.is_stuck(v, 0));
    assert!(!t.is_stuck(STD, 0));
}

#[test]
fn the_cell_exists_only_in_the_free_cell_variant() {
    let t = table(["5H KS", "", "2C", "3D"], None, "");
    assert_eq!(
        t.check_move(pile(1), Place::Cell, STD),
        Err(ActionError::NoFreeCell)
    );
    assert_eq!(
        t.check_discard(Place::Cell, STD),
        Err(ActionError::NoFreeCell)
    );
    assert_eq!(
        t.check_move(pile(1), Place::Cell, Variant::FreeCell),
        Ok(())
    );
}

#[test]
fn the_cell_holds_at_most_one_card() {
    let t = table(["5H KS", "7C", "2C", "3D"], Some("4S"), "");
    assert_eq!(
        t.check_move(pile(1), Place::Cell, Variant::FreeCell),
        Err(ActionError::PlaceNotEmpty {
            place: PlaceName(Place::Cell)
        })
    );
}

#[test]
fn the_cell_card_may_move_onto_an_empty_pile_only() {
    let v = Variant::FreeCell;
    let t = table(["5H KS", "", "2C", "3D"], Some("4S"), "");
    assert_eq!(t.check_move(Place::Cell, pile(2), v), Ok(()));
    assert!(t.check_move(Place::Cell, pile(1), v).is_err());
}

#[test]
fn the_cell_card_can_be_discarded_and_can_justify_a_discard() {
    let v = Variant::FreeCell;
    let t = table(["5H", "", "2C", "3D"], Some("KH"), "");
    assert_eq!(t.check_discard(pile(1), v), Ok(()));
    let t = table(["KH", "", "2C", "3D"], Some("5H"), "");
    assert_eq!(t.check_discard(Place::Cell, v), Ok(()));
}

#[test]
fn deals_never_touch_the_cell() {
    let v = Variant::FreeCell;
    let mut t = table(["5H", "", "2C", "3D"], Some("KH"), "4C 5C 6C 7C");
    assert_eq!(t.apply(Action::Deal, v, 0), Ok(()));
    assert_eq!(t.cell(), Some(card("KH")));
    assert_eq!(t.pile(PileIndex::ALL[1]), cards("5C").as_slice());
}

#[test]
fn free_cell_game_over_counts_moves_into_the_cell_as_productive() {
    let v = Variant::FreeCell;
    let t = table(["5H 9C", "KS", "2D", "3H"], None, "");
    assert!(!t.is_stuck(v, 0));
    assert!(t.is_stuck(STD, 0));
}

#[test]
fn won_when_all_48_non_aces_are_removed() {
    let t = table(["AS", "AH", "AD", "AC"], None, "");
    assert!(t.is_won());
    let t = table(["AS", "AH", "AD", "AC 2C"], None, "");
    assert!(!t.is_won());
}

#[test]
fn a_refused_action_leaves_the_table_exactly_as_it_was() {
    let t = table(["5H", "9C", "KS", "2D"], None, "");
    let mut changed = t.clone();
    for action in [
        Action::Discard { from: pile(1) },
        Action::Move {
            from: pile(1),
            to: pile(2),
        },
        Action::Deal,
        Action::Joker {
            pile: PileIndex::ALL[0],
        },
        Action::Discard { from: Place::Cell },
    ] {
        assert!(changed.apply(action, STD, 0).is_err());
        assert_eq!(changed, t);
    }
}

#[test]
fn legal_actions_are_exactly_the_actions_that_check_ok() {
    let t = table(["5H 7C", "", "KH", "2C"], None, "3D 4D 5D 6D");
    let legal = t.legal_actions(STD, 1);
    assert_eq!(
        legal,
        vec![
            Action::Discard { from: pile(4) },
            Action::Move {
                from: pile(1),
                to: pile(2)
            },
            Action::Move {
                from: pile(3),
                to: pile(2)
            },
            Action::Move {
                from: pile(4),
                to: pile(2)
            },
            Action::Deal,
            Action::Joker {
                pile: PileIndex::ALL[0]
            },
            Action::Joker {
                pile: PileIndex::ALL[2]
            },
            Action::Joker {
                pile: PileIndex::ALL[3]
            },
        ]
    );
}

#[test]
fn validate_catches_missing_and_duplicate_cards() {
    let deck = Deck::from_deal_number(9);
    let mut t = Table::new(&deck, 0);
    assert!(t.validate(STD).is_ok());
    t.removed.push(card("AS"));
    assert!(t.validate(STD).is_err());
    let mut t = Table::new(&deck, 0);
    t.stock.pop();
    assert!(t.validate(STD).is_err());
    let t = Table::new(&deck, 0);
    let mut with_cell = t.clone();
    let moved = with_cell.stock.remove(0);
    with_cell.cell = Some(moved);
    assert!(with_cell.validate(STD).is_err());
}

#[test]
fn smart_move_discards_when_it_can() {
    let t = table(["5H 7C", "", "KH", "9C"], None, "");
    assert_eq!(
        t.smart_action(pile(1), STD),
        Ok(Action::Discard { from: pile(1) })
    );
}

#[test]
fn smart_move_otherwise_moves_to_the_leftmost_empty_pile_if_productive() {
    let t = table(["", "5H 7C", "", "KS"], None, "");
    assert_eq!(
        t.smart_action(pile(2), STD),
        Ok(Action::Move {
            from: pile(2),
            to: pile(1)
        })
    );
    assert_eq!(
        t.smart_action(pile(4), STD),
        Err(ActionError::NoSmartMove {
            card: card("KS"),
            reason: SmartMoveBlock::AloneInPile
        })
    );
    let full = table(["2S", "5H 7C", "3D", "KS"], None, "");
    assert_eq!(
        full.smart_action(pile(2), STD),
        Err(ActionError::NoSmartMove {
            card: card("7C"),
            reason: SmartMoveBlock::NoEmptyPile
        })
    );
    assert_eq!(
        table(["5H 7C", "", "", ""], None, "").smart_action(pile(1), Variant::AcesOnly),
        Err(ActionError::NoSmartMove {
            card: card("7C"),
            reason: SmartMoveBlock::NotAnAce
        })
    );
}

#[test]
fn smart_move_sends_the_cell_card_to_the_leftmost_empty_pile() {
    let t = table(["5H 7C", "2D", "", ""], Some("KS"), "");
    assert_eq!(
        t.smart_action(Place::Cell, Variant::FreeCell),
        Ok(Action::Move {
            from: Place::Cell,
            to: pile(3)
        })
    );
}
