# A file with nothing but comments defines no ruleset.        # error E402
