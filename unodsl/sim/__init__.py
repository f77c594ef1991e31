"""Simulation: many whole games with bots, and the statistics a designer reads.

`simulate` plays games (in one process or several) and streams their statistics; `cluster`
runs the same on Dask; `plot` draws them as SVG.

May import: unodsl.engine, unodsl.compile, unodsl.lang.
"""
