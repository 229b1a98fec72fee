"""``python -m referee.cli``: the ``pegs`` command without the installed script."""

import sys

from referee.cli.main import main

sys.exit(main())
