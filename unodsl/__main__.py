"""`python -m unodsl` is the `unodsl` command."""
from .cli import run

run()
