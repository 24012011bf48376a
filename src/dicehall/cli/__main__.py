"""``python -m dicehall.cli`` runs the command line."""

from dicehall.cli.main import main

main()
