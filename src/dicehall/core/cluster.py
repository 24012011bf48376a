"""The optional Ray cluster (``pip install 'dicehall[cluster]'``), shared by the arena, the
rollouts and the training-target generation: one way to connect, so every distributed path
starts Ray alike."""

from __future__ import annotations

from typing import Any


def connect_ray(address: str, workers: int = 1) -> Any:
    """The ``ray`` module, connected to the cluster at ``address`` (``"local"``: a cluster of
    ``workers`` CPUs started in this process); a connection already made is kept.

    :raises ImportError: Ray is not installed (the message names the extra).
    """
    try:
        import ray
    except ImportError:
        raise ImportError("Ray is not installed: pip install 'dicehall[cluster]'") from None
    if not ray.is_initialized():
        if address == "local":
            ray.init(num_cpus=max(1, workers), include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    return ray
