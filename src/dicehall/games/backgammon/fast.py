"""Fast backgammon move generation: the same rules as ``rules.generate_plays``, compiled.

The board is a compact ``int8`` array of shape ``(2, 26)`` in the same numbering as
``rules.py`` (row 0 the side on roll, row 1 the opponent; index 0 = borne off, 1..24
the points, 25 the bar). ``plays(board, d1, d2)`` walks the same depth-first search
as the reference in the same order, so it returns the same positions, in the same
order, each with the same representative step sequence; the tests check that on
thousands of random positions.

Positions are identified exactly by two 64-bit words: the mover's counts on points
1..25 (4 bits each; the borne-off count follows from the total) and the set of the
opponent's blots hit this turn (the only way his side can change during our turn).
That makes transposition pruning and duplicate removal exact, with no hashing risk.

numba compiles the kernels on first use and caches them (``cache=True``); import
this module lazily where start-up time matters.

>>> import numpy as np
>>> from dicehall.games.backgammon.rules import START_SIDE
>>> board = np.array([START_SIDE, START_SIDE], dtype=np.int8)
>>> n, used, boards, steps = plays(board, 3, 1)
>>> n, used
(16, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, overload

import numpy as np
from numba import njit

from dicehall.games.backgammon.board import CHECKERS as CHECKERS  # re-exported for the kernels
from dicehall.games.backgammon.board import START_SIDE, Board, Play, Step

#: The starting side as the kernels store it (a global array numba compiles in as a constant).
_START = np.array(START_SIDE, dtype=np.int8)

# Where each point's 4-bit count lives in the two key words: points 1..13 in word 0,
# points 14..25 in word 1; the hit flags of the opponent's points (his numbering)
# 1..11 in word 0 above bit 52, 12..24 in word 1 above bit 48.
_WORD = np.zeros(26, dtype=np.int64)
_SHIFT = np.zeros(26, dtype=np.int64)
for _p in range(1, 26):
    _WORD[_p] = 0 if _p <= 13 else 1
    _SHIFT[_p] = 4 * (_p - 1) if _p <= 13 else 4 * (_p - 14)
_HWORD = np.zeros(25, dtype=np.int64)
_HSHIFT = np.zeros(25, dtype=np.int64)
for _q in range(1, 25):
    _HWORD[_q] = 0 if _q <= 11 else 1
    _HSHIFT[_q] = 52 + (_q - 1) if _q <= 11 else 48 + (_q - 12)
del _p, _q


@njit(cache=True, nogil=True)
def single_steps(mine: Any, theirs: Any, die: int, out: Any) -> int:
    """Legal single moves of one die into ``out`` (rows of (from, to)), highest first;
    returns how many. Mirrors ``rules.single_steps``."""
    if mine[25] > 0:
        if theirs[die] < 2:
            out[0, 0] = 25
            out[0, 1] = 25 - die
            return 1
        return 0
    highest = 0
    for i in range(24, 0, -1):
        if mine[i] > 0:
            highest = i
            break
    bearing_off = highest <= 6
    n = 0
    for src in range(highest, 0, -1):
        if mine[src] == 0:
            continue
        dst = src - die
        if dst >= 1:
            if theirs[25 - dst] < 2:
                out[n, 0] = src
                out[n, 1] = dst
                n += 1
        elif bearing_off and (dst == 0 or src == highest):
            out[n, 0] = src
            out[n, 1] = 0
            n += 1
    return n


@njit(cache=True, nogil=True)
def _root_key(mine: Any, key: Any) -> None:
    key[0] = 0
    key[1] = 0
    for p in range(1, 26):
        key[_WORD[p]] += np.int64(mine[p]) << _SHIFT[p]


@njit(cache=True, nogil=True)
def _move(mine: Any, theirs: Any, src: int, dst: int, key: Any) -> None:
    """One checker from ``src`` to ``dst``, hitting a blot there; keeps ``key`` exact."""
    mine[src] -= 1
    key[_WORD[src]] -= np.int64(1) << _SHIFT[src]
    mine[dst] += 1
    if dst != 0:
        key[_WORD[dst]] += np.int64(1) << _SHIFT[dst]
        q = 25 - dst
        if theirs[q] == 1:
            theirs[q] = 0
            theirs[25] += 1
            key[_HWORD[q]] |= np.int64(1) << _HSHIFT[q]


@njit(cache=True, nogil=True)
def _slot(k0: int, k1: int, mask: int) -> int:
    h = k0 * 0x5851F42D4C957F2D + k1 * 0x2545F4914F6CDD1D
    h ^= h >> 29
    return int(h & mask)


@njit(cache=True, nogil=True)
def _lookup(tk: Any, tv: Any, k0: int, k1: int) -> int:
    """Index stored for key (k0, k1), or -1 (tv holds index + 1, 0 = empty)."""
    mask = tv.shape[0] - 1
    s = _slot(k0, k1, mask)
    while tv[s] != 0:
        if tk[s, 0] == k0 and tk[s, 1] == k1:
            return int(tv[s]) - 1
        s = (s + 1) & mask
    return -1


@njit(cache=True, nogil=True)
def _insert(tk: Any, tv: Any, k0: int, k1: int, value: int) -> None:
    mask = tv.shape[0] - 1
    s = _slot(k0, k1, mask)
    while tv[s] != 0:
        s = (s + 1) & mask
    tk[s, 0] = k0
    tk[s, 1] = k1
    tv[s] = value + 1


@njit(cache=True, nogil=True)
def plays(board: Any, d1: int, d2: int) -> tuple[int, int, Any, Any]:
    """Every position reachable by a legal whole play of dice (d1, d2).

    Returns ``(n, used, boards, steps)``: ``boards[i]`` (shape (2, 26), mover's side
    first, not yet swapped) and ``steps[i, :used]`` the (from, to) steps of play i.
    ``n`` is at least 1: when no die can be played the only "play" is the pass.
    """
    double = d1 == d2
    ndice = 4 if double else 2
    norders = 1 if double else 2
    cap = 32
    rb = np.empty((cap, 2, 26), dtype=np.int8)
    rs = np.zeros((cap, 4, 2), dtype=np.int8)
    rk = np.empty((cap, 2), dtype=np.int64)
    rsize = 64
    rtk = np.empty((rsize, 2), dtype=np.int64)
    rtv = np.zeros(rsize, dtype=np.int64)
    ssize = 1024 if double else 1
    stk = np.empty((ssize, 2), dtype=np.int64)
    stv = np.zeros(ssize, dtype=np.int64)
    scount = 0
    sb = np.empty((5, 2, 26), dtype=np.int8)
    sk = np.empty((5, 2), dtype=np.int64)
    ss = np.empty((5, 16, 2), dtype=np.int8)
    sn = np.zeros(5, dtype=np.int64)
    si = np.zeros(5, dtype=np.int64)
    path = np.zeros((4, 2), dtype=np.int8)
    dice = np.empty(4, dtype=np.int64)
    n = 0
    best = 0
    for order in range(norders):
        if double:
            dice[:] = d1
        elif order == 0:
            dice[0] = d1
            dice[1] = d2
        else:
            dice[0] = d2
            dice[1] = d1
        sb[0] = board
        _root_key(sb[0, 0], sk[0])
        depth = 0
        sn[0] = single_steps(sb[0, 0], sb[0, 1], dice[0], ss[0])
        si[0] = 0
        leaf = sn[0] == 0
        while True:
            if leaf:
                leaf = False
                used = depth
                if used > best:
                    best = used
                    n = 0
                    rtv[:] = 0
                if used == best and _lookup(rtk, rtv, sk[depth, 0], sk[depth, 1]) < 0:
                    if n == cap:
                        cap *= 2
                        nb_ = np.empty((cap, 2, 26), dtype=np.int8)
                        ns_ = np.zeros((cap, 4, 2), dtype=np.int8)
                        nk_ = np.empty((cap, 2), dtype=np.int64)
                        nb_[:n] = rb[:n]
                        ns_[:n] = rs[:n]
                        nk_[:n] = rk[:n]
                        rb = nb_
                        rs = ns_
                        rk = nk_
                    if 2 * (n + 1) > rsize:
                        rsize *= 2
                        rtk = np.empty((rsize, 2), dtype=np.int64)
                        rtv = np.zeros(rsize, dtype=np.int64)
                        for j in range(n):
                            _insert(rtk, rtv, rk[j, 0], rk[j, 1], j)
                    _insert(rtk, rtv, sk[depth, 0], sk[depth, 1], n)
                    rb[n] = sb[depth]
                    rk[n, 0] = sk[depth, 0]
                    rk[n, 1] = sk[depth, 1]
                    for j in range(used):
                        rs[n, j, 0] = path[j, 0]
                        rs[n, j, 1] = path[j, 1]
                    n += 1
                if depth == 0:
                    break
                depth -= 1
                continue
            if si[depth] >= sn[depth]:
                if depth == 0:
                    break
                depth -= 1
                continue
            j = si[depth]
            si[depth] += 1
            src = ss[depth, j, 0]
            dst = ss[depth, j, 1]
            nxt = depth + 1
            sb[nxt] = sb[depth]
            sk[nxt, 0] = sk[depth, 0]
            sk[nxt, 1] = sk[depth, 1]
            _move(sb[nxt, 0], sb[nxt, 1], src, dst, sk[nxt])
            path[depth, 0] = src
            path[depth, 1] = dst
            if double and nxt < ndice:
                # transposition: this position with this many dice left was searched
                k0 = sk[nxt, 0] ^ (np.int64(nxt) << 62)
                k1 = sk[nxt, 1]
                if _lookup(stk, stv, k0, k1) >= 0:
                    continue
                if 2 * (scount + 1) <= ssize:
                    _insert(stk, stv, k0, k1, scount)
                    scount += 1
            depth = nxt
            if depth < ndice:
                sn[depth] = single_steps(sb[depth, 0], sb[depth, 1], dice[depth], ss[depth])
            else:
                sn[depth] = 0
            si[depth] = 0
            if sn[depth] == 0:
                leaf = True
    if best == 1 and not double:
        # only one die can be played: the larger one must be, when it can
        high = max(d1, d2)
        tmp = np.empty((16, 2), dtype=np.int8)
        m = single_steps(board[0], board[1], high, tmp)
        if m > 0:
            key = np.empty(2, dtype=np.int64)
            for j in range(m):
                rb[j] = board
                _move(rb[j, 0], rb[j, 1], tmp[j, 0], tmp[j, 1], key)
                rs[j, 0, 0] = tmp[j, 0]
                rs[j, 0, 1] = tmp[j, 1]
            n = m
    return n, best, rb[:n], rs[:n]


#: the width of a row of ``packed_plays``: the board after the play (52) and 4 steps
PACKED = 60


@njit(cache=True, nogil=True)
def packed_plays(flat: Any, d1: int, d2: int) -> tuple[int, Any]:
    """``plays`` for the protocol: one array out.

    ``flat`` holds the board as 52 counts, the mover's side then the opponent's (the
    ``bytes`` of the two tuples). Returns ``(used, out)``: row i of ``out`` (int8,
    shape (n, PACKED)) is play i's board after (mover's side, then the opponent's)
    and its steps (from, to) x 4.
    """
    board = np.empty((2, 26), dtype=np.int8)
    for i in range(26):
        board[0, i] = flat[i]
        board[1, i] = flat[26 + i]
    return _packed(board, d1, d2)


@njit(cache=True, nogil=True)
def packed_plays_after(rows: Any, j: int, d1: int, d2: int) -> tuple[int, Any]:
    """``packed_plays`` of the position after play ``j`` of an earlier result ``rows``,
    seen by the opponent (its two sides exchanged): the next turn of a game."""
    board = np.empty((2, 26), dtype=np.int8)
    for i in range(26):
        board[0, i] = rows[j, 26 + i]
        board[1, i] = rows[j, i]
    return _packed(board, d1, d2)


@njit(cache=True, nogil=True)
def _packed(board: Any, d1: int, d2: int) -> tuple[int, Any]:
    n, used, boards, steps = plays(board, d1, d2)
    out = np.empty((n, PACKED), dtype=np.int8)
    for j in range(n):
        for i in range(26):
            out[j, i] = boards[j, 0, i]
            out[j, 26 + i] = boards[j, 1, i]
        for k in range(4):
            out[j, 52 + 2 * k] = steps[j, k, 0]
            out[j, 53 + 2 * k] = steps[j, k, 1]
    return used, out


@njit(cache=True, nogil=True)
def outcome(mine: Any, theirs: Any) -> int:
    """Points won by ``mine`` if it has borne off everything (1, 2 gammon, 3 backgammon),
    else 0. ``theirs`` in its own numbering."""
    if mine[0] != CHECKERS:
        return 0
    if theirs[0] > 0:
        return 1
    if theirs[25] > 0:
        return 3
    for i in range(19, 25):
        if theirs[i] > 0:
            return 3
    return 2


@njit(cache=True, nogil=True)
def swap(board: Any) -> Any:
    """The board seen by the other player (rows exchanged)."""
    out = np.empty_like(board)
    out[0] = board[1]
    out[1] = board[0]
    return out


@njit(cache=True, nogil=True)
def roll_dice() -> tuple[int, int]:
    """A roll of two dice from numba's generator, high die first."""
    a = np.random.randint(1, 7)
    b = np.random.randint(1, 7)
    return max(a, b), min(a, b)


