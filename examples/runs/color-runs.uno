# Runs of one color: a house rule where a player may lay down, in one turn, any number of cards of
# one color, each on the one before it; only the last card of the run takes effect. It shows
# `play runs where`: the cards after the first meet the condition, with `top` the card before.

module color-runs "Runs of one color" {
  play runs where card.color == top.color
    "Play several cards of one color at once, in any order: only the last one takes effect."
}
