# Seven-O: the official house rule of the 2008 sheet.
module seven-o "Seven-O" {
  about "Play a 7 and swap hands with a player of your choice; play a 0 and every player passes their hand to the next player in the direction of play."
  requires number 7, number 0

  option seven_o_zero_last_card = "ends-round" one of "ends-round", "passes"
    "A 0 played as the last card ends the round at once (ends-round), or the hands still pass, so its player receives a hand and plays on (passes)."
  option seven_o_seven_last_card = "ends-round" one of "ends-round", "swaps"
    "A 7 played as the last card ends the round at once with no trade (ends-round), or the trade still happens, so its player receives a hand and plays on (swaps). Name the player with the play (play R7 p3); a last 7 played without one trades with the next player."

  on play number 7 "Swap hands with a player of your choice." {
    player picks target from others
    if player.cards > 0 {
      player swaps hands with target
    } else if seven_o_seven_last_card == "swaps" {
      if target == none { player swaps hands with next } else { player swaps hands with target }
    }
  }

  on play number 0 "Every player passes their hand to the next player in the direction of play." {
    if player.cards > 0 or seven_o_zero_last_card == "passes" { pass hands }
  }

  window uno "Saying UNO" {
    opens when player.cards == 1
    closes when a turn begins
    player may uno "Say UNO whenever you are left with one card: as your next-to-last card lands, or when a swap or a passing of hands leaves you one, before anyone catches you." { }
    others may catch "Catch a player with one card who has not said UNO." { player draws uno_penalty }
  }
}
