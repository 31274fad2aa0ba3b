"""`python -m worldforge_tui`: the `worldforge` command."""

from worldforge_tui.cli import main

raise SystemExit(main())
