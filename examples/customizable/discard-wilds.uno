# Wild Customizable: "everyone else throws away their wilds".
# Official suggestion V-SW-5 #2: "Everyone but you must discard all their Wild
# cards"; the seed list V-SW-6 has it too ("Everyone (but you) discards their Wild cards").
# Every card tagged `wild` counts: Wild, Wild Draw Four, Wild Swap Hands and Wild Customizable.
# The discarded cards go onto the discard pile under the top card, so the Customizable card stays
# on top and the color its player names goes on. Nobody draws anything in exchange; a player whose
# hand held nothing but wilds is left with no cards, and a player with no cards has gone out
# (R-END-1: "Once a player has no cards left, the round is over"). Played as its player's
# last card, the card is a plain Wild (as R-END-3 and V-SW-4 say of other last cards): the round
# ends and the other hands, wilds included, are scored as they are.
module discard-wilds "Customizable: everyone else discards their wilds" {
  about "Wild Customizable: name a color; every other player discards all the wild cards in their hand."
  requires wild_customizable

  on play wild_customizable "Choose the color; every other player discards all their wild cards." {
    player chooses a color
    if player.cards > 0 {
      for each s in others {
        s discards every c in s.hand where c is wild
      }
    }
  }
}
