# UNO Flip (Mattel, 2019): 112 two-sided cards. The light side plays like classic UNO with Draw One
# and Wild Draw Two; a Flip card turns every card over, and the dark side, in its own colors, has
# Draw Five, Skip Everyone and Wild Draw Color. Which light face is printed on the back of which dark
# face is not given by the sheet: the faces are paired at random, once, the same in every game.

ruleset flip "UNO Flip" extends classic {
  about "Classic UNO on two-sided cards. A Flip card turns every card over: hands, the draw pile and the discard pile, and play goes on with the dark side, its colors and its harsher cards (Draw Five, Skip Everyone, Wild Draw Color), until the next Flip. Everyone sees the other side of the cards you hold. Cards score by the side in play when the round ends."

  option flip_discard = "flip-card" one of "flip-card", "whole-pile"
    "After a Flip, the Flip card's other side is the new top card (flip-card: every card of the discard pile is turned where it lies), or the whole discard pile is turned over, so the other side of its bottom card comes on top (whole-pile)."
  option flip_wild_color = "next-chooses" one of "next-chooses", "flipper-chooses"
    "When a Flip turns up a Wild as the top card, the next player chooses the color before playing (next-chooses), or the player who flipped chooses it (flipper-chooses)."
  option starter_flip = "redraw" one of "redraw", "flip"
    "A Flip turned up to start: it goes back into the deck and another card is turned (redraw), or the cards are turned over and the round starts on the dark side (flip)."
  option flip_points = "finalboss" one of "finalboss", "rulebook"
    "Card values: Draw One 10, Reverse, Skip, Flip and Draw Five 20, Skip Everyone 30, Wilds 40, Wild Draw Two 50, Wild Draw Color 60 (finalboss); or the other published table, where the light Reverse and Skip count 10, the light Wild 20 and the Wild Draw Color 40 (rulebook)."

  faces light "Light", dark "Dark"
  colors {
    red R "Red", yellow Y "Yellow", green G "Green", blue B "Blue",
    pink P "Pink", teal T "Teal", orange O "Orange", purple U "Purple"
  }
  group light_colors = red, yellow, green, blue
  group dark_colors = pink, teal, orange, purple

  remove card draw_two
  remove card wild_draw_four

  card number 1..9 "Number" { colored; code "{color}{rank}"; name "{Color} {rank}"; points rank }
  card draw_one "Draw One" { colored in light_colors; code "{color}+1"; points 10; tags action; let draw = 1 }
  card reverse "Reverse" { colored in light_colors; code "{color}R"; points (20 if flip_points == "finalboss" else 10); tags action }
  card skip "Skip" { colored in light_colors; code "{color}S"; points (20 if flip_points == "finalboss" else 10); tags action }
  card flip "Flip" { colored; code "{color}F"; points 20; tags action }
  card wild "Wild" { colorless; code "W"; points (40 if flip_points == "finalboss" else 20); tags wild }
  card wild_draw_two "Wild Draw Two" { colorless; code "W+2"; points 50; tags wild; let draw = 2 }

  card draw_five "Draw Five" { colored in dark_colors; code "{color}+5"; points 20; tags action; let draw = 5 }
  card dark_reverse "Reverse" { colored in dark_colors; code "{color}R"; points 20; tags action }
  card skip_everyone "Skip Everyone" { colored in dark_colors; code "{color}SE"; points 30; tags action }
  card dark_wild "Wild" { colorless; code "DW"; points 40; tags wild }
  card wild_draw_color "Wild Draw Color" { colorless; code "W+C"; points (60 if flip_points == "finalboss" else 40); tags wild }

  deck {
    each color in light_colors { 2 number 1..9, 2 draw_one, 2 reverse, 2 skip, 2 flip },
    4 wild,
    4 wild_draw_two
  }
  deck dark {
    each color in dark_colors { 2 number 1..9, 2 draw_five, 2 dark_reverse, 2 skip_everyone, 2 flip },
    4 dark_wild,
    4 wild_draw_color
  }
  pair faces at random

  players see other faces
    "The cards are held light side to you, so everyone sees the dark side of your cards (and the light side once the cards are flipped), and the side of the draw pile's top card that is not in play."

  honest wild_draw_two if not (some c in player.hand where c.color == color)
    "only when you hold no card of the current color; you may bluff, and be challenged"
  honest wild_draw_color if not (some c in player.hand where c.color == color)
    "only when you hold no card of the current color; you may bluff, and be challenged"

  define penalty(who, n) { who draws n; skip who }
  define color_penalty(who) { who draws until it.color == color; skip who }

  on play draw_one, draw_five "The next player draws (one card on the light side, five on the dark side) and loses their turn." {
    penalty(next, card.draw)
  }

  on play reverse, dark_reverse "Play changes direction. With two players it acts like a Skip." {
    reverse
    if players == 2 and two_player_rules { skip next }
  }

  on play skip_everyone "You take another turn at once." { player plays again }

  on play flip "Every card is turned over: hands, the draw pile and the discard pile; play goes on with the other side." {
    if flip_discard == "flip-card" { flip keeping the pile order } else { flip }
    if top is wild {
      if flip_wild_color == "next-chooses" {
        if face == dark { next chooses a color in dark_colors } else { next chooses a color in light_colors }
      } else {
        if face == dark { player chooses a color in dark_colors } else { player chooses a color in light_colors }
      }
    }
  }

  on play wild "Choose the color that continues play." { player chooses a color in light_colors }
  on play dark_wild "Choose the dark color that continues play." { player chooses a color in dark_colors }

  on play wild_draw_two "Choose the color; the next player draws two and loses their turn, unless they challenge." {
    player chooses a color in light_colors
    if player.cards == 0 and not w4_final_card_challengeable {
      penalty(next, 2)
    } else {
      ask next "Challenge the Wild Draw Two?" {
        challenge "Say it was a bluff; the player shows you their hand." {
          reveal player to next
          if honest {
            penalty(next, 4)
          } else {
            player draws 2
          }
        }
        accept "Draw two cards and lose your turn." {
          penalty(next, 2)
        }
      }
    }
  }

  on play wild_draw_color "Choose the color; the next player draws until they draw a card of that color and loses their turn, unless they challenge." {
    player chooses a color in dark_colors
    if player.cards == 0 and not w4_final_card_challengeable {
      color_penalty(next)
    } else {
      ask next "Challenge the Wild Draw Color?" {
        challenge "Say it was a bluff; the player shows you their hand." {
          reveal player to next
          if honest {
            next draws until it.color == color
            penalty(next, 2)
          } else {
            player draws until it.color == color
          }
        }
        accept "Draw until you draw a card of the chosen color, and lose your turn." {
          color_penalty(next)
        }
      }
    }
  }

  starter wild_draw_two "Put it back in the deck, shuffle, and turn another card." { return it and turn another }
  starter flip "Put it back in the deck and turn another card." {
    if starter_flip == "redraw" { return it and turn another } else { flip keeping the pile order }
  }
  starter wild "The player left of the dealer chooses the color, then plays first." {
    if starter_wild == "redraw" {
      return it and turn another
    } else if starter_wild == "dealer-chooses" {
      dealer chooses a color in light_colors
    } else {
      next chooses a color in light_colors
    }
  }
}
