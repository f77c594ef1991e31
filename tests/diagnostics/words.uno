# Suits, their groups and rank names declared wrongly.
ruleset words "Word mistakes" {
  players 2 to 4
  deal 5
  suits { clubs C "Clubs", hearts H "Hearts" }
  group black = clubs, spades                                 # error E350
  group hearts = hearts                                       # error E350
  ranks { ace 1 A "Ace", king 13 K "King", ace 14 X }         # error E352
  card pip 1..13 "Card" { code "{rank}{suit}"; name "{Rank} of {Suit}"; points rank }
  deck { each suit in reds { 1 pip 1..13 }, each suit { 1 pip 1..13 } }   # error E351
  match card.suit == suit or card.rank == top.rank
  on play pip 8 { player chooses a suit in blacks }           # error E351
  on draw { player draws 1 }
  on round end { winner scores total s.points for s in others }
}
