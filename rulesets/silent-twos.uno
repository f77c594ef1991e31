# Silent twos: a Killer UNO sub-variation.
module silent-twos "Silent twos" {
  about "When a 2 is played, nobody may make a sound until play comes back to its player; the first to make a sound draws two."
  requires number 2

  after play "The first other player to make a sound draws two." {
    if card.kind == number and card.rank == 2 and player.cards > 0 {
      race among others "Who made a sound first?" as loser { loser draws 2 }
    }
  }
}