@njit(cache=True, nogil=True)
def start_board() -> Any:
    """The starting position as a compact board (both rows ``START_SIDE``)."""
    board = np.empty((2, 26), dtype=np.int8)
    board[0] = _START
    board[1] = _START
    return board


@njit(cache=True, nogil=True)
def opening_roll() -> tuple[int, int, int]:
    """The first roll of a game from numba's generator, as ``(seat, high, low)``: seat 0
    and seat 1 each roll one die until they differ; the higher die's seat starts, playing
    both dice (the kernels' copy of ``board.opening``)."""
    a = np.random.randint(1, 7)
    b = np.random.randint(1, 7)
    while a == b:
        a = np.random.randint(1, 7)
        b = np.random.randint(1, 7)
    return (0 if a > b else 1), max(a, b), min(a, b)


@njit(cache=True, nogil=True)
def random_games(count: int, seed: int) -> tuple[int, int]:
    """Play ``count`` games with uniformly random plays; returns (plies, checker sum).

    The checksum (total plays generated) makes the work observable so nothing is
    optimised away; the benchmark uses it.
    """
    np.random.seed(seed)
    plies = 0
    total = 0
    for _ in range(count):
        board = start_board()
        _, d1, d2 = opening_roll()
        while True:
            n, _, boards, _ = plays(board, d1, d2)
            total += n
            pick = boards[np.random.randint(0, n)]
            plies += 1
            if pick[0, 0] == CHECKERS:
                break
            board = swap(pick)
            d1, d2 = roll_dice()
    return plies, total


