# Nesting past what the checker reads.
ruleset nesting "Nesting" {
  players 2 to 4
  deal ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((7))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))) # error E104
}
