"""`python -m kamicp ...`: the same command line as the `kamicp` script."""

from kamicp.cli import main

main()
