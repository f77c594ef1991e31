# Deadly UNO.
module deadly "Deadly UNO" {
  about "A player who cannot play is out of the round instead of drawing; the last player left in the round wins it."

  option deadly_out = "round" one of "round", "game"
    "A player who cannot play is out for the rest of the round and back for the next one, the last player left winning the round (round); or out of the whole game, the last player left winning the game (game)."

  renege if no "You must play if you can."
  on draw "A player who cannot play is out of the round; their cards go under the stock." {
    if deadly_out == "game" {
      eliminate player
      if players == 1 { end game highest wins }
    } else {
      eliminate player from the round
    }
  }
}
