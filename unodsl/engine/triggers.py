"""Rules that hold whenever a state arises: `whenever` declarations, and windows that open
whenever their condition becomes true (`opens when ...`).

The game comes to rest after each move and everything it caused, and before anyone is asked a
question; each time, `settle` runs every `whenever` rule whose condition holds (checking them all
again after each one, so that one rule's statements can make another's condition true) and opens
the windows whose condition has just become true for a player.
"""
from __future__ import annotations

from ..compile.effects import MAX_FIRINGS
from ..compile.expressions import Ctx


class Triggers:
    """Mixed into Game."""

    def settle(self) -> None:
        """Run the `whenever` rules that hold and open the windows whose condition became true."""
        if self._settling or self.round_over:
            return
        self._settling = True
        try:
            if self.rules.triggers:
                self._fire()
            if self.rules.state_windows and (self._seat_bot is None or self._bot_loop):    # (random seats never use windows)
                generated = self._code.open_state_windows
                if generated is not None:
                    generated(self)
                else:
                    self._open_state_windows()
        finally:
            self._settling = False

    def _fire(self) -> None:
        triggers = self.rules.triggers
        for _ in range(MAX_FIRINGS):
            if self._end_now or self.game_over:
                return
            for trigger in triggers:
                ctx = Ctx(self, player=self.turn)
                if trigger.find is not None:
                    found = trigger.find(ctx)
                    if found is None:
                        continue
                    ctx.vars[trigger.var] = found
                elif not trigger.test(ctx):
                    continue
                trigger.program.plain(ctx)
                break
            else:
                return
        self.event("trigger_limit", limit=MAX_FIRINGS)

    def _open_state_windows(self) -> None:
        held = self._held
        for rule in self.rules.state_windows:
            for s in range(self.n):
                key = (rule.name, s)
                holds = not self.inactive[s] and bool(rule.opens(Ctx(self, player=s, actor=s)))
                if holds and not held.get(key):
                    self.windows.pop(key, None)
                    self.windows[key] = (rule, None)
                held[key] = holds
