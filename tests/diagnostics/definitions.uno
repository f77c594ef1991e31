# Named statements used wrongly: an unknown name, the wrong number of values, a parameter listed
# twice or hiding a name the rules give, statements that use themselves, and one never used.
ruleset definitions "Definition mistakes" extends classic {
  define punish(who, n) "The player named draws n cards and loses their turn." {
    who draws n
    skip who
  }
  define twice(who, who) { skip who }                                      # error E223 warning W304
  define hide(next) { skip next }                                          # error E224
  define ping(who) { pong(who) }
  define pong(who) { ping(who) }                                           # error E344
  define idle(who) { skip who }                                            # warning W304
  define broken(who) { who draws red }                                     # warning W304 error E210
  on play skip { punish(next, 2); punsh(next, 2) }                         # error E221
  on play reverse { punish(next) }                                         # error E222
  on play draw_two { ping(next) }
  on play wild { hide(player) }
}
