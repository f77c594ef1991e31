# The 2015 edition (Mattel sheet 42003): 112 cards, with one Wild Swap Hands and three Wild
# Customizable cards. The house rule of a Customizable card is written below, in `on play
# wild_customizable`; examples/customizable/ holds rules to put there.
ruleset swap-hands "UNO with Wild Swap Hands (2015)" extends classic {
  about "Classic UNO with a Wild Swap Hands card (swap your hand with any opponent's) and Wild Customizable cards, which carry a house rule the players write."

  option customizable_count = 3 from 0 to 3
    "How many Wild Customizable cards to use (the sheet says 1 to 3)."
  option swap_hands_optional = no "The Swap Hands swap is optional: its player may decline it."
  option special_last_card = "plain-wild" one of "plain-wild", "acts"
    "A Swap Hands card played as the last card is a plain Wild and its player goes out (plain-wild), or it still swaps (acts)."
  option starter_special_wild = "color-only" one of "color-only", "acts"
    "A Wild Swap Hands (or Wild Shuffle Hands) turned up to start: the player left of the dealer only chooses the color, then plays first (color-only, the 2015 sheet); or that player also gets the card's effect, as if they had played it: they choose the color and swap hands with an opponent of their choice, or every hand is shuffled and dealt out again (acts). A Wild Customizable starter is always a color choice only."

  card wild_swap_hands "Wild Swap Hands" { colorless; code "WSH"; points 40; tags wild }
  card wild_customizable "Wild Customizable" { colorless; code "WC"; points 40; tags wild }

  deck {
    each color { 1 number 0, 2 number 1..9, 2 skip, 2 reverse, 2 draw_two },
    4 wild,
    4 wild_draw_four,
    1 wild_swap_hands,
    customizable_count wild_customizable
  }

  on play wild_swap_hands "Choose the color and swap hands with any opponent." {
    player chooses a color
    if swap_hands_optional {
      player may pick victim from opponents
      if player.cards > 0 or special_last_card == "acts" { player swaps hands with victim }
    } else {
      player picks victim from opponents
      if player.cards > 0 or special_last_card == "acts" { player swaps hands with victim }
    }
  }

  on play wild_customizable "Choose the color. The house rule written on the card goes here." {
    player chooses a color
  }

  starter wild_swap_hands "The player left of the dealer chooses the color, then plays first." {
    if starter_special_wild == "acts" { as if next played it } else { next chooses a color }
  }
  starter wild_customizable "The player left of the dealer chooses the color, then plays first." {
    next chooses a color
  }

  window uno "Saying UNO" {
    opens when player.cards == 1
    closes when a turn begins
    player may uno "Say UNO whenever you are left with one card: as your next-to-last card lands, or when a swap of hands leaves you one, before anyone catches you." { }
    others may catch "Catch a player with one card who has not said UNO." { player draws uno_penalty }
  }
}
