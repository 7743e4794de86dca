"""What the tests of tests/ha share: the marks of the tests that start a cluster of their own,
and deploy/patroni/patroni.yml read as data."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.ha.patroni_cluster import available

# Run in CI's services phase, or anywhere with HA_TESTS=1: the cluster is the tests' own and
# never uses those services; skipped, saying why, where Patroni or etcd is missing.
CLUSTER_MARKS = [
    pytest.mark.services(also_when="HA_TESTS"),
    pytest.mark.slow,
    pytest.mark.skipif(bool(available()), reason=available() or "-"),
]

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
SYSTEM_PYTHON = "/usr/bin/python3"  # Debian's patroni brings python3-yaml with it


def patroni_yml() -> dict[str, Any]:
    """deploy/patroni/patroni.yml as data (read by the system's Python, which has PyYAML)."""
    if not Path(SYSTEM_PYTHON).exists() or subprocess.run(
        [SYSTEM_PYTHON, "-c", "import yaml"], capture_output=True).returncode:
        pytest.skip("needs python3-yaml (installed with Debian's patroni)")
    read = subprocess.run(
        [SYSTEM_PYTHON, "-c", "import json, sys, yaml; "
         "print(json.dumps(yaml.safe_load(open(sys.argv[1]))))",
         str(DEPLOY / "patroni" / "patroni.yml")],
        capture_output=True, text=True, check=True)
    loaded: dict[str, Any] = json.loads(read.stdout)
    return loaded
