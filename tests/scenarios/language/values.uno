# Values the rules set and pick: the current color as a value, chance over any collection,
# and choices a player may decline. Each card below shows one of them; the rest is classic.
ruleset values "Values the rules set and pick" extends classic {
  about "Classic UNO with cards whose effects set the color, pick at random, or offer a choice that may be declined."

  card paint "Paint" { colorless; code "P"; points 50; tags wild }
  card gift "Gift" { colored; code "{color}G"; points 20 }

  deck {
    each color { 1 number 0, 2 number 1..9, 2 skip, 2 reverse, 2 draw_two, 1 gift },
    4 wild,
    4 wild_draw_four,
    2 paint
  }

  on play paint "Chance picks a new color, never the one in play." {
    chance hue "Which color came up?" from colors where hue != color
    set color to hue
  }

  on play number 3 "The player may choose a new color, or keep the one in play." {
    player may choose a color
  }

  on play number 4 "The player may make another player draw a card." {
    player may pick victim from others
    if victim != none { victim draws 1 }
  }

  on play number 5 "Chance picks another player, who draws a card." {
    chance victim from others
    victim draws 1
  }

  on play number 6 "A player who still holds a red card chooses the color." {
    if some c in player.hand where c.color == red { player chooses a color }
  }

  on play gift "The player puts a colored card of their choice from their hand under the top card; the color becomes that card's." {
    player picks present from player.hand where present.colored
    if present != none {
      set color to present.color
      player discards present
    }
  }

  on play number 8 "Chance picks a card of the next player's hand; its color becomes the color." {
    chance found from next.hand where found.colored
    if found != none { set color to found.color }
  }
}
