"""Simulation: many whole games with bots, and the statistics a designer reads.

`simulate` plays games and streams their statistics; `workers` spreads them over processes
(--jobs); `statistics` holds the intervals, paired comparisons and team figures; `cluster` runs
the same on Dask; `plot` draws them as SVG.

May import: unodsl.engine, unodsl.compile, unodsl.lang.
"""
