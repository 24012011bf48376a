"""The games: pure rules engines behind the core protocol."""
