"""`python -m opsnn`: import | compile | run | report (see cli.py)."""
import sys

from .cli import main

sys.exit(main())
