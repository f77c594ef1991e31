# Used by composition.uno: a second module that defines the same rule as _loud.uno.
module quiet "Quiet sevens" {
  on play number 7 { skip next }                              # error E401
}
