# Two decks whose cards cannot be printed back to back, and a flip of one-faced cards.
ruleset pairing "Pairing mistakes" {
  players 2 to 4
  deal 5
  faces light, dark
  colors { red R, blue B, pink P, teal T }
  group lights = red, blue
  group darks = pink, teal
  card number 1..9 { code "{color}{rank}"; points rank }
  card wild "Wild" { colorless; code "W"; points 50 }
  deck { each color in lights { 2 number 1..9 }, 4 wild }
  deck dark { each color in darks { 2 number 1..9 } }         # error E354
  pair faces at random
  match card.color == color or card.rank == top.rank or card is wild
  on draw { player draws 1 }
  on round end { winner scores total s.points for s in others }
}

ruleset flat "A flip without faces" {
  players 2 to 4
  deal 5
  colors { red R, blue B }
  card number 1..9 { code "{color}{rank}"; points rank }
  deck { each color { 2 number 1..9 } }
  deck dark { each color { 2 number 1..9 } }                  # error E353
  match card.color == color or card.rank == top.rank
  on play number 9 { flip }                                   # error E355
  on draw { player draws 1 }
  on round end { winner scores total s.points for s in others }
}
