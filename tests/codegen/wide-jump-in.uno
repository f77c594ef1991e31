# Rules that test jumping in with any of many cards: anyone may play a number card of the top
# card's color out of turn (nineteen or more cards may do, more than a few), or a wild on a wild
# (two may). The native engine reads whether a seat holds one of a few cards from its copies of
# each card, and looks through the hand where many may (native.windows.acting_seats): both here.
ruleset wide-jump-in "Jumping in wide" extends classic {
  window jump "Jumping in" {
    opens after play
    closes when a turn begins
    anyone may jump with a card where card.kind == number and card.color == top.color and top.kind == number
        or card.kind == wild and top.kind == wild
      "Play a number card of the top card's color on a number, or a wild on a wild, out of turn: play goes on from you." {
      actor plays card
    }
  }
}
