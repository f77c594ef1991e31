# Used by composition.uno: a module that makes a 7 a draw card.
module loud "Loud sevens" {
  on play number 7 { next draws 1 }
}
