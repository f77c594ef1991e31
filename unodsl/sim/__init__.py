"""Simulation: many whole games with bots, and the statistics a designer reads.

`simulate` plays games and streams their statistics; `workers` spreads them over processes
(--jobs); `statistics` holds the intervals, paired comparisons and team figures; `cluster` runs
the same on Dask; `plot` draws them as SVG; `engines` chooses between the Python engine and the
native one (unodsl.native, when installed) and turns native totals into the same statistics.

May import: unodsl.engine, unodsl.compile, unodsl.lang, unodsl.native.
"""
