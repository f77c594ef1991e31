# Decks and card kinds that cannot work.
ruleset deck "Deck mistakes" {
  players 2 to 10
  deal 7
  colors { red R, blue B }
  card number 1..9 { colored; code "{color}{rank}"; points rank }
  card skip "Skip" { colored; code "S"; points 20 }              # error E306
  card wild "Wild" { colorless; code "W"; name "{colr} Wild"; points 50 }   # error E305
  card wild4 "Wild Four" { colorless; code "W"; points 50 }      # error E307
  deck { each color { 2 number 1..9, 1 wild }, 2 skip, 4 wild }  # error E320 error E309 error E309
  match card.color == color or card is wild
  on draw { player draws 1; player may play it }
  on round end { winner scores total s.points for s in others }
}
