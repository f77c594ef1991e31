# Piles: cards put on top of or under the stock and the discard pile, a pile turned over, the
# stock's size as a value, and what happens when the stock runs out.
ruleset piles "Piles" extends classic {
  about "Classic UNO with cards that move cards between the piles, and a stock renewed from the discard pile without its wild cards."

  counter renewals = 0 "How many times the stock has been renewed this round."

  card bury "Bury" { colored; code "{color}U"; points 20 }
  card stack "Stack" { colored; code "{color}K"; points 20 }
  card turn "Turn" { colored; code "{color}T"; points 20 }

  deck {
    each color { 1 number 0, 2 number 1..9, 2 skip, 2 reverse, 2 draw_two, 1 bury, 1 stack, 1 turn },
    4 wild,
    4 wild_draw_four
  }

  on play bury "The player puts a card of their choice from their hand at the bottom of the stock." {
    player picks gone from player.hand
    player puts gone at the bottom of the stock
  }

  on play stack "The player puts a card of their choice on top of the stock: the next player to draw gets it. With 3 cards or fewer in the stock, they draw one more instead." {
    if stock.size > 3 {
      player picks gift from player.hand
      player puts gift on top of the stock
    } else {
      player draws 1
    }
  }

  on play turn "The stock is turned over." { turn the stock over }

  when the stock runs out "The discard pile, except its top card and its wild cards, is shuffled into a new stock." {
    shuffle the discard pile into the stock except the top card where card is not wild
    add 1 to renewals
  }
}
