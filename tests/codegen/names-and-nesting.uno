# Rules that test how the generated turn loop writes names, texts and nesting: variables whose
# names differ only by `-` and `_`, texts that look like the engine's code, `else if` chains and
# rules nested deeper than Python lets a function nest its loops.
ruleset names-and-nesting "Names and nesting" extends classic {
  players 2 to 4

  on play skip "The next player draws one or two more cards, then loses their turn." {
    let a_b = 2
    let a-b = 1
    if players == 2 { next draws a_b } else if players == 3 { next draws a-b } else if players == 4 { next draws a_b + a-b } else { next draws 0 }
    skip next
  }

  on play reverse "Play changes direction; the next player may say whether they noticed." {
    reverse
    ask next "Did you see g.hands[s] and g.skips change?" {
      noticed "Yes." { next draws 0 }
      missed "No." { if players == 2 { skip next } }
    }
  }

  on play draw_two "The next player draws two; deeply nested, for the test." {
    for each p1 in others { for each p2 in others { for each p3 in others { for each p4 in others {
      for each p5 in others { for each p6 in others { for each p7 in others { for each p8 in others {
        if p1 == next and p2 == next and p3 == next and p4 == next and p5 == next and p6 == next and p7 == next and p8 == next and players == 2 { next draws 2 }
      } } } }
    } } } }
    if players > 2 { next draws 2 }
    skip next
  }
}
