# A ruleset that extends itself, and one that extends nothing known.
ruleset loop_a "A" extends loop_b { }                         # error E405
ruleset loop_b "B" extends loop_a { }                         # error E405
