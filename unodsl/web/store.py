"""Every table kept in SQLite: its rules, options, seats, seed and every move, nothing else.

A table is stored as what it takes to rebuild it (a bundled ruleset's name or the text of the
rules people wrote, the modules, the options, the seats, the seed) and its moves as typed, in
order. The game itself is never stored: replaying the moves on the same rules from the same seed
gives the same game (the engine is deterministic, and the bots draw from streams seeded by the
table's seed and the move number), so a refresh, a dropped phone or a restart resumes exactly.
Seat and host tokens are stored as SHA-256 digests and compared in constant time.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    ruleset TEXT,                 -- a bundled ruleset's name, or NULL when `source` holds the rules
    source TEXT,                  -- the rules as people wrote them
    modules TEXT NOT NULL,        -- JSON list of module names
    options TEXT NOT NULL,        -- JSON object: option name -> value as chosen
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    join_hash TEXT NOT NULL       -- digest of the code in the link the host shares
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,           -- 'human' or a bot's name
    name TEXT NOT NULL,
    token_hash TEXT,              -- NULL until a person takes the seat
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    seat INTEGER,                 -- NULL for the table (dealing the next round)
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
"""


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def same_token(token: str | None, stored: str | None) -> bool:
    """Whether a presented token matches a stored digest, in constant time."""
    if not token or not stored or len(token) > 200:
        return False
    return hmac.compare_digest(digest(token), stored)


@dataclass
class Seat:
    kind: str                     # "human" or a bot's name
    name: str
    token_hash: str | None = None

    @property
    def human(self) -> bool:
        return self.kind == "human"


@dataclass
class TableRecord:
    id: str
    ruleset: str | None
    source: str | None
    modules: list
    options: dict
    players: int
    seed: int
    join_hash: str
    seats: list = field(default_factory=list)        # Seat per seat number
    moves: list = field(default_factory=list)        # (seat or None, action text)
    created: float = 0.0


class Store:
    """The database of one server (`--data DIR`/tables.sqlite3); safe to use from several threads."""

    def __init__(self, folder):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.path = self.folder / "tables.sqlite3"
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def create(self, rec: TableRecord) -> None:
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute(
                "INSERT INTO tables (id, created, ruleset, source, modules, options, players, seed, join_hash) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (rec.id, rec.created or time.time(), rec.ruleset, rec.source, json.dumps(rec.modules),
                 json.dumps(rec.options), rec.players, rec.seed, rec.join_hash))
            self._db.executemany(
                "INSERT INTO seats (table_id, seat, kind, name, token_hash) VALUES (?, ?, ?, ?, ?)",
                [(rec.id, s, seat.kind, seat.name, seat.token_hash) for s, seat in enumerate(rec.seats)])
            self._db.execute("COMMIT")

    def get(self, table_id: str) -> TableRecord | None:
        with self._lock:
            row = self._db.execute(
                "SELECT id, ruleset, source, modules, options, players, seed, join_hash, created "
                "FROM tables WHERE id = ?", (table_id,)).fetchone()
            if row is None:
                return None
            seats = self._db.execute("SELECT kind, name, token_hash FROM seats WHERE table_id = ? ORDER BY seat",
                                     (table_id,)).fetchall()
            moves = self._db.execute("SELECT seat, action FROM moves WHERE table_id = ? ORDER BY n",
                                     (table_id,)).fetchall()
        return TableRecord(row[0], row[1], row[2], json.loads(row[3]), json.loads(row[4]), row[5], row[6], row[7],
                           [Seat(*s) for s in seats], [tuple(m) for m in moves], row[8])

    def take_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> bool:
        """Give a free human seat to a person; False if it was taken meanwhile."""
        with self._lock:
            cur = self._db.execute(
                "UPDATE seats SET name = ?, token_hash = ? WHERE table_id = ? AND seat = ? "
                "AND kind = 'human' AND token_hash IS NULL", (name, token_hash, table_id, seat))
            return cur.rowcount == 1

    def add_moves(self, table_id: str, first: int, moves) -> None:
        """Append moves numbered from `first` (the number of moves already stored)."""
        rows = [(table_id, first + i, seat, text) for i, (seat, text) in enumerate(moves)]
        if not rows:
            return
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.executemany("INSERT INTO moves (table_id, n, seat, action) VALUES (?, ?, ?, ?)", rows)
            self._db.execute("COMMIT")

    def count(self) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM tables").fetchone()[0]
