# Rules that check out only within bounds: numbers, loops, option ranges, the starter's statements.
ruleset bounds "Bounds" extends classic {
  option bonus = 5 from 10 to 20 "A bonus outside its own range."         # error E392 warning W305
  option mood = "calm" from 1 to 3                                         # error E393 warning W305
  option spread = 4 from 9 to 2                                            # error E393 warning W305
  set uno_penalty = -1                                                     # error E392
  on play skip "Skips, after far too many steps." {
    skip next
    for each a in everyone { for each b in everyone { for each c in everyone { for each d in everyone { for each e in everyone { for each f in everyone { for each h in everyone { for each i in everyone { player draws 0 } } } } } } } }   # error E391
  }
  on draw "Draw one." {
    player draws 1
    return it and turn another                                              # error E390
  }
  on play reverse "Reverse, with a bonus no table can hold." {
    reverse
    player draws 123456789012345                                            # error E106
  }
}
