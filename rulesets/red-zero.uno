# Red Zero: a Killer UNO sub-variation.
module red-zero "Red Zero" {
  about "The red 0 is a Draw Ten: the next player draws ten cards and loses their turn."
  requires "R0"

  option red_zero_skips = yes
    "The player who draws ten for the red 0 also loses their turn (like a Draw Two); with no, they draw ten and then play."

  on play "R0" "The next player draws ten cards and loses their turn." {
    next draws 10
    if red_zero_skips { skip next }
  }
}
