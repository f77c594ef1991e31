# Rules that test how the generated loop takes an action out of turn that asks questions: anyone
# may jump in on an identical card, and a card played out of turn asks its player heads or
# tails. While the question waits, the others may still act out of turn: after a low number,
# they may poke its player, who draws a card. Play goes on from the jumper
# (Game._ask_out_of_turn, runtime.answer_out_of_turn).
ruleset asks-out-of-turn "Asked out of turn" extends classic {
  uses jump-in

  after play "A card played out of turn asks its player heads or tails: tails, the next player draws a card." {
    if jumped {
      ask player "Heads or tails?" {
        heads "Nothing happens." { }
        tails "The next player draws a card." { next draws 1 }
      }
    }
  }

  window poke "Poking" {
    opens after play when card.kind == number and card.rank <= 4 and player.cards >= 3
    closes when a turn begins
    others may poke "Poke the player of a 1 to 4 left with three cards or more: they draw one." { player draws 1 }
  }
}
