# Progressive UNO (stacking): the official house rule of the 2008 sheet.
module progressive "Progressive UNO" {
  about "Answer a Draw Two with a Draw Two, or a Wild Draw Four with a Wild Draw Four: the draws add up and pass on, until a player who cannot or will not stack draws them all and loses the turn."
  requires draw_two, wild_draw_four, skip

  counter pending = 0 "Cards the next player must draw unless they stack."
  option stack_cross = "none" one of "none", "four-on-two", "any"
    "Which different draw cards stack: like on like only (none), also a Wild Draw Four on a Draw Two (four-on-two), or any draw card on any (any)."
  option stack_challenge_penalty = "total" one of "total", "four"
    "A Wild Draw Four inside a stack, challenged and found a bluff: its player draws the whole accumulated total and nothing stays pending (total); or its player draws only 4 and the rest of the stack stays pending for the challenger, who may stack on it or draw it (four). An honest one costs the challenger the total plus 2 either way."
  option skip_bounce = no
    "A Skip of the same color as a pending Draw Two may be played on it to bounce the penalty (the 2022 UNO tweet): the Skip's player draws nothing, and the pending cards pass, still pending, to the next player, who is not skipped but must draw them and lose the turn, unless they bounce them on with a Skip of any color. The Skip that bounces skips nobody; a Wild Draw Four cannot be bounced."

  play only if pending == 0 or card.kind == top.kind
      or (stack_cross == "four-on-two" and card.kind == wild_draw_four and top.kind == draw_two)
      or (stack_cross == "any" and card.draw > 0)
      or (skip_bounce and card.kind == skip and top.kind == draw_two and card.color == top.color)
    "While cards are pending, only a draw card of the same kind as the top card may be played on them."
  renege if reneging or pending > 0
    "A player may always decline to stack and draw the pending cards."

  on play draw_two "Adds two to the pending draw; the next player stacks or draws them all." {
    add 2 to pending
    if player.cards == 0 {
      next draws pending
      set pending to 0
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
        challenge "If it was a bluff, its player draws everything pending; if not, you draw everything pending plus two more and lose your turn." {
          reveal player to next
          if honest {
            next draws pending + 2
            set pending to 0
            skip next
          } else if stack_challenge_penalty == "four" {
            player draws 4
            add -4 to pending
          } else {
            player draws pending
            set pending to 0
          }
        }
        accept "Stack another Wild Draw Four, or draw everything pending." { }
      }
    }
  }

  on play skip "The next player loses their turn." {
    if skip_bounce and pending > 0 {
      if player.cards == 0 {
        next draws pending
        set pending to 0
      }
    } else {
      skip next
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
