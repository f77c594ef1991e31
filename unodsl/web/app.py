"""The web table's routes: HTTP and websocket messages in, the engine's decisions and actions out.

No rule lives here or in the page's JavaScript. A page asks what its seat may do (the `moves`
of its state message, each with the words of its button) and sends back one of them as text; the
move is checked by the engine for the seat its token holds. Every request is validated before it
reaches the engine: bodies and messages are size-limited, names are cleaned, tokens are compared
in constant time, a move made for a state the table has left is refused, and rules people paste
or upload are checked, compiled and tried in the sandbox's worker process first.
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import secrets
import sys
import time
from collections import OrderedDict
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..compile.loader import bundled_names, load
from ..engine.bots import bot_label, bot_names, check_bot
from ..lang.diagnostics import RulesError
from .pages import render
from .sandbox import CHECK_SECONDS, MAX_SOURCE_BYTES, VET_SECONDS, Sandbox, SandboxError, option_list
from .store import Seat, Store, TableRecord, digest, same_token
from .tables import LiveTable, MoveError

MAX_BODY = MAX_SOURCE_BYTES + 20_000     # a request: the rules file plus the table's settings
MAX_MESSAGE = 2_000                      # a websocket message from a page: one move
MAX_NAME = 24
MAX_LIVE = 400                           # tables kept in memory; others wait in the database
MESSAGES_PER_SECOND = 50                 # from one page, before it is cut off
BOT_DELAY = 0.7                          # seconds between bot moves, so people can follow them
STATIC = Path(__file__).parent / "static"


class BadRequest(Exception):
    def __init__(self, message: str, status: int = 400, extra: dict | None = None):
        super().__init__(message)
        self.status, self.extra = status, extra or {}


def clean_name(text, fallback: str) -> str:
    """A person's or bot's name as shown: printable, trimmed, at most MAX_NAME characters."""
    name = "".join(c for c in str(text or "") if c.isprintable()).strip()[:MAX_NAME].strip()
    return name or fallback


class Server:
    """The state of one `unodsl serve`: the database, the tables in play and their pages."""

    def __init__(self, data_dir, bot_delay: float = BOT_DELAY, sandbox: Sandbox | None = None, bots=()):
        self.bots = offered_bots(bots)
        self.store = Store(data_dir)
        self.rules_dir = Path(data_dir) / "rules"
        self.rules_dir.mkdir(parents=True, exist_ok=True)
        self.bot_delay = bot_delay
        self.sandbox = sandbox or Sandbox()
        self.live: OrderedDict = OrderedDict()       # table id -> LiveTable (most recent last)
        self.sockets: dict = {}                      # table id -> {seat: set of WebSocket}
        self.bot_tasks: dict = {}                    # table id -> asyncio.Task
        self.sheets: OrderedDict = OrderedDict()     # table id -> its rule sheet (HTML)
        self._rules: OrderedDict = OrderedDict()     # (ref, modules, options) -> Ruleset
        self._loading = asyncio.Lock()
        self._bundled = None

    def close(self) -> None:
        for task in self.bot_tasks.values():
            task.cancel()
        self.sandbox.close()
        self.store.close()

    # ---- rules --------------------------------------------------------------------------------
    def bundled(self) -> dict:
        """The bundled rulesets and modules, with what a host chooses from."""
        if self._bundled is None:
            rulesets, modules = [], []
            for name, kind, title in bundled_names():
                rules = load(name) if kind == "ruleset" else load("classic", (name,))
                entry = {"name": name, "title": title, "about": rules.about if kind == "ruleset" else "",
                         "players": list(rules.players), "options": option_list(rules)}
                if kind == "module":
                    own = {o["name"] for o in option_list(load("classic"))}
                    entry["options"] = [o for o in entry["options"] if o["name"] not in own]
                    entry["about"] = _about_of(name)
                (rulesets if kind == "ruleset" else modules).append(entry)
            self._bundled = {"rulesets": rulesets, "modules": modules, "bots": [{"spec": b, "title": bot_label(b)} for b in self.bots]}
        return self._bundled

    def rules_file(self, source: str) -> Path:
        path = self.rules_dir / (hashlib.sha256(source.encode("utf-8")).hexdigest()[:24] + ".uno")
        if not path.exists():
            path.write_text(source, encoding="utf-8")
        return path

    def compile(self, ruleset, source, modules, options):
        """A table's rules, compiled once and shared by every table that plays them."""
        ref = ruleset if source is None else str(self.rules_file(source))
        key = (ref, tuple(modules), json.dumps(options, sort_keys=True))
        rules = self._rules.get(key)
        if rules is None:
            rules = load(ref, tuple(modules), dict(options))
            self._rules[key] = rules
            while len(self._rules) > 64:
                self._rules.popitem(last=False)
        self._rules.move_to_end(key)
        return rules

    # ---- tables -------------------------------------------------------------------------------
    async def table(self, table_id: str) -> LiveTable | None:
        found = self.live.get(table_id)
        if found is not None:
            self.live.move_to_end(table_id)
            return found
        if not isinstance(table_id, str) or len(table_id) > 40:
            return None
        async with self._loading:
            found = self.live.get(table_id)
            if found is None:
                found = await run_in_threadpool(self._load, table_id)
                if found is None:
                    return None
                self.live[table_id] = found
                self._evict()
        self.start_bots(table_id)
        return found

    def _load(self, table_id: str) -> LiveTable | None:
        rec = self.store.get(table_id)
        if rec is None:
            return None
        missing = sorted({seat.kind for seat in rec.seats if not seat.human and seat.kind not in self.bots})
        if missing:                  # a table made when the server offered other bots: left as it is
            print(f"unodsl serve: table {table_id} is left closed: start the server with --bots "
                  f"{','.join(missing)} to open it", file=sys.stderr, flush=True)
            return None
        rules = self.compile(rec.ruleset, rec.source, rec.modules, rec.options)
        return LiveTable(rec, rules)

    def _evict(self) -> None:
        for tid in list(self.live):
            if len(self.live) <= MAX_LIVE:
                break
            if not any(self.sockets.get(tid, {}).values()) and tid not in self.bot_tasks:
                del self.live[tid]

    def online(self, table_id: str) -> set:
        return {s for s, socks in self.sockets.get(table_id, {}).items() if socks}

    async def broadcast(self, table: LiveTable) -> None:
        """Send every connected seat its own state (and nothing of anyone else's)."""
        seats = self.sockets.get(table.id, {})
        online = self.online(table.id)
        for seat, socks in list(seats.items()):
            if not socks:
                continue
            message = await run_in_threadpool(self._state, table, seat, online)
            for ws in list(socks):
                try:
                    await ws.send_text(message)
                except Exception:          # a page that went away: its handler cleans up
                    socks.discard(ws)

    @staticmethod
    def _state(table: LiveTable, seat: int, online) -> str:
        with table.lock:
            return json.dumps(table.state(seat, online))

    def _save(self, table: LiveTable) -> None:
        first, moves = table.unsaved()
        self.store.add_moves(table.id, first, moves)
        table.tell_all()

    async def move(self, table: LiveTable, seat: int, text: str, version) -> None:
        def apply():
            with table.lock:
                try:
                    table.move(seat, text, version)
                finally:
                    self._save(table)
        await run_in_threadpool(apply)
        self.start_bots(table.id)

    def start_bots(self, table_id: str) -> None:
        task = self.bot_tasks.get(table_id)
        if task is None or task.done():
            self.bot_tasks[table_id] = asyncio.ensure_future(self._bots(table_id))

    async def _bots(self, table_id: str) -> None:
        """Bots move one at a time, a moment apart, so that the people at the table can follow."""
        table = self.live.get(table_id)
        try:
            while table is not None:
                await asyncio.sleep(self.bot_delay)

                def step() -> bool:
                    with table.lock:
                        before = table.version
                        table.bots_out_of_turn()
                        if table.version == before:
                            table.bot_move()
                        self._save(table)
                        return table.version != before
                if not await run_in_threadpool(step):
                    break
                await self.broadcast(table)
        finally:
            self.bot_tasks.pop(table_id, None)

    async def create(self, body: dict) -> dict:
        ruleset, source, modules, options, seats, seed = self._settings(body)
        if source is not None:
            try:
                await run_in_threadpool(self.sandbox.run, "vet", source, modules, options, len(seats),
                                        timeout=VET_SECONDS)
            except SandboxError as err:
                raise BadRequest(f"These rules cannot open a table: {err}.") from None
            except ValueError as err:
                raise BadRequest(f"These rules cannot open a table:\n{err}") from None
        try:
            rules = await run_in_threadpool(self.compile, ruleset, source, modules, options)
        except RulesError as err:
            raise BadRequest("The rules have mistakes.", extra={"diagnostics": err.render()}) from None
        except (LookupError, ValueError) as err:
            raise BadRequest(str(err.args[0] if err.args else err)) from None
        low, high = rules.players
        if not low <= len(seats) <= high:
            raise BadRequest(f"{rules.title} is for {low} to {high} players, not {len(seats)}.")
        if not any(s.human for s in seats):
            raise BadRequest("Give at least one seat to a person.")
        host = body.get("host_seat")
        if host is not None and (not isinstance(host, int) or not 0 <= host < len(seats) or not seats[host].human):
            raise BadRequest("The host's seat must be one of the seats for people.")
        table_id = secrets.token_urlsafe(9)
        code = secrets.token_urlsafe(12)
        token = None
        if host is not None:
            token = secrets.token_urlsafe(24)
            seats[host].token_hash = digest(token)
        rec = TableRecord(table_id, ruleset, source, modules, options, len(seats), seed, digest(code), seats,
                          created=time.time())
        await run_in_threadpool(self.store.create, rec)
        out = {"id": table_id, "title": rules.title, "join": f"/join/{table_id}?code={code}"}
        if token is not None:
            out["seat"] = f"/t/{table_id}/{host}?token={token}"
        return out

    def _settings(self, body: dict):
        ruleset = body.get("ruleset")
        source = body.get("source")
        if (ruleset is None) == (source is None):
            raise BadRequest("Choose a bundled ruleset or give the text of your own rules.")
        if ruleset is not None:
            names = {r["name"] for r in self.bundled()["rulesets"]}
            if ruleset not in names:
                raise BadRequest(f"There is no bundled ruleset called “{str(ruleset)[:40]}”.")
        elif not isinstance(source, str) or not source.strip():
            raise BadRequest("The rules are empty.")
        modules = body.get("modules") or []
        known = {m["name"] for m in self.bundled()["modules"]}
        if not isinstance(modules, list) or len(modules) > 20 or any(m not in known for m in modules):
            raise BadRequest("Choose house rules from the list.")
        options = body.get("options") or {}
        if not isinstance(options, dict) or len(options) > 100:
            raise BadRequest("The options are not a list of names and values.")
        clean = {}
        for name, value in options.items():
            if not isinstance(name, str) or len(name) > 60 or not isinstance(value, (str, int, bool)) or \
                    isinstance(value, int) and not -10**9 < value < 10**9 or len(str(value)) > 60:
                raise BadRequest(f"The option “{str(name)[:40]}” has a value that is not allowed.")
            clean[name] = ("yes" if value else "no") if isinstance(value, bool) else str(value)
        seats_in = body.get("seats")
        if not isinstance(seats_in, list) or not 2 <= len(seats_in) <= 10:
            raise BadRequest("A table has 2 to 10 seats.")
        seats = []
        for i, seat in enumerate(seats_in):
            if not isinstance(seat, dict):
                raise BadRequest("Each seat is a person or a bot.")
            kind = seat.get("kind", "human")
            if kind != "human" and kind not in self.bots:      # never a module a request names
                raise BadRequest(f"Seats are for people or bots ({', '.join(self.bots)}).")
            name = clean_name(seat.get("name"), f"Bot {i + 1}" if kind != "human" else f"Player {i + 1}")
            seats.append(Seat(kind, name))
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbelow(2**31)
        elif not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise BadRequest("The seed is a whole number.")
        return ruleset, source, modules, clean, seats, seed

    async def take_seat(self, table_id: str, body: dict) -> dict:
        rec = await run_in_threadpool(self.store.get, table_id)
        if rec is None:
            raise BadRequest("There is no such table.", 404)
        if not same_token(body.get("code") if isinstance(body.get("code"), str) else None, rec.join_hash):
            raise BadRequest("This invitation link is not valid for this table.", 403)
        seat = body.get("seat")
        if not isinstance(seat, int) or not 0 <= seat < rec.players or not rec.seats[seat].human:
            raise BadRequest("Choose one of the seats for people.")
        if rec.seats[seat].token_hash is not None:
            raise BadRequest("Someone already sits there: choose another seat.", 409)
        name = clean_name(body.get("name"), rec.seats[seat].name)
        token = secrets.token_urlsafe(24)
        if not await run_in_threadpool(self.store.take_seat, table_id, seat, name, digest(token)):
            raise BadRequest("Someone took that seat just now: choose another.", 409)
        table = self.live.get(table_id)
        if table is not None:
            with table.lock:
                table.record.seats[seat] = Seat("human", name, digest(token))
                table.names[seat] = name
                for narrator in table.narrators.values():
                    narrator.names[seat] = name
            await self.broadcast(table)
        return {"url": f"/t/{table_id}/{seat}?token={token}", "seat": seat, "name": name}

    async def sheet(self, table: LiveTable) -> str:
        found = self.sheets.get(table.id)
        if found is None:
            rec = table.record
            if rec.source is not None:
                found = await run_in_threadpool(self.sandbox.run, "sheet", rec.source, rec.modules, rec.options,
                                                timeout=CHECK_SECONDS * 2)
            else:
                from ..sheets.sheet import make_sheet
                found = await run_in_threadpool(make_sheet, rec.ruleset, tuple(rec.modules), dict(rec.options))
            self.sheets[table.id] = found
            while len(self.sheets) > 50:
                self.sheets.popitem(last=False)
        return found


