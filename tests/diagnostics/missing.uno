# A ruleset that leaves out what every game needs.
ruleset missing "Missing parts" {              # error E301 error E301 warning W301
  players 2 to 4
  deal 7
  colors { red R, blue B }
  card number 1..9 { colored; code "{color}{rank}"; points rank }
  deck { each color { 4 number 1..9 } }
}
