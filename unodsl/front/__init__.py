"""The front ends people use: the `unodsl` command (`cli`), play at the terminal (`play`) and
scenario files (`scenarios`).

May import: every other package of unodsl.
"""
