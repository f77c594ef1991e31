# The 2018 edition: 112 cards, with one Wild Shuffle Hands and three Wild Customizable cards.
ruleset shuffle-hands "UNO with Wild Shuffle Hands (2018)" extends swap-hands {
  about "Classic UNO with a Wild Shuffle Hands card (every hand is gathered, shuffled and dealt out again) and Wild Customizable cards, which carry a house rule the players write."

  option shuffle_deal_from = "left" one of "left", "next"
    "Shuffled hands are dealt one at a time clockwise starting left of the card's player (left), or starting with the next player in the direction of play (next)."

  remove card wild_swap_hands
  option shuffle_hands_points = 40 from 0
    "Points a Wild Shuffle Hands card is worth in the scoring (40 per a third-party source; the 2018 sheet gives none)."

  card wild_shuffle_hands "Wild Shuffle Hands" { colorless; code "WSHU"; points shuffle_hands_points; tags wild }

  deck {
    each color { 1 number 0, 2 number 1..9, 2 skip, 2 reverse, 2 draw_two },
    4 wild,
    4 wild_draw_four,
    1 wild_shuffle_hands,
    customizable_count wild_customizable
  }

  on play wild_shuffle_hands "Choose the color; every hand, yours included, is gathered, shuffled and dealt out again one card at a time." {
    player chooses a color
    if player.cards > 0 or special_last_card == "acts" {
      if shuffle_deal_from == "left" { shuffle hands and deal from left } else { shuffle hands and deal from next }
    }
  }

  starter wild_shuffle_hands "The player left of the dealer chooses the color, then plays first." {
    if starter_special_wild == "acts" { as if next played it } else { next chooses a color }
  }

  window uno "Saying UNO" {
    opens when player.cards == 1
    closes when a turn begins
    player may uno "Say UNO whenever you are left with one card: as your next-to-last card lands, or when a shuffle of the hands leaves you one, before anyone catches you." { }
    others may catch "Catch a player with one card who has not said UNO." { player draws uno_penalty }
  }
}
