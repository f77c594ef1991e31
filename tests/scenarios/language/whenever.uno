# Rules that fire on a state: a player who holds ten cards or more is out (whatever made them
# draw), a stacked penalty never grows past eight, and the UNO window opens whenever a player is
# left with one card, however that happened (a 7 swaps hands here).
ruleset whenever "Whenever" extends classic {
  about "Classic UNO with stacking, a knock-out at ten cards, and sevens that swap hands."
  uses progressive
  players 2 to 6
  deal 5

  option limit = 10 "A player who holds this many cards or more is out of the game."

  whenever some s in everyone where s.cards >= limit "A player who holds the limit or more is out of the game." {
    eliminate s
  }

  whenever pending > 8 "A stacked penalty never grows past eight cards." { set pending to 8 }

  on play number 7 "Swap hands with a player of your choice." {
    player picks target from others
    if player.cards > 0 { player swaps hands with target }
  }

  window uno "Saying UNO" {
    opens when player.cards == 1
    closes when a turn begins
    player may uno "Say UNO whenever you are left with one card." { }
    others may catch "Catch a player with one card who has not said UNO." { player draws uno_penalty }
  }

  on round end "The last player left wins the game; otherwise classic scoring." {
    if players == 1 { end game highest wins } else { winner scores total s.points for s in opponents }
    if some s in everyone where s.score >= target { end game highest wins }
  }
}
