"""The ``dicehall`` command line."""
