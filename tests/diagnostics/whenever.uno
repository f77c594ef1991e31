# Rules that fire on a state, written so that they cannot work.
ruleset whenever "Whenever mistakes" extends classic {
  counter alarms = 0
  whenever player.cards + 1 { skip next }                                  # error E210
  whenever some s in everyone where s.cards > 20 { eliminate s; s chooses a color }   # error E342
  whenever alarms > 3 { skip next }                                         # error E343
  whenever yes { skip next }                                                # error E343
  whenever some s in everyone where s.cards >= 25 { eliminate s }
  whenever color == red { add 1 to alarms }                                 # error E343
}
