"""`python -m worldforge_tui.cli`: the same entry as the `worldforge` command."""

from worldforge_tui.cli import main

raise SystemExit(main())
