# A deck count that names an option that is not a whole number.
ruleset deckcount "Deck counts" {
  players 2 to 4
  deal 7
  option flavour = "sweet"
  colors { red R }
  card number 0..9 { colored; code "{color}{rank}"; points rank }
  deck { each color { 4 number 0..9, flavour number 1 } }     # error E316
  match card.color == color
  on draw { player draws 1 }
  on round end { winner scores total s.points for s in others }
}
