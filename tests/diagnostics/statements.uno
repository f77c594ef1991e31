# Statements and windows that cannot work.
ruleset statements "Statement mistakes" {
  players 2 to 4
  deal 0                                                      # error E322
  counter pending = "lots"                                    # error E314
  counter blue = 0                                            # error E315
  colors { red R, blue B }
  card number 1..9 { colored; code "{color}{rank}"; points rank }
  deck { each color { 4 number 1..9 } }
  match card.color == color or card.rank == top.rank
  on play number 1 { add 2 to pendng }                        # error E205
  on play number 2 { if card.color == 3 { skip next } }       # error E211
  on play number 3 { ask next "Well?" { yes_ { } yes_ { } } } # error E220
  on draw { player draws 1; player may play it }
  window shout "Shout" {                                      # error E331
    opens after play
  }
  window call "Call" {
    opens after play when player.cards == 1
    neighbours may call { }                                   # error E330
  }
  on round end { winner scores total s.points for s in others }
}
