"""Start a command as a shell would, whatever the test process inherited.

A shell starts every command with Ctrl-C at its default action and unblocked. A pytest
worker may not have them so (a library in an earlier test, or the worker's own start, can
leave SIGINT ignored or blocked, and both pass to children through ``exec``); a command
started from it would then never see the Ctrl-C its test sends. Pass ``preexec_fn=shell_like``
to ``pexpect.spawn`` or ``subprocess.Popen`` in tests that interrupt the command.
"""

from __future__ import annotations

import signal


def shell_like() -> None:
    """In the child, before ``exec``: SIGINT at its default action and not blocked."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])
