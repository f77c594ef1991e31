# A card that no match rule lets anyone play.
ruleset unplayable "Unplayable" {
  players 2 to 4
  deal 7
  colors { red R, blue B }
  card number 1..9 { colored; code "{color}{rank}"; points rank }
  card stone "Stone" { colorless; code "ST"; points 10 }
  deck { each color { 4 number 1..9 }, 4 stone }              # warning W302
  match (card.colored and card.color == color) or (card.rank == top.rank and card.rank != none)
  on draw { player draws 1 }
  on round end { winner scores total s.points for s in others }
}
