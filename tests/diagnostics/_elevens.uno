# Used by composition.uno: a module about cards the classic deck does not have.
module elevens "Elevens" {
  requires number 11                                          # error E407
}
