# Syntax mistakes: each is reported once, and checking goes on after it.
ruleset syntax "Syntax mistakes" {
  players 2 to 4
  deal 7
  colurs { red R, blue B }                         # error E101
  card number 1..9 { colored; code "{color}{rank}"; points rank }
  card skip "Skip" { colored; code "{color}S"; points 20
  card wild "Wild" { colorless; code "W"; points 50 }   # error E102
  deck { each color { 2 number 1..9, 2 skip }, 4 wild }
  match card.color == color or card is wild
  match card.kind == top.kind and card.rank == top.rank
  on play skip { skip next }
  on play wild { player chooses a color }
  on draw { player draws 1; player may play it @ }   # error E100
  on round end { winner scores total s.points for s in others }
}
