# Rules whose cards move hands about, with no window to act in out of turn: how the basic bot
# weighs a play by where it sends each hand's cards (engine.probe.Flow), on every engine path.
# A jack swaps hands with an opponent its player names, a queen passes every hand on, and a king
# makes an opponent its player names draw two. An ace may be played on anything by a player
# holding three cards or more: a match rule that reads more than the cards and the color.
ruleset hands-move "Crazy Eights, hands on the move" extends crazy-eights {
  match card.rank == 1 and player.cards >= 3 "an ace, while you hold three cards or more"

  on play pip 11 "Swap hands with an opponent of your choice." {
    player picks victim from opponents
    player swaps hands with victim
  }
  on play pip 12 "Every player passes their hand to the next player." { pass hands }
  on play pip 13 "An opponent of your choice draws two cards." {
    player picks victim from opponents
    victim draws 2
  }
}
