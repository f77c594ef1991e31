# UNO H2O. No source gives the per-type counts of the H2O deck; the total stays 108 cards.
# The choice made here: the four plain Wilds give way to two Wild Downpour Draw 1 and two Wild
# Downpour Draw 2. Every count is an option, so a group that knows its box can set it.
ruleset h2o "UNO H2O" extends classic {
  about "Classic UNO with the Wild Downpour cards: when one is played its player names the color and every other player draws one or two cards."

  option wild_count = 0 from 0 to 20 "Plain Wild cards in the deck."
  option downpour_one_count = 2 from 0 to 20 "Wild Downpour Draw 1 cards in the deck."
  option downpour_two_count = 2 from 0 to 20 "Wild Downpour Draw 2 cards in the deck."
  option downpour_points = 20 from 0
    "Points a Wild Downpour card is worth in the scoring (one source says 20, wilds usually score 50)."
  option downpour_skips_next = no "The next player also loses their turn after a Wild Downpour."
  option downpour_starter = "first-chooses" one of "first-chooses", "dealer-plays"
    "A Wild Downpour turned up to start: the player left of the dealer chooses the color, then plays first, and nobody draws (first-chooses); or it acts as if the dealer had played it: the dealer chooses the color and every other player draws (dealer-plays)."

  card wild_downpour_one "Wild Downpour Draw 1" { colorless; code "WD1"; points downpour_points; tags wild; let draw = 1 }
  card wild_downpour_two "Wild Downpour Draw 2" { colorless; code "WD2"; points downpour_points; tags wild; let draw = 2 }

  deck {
    each color { 1 number 0, 2 number 1..9, 2 skip, 2 reverse, 2 draw_two },
    wild_count wild,
    4 wild_draw_four,
    downpour_one_count wild_downpour_one,
    downpour_two_count wild_downpour_two
  }

  on play wild_downpour_one, wild_downpour_two "Choose the color; every other player draws one (or two) cards, in the order of play." {
    player chooses a color
    others draws card.draw
    if downpour_skips_next { skip next }
  }

  starter wild_downpour_one, wild_downpour_two "The player left of the dealer chooses the color, then plays first; nobody draws." {
    if downpour_starter == "dealer-plays" { as if dealer played it } else { next chooses a color }
  }
}
