"""The web table: `unodsl serve`, friends around a table, each on a phone.

`app` is a small ASGI application (Starlette) whose routes only translate between HTTP or
websocket messages and the engine's decisions and actions; `tables` runs the games (each seat is
sent only what `Game.view` and `Game.events_for` give it, told in the sentences of
`unodsl.front.narration`); `store` keeps every table in SQLite as its rules, options, seats,
seed and moves, so that a refresh, a dropped phone or a server restart resumes exactly;
`sandbox` checks and compiles rules that people paste or upload in a separate process, with
time, size and memory limits; `pages` (with `templates/`) and `static/` are the HTML, CSS and JavaScript it serves
(no build step: what is in the package is what the browser gets).

May import: unodsl.front, unodsl.sheets, unodsl.engine, unodsl.compile, unodsl.lang.
"""
