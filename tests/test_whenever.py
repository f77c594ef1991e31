"""`whenever` rules in the engine: a rule that keeps holding is stopped, with an event, and the
game goes on; a rule that eliminates the player deciding a turn out of turn moves the game on."""
from __future__ import annotations

import pytest

from unodsl.compile.loader import load
from unodsl.engine import Game
from unodsl.engine.triggers import MAX_FIRINGS
from unodsl.front import scenarios
from unodsl.front.scenarios import load_file, run


@pytest.mark.parametrize("generated", [True, False])
def test_a_rule_that_keeps_holding_stops_at_the_limit_and_the_game_goes_on(tmp_path, generated):
    rules = tmp_path / "greedy.uno"
    rules.write_text("""ruleset greedy extends classic {
  whenever some s in everyone where s.cards > 0 "Everyone keeps drawing (a mistake the checker cannot see)." {
    s draws 1
  }
}""", encoding="utf-8")
    game = Game(load(str(rules)), 2, seed=3, generated=generated)
    limits = [e for e in game.events if e["e"] == "trigger_limit"]
    assert limits and limits[0]["limit"] == MAX_FIRINGS
    assert game.decision is not None and game.decision.kind == "turn"
    game.apply(game.legal_actions()[0])          # the game still moves
    assert game.turns == 1


@pytest.mark.parametrize("generated", [True, False])
def test_a_catch_that_puts_the_deciding_player_out_moves_the_game_on(tmp_path, monkeypatch, generated):
    """Two players: p1 plays a Skip down to one card and plays again; p2 catches p1, who then
    holds three cards, and a `whenever` rule puts anyone holding three out: the round ends."""
    (tmp_path / "three.uno").write_text("""ruleset three extends classic {
  whenever some s in everyone where s.cards == 3 { eliminate s }
  on round end { if players == 1 { end game highest wins } }
}""", encoding="utf-8")
    (tmp_path / "s.yaml").write_text("""ruleset: three.uno
players: 2
setup:
  hands: {p1: [RS, R1], p2: [G1, G2, G4, G5]}
  discard: [R5]
  stock: [B1, B2, B3]
steps:
  - p1: play RS
  - expect: {turn: p1}
  - p2: catch p1
expect: {eliminated: [p1], round_over: true, winner: p2}
""", encoding="utf-8")
    monkeypatch.setattr(scenarios, "Game", lambda *a, **k: Game(*a, generated=generated, **k))
    for sc in load_file(tmp_path / "s.yaml"):
        assert run(sc) == []


def test_a_rule_with_no_template_runs_through_its_closures_with_its_name(tmp_path):
    """The generated loop writes `whenever` rules out; one it cannot write out (statements
    nested deeper than Python's own limits let it indent) is run by its closures, the player it
    found named in their context, and the games stay the generic loop's."""
    from unodsl.sim.simulate import play_game
    deep = "if s.cards > 100 { " * 20 + "s draws 1" + " }" * 20
    (tmp_path / "twelve.uno").write_text(f"""ruleset twelve extends classic {{
  whenever some s in everyone where s.cards >= 12 "Out at twelve." {{
    s draws 1
    {deep}
    eliminate s
  }}
  on round end {{ if players == 1 {{ end game highest wins }} }}
}}""", encoding="utf-8")
    rules = load(str(tmp_path / "twelve.uno"))
    assert [missing for _, missing in Game(rules, 4, seed=1)._code.delegated] == ["If nested too deeply to write out"]
    out = 0
    for seed, players in ((0, 2), (1, 4), (2, 6)):
        generic = play_game(rules, players, seed, "random", rounds=3, generated=False)
        generated = play_game(rules, players, seed, "random", rounds=3)
        assert generated.events == generic.events and generated.hands == generic.hands
        out += generic.stats["eliminations"]
    assert out > 0, "someone was knocked out"