def _about_of(module: str) -> str:
    from ..lang import ast as A
    from ..lang.resources import bundled_files
    from ..compile.loader import read_source
    from ..lang.diagnostics import Diagnostics
    from ..lang.parser import parse
    for path in bundled_files():
        if path.stem == module:
            tree = parse(read_source(path), Diagnostics())
            for unit in tree.units:
                for decl in unit.decls:
                    if isinstance(decl, A.About):
                        return decl.text
    return ""


# ---- HTTP ---------------------------------------------------------------------------------------

async def read_json(request, limit: int = MAX_BODY) -> dict:
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise BadRequest(f"The request is larger than {limit // 1000} kB.", 413)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise BadRequest(f"The request is larger than {limit // 1000} kB.", 413)
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BadRequest("The request is not JSON.") from None
    if not isinstance(data, dict):
        raise BadRequest("The request is not a JSON object.")
    return data


def _errors(handler):
    async def wrapped(request):
        try:
            return await handler(request)
        except BadRequest as err:
            return JSONResponse({"error": str(err), **err.extra}, status_code=err.status)
    wrapped.__name__ = handler.__name__
    return wrapped


def offered_bots(extra=()) -> list:
    """The bots a table's seats may be: the bundled ones, those installed packages declare, and
    those the operator names (`serve --bots`), each checked now (engine.bots.BotError if not).
    A request only picks from this list, so it can never make the server load code it names."""
    offered = bot_names()
    for spec in extra:
        check_bot(spec)
        if spec not in offered:
            offered.append(spec)
    return offered


