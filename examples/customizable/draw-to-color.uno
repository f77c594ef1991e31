# Wild Customizable: "draw to a color".
# Official suggestion V-SW-5 #1: "The next player must draw until they draw a card
# of a certain color." The player of the card names the color (it is also the color that goes on),
# and the next player draws one card at a time until a card of that color turns up. A wild card has
# no color, so it does not stop the drawing. The next player keeps their turn: the suggestion does
# not say they lose it, so they may well play the card that stopped them. If the stock and the
# discard pile run out, the drawing simply stops.
# Played as its player's last card, the card still makes the next player draw before the hands are
# scored, as a final Draw Two or Wild Draw Four does (R-END-2): name the color with the
# play (`play WC red`); without one, the color already in play counts.
module draw-to-color "Customizable: draw to a color" {
  about "Wild Customizable: name a color; the next player draws until they draw a card of that color."
  requires wild_customizable

  on play wild_customizable "Choose the color; the next player draws until they draw a card of that color." {
    player chooses a color
    next draws until it.color == color
  }
}
