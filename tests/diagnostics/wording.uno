# The author's words against the rules they describe (W501, W502): a rule sheet prints these
# texts for the rules, so they must say what the rules do. Each warning points at the text.
ruleset wording "Words and rules" {
  players 2 to 6
  deal 7
  option bonus_rule = no "A drawn card that can be played must be played."
  colors { red R "Red", blue B "Blue" }
  card number 0..9 "Number" { colored; code "{color}{rank}"; points rank }
  card skip "Skip" { colored; code "{color}S"; points 20 }
  card draw_two "Draw Two" { colored; code "{color}+2"; points 20 }
  deck { each color { 2 number 0..9, 2 skip, 2 draw_two } }
  match card.color == color "a card of the current color"
  match card.kind == top.kind and card.rank == top.rank "a card with the same number or symbol"

  on play draw_two "The next player draws two cards and loses their turn." {   # warning W501
    next draws 4
    skip next
  }
  on play skip "The Draw Two makes the next player lose their turn." { skip next }   # warning W501
  on draw "Draw one card; with bonus_rule you must play it." {   # warning W502
    player draws 1
    if bonus_rule { player must play it } else { player may play it }
  }
  starter skip "The previous player loses their turn." { skip next }   # warning W501
  on round end "The winner scores the cards left in the other hands; 300 points win." {   # warning W501
    winner scores total s.points for s in others
    if some s in everyone where s.score >= 500 { end game highest wins }
  }
}
