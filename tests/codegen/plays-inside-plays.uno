# Rules that test how the generated turn loop writes a play made inside a card's effect: a wild
# whose effect first offers another card, then reads whether one was played, then names the
# color its own play named (the play inside it names a color of its own, or none).
ruleset plays-inside-plays "Plays inside plays" extends classic {
  players 2 to 4

  on play wild "You may first play another wild or a card of the color in play; draw one if you do not. Then choose the color." {
    player may play a card where card is wild or card.color == color
    if not played { player draws 1 }
    player chooses a color
  }
}
