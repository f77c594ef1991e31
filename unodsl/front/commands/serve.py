"""`unodsl serve`: the web table, for friends around a table, each on a phone."""
from __future__ import annotations

from pathlib import Path

from .common import EXIT_OK, UsageError, split_list

NAME = "serve"
HELP = "open the web table: play with friends in the browser, write variants"
DESCRIPTION = ("Start the web table (needs the `web` extra: pip install 'unodsl[web]'). Open the address it "
               "prints: create a table, share its link, and each player joins from their phone. Tables are "
               "kept in --data, so a restart resumes every game.")


def _port(text: str) -> int:
    import argparse
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"`{text}` is not a port (1 to 65535)")
    return int(text)


def arguments(p) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; "
                   "0.0.0.0 lets phones on your network join)")
    p.add_argument("--port", type=_port, default=8000, help="port to listen on (default 8000)")
    p.add_argument("--data", metavar="DIR", default="unodsl-tables",
                   help="folder that keeps the tables (default ./unodsl-tables)")
    p.add_argument("--bots", metavar="BOT[,BOT...]", default="",
                   help="plug-in bots to offer in the lobby besides the bundled and installed ones, e.g. "
                        "package.module:Class or search:iterations=50 (checked at start)")


def run(args) -> int:
    try:
        import uvicorn

        from ...web.app import MAX_MESSAGE, create_app
    except ImportError as err:
        raise UsageError(f"the web table needs the `web` extra ({err.name} is missing): "
                         "pip install 'unodsl[web]'") from None
    data = Path(args.data)
    if data.exists() and not data.is_dir():
        raise UsageError(f"--data {data}: not a folder")
    from ...engine.bots import BotError
    try:
        app = create_app(data, bots=split_list(args.bots))
    except BotError as err:
        raise UsageError(f"--bots: {err}") from None
    print(f"unodsl web table on http://{args.host}:{args.port}/  (tables kept in {data.resolve()})", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws_max_size=MAX_MESSAGE * 4,
                ws_per_message_deflate=False)
    return EXIT_OK
