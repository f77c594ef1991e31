# Red Zero: a Killer UNO sub-variation.
module red-zero "Red Zero" {
  about "The red 0 is a Draw Ten: the next player draws ten cards and loses their turn."
  requires "R0"

  on play "R0" "The next player draws ten cards and loses their turn." {
    next draws 10
    skip next
  }
}
