# Values the rules set and pick, used with values of the wrong kind.
ruleset values "Value mistakes" extends classic {
  on play number 3 { set color to 3 }                                  # error E210
  on play number 4 { chance roll from 1 to 6 where roll > 2 }          # error E210
  on play number 5 { chance c from player.cards }                      # error E210
  on play number 6 { player may pick c from player.score }             # error E210
  on play number 7 { set colour to red }                              # error E205
  on play number 9 { set hue to top.color }                           # error E205
  on play number 8 { for each c in colors { if c == top { skip next } } }   # error E211
}
