# Crazy Eights, the 52-card shedding game as Hoyle gives it: match the top card by suit or rank;
# eights are wild, and their player names the suit that goes on. A player who cannot play draws
# until they can (or, as an option, up to three cards); the stock is never renewed.

ruleset crazy-eights "Crazy Eights" {
  about "Match the top card of the pile by suit or rank, and be the first to play every card in your hand. Eights may be played on anything, and their player names the suit that follows. A player who cannot play draws until they can; once the stock is gone, a player who cannot play passes. The player who goes out collects the value of the cards left in the other hands: 50 for an eight, 10 for a king, queen or jack, 1 for an ace, the number for any other card."
  players 2 to 7
  deal (7 if players == 2 else 5)

  option target = 100 "Points that win the game (the players agree on a number; 100 is usual)."
  option draw_limit = 0 one of 0, 3
    "A player who cannot play draws until they can (0), or draws up to three cards and then passes (3)."
  option must_play_drawn = yes "A card drawn that can be played must be played at once."

  suits { clubs C "Clubs", diamonds D "Diamonds", hearts H "Hearts", spades S "Spades" }
  group black = clubs, spades
  group red = diamonds, hearts
  ranks { ace 1 A "Ace", jack 11 J "Jack", queen 12 Q "Queen", king 13 K "King" }
  counter drawn = 0 hidden "Cards drawn in this turn, for the draw limit."

  card pip 1..13 "Card" {
    code "{rank}{suit}"
    name "{Rank} of {Suit}"
    points (50 if rank == 8 else (10 if rank > 10 else rank))
  }
  deck { each suit { 1 pip 1..13 } }

  match card.suit == suit "a card of the suit in play"
  match card.rank == top.rank "a card of the same rank as the top card"
  match card.rank == 8 "an eight, at any time"

  on play pip 8 "Name the suit that goes on." { player chooses a suit }

  on draw "Draw until you can play, then play the card you drew." {
    if draw_limit == 0 {
      player draws until it is playable
    } else {
      set drawn to 0
      while drawn < draw_limit and not (it is playable) {
        player draws 1
        add 1 to drawn
      }
    }
    if must_play_drawn { player must play it } else { player may play it }
  }

  starter pip 8 "An eight turned up is buried in the stock, and another card is turned." { return it and turn another }

  when the stock runs out "The stock is not renewed: once it is gone, a player who cannot play passes." { }
  blocked when stock.size == 0 and turns_without_play >= players
    "When the stock is gone and nobody can play, the game is blocked."

  on round end "The player who goes out collects the value of every other hand; in a blocked game, the lowest hand collects the difference from each of the others." {
    if winner != none {
      winner scores total s.points for s in others
    } else {
      for each low in everyone {
        if not (some t in everyone where t.points < low.points) {
          low scores total (t.points - low.points) for t in everyone
        }
      }
    }
    if some s in everyone where s.score >= target { end game highest wins }
  }
}