Dice = tuple[int, int]


def board_of_row(rows: np.ndarray[Any, Any], i: int, swap: bool) -> Board:
    """The board tuples of row ``i`` of a ``packed_plays`` result: the mover's side
    first, or with ``swap`` the opponent's (the position he is now to roll in)."""
    row = rows[i, :52].tolist()
    mine, theirs = tuple(row[:26]), tuple(row[26:])
    return (theirs, mine) if swap else (mine, theirs)


def to_array(board: Board) -> np.ndarray[Any, np.dtype[np.int8]]:
    """A ``rules.Board`` (two tuples of 26 counts) as the compact array (writable).

    Counts are 0..15, so the bytes of the flat tuple are the array: this is about
    twice as fast as ``np.array(board, dtype=np.int8)`` on nested tuples.
    """
    return np.frombuffer(bytearray(board[0] + board[1]), dtype=np.int8).reshape(2, 26)


#: the (from, to) step tuples, made once so the Python view shares them
_STEPS: list[list[Step]] = [[(a, b) for b in range(26)] for a in range(26)]


def generate_plays(board: Board, dice: tuple[int, int]) -> dict[Board, tuple[Step, ...]]:
    """Drop-in for ``rules.generate_plays``: same keys, same order, same steps.

    The conversion back to tuples is what costs here, so it is done on flat lists,
    and the opponent's side is shared with ``board`` unless a blot was hit.
    """
    theirs0 = board[1]
    _, used, boards, steps = plays(np.array(board, dtype=np.int8), dice[0], dice[1])
    hits = (boards[:, 1, 25] != theirs0[25]).tolist()
    flat = boards.reshape(-1).tolist()
    sflat = steps[:, :used, :].reshape(-1).tolist()
    table = _STEPS
    out: dict[Board, tuple[Step, ...]] = {}
    width = 2 * used
    for i, hit in enumerate(hits):
        k = 52 * i
        key = (tuple(flat[k : k + 26]), tuple(flat[k + 26 : k + 52]) if hit else theirs0)
        j = width * i
        if used == 2:
            out[key] = (table[sflat[j]][sflat[j + 1]], table[sflat[j + 2]][sflat[j + 3]])
        else:
            out[key] = tuple(table[sflat[m]][sflat[m + 1]] for m in range(j, j + width, 2))
    return out


