# Rules whose window opens as the state changes and may close while its condition still holds:
# the engines must remember that the condition held, and open the window again only once it has
# stopped holding and holds anew. A player whose hand grows to nine cards may be taxed once by
# the others (one card more), until the next turn begins; the window opens again only after the
# hand has gone below nine and back. Up to ten cards, so that a mistake stays bounded.
ruleset held-window "Taxing big hands" extends classic {
  players 2 to 6

  window tax "Taxing a big hand" {
    opens when player.cards >= 9 and player.cards < 11
    closes when a turn begins
    others may tax "Make a player whose hand has just grown to nine cards or more draw one card." { player draws 1 }
  }
}
