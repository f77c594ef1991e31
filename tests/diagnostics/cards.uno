# Card kinds and colors declared wrongly.
ruleset cards "Card mistakes" {
  players 2 to 4
  deal 7
  option red = 1                                              # error E317 warning W305
  colors { red R, blue B, red X }                             # error E302
  card number 1..9 { colored; code "{color}{rank}"; points rank; points 2 }   # error E303
  card blank "Blank" { colorless; points 0 }                  # error E304
  card odd 5..3 "Odd" { colored; code "{color}O{rank}" }      # error E103
  card live "Live" { colorless; code "L"; points top.points } # error E308
  card plain "Plain" { colorless; code "PL"; points rank }    # error E318
  card crowd "Crowd" { colorless; code "CR"; let size = player.cards }   # error E308
  card loop "Loop" { colorless; code "LO"; let a = card.b + 1; let b = card.a }   # error E345
  card heavy "Heavy" { colorless; code "HV"; let weight = card.points + top.points }   # error E308
  deck { each color { 4 number 1..9 }, 2 live, 1 plain }
  deal 8                                                      # warning W303
  match card.color == color or card.kind == top.kind
  on draw { player draws 1 }
  on round end { winner scores total s.points for s in others }
}
