import sys

from tournaments.seating.cli import main

sys.exit(main())
