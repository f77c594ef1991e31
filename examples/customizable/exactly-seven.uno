# Wild Customizable: "seven cards, no more, no less".
# Official suggestion V-SW-5 #5: "The next player must draw or discard until they
# have exactly 7 cards."
# With fewer than 7 cards the next player draws the difference; with more, they choose the cards to
# give up, one at a time, and each goes onto the discard pile under the top card (so the
# Customizable card stays on top and its color goes on). A player who already holds 7 does
# nothing. If the stock and the discard pile run out, the player keeps what they could draw. The
# next player keeps their turn: the suggestion does not say they lose it. Played as its player's
# last card, the card is a plain Wild (as R-END-3 and V-SW-4 say of other last cards): the
# round ends and the next hand is scored as it is.
module exactly-seven "Customizable: the next player gets exactly 7 cards" {
  about "Wild Customizable: name a color; the next player draws or discards (cards of their choice) until they hold exactly 7 cards."
  requires wild_customizable

  on play wild_customizable "Choose the color; the next player draws or discards until they hold exactly 7 cards." {
    player chooses a color
    if player.cards > 0 {
      if next.cards < 7 {
        next draws 7 - next.cards
      }
      while next.cards > 7 {
        next picks c from next.hand
        next discards c
      }
    }
  }
}
