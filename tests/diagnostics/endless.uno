# Effects that would never end.
ruleset endless "Endless" extends classic {
  option always = yes
  on play skip { skip next; as if player played it }          # error E340
  on play reverse { while always { reverse } }                # error E341
}
