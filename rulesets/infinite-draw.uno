# Infinite draw ("draw to match").
module infinite-draw "Infinite draw" {
  about "A player who draws keeps drawing until they draw a card they can play; penalty draws are not affected. If the stock and the discard pile run out, the drawing stops and the turn ends."

  on draw "Draw until you draw a card you can play, then you may play it." {
    player draws until it is playable
    if force_play_drawn { player must play it } else { player may play it }
  }
}
