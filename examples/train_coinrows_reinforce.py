"""Train a small numpy agent on Coin Rows through the Gymnasium environment.

    python examples/train_coinrows_reinforce.py [--episodes 4000] [--out curve.png]

The agent is a linear softmax policy over the legal decision ids: the logit of id
``a`` is ``W[a] . observation + b[a]``, and illegal ids are masked out. It learns by
REINFORCE (the return of the whole game, minus a running baseline) against the
``random`` opponent, with no framework beyond numpy. Every ``--every`` episodes it
plays ``--eval`` greedy games with fixed seeds and records its score (win 1, draw
0.5, loss 0); the learning curve is written as a PNG (matplotlib, the ``plot``
extra) and the figures are printed.

The game is played without leaving (``leaving=false``) and with a turn limit of
``--turns`` (30), so every game is decided on the board. The untrained policy
(all weights 0: always the lowest id, "roll") never captures and loses almost every
game; a uniformly random agent scores about 0.5; the trained one learns to capture
rows and wins most games within a few hundred training games.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np

from dicehall.envs import DicehallGymEnv


class LinearSoftmaxPolicy:
    """``pi(a | obs) = softmax over legal a of (W[a] . obs + b[a])``."""

    def __init__(self, num_actions: int, obs_size: int, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.w = np.zeros((num_actions, obs_size))
        self.b = np.zeros(num_actions)

    def probabilities(self, obs: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]) -> Any:
        legal = np.flatnonzero(mask)
        logits = self.w[legal] @ obs + self.b[legal]
        logits -= logits.max()
        p = np.exp(logits)
        return legal, p / p.sum()

    def act(self, obs: Any, mask: Any, greedy: bool = False) -> tuple[int, Any, Any, int]:
        legal, p = self.probabilities(obs, mask)
        k = int(np.argmax(p)) if greedy else int(self.rng.choice(len(legal), p=p))
        return int(legal[k]), legal, p, k

    def update(
        self, trajectory: list[tuple[Any, Any, Any, int]], advantage: float, lr: float
    ) -> None:
        """One REINFORCE step: raise the log-probability of each chosen action in
        proportion to ``advantage``."""
        for obs, legal, p, k in trajectory:
            grad = -p
            grad[k] += 1.0  # d log pi(chosen) / d logits of the legal ids
            self.w[legal] += lr * advantage * np.outer(grad, obs)
            self.b[legal] += lr * advantage * grad


def score(reward: float) -> float:
    return 1.0 if reward > 0 else 0.5 if reward == 0 else 0.0


def evaluate(policy: LinearSoftmaxPolicy, env: DicehallGymEnv, games: int) -> float:
    total = 0.0
    for g in range(games):
        obs, info = env.reset(seed=10_000 + g)  # the same games at every evaluation
        done, reward = False, 0.0
        while not done:
            action, *_ = policy.act(obs, info["action_mask"], greedy=True)
            obs, reward, done, _, info = env.step(action)
        total += score(reward)
    return total / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=4000)
    parser.add_argument("--every", type=int, default=250)
    parser.add_argument("--eval", type=int, default=200)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--turns", type=int, default=30, help="the game's turn limit")
    parser.add_argument("--out", type=Path, default=Path("coinrows_learning_curve.png"))
    args = parser.parse_args()

    env = DicehallGymEnv("coinrows", opponents="random", leaving=False, turn_limit=args.turns)
    policy = LinearSoftmaxPolicy(env.action_space.n, env.observation_space.shape[0], args.seed)
    baseline = 0.0
    curve = [(0, evaluate(policy, env, args.eval))]
    print(f"episode {0:6d}  greedy score vs random {curve[-1][1]:.3f}", flush=True)
    for episode in range(1, args.episodes + 1):
        obs, info = env.reset(seed=args.seed * 1_000_003 + episode)
        trajectory, done, reward = [], False, 0.0
        while not done:
            action, legal, p, k = policy.act(obs, info["action_mask"])
            trajectory.append((obs, legal, p, k))
            obs, reward, done, _, info = env.step(action)
        policy.update(trajectory, reward - baseline, args.lr)
        baseline += 0.01 * (reward - baseline)
        if episode % args.every == 0:
            curve.append((episode, evaluate(policy, env, args.eval)))
            print(f"episode {episode:6d}  greedy score vs random {curve[-1][1]:.3f}", flush=True)

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs, ys = zip(*curve, strict=True)
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot(xs, ys, marker="o")
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=1, label="even with random")
    ax.set_xlabel("training games")
    ax.set_ylabel(f"score in {args.eval} greedy games")
    ax.set_ylim(0, 1)
    ax.set_title(f"Coin Rows ({args.turns} turns): linear REINFORCE vs random")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print(f"learning curve written to {args.out}")


if __name__ == "__main__":
    main()
