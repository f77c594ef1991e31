# Rules made to test codegen on part A's primitives: two faces paired in order, a flip of whole
# piles, groups and rank names read in rules, `played`, `as if ... played` with another card,
# a hand shown until the round ends, runs where every card acts, a window in turn order, and a
# named statement whose loop variable has the name of its caller's, and a card property read
# from the face in play.
ruleset faces_words_runs "Faces, words and runs" {
  players 2 to 7
  deal 5
  option target = 100 "Points that win the game."
  faces day "Day", night "Night"
  suits { clubs C "Clubs", diamonds D "Diamonds", hearts H "Hearts", spades S "Spades", stars X "Stars",
    moons M "Moons" }
  group day_suits = clubs, diamonds, hearts, spades
  group red = diamonds, hearts
  group night_suits = stars, moons
  ranks { ace 1 A "Ace", jack 11 J "Jack" }
  counter flips = 0 hidden "How many times the cards were turned over."
  card pip 1..11 "Card" { colored in day_suits; code "{rank}{suit}"; name "{Rank} of {Suit}"; points rank }
  card star 1..9 "Star" { colored in night_suits; code "{suit}{rank}"; points rank * 2; let double = rank * 2
    let worth = (1 if face == night else 2) }
  card turn "Turn" { colorless; code "T{points}"; points 20 }
  card night_turn "Turn" { colorless; code "N{points}"; points 30 }
  card echo "Echo" { colorless; code "E"; points 10 }
  deck { each suit in day_suits { 1 pip 1..11 }, 4 turn, 2 echo }
  deck night { each suit in night_suits { 2 star 1..9, 3 star 1..2 }, 2 night_turn }
  pair faces in order
  players see other faces
  match card.suit == suit or card.rank == top.rank or card is turn or card is night_turn
      or card is echo
  play runs where card.suit == top.suit and card.rank != none and top.rank != none
      and card.rank > top.rank, each card acts
  on play pip 11 "A Jack of a red suit shows its player's hand to everyone until the round ends." {
    if card.suit in red { reveal player to others until the round ends } else { skip next }
  }
  on play turn, night_turn "Turn every card over." {
    flip
    add 1 to flips
    if top.colored == no and face == night { next chooses a suit in night_suits }
  }
  define jack_tax(who, n) { for each c in who.hand { if c.rank == jack { who draws n } } }
  on play echo "Every Jack in its player's hand takes effect as if played; the next player draws one card for each Jack they hold." {
    player chooses a suit in day_suits
    for each c in player.hand { if c.rank == jack { as if player played c } }
    jack_tax(next, 1)
  }
  on play star 9 "Draw one; you may play it; if you do not, the next player draws one." {
    player draws 1
    player may play it
    if not played { next draws card.worth }
  }
  on draw { player draws 1; player may play it }
  window last "Last card" {
    opens after play when player.cards == 1
    closes when a turn begins
    in turn order
    player may last { }
    others may catch { player draws 2 }
  }
  on round end {
    winner scores total s.points for s in others
    if winner.score >= target { end game highest wins }
  }
}
