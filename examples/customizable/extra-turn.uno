# Wild Customizable: "take an extra turn".
# Official suggestion V-SW-5 #4: "Take an extra turn"; the seed list V-SW-6 says the
# same in other words ("Everyone skips a turn, i.e. you take an extra turn").
# The player names the color and plays again at once: they may play any card that fits the new
# color (or draw, as on any turn). Nobody else draws or loses anything, and the direction of play
# does not change. Played as the last card, the player has gone out and the round ends.
module extra-turn "Customizable: take an extra turn" {
  about "Wild Customizable: name a color and take another turn at once."
  requires wild_customizable

  on play wild_customizable "Choose the color, then take another turn." {
    player chooses a color
    player plays again
  }
}
