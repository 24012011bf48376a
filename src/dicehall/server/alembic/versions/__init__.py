"""The revisions, oldest first: 0001 is the schema as the first server created it."""
