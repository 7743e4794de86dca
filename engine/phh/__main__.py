"""``python -m engine.phh``: the command line of ``engine.phh.command``."""

import sys

from engine.phh.command import main

if __name__ == "__main__":  # importing the module (a walk over the package) runs nothing
    sys.exit(main())
