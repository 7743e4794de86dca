"""The engine is pure Python: importing any of its modules pulls in no Django (or Channels)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"

IMPORT_EVERYTHING = """
import importlib, json, pkgutil, sys
import engine
names = ["engine"] + [m.name for m in pkgutil.walk_packages(engine.__path__, "engine.")]
for name in names:
    importlib.import_module(name)
web = sorted(m for m in sys.modules if m.split(".")[0] in ("django", "channels", "daphne"))
print(json.dumps({"modules": names, "web": web}))
"""


def test_importing_every_engine_module_imports_no_django() -> None:
    result = subprocess.run(
        [sys.executable, "-c", IMPORT_EVERYTHING],
        cwd=ENGINE.parent, capture_output=True, text=True, timeout=120, check=False,
    )
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout.strip().splitlines()[-1])
    for expected in ("engine.cards", "engine.hand", "engine.game", "engine.views",
                     "engine.history", "engine.pots", "engine.events", "engine.actions",
                     "engine.evaluator", "engine.demo"):
        assert expected in found["modules"]
    assert found["web"] == []


def test_no_engine_source_mentions_a_django_import() -> None:
    pattern = re.compile(r"^\s*(from|import)\s+(django|channels|daphne)\b", re.MULTILINE)
    sources = sorted(ENGINE.rglob("*.py"))
    assert len(sources) >= 9
    offenders = [str(p.relative_to(ENGINE)) for p in sources if pattern.search(p.read_text())]
    assert offenders == []
    assert not [p for p in sources if "importlib" in p.read_text() and "django" in p.read_text()]
