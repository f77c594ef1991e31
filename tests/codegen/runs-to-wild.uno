# Rules that test how a bot chooses among runs of cards: a player may lay down cards of one color,
# each on the one before, and may end the run with a wild, which names a color for the run. The
# basic bot weighs a run by its first card and the color its last card names, so that here (unlike
# color-runs, where a run names no color of its own) a run is sometimes its best play.
ruleset runs-to-wild "Runs ending in a wild" extends classic {
  play runs where card.color == top.color and top.color != none or card.kind == wild and top.kind != wild
    "Play several cards of one color at once, ending with a wild if you like: only the last one takes effect."
}
