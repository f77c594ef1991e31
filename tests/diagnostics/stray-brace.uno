# One `}` too many: reported once, and the declarations after it are still checked.
ruleset stray "Stray brace" extends classic {
  on play skip "The next player loses their turn." { skip next } }         # error E107
  on play reverse "Play changes direction." { reverse; skip nxt }          # error E201
}
