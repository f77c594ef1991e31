# Killer UNO (Keith Chin-A-Loy and Mark Bomgardner, 1987), as the older Wikipedia text describes it.
ruleset killer "Killer UNO" extends classic {
  about "Classic UNO with jump-in, infinite draw and cumulative draw cards (Draw Twos on Draw Twos, Wild Draw Fours on Wild Draw Fours, never mixed); every 0 passes all hands along the direction of play. Red zero, silent twos and slapping the nines are options."
  uses progressive, jump-in

  option red_zero = no "The red 0 is a Draw Ten instead of passing hands."
  option red_zero_skips = yes
    "When the red 0 is a Draw Ten, the player who draws ten also loses their turn (like a Draw Two)."
  option silent_twos = no "After a 2, the first player to make a sound draws two."
  option nines = no "On a 9 everyone slaps the pile; the last hand in draws two."

  on draw "With cards pending, draw them all and lose the turn; otherwise draw until you can play, and you may play that card." {
    if pending > 0 {
      player draws pending
      set pending to 0
    } else {
      player draws until it is playable
      if force_play_drawn { player must play it } else { player may play it }
    }
  }

  on play number 0 "Every player passes their hand to the next player in the direction of play (a 0 as your last card still passes, so you do not go out)." {
    pass hands
  }

  on play "R0" "Like every 0, it passes all hands along." {
    if red_zero {
      next draws 10
      if red_zero_skips { skip next }
    } else {
      pass hands
    }
  }

  after play {
    if silent_twos and card.kind == number and card.rank == 2 and player.cards > 0 {
      race among others "Who made a sound first?" as loser { loser draws 2 }
    }
    if nines and card.kind == number and card.rank == 9 and player.cards > 0 {
      race among everyone "Whose hand was last on the pile?" as loser { loser draws 2 }
    }
  }

  window uno "Saying UNO" {
    opens when player.cards == 1
    closes when a turn begins
    player may uno "Say UNO whenever you are left with one card: as your next-to-last card lands, or when a passing of hands leaves you one, before anyone catches you." { }
    others may catch "Catch a player with one card who has not said UNO." { player draws uno_penalty }
  }
}
