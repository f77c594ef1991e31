# Rules that do nothing or too much: an option no rule reads, and drawing until a card that the
# deck does not hold, which would take the whole stock.
ruleset unread "Unread and draining" extends classic {
  option spare = 3 "Cards nobody ever draws."                          # warning W305
  option bonus = 2 "Cards a Reverse makes the next player draw."
  on play skip { next draws until it is wild and it.color == red }      # warning W306
  on play reverse { reverse; next draws bonus; next draws until it.color == color }
}
