# Two-faced cards declared wrongly: a deck for the second face is missing, and nothing pairs them.
ruleset faces "Face mistakes" {
  players 2 to 4
  deal 5
  faces light, dark                                           # error E353 error E354
  colors { red R, blue B }
  card number 1..9 { code "{color}{rank}"; points rank }
  deck { each color { 2 number 1..9 } }
  match card.color == color or card.rank == top.rank
  on draw { player draws 1 }
  on round end { winner scores total s.points for s in others }
}
