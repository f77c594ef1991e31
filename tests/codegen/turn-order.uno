# Rules that test a window whose actions out of turn are offered in turn order: a player must
# play a card they can play, so a lone play goes without its UNO, and the others who would catch
# the player get their chance in the order of play from that player, not in a random order
# (Windows.out_of_turn_order).
ruleset turn-order "Caught in turn" extends classic {
  renege if no "You must play a card you can play."

  window uno "Saying UNO" {
    opens after play when player.cards == 1
    closes when a turn begins
    in turn order
    player may uno "Say UNO as your next-to-last card lands, or before anyone catches you." { }
    others may catch "Catch a player with one card who has not said UNO." { player draws uno_penalty }
  }
}
