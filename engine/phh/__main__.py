"""``python -m engine.phh``: the command line of ``engine.phh.command``."""

import sys

from engine.phh.command import main

sys.exit(main())
