# Nines: a Killer UNO sub-variation.
module nines "Slap the nines" {
  about "When a 9 is played, everyone slaps the pile; the last hand on it draws two."
  requires number 9

  after play "Everyone slaps the pile; the slowest draws two." {
    if card.kind == number and card.rank == 9 and player.cards > 0 {
      race among everyone "Whose hand was last on the pile?" as loser { loser draws 2 }
    }
  }
}
