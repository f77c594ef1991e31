# Piles used in ways that cannot work.
ruleset piles "Pile mistakes" extends classic {
  on play number 3 { if stock.length > 2 { skip next } }                  # error E202
  on play number 4 { shuffle the stock into the stock }                   # error E210
  on play number 5 { player puts next on top of the stock }               # error E210
  when the stock runs out {
    shuffle the discard pile into the stock except the top card
    player chooses a color                                                # error E342
  }
}
