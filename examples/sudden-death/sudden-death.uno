# Sudden death: classic UNO where going out wins the game, not just the round.
#
# What changes compared to classic:
#   - No points and no 500-point race: the first player to play their last card wins the whole
#     game at once (classic: they score the other hands and the game goes on to 500).
#   - With the `rounds` option a group can play "best of N" instead: each round won is worth one
#     point, and the game ends as soon as one player has won more than half of the N rounds, or
#     after N rounds (equal round wins then share the game).
#   - A round that nobody can finish (the stock and the discard pile are both empty and nobody can
#     play) is not a lost round: the player holding the fewest points in hand wins it.
# Everything else (cards, matching, actions, challenges, UNO) is classic.
#
# Why: a classic game to 500 takes an hour; sudden death takes ten minutes and every hand matters.
# Good for a quick game, for tournaments (best of 3 or 5), or to teach the game to children who
# do not want to add up points.
ruleset sudden-death "Sudden death UNO" extends classic {
  about "Classic UNO in one round: the first player to go out wins the game. With the rounds option, play best of N: the first to win more than half of the rounds wins."

  option rounds = 1 from 1
    "How many rounds at most (best of N); the first player to win more than half of them wins the game."

  on round end "The player who went out wins the round (a blocked round goes to the lowest hand); whoever has won more than half of the rounds, or the most after the last one, wins the game." {
    if winner == none {
      for each s in everyone {
        if not (some o in everyone where o.points < s.points) { s scores 1 }
      }
    } else {
      winner scores 1
    }
    if round >= rounds or some s in everyone where s.score * 2 > rounds {
      end game highest wins
    }
  }
}
