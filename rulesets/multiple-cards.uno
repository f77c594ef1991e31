# Multiple cards.
module multiple-cards "Multiple cards" {
  about "After playing a card you may play more cards of the same number or symbol at once, one after another; each card takes effect, and the last one sets the color."

  option multiple_cards_match = "same-rank" one of "same-rank", "identical"
    "Which cards may follow the first one: any card of the same number or symbol, whatever its color (same-rank); or only cards identical to it, same color and same number or symbol (identical, the literal \"colour and rank\")."

  after play "You may add another card of the same number or symbol, or pass." {
    if player.cards > 0 {
      if multiple_cards_match == "identical" {
        player may play a card where card.code == top.code
      } else {
        player may play a card where card.kind == top.kind and card.rank == top.rank
      }
    }
  }
}
