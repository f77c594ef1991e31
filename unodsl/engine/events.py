"""Every kind of event a game can log, with the fields it carries: the engine's public word on
what happened, which front ends (the terminal, the web table, logs) turn into sentences.

Seats are seat numbers, cards card ids. What only some seats may see is under `private`
({seat: {field: value}}) and reaches them through `Game.events_for(seat)`. A new primitive that
logs a new kind of event adds it here (tests/test_events.py checks that every event the code
logs is listed, and front ends check that each listed kind has a sentence).
"""
from __future__ import annotations

EVENTS: dict[str, str] = {
    "action": "someone acted (seat, action: the action as typed; question: the question it answers, if any)",
    "dealer": "the first dealer was chosen by turning cards (seat)",
    "deal": "a round was dealt (dealer, cards: cards each)",
    "starter": "the starter card was turned up (card)",
    "starter_returned": "the starter card went back into the stock (card)",
    "play": "a card was played (seat, card)",
    "draw_turn": "a player took a drawing turn (seat)",
    "draw": "a player drew cards (seat, count; private to the drawer: cards)",
    "reshuffle": "the discard pile was shuffled into a new stock (cards: how many)",
    "skipped": "a player lost their turn (seat)",
    "direction": "the direction of play changed (direction: 1 clockwise, -1 counterclockwise)",
    "color": "a player chose the color (seat, color)",
    "color_set": "the rules set the current color (color; None: no color)",
    "swap": "two players swapped hands (seats)",
    "pass_hands": "every player passed their hand to the next player",
    "redeal": "every hand was gathered, shuffled and dealt again (start: the first seat dealt)",
    "swap_seats": "two players changed places at the table (seats)",
    "discard": "a player discarded cards (seat, count)",
    "put": "a player put a card from their hand on a pile (seat, pile: stock or discard, where: top or "
           "bottom; card, when it goes on the discard pile, else private to that player)",
    "turn_over": "a pile was turned over, its bottom card now on top (pile)",
    "shuffle": "a pile was shuffled (pile), or cards of it shuffled into another (pile, into, cards: how many)",
    "reveal": "a player showed their hand to others (seat, to, until: turn, a look until a turn begins, or "
              "round, the hand open until the round ends; private to each of them: cards)",
    "honesty": "a rule tested whether a play met its honesty condition, as a challenge does (seat, card, honest)",
    "flip": "every card was turned over, so its other face is in play (face: the face now in play, top)",
    "cancel": "the effect of the card jumped in on was undone",
    "window": "someone acted out of turn (seat, verb, subject: whom it was about)",
    "race": "a race among players was decided (outcome: the loser, prompt: the rules' question)",
    "number": "a number was decided by chance (outcome, prompt: the rules' question)",
    "chance": "chance picked one of a collection (of: race for a player, color or card; outcome, "
              "except for a card, which may be hidden; prompt: the rules' question)",
    "score": "a player's score changed (seat, points: added, negative when taken away; partners share it)",
    "eliminated": "a player is out (seat, round_only: only for this round)",
    "loop_limit": "a `while` of the rules, or effects applied inside one another, stopped at a limit (limit)",
    "trigger_limit": "the `whenever` rules kept firing and were stopped at their limit (limit)",
    "stalemate": "the round could not go on (reason)",
    "round_end": "the round ended (winner, points: this round's, scores: the totals)",
    "game_end": "the game ended (winners)",
}
