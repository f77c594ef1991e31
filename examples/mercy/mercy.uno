# Mercy: stacking draw cards with a knock-out, after the "Mercy Rule" of UNO Show 'Em No Mercy.
#
# What changes compared to classic:
#   - Draw cards stack, as in the bundled `progressive` module (Draw Two on Draw Two, Wild Draw
#     Four on Wild Draw Four): the penalty grows until someone cannot or will not stack and draws
#     it all.
#   - The Mercy Rule (V-NM-10): a player who at any moment holds 25 cards or more
#     (the `mercy_limit` option) is knocked out of the game at once. Their cards go to the bottom
#     of the draw pile (the default chosen for ⚠A29), they are skipped from then on, and
#     they score nothing more.
#   - A player knocked out while drawing does not get to play the card they drew.
#   - The last player left in the game wins it (V-NM-0), whatever the scores say.
# Scoring, matching and every card are otherwise classic.
#
# Why: stacking makes penalties snowball, and without a limit a player can end up holding half
# the deck with no hope of coming back. The Mercy Rule ends that misery quickly, and turns a big
# stack into a real weapon.
ruleset mercy "UNO with the Mercy Rule" extends classic {
  about "Classic UNO with stacking draw cards; a player who holds 25 cards or more is knocked out of the game, and the last player standing wins."
  uses progressive

  option mercy_limit = 25 from 1
    "A player holding this many cards or more is knocked out of the game."

  after play "Anyone who now holds the mercy limit or more is knocked out." {
    for each s in everyone {
      if s.cards >= mercy_limit { eliminate s }
    }
  }

  on draw "With cards pending, draw them all and lose the turn; otherwise draw one as usual. Reaching the mercy limit knocks the player out at once." {
    if pending > 0 {
      player draws pending
      set pending to 0
      if player.cards >= mercy_limit { eliminate player }
    } else {
      player draws 1
      if player.cards >= mercy_limit {
        eliminate player
      } else {
        if force_play_drawn { player must play it } else { player may play it }
      }
    }
  }

  on round end "The last player left in the game wins it; otherwise the round is scored as in classic." {
    if players == 1 {
      end game highest wins
    } else {
      if scoring == "sum" { winner scores total s.points for s in opponents }
      if scoring == "average" {
        winner scores (total s.points for s in opponents) / (count s in opponents)
      }
      if scoring == "tally" {
        for each s in everyone { s scores s.points }
      }
      if scoring == "elimination" {
        for each s in everyone { s scores s.points }
        for each s in everyone { if s.score >= target { eliminate s } }
        if players == 1 { end game lowest wins }
      }
      if scoring != "elimination" and some s in everyone where s.score >= target {
        if scoring == "tally" { end game lowest wins } else { end game highest wins }
      }
    }
  }
}
