# An action out of turn whose statements ask a question: after a 9, any other player may dare
# the player who played it, who answers. The player deciding their turn keeps it.
ruleset windows "Dares" extends classic {
  about "Classic UNO where, after a 9, any other player may dare its player: heads, the player who played the 9 draws one; tails, the darer does."

  window dare "Daring" {
    opens after play when card.kind == number and card.rank == 9
    closes when a turn begins
    others may dare "Dare the player of a 9: they call heads or tails." {
      ask player "Heads or tails?" {
        heads "You draw a card." { player draws 1 }
        tails "The player who dared you draws a card." { actor draws 1 }
      }
    }
  }
}
