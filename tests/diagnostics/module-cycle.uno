# Modules that build on each other in a circle.
ruleset cycle "Cycle" extends classic {
  uses first
}
module first "First" { uses second }                                      # error E409
module second "Second" { uses first }                                      # error E409
