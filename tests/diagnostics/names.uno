# Names that do not resolve, and values of the wrong type.
ruleset names "Name mistakes" {
  players 2 to 4
  deal 7
  option penalty = 2   # warning W305
  colors { red R, blue B }
  card number 1..9 { colored; code "{color}{rank}"; points rank }
  card skip "Skip" { colored; code "{color}S"; points 20 }
  card wild "Wild" { colorless; code "W"; points 50; tags wildcard }
  deck { each color { 2 number 1..9, 2 skip }, 4 wild }
  match card.colour == color                          # error E202
  match card is wildcrd                               # error E203
  match card.kind == top.kind and card.rank == top.rank
  on play skip { skip nxt }                           # error E201
  on play skipp { skip next }                         # error E204
  on play wild { player chooses a color; next draws penalti }   # error E201
  on draw { player draws "two"; player may play it }  # error E210
  on round end { winner scores total s.points for s in others }
}
