# Bounce back: stacking draw cards, where a Reverse sends a pending Draw Two back.
#
# What changes compared to classic:
#   - Draw cards stack as in Progressive UNO: a Draw Two on a Draw Two, or a Wild Draw Four on a
#     Wild Draw Four, adds to a pending penalty instead of being drawn at once; the first player who
#     cannot or will not stack draws it all and loses their turn.
#   - New: while a Draw Two penalty is pending, a Reverse that matches the top card (same color, or
#     a Reverse on a Reverse) bounces it: play changes direction and the penalty, unchanged, goes
#     back the other way, to the player who sent it. They may stack a matching Draw Two, bounce it
#     again with a Reverse, or draw. With two players the bounce hands the penalty straight back
#     (it does not act as a Skip while a penalty is pending).
#   - A Wild Draw Four penalty cannot be bounced: only another Wild Draw Four stacks on it.
# Everything else is classic.
#
# Why write it as a whole ruleset instead of `uses progressive` plus a Reverse rule: the
# progressive module's `play only if` forbids every card but a same-kind draw card while a
# penalty is pending, and restrictions from a module add up; a ruleset cannot relax them. So this
# file declares its own pending counter and its own stacking restriction.
#
# Why play it: stacking makes the Draw Two a hot potato; the bounce lets the victim fight back
# without holding a Draw Two, and a long stack can ping-pong between two players.
ruleset bounce-back "UNO with bouncing Reverses" extends classic {
  about "Classic UNO with stacking draw cards; a Reverse that matches sends a pending Draw Two penalty back to the player who sent it."

  counter pending = 0 "Cards the next player must draw unless they stack or bounce."

  play only if pending == 0
      or (top.kind == wild_draw_four and card.kind == wild_draw_four)
      or (top.kind != wild_draw_four and (card.kind == draw_two or card.kind == reverse))
    "While a penalty is pending, only a Draw Two or a Reverse (on a Draw Two penalty) or a Wild Draw Four (on a Wild Draw Four penalty) may be played."
  renege if reneging or pending > 0
    "A player may always decline to stack and draw the pending cards."

  on play draw_two "Adds two to the pending draw; the next player stacks, bounces or draws them all." {
    add 2 to pending
    if player.cards == 0 {
      next draws pending
      set pending to 0
    }
  }

  on play reverse "Play changes direction; a pending Draw Two penalty goes back the other way. Without a penalty, with two players it acts like a Skip." {
    reverse
    if pending > 0 {
      if player.cards == 0 {
        next draws pending
        set pending to 0
      }
    } else {
      if players == 2 and two_player_rules { skip next }
    }
  }

  on play wild_draw_four "Choose the color and add four to the pending draw; the next player may challenge, stack, or draw them all." {
    player chooses a color
    add 4 to pending
    if player.cards == 0 and not w4_final_card_challengeable {
      next draws pending
      set pending to 0
    } else {
      ask next "Challenge the Wild Draw Four?" {
        challenge "If it was a bluff, its player draws everything pending; if not, you draw everything pending plus two and lose your turn." {
          reveal player to next
          if honest {
            next draws pending + 2
            set pending to 0
            skip next
          } else {
            player draws pending
            set pending to 0
          }
        }
        accept "Stack another Wild Draw Four, or draw everything pending." { }
      }
    }
  }

  on draw "With cards pending, draw them all and lose the turn; otherwise draw one as usual." {
    if pending > 0 {
      player draws pending
      set pending to 0
    } else {
      player draws 1
      if force_play_drawn { player must play it } else { player may play it }
    }
  }

  starter draw_two "A Draw Two turned up to start cannot be stacked on: the first player draws two and loses the turn." {
    next draws 2
    skip next
  }
}
