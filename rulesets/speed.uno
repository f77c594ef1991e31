# Speed UNO (the South African Uno League, 2003-2004), as the older Wikipedia text describes it.
ruleset speed "Speed UNO" extends classic {
  about "Fast classic UNO: jump-in and cumulative draw cards; a 7 swaps hands with a player of your choice (who may block with a 7 of their own); a 0 passes all hands; the dealer's cut and the bets on it count; three identical cards in a row let the third player swap seats. Each player keeps the points left in their own hand, and the lowest total wins."
  uses progressive, jump-in
  set scoring = "tally"

  option cut_bonus = -50
    "Points for cutting exactly the cards dealt, and for a correct bet on it (lower is better)."
  option wrong_bet = 50 "Points for a wrong bet on the cut."
  option cut_spread = 10 from 0 to 50
    "The cut falls uniformly within this many cards of the exact number."
  option zero_last_card = "passes" one of "passes", "ends-round"
    "A 0 played as the last card still passes the hands, so its player receives a hand and plays on, as in Killer (passes); or it ends the round at once, with no passing (ends-round)."
  option blocking_seven = "keeps" one of "keeps", "discards"
    "A player who blocks a 7 swap with a 7 of their own keeps that 7 (keeps), or puts it under the top card of the discard pile (discards; with several 7s they choose which)."

  on round start "The dealer cuts the deck; every other player may bet that the cut was exactly the cards dealt." {
    chance cut "How many cards did the dealer cut?" from players * 7 - cut_spread to players * 7 + cut_spread
    if cut == players * 7 { dealer scores cut_bonus }
    for each s in others {
      ask s "Bet that the dealer cut exactly the cards dealt?" {
        bet "Bet on an exact cut." {
          if cut == players * 7 { s scores cut_bonus } else { s scores wrong_bet }
        }
        no_bet "Do not bet." { }
      }
    }
  }

  on play number 7 "Swap hands with a player of your choice. If they hold a 7 they may block: you then swap with a player of their choice instead. A 7 played as your last card ends the round at once, with no swap." {
    player picks target from others
    if player.cards > 0 {
      if some c in target.hand where c.rank == 7 {
        ask target "Block the swap with your 7?" {
          block "You keep your hand and choose whom the player must swap with instead." {
            if blocking_seven == "discards" {
              target picks seven from target.hand where seven.rank == 7
              target discards seven
            }
            target picks other from others where other != target
            player swaps hands with other
          }
          allow "Swap hands." { player swaps hands with target }
        }
      } else {
        player swaps hands with target
      }
    }
  }

  on play number 0 "Every player passes their hand to the next player in the direction of play (a 0 as your last card still passes)." {
    if player.cards > 0 or zero_last_card == "passes" { pass hands }
  }

  after play "Hat trick: the third identical card in a row lets its player swap seats with anyone; a longer run lets its player make two others swap seats, if they wish." {
    if run == 3 and player.cards > 0 {
      player picks other from others
      player swaps seats with other
    }
    if run > 3 and player.cards > 0 {
      player may pick first from others
      if first != none {
        player picks second from others where second != first
        first swaps seats with second
      }
    }
  }

  window uno "Saying UNO" {
    opens when player.cards == 1
    closes when a turn begins
    player may uno "Say UNO whenever you are left with one card: as your next-to-last card lands, or when a swap or a passing of hands leaves you one, before anyone catches you." { }
    others may catch "Catch a player with one card who has not said UNO." { player draws uno_penalty }
  }
}
