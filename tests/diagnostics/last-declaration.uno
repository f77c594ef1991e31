# A mistake in the last declaration of a ruleset: one diagnostic, and the closing brace still counts.
ruleset lastdecl "Last declaration" extends classic {
  on play skip {
    skip next next                                            # error E101
  }
}
