# Wild Customizable: "everyone down (or up) to three".
# Official suggestion V-SW-5 #6: "Everyone must discard (or draw) until they have
# exactly 3 cards."
# Everyone means every player, the one who played the card included, in the order of play starting
# with that player. A player with fewer than 3 cards draws the difference; a player with more
# chooses the cards to give up, one at a time, and each goes onto the discard pile under the top
# card (so the Customizable card stays on top and its color goes on). If the stock and the discard
# pile run out, a player keeps what they could draw. Nobody loses a turn.
# Played as its player's last card, the card is a plain Wild (as R-END-3 and V-SW-4 say
# of other last cards): the player has gone out, and the other hands are scored as they are.
module everyone-three "Customizable: everyone gets exactly 3 cards" {
  about "Wild Customizable: name a color; every player, you included, draws or discards (cards of their choice) until they hold exactly 3 cards."
  requires wild_customizable

  on play wild_customizable "Choose the color; every player draws or discards until they hold exactly 3 cards." {
    player chooses a color
    if player.cards > 0 {
      for each s in everyone {
        if s.cards < 3 {
          s draws 3 - s.cards
        }
        while s.cards > 3 {
          s picks c from s.hand
          s discards c
        }
      }
    }
  }
}
