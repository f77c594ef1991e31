# Card properties worked out in play: from the card's own color, the current color and a counter;
# the kinds whose property reads only the rank keep a fixed value.
ruleset properties "Card properties in play" extends classic {
  counter heat = 0 "How hot the game has run."
  card number 0..9 "Number" {
    colored; code "{color}{rank}"; name "{Color} {rank}"; points rank
    let warmth = (2 if card.color == red else 1)
    let blaze = rank + heat
    let matching = card.color == color
  }
  card skip "Skip" { colored; code "{color}S"; points 20; tags action; let warmth = 0; let blaze = 0 }
  on play number "A number warms the game by its warmth; one that blazes past 9 makes the next player draw one; past 7 the heat starts again at 0." {
    add card.warmth to heat
    if card.blaze > 9 { next draws 1 }
    if heat > 7 { set heat to 0 }
  }
  on play skip "Skip: the next player loses their turn, and draws one for each card of theirs that blazes past 9." {
    for each c in next.hand { if c.blaze > 9 { next draws 1 } }
    skip next
  }
  play only if not (card is skip) or some c in player.hand where c.matching
    "A Skip may be played only by a player who also holds a card of the current color."
}
