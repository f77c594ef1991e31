# Challenge UNO: the official elimination game of the 2001 sheet.
ruleset challenge-uno "Challenge UNO" extends classic {
  about "Every player keeps a running total of the cards left in their own hand; a player who reaches the target is out. The last two play head to head under the two-player rules, and the winner of that final hand wins the game."
  set scoring = "elimination"
}
