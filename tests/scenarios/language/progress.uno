# Progress: what counts as a blocked round. Here a turn may rightly move no card (a player who
# cannot play may knock instead of drawing), so the round is blocked only when the stock is too small
# and nobody has played for three laps.
ruleset progress "Knocking" extends classic {
  about "Classic UNO where a player who cannot play knocks and draws nothing while the stock holds fewer cards than there are players."

  on draw "Draw one card, unless the stock holds fewer cards than there are players: then knock, and play passes on." {
    if stock.size >= players {
      player draws 1
      player may play it
    }
  }

  when the stock runs out "The stock is not renewed." { }

  blocked when stock.size < players and turns_without_play >= 3 * players
    "The round is blocked once the stock holds fewer cards than there are players and nobody has played for three laps."
}
