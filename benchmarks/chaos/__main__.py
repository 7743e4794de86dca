from __future__ import annotations

from benchmarks.chaos.soak import main

main()
