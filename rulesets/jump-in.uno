# Jump-In: the official house rule of the 2008 sheet.
module jump-in "Jump-In" {
  about "Anyone holding a card identical to the top card (same color and same number or symbol) may play it at once, even out of turn; play goes on from them, and the card they jumped in on loses its effect."

  honest wild_draw_four if jumped or not (some c in player.hand where c.color == color)
    "Only when you hold no card of the current color, unless you jump in with it on another Wild Draw Four."

  option jump_in_effect = "second-cancels" one of "second-cancels", "first-stands"
    "What happens to the card jumped in on: its effect is undone and only the jumper's card acts, from the jumper (second-cancels, the 2008 sheet); or its effect stands (cards drawn stay drawn, a pending draw stays pending, a reversal stays) and the jumper's card acts on top of it, from the jumper (first-stands, Killer UNO's \"wait until the person has drawn their penalty cards\")."

  window jump "Jumping in" {
    opens after play
    closes when a turn begins
    anyone may jump with a card where card.code == top.code
      "Play a card identical to the top card, out of turn: the card you cover loses its effect, and play goes on from you." {
      if jump_in_effect == "second-cancels" { cancel top }
      actor plays card
    }
  }
}
