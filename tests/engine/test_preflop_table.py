"""The preflop table (engine/bots/preflop_data.py) is exactly what scripts/gen_preflop_table.py
writes: rendering the table's own values again gives the file back, byte for byte, so the file
is in the generator's form and a new run of it changes only the numbers."""

from __future__ import annotations

import base64
import importlib.util
from pathlib import Path
from types import ModuleType

import numpy as np

from engine.bots import preflop, preflop_data
from engine.bots.combos import CLASS_NAMES, N_CLASSES

ROOT = Path(__file__).resolve().parents[2]


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "gen_preflop_table", ROOT / "scripts" / "gen_preflop_table.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_generator_renders_the_table_back_byte_for_byte() -> None:
    randoms = {c: preflop_data.VS_RANDOM[name] for c, name in enumerate(CLASS_NAMES)}
    rows = np.array(
        [np.frombuffer(base64.b64decode(row), dtype="<u2") for row in preflop_data.MATRIX]
    )
    assert rows.shape == (N_CLASSES, N_CLASSES)
    text = generator().render(randoms, rows, 100_000, 8_000)
    assert text == (ROOT / "engine" / "bots" / "preflop_data.py").read_text()


def test_the_heads_up_table_reads_as_equities() -> None:
    # A class against itself is even; i against j and j against i share the pot's whole.
    assert np.allclose(np.diag(preflop.MATRIX), 0.5, atol=1 / 65535)
    assert np.allclose(preflop.MATRIX + preflop.MATRIX.T, 1.0, atol=2 / 65535)
    assert preflop.MATRIX[CLASS_NAMES.index("AA"), CLASS_NAMES.index("72o")] > 0.85
