# Partnerships: the official four-player team game of the 2001 sheet.
ruleset teams "Partners" extends classic {
  about "Four players in two teams, partners sitting across from each other. When either partner goes out, their team scores the cards in both opponents' hands; the first team to the target wins."
  players 4 to 4
  set partners = yes
}
