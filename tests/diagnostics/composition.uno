# with: _loud.uno, _quiet.uno, _elevens.uno
# Modules that contradict each other, or that do not fit the deck.
ruleset composition "Composition mistakes" extends classic {
  uses progressive, sevn-o                                    # error E408
  remove card blank                                           # error E404
}
