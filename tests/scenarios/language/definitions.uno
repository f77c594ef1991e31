# Named statements: statements written once and used by name with values for their parameters,
# one using another, a loop over a named statement, a local name of the caller left alone, and a
# choice inside one, asked when it runs.
ruleset definitions "Named statements" extends classic {
  counter given = 0 "Cards given as penalties."
  define punish(who, n) { who draws n; skip who; add n to given }
  define tax(who) { who draws 1 }
  define tax_all() { for each s in others { tax(s) } }
  define recolor(who) { if who.cards > 1 { who chooses a color } else { set color to red } }
  on play skip { punish(next, 1) }
  on play draw_two { let n = 1; punish(next, 2); player draws n }
  on play reverse { reverse; tax_all() }
  on play wild { recolor(player) }
}
