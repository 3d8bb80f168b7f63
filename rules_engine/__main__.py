import sys

from rules_engine.cli import main

sys.exit(main())
