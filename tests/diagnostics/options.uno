# Options: defaults outside their choices, unknown options, values of the wrong kind.
ruleset options "Option mistakes" {
  players 1 to 4                                     # error E321
  deal 7
  option scoring = "most" one of "sum", "tally"      # error E310 warning W305
  option target = 500   # warning W305
  set targt = 400                                    # error E311
  set target = "high"                                # error E312
  set scoring = "least"                              # error E313
  colors { red R, blue B }
  card number 0..9 { colored; code "{color}{rank}"; points rank }
  deck { each color { 3 number 0..9 } }
  match card.color == color
  on draw { player draws 1 }
  on round end { winner scores total s.points for s in others }
}
