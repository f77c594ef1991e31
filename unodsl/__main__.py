"""`python -m unodsl` is the `unodsl` command."""
from .front.cli import run

run()
