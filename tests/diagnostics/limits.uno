# Numbers past what a table can hold.
ruleset limits "Limits" {
  players 2 to 500                                            # error E323
  deal 7
  option many = 20000
  colors { red R }
  card number 0..9 { colored; code "{color}{rank}"; points rank }
  card huge 1..5000 "Huge" { colorless; code "H{rank}" }      # error E324
  card wild "Wild" { colorless; code "W" }
  deck { each color { 10 number 0..9 }, many wild }           # error E325
  match card.color == color or card.kind == wild
  on draw { player draws 1 }
  on round end { winner scores total s.points for s in others }
}
