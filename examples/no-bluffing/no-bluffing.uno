# No bluffing: the Wild Draw Four can only be played honestly, so it is never challenged.
#
# What changes compared to classic:
#   - Classic lets a player put down a Wild Draw Four while holding a card of the current color
#     (a bluff), and lets the victim challenge it. Here the rules refuse that play outright: a Wild
#     Draw Four may only be played by a player who holds no card of the current color. Cards of
#     another color with the same number or symbol, other wilds and other Wild Draw Fours do not
#     count, exactly as in classic's own honesty test.
#   - Since every Wild Draw Four is honest, there is no challenge: the next player simply draws
#     four and loses their turn.
#   - A drawn Wild Draw Four follows the same rule: it may be played at once only if the hand
#     holds no card of the current color.
# Everything else is classic.
#
# Why: the challenge is the rule new players understand least, and the one that slows a table
# down most (show your hand, argue, draw six). Children and casual groups often play like this
# without knowing the official rule; it also makes bots and online play simpler.
ruleset no-bluffing "UNO without bluffing" extends classic {
  about "Classic UNO, except that a Wild Draw Four may only be played when you hold no card of the current color; it cannot be challenged."

  play only if card.kind != wild_draw_four or not (some c in player.hand where c.color == color)
    "A Wild Draw Four may only be played when you hold no card of the current color."

  on play wild_draw_four "Choose the color; the next player draws four and loses their turn (no challenge: the play was honest)." {
    player chooses a color
    next draws 4
    skip next
  }
}
