# UNO Show 'Em No Mercy (2023): 168 cards, draw cards that stack on one of equal or greater
# value, sevens and zeros that move hands, drawing until you can play, and the Mercy Rule that
# knocks out a player who holds 25 cards. The official sheet's card points were not found: those
# below only order the cards for dealing and are never scored.

ruleset no-mercy "UNO Show 'Em No Mercy" {
  about "Match the top card by color, number or symbol and be the first to play every card, or the last player left. Draw cards stack on draw cards of equal or greater value, and the player who cannot stack draws the whole total; a player who cannot play draws until they can; a 7 swaps hands, a 0 passes every hand on; and a player who ever holds 25 cards is out."
  players 2 to 10
  deal 7

  option mercy_limit = 25 from 2
    "A player who holds this many cards or more is knocked out of the game at once."
  option uno_penalty = 2 from 0 "Cards drawn by a player caught not saying UNO."
  option reneging = yes "A player may draw instead of playing a card they could play."

  colors { red R "Red", yellow Y "Yellow", green G "Green", blue B "Blue" }

  counter pending = 0 "Cards the next player must draw unless they stack."

  card number 0..9 "Number" { colored; code "{color}{rank}"; name "{Color} {rank}"; points rank }
  card skip "Skip" { colored; code "{color}S"; points 20; tags action }
  card skip_everyone "Skip Everyone" { colored; code "{color}SE"; points 30; tags action }
  card reverse "Reverse" { colored; code "{color}R"; points 20; tags action }
  card draw_two "Draw 2" { colored; code "{color}+2"; points 20; tags action, stacking; let draw = 2 }
  card draw_four "Draw 4" { colored; code "{color}+4"; points 30; tags action, stacking; let draw = 4 }
  card discard_all "Discard All" { colored; code "{color}DA"; points 30; tags action }
  card wild_reverse_draw_four "Wild Reverse Draw 4" { colorless; code "WR+4"; points 50; tags wild, stacking; let draw = 4 }
  card wild_draw_six "Wild Draw 6" { colorless; code "W+6"; points 50; tags wild, stacking; let draw = 6 }
  card wild_draw_ten "Wild Draw 10" { colorless; code "W+10"; points 50; tags wild, stacking; let draw = 10 }
  card wild_color_roulette "Wild Color Roulette" { colorless; code "WCR"; points 50; tags wild }

  deck {
    each color { 2 number 0..9, 3 skip, 2 skip_everyone, 3 reverse, 3 draw_two, 2 draw_four, 3 discard_all },
    8 wild_reverse_draw_four,
    4 wild_draw_six,
    4 wild_draw_ten,
    8 wild_color_roulette
  }

  match card.color == color "a card of the current color"
  match card.kind == top.kind and card.rank == top.rank
    "a card with the same number or symbol as the top card"
  match card is wild "a wild card, at any time"
  match pending > 0 and card is stacking and card.draw >= top.draw
    "while draws are pending, a draw card of equal or greater value, whatever its color"

  play only if pending == 0 or (card is stacking and card.draw >= top.draw)
    "While draws are pending, only a draw card of equal or greater value may be played: it adds to the total."
  renege if reneging or pending > 0
    "You may draw instead of playing, even when you hold a card you could play."

  highest (card.rank if card.kind == number else 0) deals
    "Each player turns a card; the highest number deals (action and wild cards count as zero)."

  define stack(n) { add n to pending; if player.cards == 0 { next draws pending; set pending to 0 } }

  on play number 7 "Swap hands with a player of your choice." {
    player picks target from others
    if player.cards > 0 { player swaps hands with target }
  }
  on play number 0 "Every player passes their hand to the next player in the direction of play." {
    if player.cards > 0 { pass hands }
  }
  on play skip "The next player loses their turn." { skip next }
  on play skip_everyone "You take another turn at once." { player plays again }
  on play reverse "Play changes direction. With two players it acts like a Skip." {
    reverse
    if players == 2 { skip next }
  }
  on play draw_two, draw_four "Add the card's draw to the total; the next player stacks a draw card of equal or greater value, or draws the whole total and loses their turn." {
    stack(card.draw)
  }
  on play wild_draw_six, wild_draw_ten "Choose the color and add the card's draw to the total; the next player stacks or draws it all." {
    player chooses a color
    stack(card.draw)
  }
  on play wild_reverse_draw_four "Choose the color; play changes direction, and four are added to the total for the next player in the new direction." {
    player chooses a color
    reverse
    stack(4)
  }
  on play wild_color_roulette "The next player chooses a color, turns cards from the stock until one of that color comes up, keeps them all and loses their turn; their color continues play." {
    next chooses a color
    next draws until it.color == color
    skip next
  }
  on play discard_all "Discard every other card of its color from your hand, under it." {
    player discards every c in player.hand where c.color == card.color
  }

  on draw "With draws pending, draw the whole total and lose the turn; otherwise draw until you draw a card you can play, and play it." {
    if pending > 0 {
      player draws pending
      set pending to 0
    } else {
      player draws until it is playable
      player must play it
    }
  }

  whenever some s in everyone where s.cards >= mercy_limit "The Mercy Rule: a player who holds 25 or more cards is knocked out of the game." {
    eliminate s
  }

  starter number "A number turned up to start has no effect." { }
  starter otherwise "An action or wild card turned up to start is put back, and another card is turned." {
    return it and turn another
  }

  window uno "Saying UNO" {
    opens when player.cards == 1
    closes when a turn begins
    player may uno "Say UNO whenever you are left with one card, before anyone catches you." { }
    others may catch "Catch a player with one card who has not said UNO." { player draws uno_penalty }
  }

  on round end "The first player to go out, or the last player left, wins the game." {
    if winner != none { winner scores 1 }
    end game highest wins
  }
}
