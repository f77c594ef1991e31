# Classic UNO: the official rules as Mattel printed them in 2008, with the defaults chosen where
# the official sheets disagree or say nothing (each such point is an option below).

ruleset classic "Classic UNO" {
  about "Match the top card of the discard pile by color, number or symbol, and be the first to play every card in your hand. The player who goes out scores the cards left in the other hands; the first to 500 points wins."
  players 2 to 10
  deal 7

  option target = 500 from 1 "Points that win the game."
  option uno_penalty = 2 from 0
    "Cards drawn by a player caught not saying UNO (the 2001 sheet says 4)."
  option scoring = "sum" one of "sum", "average", "tally", "elimination"
    "How a round is scored: the winner takes the points of all other hands (sum) or their average rounded down (average); or every player adds the points left in their own hand and the lowest total wins once someone reaches the target (tally); or, as in Challenge UNO, a player whose own total reaches the target is out, and the last one left wins (elimination)."
  option force_play_drawn = no "A drawn card that can be played must be played at once."
  option reneging = yes "A player may draw instead of playing a card they could play."
  option two_player_rules = yes
    "With two players, Reverse acts like Skip: the player who played it plays again."
  option challenge_guilty_skips = no
    "After a successful challenge the challenger loses their turn anyway."
  option w4_final_card_challengeable = no
    "A Wild Draw Four played as the last card can be challenged."
  option starter_reverse = "dealer-first" one of "dealer-first", "right-of-dealer"
    "A Reverse turned up to start: the dealer plays first and play goes right (dealer-first), or the player to the dealer's right starts (right-of-dealer)."
  option starter_wild = "first-chooses" one of "first-chooses", "redraw", "dealer-chooses"
    "A Wild turned up to start: the player left of the dealer chooses the color, then plays first (first-chooses, as the 2008 sheet and the card text say); or it goes back into the deck and another card is turned, like a Wild Draw Four (redraw, the 2001 setup paragraph); or, as if the dealer had played it, the dealer chooses the color and the player left of the dealer plays first (dealer-chooses)."
  option partners = no "Four players in two teams, partners sitting across from each other."

  colors { red R "Red", yellow Y "Yellow", green G "Green", blue B "Blue" }

  card number 0..9 "Number" { colored; code "{color}{rank}"; name "{Color} {rank}"; points rank }
  card skip "Skip" { colored; code "{color}S"; points 20; tags action }
  card reverse "Reverse" { colored; code "{color}R"; points 20; tags action }
  card draw_two "Draw Two" { colored; code "{color}+2"; points 20; tags action; let draw = 2 }
  card wild "Wild" { colorless; code "W"; points 50; tags wild }
  card wild_draw_four "Wild Draw Four" { colorless; code "W+4"; points 50; tags wild; let draw = 4 }

  deck {
    each color { 1 number 0, 2 number 1..9, 2 skip, 2 reverse, 2 draw_two },
    4 wild,
    4 wild_draw_four
  }

  match card.color == color "a card of the current color"
  match card.kind == top.kind and card.rank == top.rank
    "a card with the same number or symbol as the top card"
  match card is wild "a wild card, at any time"

  honest wild_draw_four if not (some c in player.hand where c.color == color)
    "Only when you hold no card of the current color. You may bluff, but you can be challenged."
  renege if reneging "You may draw instead of playing, even when you hold a card you could play."

  highest (card.rank if card.kind == number else 0) deals
    "Each player turns a card; the highest number deals (action and wild cards count as zero)."
  teams across if partners and players == 4
    "Partners sit across from each other and share their score."

  on play skip "The next player loses their turn." { skip next }

  on play reverse "Play changes direction. With two players it acts like a Skip." {
    reverse
    if players == 2 and two_player_rules { skip next }
  }

  on play draw_two "The next player draws two cards and loses their turn." {
    next draws 2
    skip next
  }

  on play wild "Choose the color that continues play." { player chooses a color }

  on play wild_draw_four "Choose the color; the next player draws four and loses their turn, unless they challenge." {
    player chooses a color
    if player.cards == 0 and not w4_final_card_challengeable {
      next draws 4
      skip next
    } else {
      ask next "Challenge the Wild Draw Four?" {
        challenge "Say it was a bluff: the player shows you their hand. If they held a card of the current color, they draw four cards instead of you; if not, you draw six cards and lose your turn." {
          reveal player to next
          if honest {
            next draws 6
            skip next
          } else {
            player draws 4
            if challenge_guilty_skips { skip next }
          }
        }
        accept "Draw four cards and lose your turn." {
          next draws 4
          skip next
        }
      }
    }
  }

  on draw "Draw one card; if it can be played you may play it at once, otherwise play passes on." {
    player draws 1
    if force_play_drawn { player must play it } else { player may play it }
  }

  starter wild_draw_four "Put it back in the deck, shuffle, and turn another card." { return it and turn another }
  starter reverse "The dealer plays first, and play goes to the right." {
    reverse
    if starter_reverse == "dealer-first" { dealer starts }
  }
  starter wild "The player left of the dealer chooses the color, then plays first." {
    if starter_wild == "redraw" {
      return it and turn another
    } else if starter_wild == "dealer-chooses" {
      dealer chooses a color
    } else {
      next chooses a color
    }
  }
  starter otherwise "It works as if the dealer had played it." { as if dealer played it }

  window uno "Saying UNO" {
    opens after play when player.cards == 1
    closes when a turn begins
    player may uno "Say UNO as your next-to-last card lands, or before anyone catches you." { }
    others may catch "Catch a player with one card who has not said UNO." { player draws uno_penalty }
  }

  on round end "The player who went out scores the points of the cards left in everyone else's hand. The first player to reach 500 points wins the game." {
    if scoring == "sum" { winner scores total s.points for s in opponents }
    if scoring == "average" {
      winner scores (total s.points for s in opponents) / (count s in opponents)
    }
    if scoring == "tally" {
      for each s in everyone { s scores s.points }
    }
    if scoring == "elimination" {
      for each s in everyone { s scores s.points }
      for each s in everyone { if s.score >= target { eliminate s } }
      if players == 1 { end game lowest wins }
    }
    if scoring != "elimination" and some s in everyone where s.score >= target {
      if scoring == "tally" { end game lowest wins } else { end game highest wins }
    }
  }
}
