"""pytest collects every scenario file (YAML under a `scenarios` folder, or named `*.scenarios.yaml`) as tests, one test per scenario.

Tests marked `slow` (and every test of the modules in SLOW_MODULES: many random games, processes,
browsers, clusters, rulesets compiled to machine code) are left out by `python -m pytest -m "not
slow"`, the quick run for working on the code; the whole suite runs them all.
"""
from __future__ import annotations

import os

import pytest

from unodsl.front.scenarios import ScenarioFileError, load_file, run


SLOW_MODULES = {"test_properties.py", "test_codegen.py", "test_fuzz.py"}
FIRST_MODULES = {"test_native.py"}
SLOW_TESTS = {"test_dask_local_cluster_gives_the_same_statistics", "test_pdf_sheet_names_every_card_and_rule",
              "test_classic_pdf_fits_two_a4_pages", "test_chromium_prints_classic_on_two_pages",
              # each compiles rulesets to machine code (tests/test_native.py marks its own parametrized ones)
              "test_native_basic_seats_act_out_of_turn_as_python", "test_native_basic_seats_play_runs_of_cards_as_python",
              "test_simulate_says_which_engine_played_and_falls_back_with_a_reason",
              "test_native_basic_seats_weigh_plays_that_move_hands_as_python_does",
              "test_whenever_rules_fire_in_the_native_engine", "test_piles_kept_in_order_in_the_native_engine",
              "test_rules_with_their_own_refill_keep_their_machine_code_on_disk",
              "test_modules_that_keep_windows_keep_their_machine_code_on_disk",
              "test_a_native_run_adds_up_what_its_games_did"}


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: a test that takes seconds (left out by -m \"not slow\")")
    # Where the workers (`-n auto`) keep every core busy, a first native compile's helper process
    # (native.build) only takes turns with them: on two cores, the tests that compile took 15%
    # longer with it. Those workers compile alone, unless told otherwise (tests of the helper set it).
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0"))
    if workers >= (os.cpu_count() or 1):
        os.environ.setdefault("UNODSL_COMPILE_JOBS", "1")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.name in SLOW_MODULES or getattr(item, "originalname", None) in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)
    # The tests that compile rulesets to machine code (up to a minute and a half each) go first,
    # so that with several workers (`-n auto`, pyproject's `--dist worksteal`) the run ends on
    # short tests that fill every worker rather than on one worker's last compile.
    items.sort(key=lambda item: item.path.name not in FIRST_MODULES)


def pytest_collect_file(parent, file_path):
    if file_path.suffix in (".yaml", ".yml") and ("scenarios" in file_path.parts or file_path.name.endswith(".scenarios.yaml")):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self):
        try:
            scenarios = load_file(self.path)
        except ScenarioFileError as err:
            yield BrokenFile.from_parent(self, name="<file>", error=err)
            return
        for i, sc in enumerate(scenarios):
            yield ScenarioItem.from_parent(self, name=f"{i + 1}: {sc.name}", scenario=sc)


class BrokenFile(pytest.Item):
    def __init__(self, *, error, **kw):
        super().__init__(**kw)
        self.error = error

    def runtest(self):
        raise ScenarioFailed(str(self.error))

    def repr_failure(self, excinfo):
        return str(excinfo.value)


class ScenarioFailed(Exception):
    pass


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario, **kw):
        super().__init__(**kw)
        self.scenario = scenario

    def runtest(self):
        try:
            failures = run(self.scenario)
        except ScenarioFileError as err:
            raise ScenarioFailed(str(err)) from None
        if failures:
            raise ScenarioFailed("\n".join(f.render() for f in failures))

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, ScenarioFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, self.scenario.line, self.scenario.name
