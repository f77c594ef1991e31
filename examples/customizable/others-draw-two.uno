# Wild Customizable: "everyone else draws two".
# Seed suggestion V-SW-6: "Everyone but you draws 2 immediately."
# The player names the color; every other player draws two cards, one player after the other in
# the order of play starting with the next player (which decides who goes short when the stock and
# the discard pile run out). Nobody loses a turn: play goes on with the next player.
# Played as its player's last card, the others still draw before the hands are scored, as after a
# final Draw Two or Wild Draw Four (R-END-2).
module others-draw-two "Customizable: everyone else draws two" {
  about "Wild Customizable: name a color; every other player draws two cards."
  requires wild_customizable

  on play wild_customizable "Choose the color; every other player draws two cards." {
    player chooses a color
    others draws 2
  }
}