class LegalPlays(Sequence[Play]):
    """The legal plays of a position: the kernel's array, made into ``Play`` objects
    and board tuples only when looked at.

    It is what ``BackgammonState.legal_actions()`` returns at a decision: an
    immutable sequence (indexing, ``len``, iteration, ``in``, ``==`` with a list)
    whose items, boards and order are exactly those of ``generate_plays`` (and so
    of the reference rules). Most callers look at one or a few plays, so the cost
    of converting every play to Python objects is paid only by those that need it.

    ``src`` is where the position comes from: ``(rows, i)``, row ``i`` of the plays
    of the position before (its board after that play, to be seen from the other
    side), or None to read ``board`` (the state's tuples).
    """

    __slots__ = ("_ids", "_items", "_keys", "_out", "_used")

    def __init__(
        self, src: tuple[np.ndarray[Any, Any], int] | None, board: Board | None, dice: Dice
    ) -> None:
        if src is None:
            assert board is not None
            used, out = packed_plays(bytes(board[0] + board[1]), dice[0], dice[1])
        else:
            used, out = packed_plays_after(src[0], src[1], dice[0], dice[1])
        self._used: int = used
        self._out: np.ndarray[Any, Any] = out
        self._items: list[Play | None] = [None] * len(out)
        self._ids: dict[int, int] = {}
        self._keys: dict[tuple[Step, ...], int] | None = None

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, i: int) -> Play: ...

    @overload
    def __getitem__(self, i: slice) -> list[Play]: ...

    def __getitem__(self, i: int | slice) -> Play | list[Play]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self._items)))]
        play = self._items[i]
        if play is None:
            if i < 0:
                i += len(self._items)
            play = Play(self.steps(i))
            self._items[i] = play
            self._ids[id(play)] = i  # the object is kept in _items, so its id is stable
        return play

    def steps(self, i: int) -> tuple[Step, ...]:
        """The steps of play ``i`` (as the reference lists them)."""
        used = self._used
        row = self._out[i, 52 : 52 + 2 * used].tolist()
        table = _STEPS
        if used == 2:
            return (table[row[0]][row[1]], table[row[2]][row[3]])
        return tuple(table[row[k]][row[k + 1]] for k in range(0, 2 * used, 2))

    def board(self, i: int) -> Board:
        """The position after play ``i``, mover's side first (not yet swapped)."""
        return board_of_row(self._out, i, False)

    def rows(self) -> np.ndarray[Any, Any]:
        """The kernel's array: row i is play i's board after and its steps (``PACKED``)."""
        return self._out

    def finishes(self, i: int) -> bool:
        """True if play ``i`` bears off the mover's last checker."""
        return bool(self._out[i, 0] == CHECKERS)

    def index(self, value: Any, start: int = 0, stop: int | None = None) -> int:
        """The position of ``value`` among the plays; ``ValueError`` if it is not one
        of them (another order of the same checkers is not found here)."""
        if start == 0 and stop is None:
            found = self.find(value)
            if found is not None:
                return found
            raise ValueError(f"{value!r} is not one of the legal plays")
        return super().index(value, start, stop if stop is not None else len(self))

    def find(self, play: Any) -> int | None:
        """The index of ``play`` (by its steps), or None: ``index`` without raising."""
        i = self._ids.get(id(play))
        if i is not None and self._items[i] is play:
            return i
        if not isinstance(play, Play):
            return None
        if self._keys is None:
            self._keys = {self.steps(j): j for j in range(len(self._items))}
        return self._keys.get(play.steps)

    def __contains__(self, value: object) -> bool:
        return self.find(value) is not None

    def as_dict(self) -> dict[Board, tuple[Step, ...]]:
        """What ``generate_plays`` returns: each position reached, with its steps (the
        array is made into lists in one call: one call per play cost more than the rest)."""
        used = self._used
        table = _STEPS
        out: dict[Board, tuple[Step, ...]] = {}
        for row in self._out[:, : 52 + 2 * used].tolist():
            if used == 2:
                steps: tuple[Step, ...] = (table[row[52]][row[53]], table[row[54]][row[55]])
            else:
                steps = tuple(table[row[k]][row[k + 1]] for k in range(52, 52 + 2 * used, 2))
            out[(tuple(row[:26]), tuple(row[26:52]))] = steps
        return out

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, (str, bytes)):
            return len(other) == len(self) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(list(self))
