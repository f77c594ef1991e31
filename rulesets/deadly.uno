# Deadly UNO.
module deadly "Deadly UNO" {
  about "A player who cannot play is out of the round instead of drawing; the last player left in the round wins it."

  renege if no "You must play if you can."
  on draw "A player who cannot play is out of the round; their cards go under the stock." {
    eliminate player from the round
  }
}