def create_app(data_dir, bot_delay: float = BOT_DELAY, sandbox: Sandbox | None = None, bots=()) -> Starlette:
    """The ASGI application of `unodsl serve`, keeping its tables in `data_dir`; `bots` are
    bot specs the operator offers beyond the bundled and installed ones."""
    server = Server(data_dir, bot_delay, sandbox, bots)

    async def lobby(request):
        return HTMLResponse(render("lobby.html", title="New table"))

    async def editor(request):
        return HTMLResponse(render("editor.html", title="Write a variant"))

    async def join_page(request):
        table = await server.table(request.path_params["table"])
        if table is None:
            return HTMLResponse(render("message.html", title="No such table",
                                       message="There is no table at this address."), status_code=404)
        code = request.query_params.get("code", "")
        if not same_token(code, table.record.join_hash):
            return HTMLResponse(render("message.html", title="Not a valid invitation",
                                       message="This invitation link is not valid: ask the host for the link again."),
                                status_code=403)
        seats = [{"seat": s, "name": seat.name, "free": seat.human and seat.token_hash is None, "bot": not seat.human}
                 for s, seat in enumerate(table.record.seats)]
        return HTMLResponse(render("join.html", title=f"Join: {table.rules.title}", table=table.id,
                                   game=table.rules.title, seats=seats, code=code))

    async def table_page(request):
        table = await server.table(request.path_params["table"])
        seat = _seat_number(request.path_params["seat"])
        if table is None or seat is None or seat >= table.n:
            return HTMLResponse(render("message.html", title="No such table",
                                       message="There is no table or seat at this address."), status_code=404)
        if not same_token(request.query_params.get("token"), table.record.seats[seat].token_hash):
            return HTMLResponse(render("message.html", title="Not your seat",
                                       message="This link does not hold this seat: open the link you were given "
                                               "when you sat down."), status_code=403)
        return HTMLResponse(render("table.html", title=table.rules.title, table=table.id, seat=seat,
                                   game=table.rules.title))

    async def sheet_page(request):
        table = await server.table(request.path_params["table"])
        if table is None:
            return HTMLResponse(render("message.html", title="No such table",
                                       message="There is no table at this address."), status_code=404)
        try:
            return HTMLResponse(await server.sheet(table))
        except (SandboxError, ValueError) as err:
            return HTMLResponse(render("message.html", title="No rule sheet",
                                       message=f"The rule sheet could not be made: {err}"), status_code=500)

    @_errors
    async def api_rulesets(request):
        return JSONResponse(await run_in_threadpool(server.bundled))

    @_errors
    async def api_check(request):
        body = await read_json(request)
        source = body.get("source")
        if not isinstance(source, str):
            raise BadRequest("Send the rules as text.")
        modules = [m for m in (body.get("modules") or []) if isinstance(m, str)][:20]
        try:
            result = await run_in_threadpool(server.sandbox.run, "check", source, modules, {})
            if not result["errors"] and body.get("sheet"):
                result["sheet"] = await run_in_threadpool(server.sandbox.run, "sheet", source, modules, {},
                                                          timeout=CHECK_SECONDS * 2)
        except SandboxError as err:
            return JSONResponse({"errors": 1, "diagnostics": [], "error": f"{str(err)[:1].upper()}{str(err)[1:]}."})
        except ValueError as err:
            return JSONResponse({"errors": 1, "diagnostics": [], "error": str(err)})
        return JSONResponse(result)

    @_errors
    async def api_create(request):
        return JSONResponse(await server.create(await read_json(request)))

    @_errors
    async def api_seat(request):
        return JSONResponse(await server.take_seat(request.path_params["table"], await read_json(request, 4_000)))

    async def socket(websocket: WebSocket):
        table = await server.table(websocket.path_params["table"])
        seat = _seat_number(websocket.path_params["seat"])
        await websocket.accept()
        if table is None or seat is None or seat >= table.n or not same_token(
                websocket.query_params.get("token"), table.record.seats[seat].token_hash):
            await websocket.send_json({"type": "error", "fatal": True,
                                       "message": "This link does not hold a seat at this table."})
            await websocket.close(code=4403)
            return
        socks = server.sockets.setdefault(table.id, {}).setdefault(seat, set())
        socks.add(websocket)
        await server.broadcast(table)
        sent = []
        try:
            while True:
                text = await websocket.receive_text()
                now = time.monotonic()
                sent = [t for t in sent if now - t < 1.0] + [now]
                if len(sent) > MESSAGES_PER_SECOND:
                    await websocket.send_json({"type": "error", "fatal": True, "message": "Too many messages."})
                    await websocket.close(code=4429)
                    break
                reply = await _message(server, table, seat, text)
                if reply is not None:
                    await websocket.send_json(reply)
        except WebSocketDisconnect:
            pass
        finally:
            socks.discard(websocket)
            await server.broadcast(table)

    @asynccontextmanager
    async def lifespan(app):
        yield
        server.close()

    routes = [
        Route("/", lobby), Route("/editor", editor),
        Route("/join/{table}", join_page), Route("/t/{table}/sheet", sheet_page),
        Route("/t/{table}/{seat}", table_page),
        Route("/api/rulesets", api_rulesets), Route("/api/check", api_check, methods=["POST"]),
        Route("/api/tables", api_create, methods=["POST"]),
        Route("/api/tables/{table}/seats", api_seat, methods=["POST"]),
        WebSocketRoute("/ws/{table}/{seat}", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.server = server
    return app


def _seat_number(text) -> int | None:
    return int(text) if isinstance(text, str) and text.isdigit() and len(text) <= 2 else None


async def _message(server: Server, table: LiveTable, seat: int, text: str):
    """One message from a page: a move for its seat. The answer is for that page only."""
    if len(text) > MAX_MESSAGE:
        return {"type": "error", "message": "That message is too long to be a move."}
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return {"type": "error", "message": "That message is not a move."}
    if not isinstance(data, dict) or not isinstance(data.get("move"), str):
        return {"type": "error", "message": "That message is not a move."}
    version = data.get("v")
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        return {"type": "error", "message": "That message is not a move."}
    try:
        await server.move(table, seat, data["move"], version)
    except MoveError as err:
        return {"type": "error", "message": str(err)[:1].upper() + str(err)[1:]}
    await server.broadcast(table)
    return None

