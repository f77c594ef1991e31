# Rules that test how the generated loop goes on after an action out of turn: a player holding
# six cards or more may be poked by the others, at any time (the window stays open across
# turns), and draws four; whoever holds ten or more is out. A poke at the player deciding a turn
# can put that player out, or leave one player and end the round (Game._settle_out_of_turn).
ruleset moves-on "Poked out" extends classic {
  players 2 to 4

  whenever some s in everyone where s.cards >= 10 "A player who holds ten cards or more is out of the game." {
    eliminate s
  }

  window poke "Poking" {
    opens when player.cards >= 6
    others may poke "Poke a player with six cards or more: they draw four." { player draws 4 }
  }

  on round end "The last player left wins the game; otherwise classic scoring." {
    if players == 1 { end game highest wins } else { winner scores total s.points for s in opponents }
    if some s in everyone where s.score >= target { end game highest wins }
  }
}
