# A blocked round declared with a value that is not yes or no.
ruleset progress "Progress mistakes" extends classic {
  blocked when stock.size + idle_turns                                  # error E210
}
