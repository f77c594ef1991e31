# A ruleset that extends a ruleset nobody defined.
ruleset orphan "Orphan" extends clasic { }                    # error E406
