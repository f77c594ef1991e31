# Multiple cards.
module multiple-cards "Multiple cards" {
  about "After playing a card you may play more cards of the same number or symbol at once, one after another; each card takes effect, and the last one sets the color."

  after play "You may add another card of the same number or symbol, or pass." {
    if player.cards > 0 {
      player may play a card where card.kind == top.kind and card.rank == top.rank
    }
  }
}
