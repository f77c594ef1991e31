"""pytest collects every scenario file (YAML under a `scenarios` folder, or named `*.scenarios.yaml`) as tests, one test per scenario."""
from __future__ import annotations

import pytest

from unodsl.front.scenarios import ScenarioFileError, load_file, run


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
