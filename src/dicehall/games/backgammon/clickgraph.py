"""The click graph of a backgammon checker play, compiled: every partial play that can still
end in a legal play, one checker moved by one die at a time.

The server sends this graph to the player to move (``server.views.backgammon.legal_view``), so
the browser can let him click checkers without knowing the rules. Walked in Python it cost
about 2 ms for a double (some 65 nodes and 150 edges), the largest part of the server's work
per action; this kernel walks the same depth-first search in the same order (dice highest
first, then ``fast.single_steps``'s order) and numbers the nodes as the Python walk did
(each after its children), so the view it gives is the same, node for node.

A node is identified exactly by three words: the mover's counts on points 1..25 (4 bits each;
the borne-off count follows from the total), the opponent's blots hit so far (the only way
his side changes during our turn) and which dice are left.

>>> import numpy as np
>>> from dicehall.games.backgammon.rules import START_SIDE
>>> from dicehall.games.backgammon.fast import packed_plays
>>> flat = bytes(START_SIDE + START_SIDE)
>>> used, rows = packed_plays(flat, 3, 1)
>>> board = np.frombuffer(flat, dtype=np.int8).reshape(2, 26)
>>> boards, pips, rest, final, edges = click_graph(board, np.array([3, 1]), rows)
>>> len(boards), len(edges), int((final >= 0).sum()) == len(rows)
(24, 38, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit
from numba import types as nbt
from numba.typed import Dict

from dicehall.games.backgammon.fast import single_steps

#: the most single steps of one die (15 checkers), and the most dice left (a double)
_MAX_STEPS = 15
_MAX_DICE = 4
#: the dictionaries' key types (made outside the kernels: numba types them as constants)
_KEY3 = nbt.UniTuple(nbt.int64, 3)  # type: ignore[no-untyped-call]
_KEY4 = nbt.UniTuple(nbt.int64, 4)  # type: ignore[no-untyped-call]


@njit(cache=True, nogil=True)
def _words(mine: Any, theirs: Any, theirs0: Any) -> tuple[Any, Any, Any]:
    w0: Any = 0
    w1: Any = 0
    for p in range(1, 14):
        w0 |= np.int64(mine[p]) << (4 * (p - 1))
    for p in range(14, 26):
        w1 |= np.int64(mine[p]) << (4 * (p - 14))
    hits: Any = 0
    for q in range(1, 25):
        if theirs0[q] == 1 and theirs[q] == 0:
            hits |= np.int64(1) << q
    return w0, w1, hits


@njit(cache=True, nogil=True)
def click_graph(board: Any, dice: Any, finals: Any) -> tuple[Any, Any, Any, Any, Any]:
    """The graph from ``board`` (int8, shape (2, 26): the mover's side first) with ``dice``
    (1..4 dice, highest first) to the boards ``finals`` (int8 rows whose first 52 columns are a
    board, the mover's side then the opponent's: ``fast.packed_plays``'s rows, the boards
    after each legal play in the listing's order).

    Returns ``(boards, pips, rest, final, edges)``, a row per node in the order the walk
    finishes them (the root last): its board (int8, (n, 52)), pip counts (mover's first), the
    dice left as a mask over ``dice``, the index of its row in ``finals`` or -1; and a row per
    edge ``(node, from, to, die, hit, child)``, each node's edges together in the walk's order.
    """
    n_dice = len(dice)
    full = (1 << n_dice) - 1
    theirs0 = board[1].copy()
    # the finals by their words (the rest of dice does not matter there)
    final_of = Dict.empty(key_type=_KEY3, value_type=nbt.int64)
    for f in range(finals.shape[0]):
        final_of[_words(finals[f, :26], finals[f, 26:52], theirs0)] = f
    memo = Dict.empty(key_type=_KEY4, value_type=nbt.int64)

    cap = 64
    out_boards = np.empty((cap, 52), dtype=np.int8)
    out_pips = np.empty((cap, 2), dtype=np.int64)
    out_rest = np.empty(cap, dtype=np.int64)
    out_final = np.empty(cap, dtype=np.int64)
    ecap = 128
    out_edges = np.empty((ecap, 6), dtype=np.int64)
    n_nodes = 0
    n_edges = 0

    # the walk's stack: a frame per depth (at most one per die, and the root)
    depth_max = n_dice + 1
    f_board = np.empty((depth_max, 2, 26), dtype=np.int8)
    f_pips = np.empty((depth_max, 2), dtype=np.int64)
    f_rest = np.empty(depth_max, dtype=np.int64)
    f_key = np.empty((depth_max, 4), dtype=np.int64)
    f_die_index = np.empty(depth_max, dtype=np.int64)  # the die being tried (index in dice)
    f_steps = np.empty((depth_max, _MAX_STEPS, 2), dtype=np.int64)
    f_n_steps = np.empty(depth_max, dtype=np.int64)
    f_k = np.empty(depth_max, dtype=np.int64)  # the next step to try
    f_edges = np.empty((depth_max, _MAX_DICE * _MAX_STEPS, 5), dtype=np.int64)
    f_n_edges = np.empty(depth_max, dtype=np.int64)
    step_buf = np.empty((_MAX_STEPS, 2), dtype=np.int64)

    child_board = np.empty((2, 26), dtype=np.int8)
    result = -1  # what the frame just finished gave its parent (node index or -1)

    # push the root
    top = 0
    f_board[0] = board
    f_pips[0, 0] = 0
    f_pips[0, 1] = 0
    for p in range(1, 26):
        f_pips[0, 0] += p * np.int64(board[0, p])
        f_pips[0, 1] += p * np.int64(board[1, p])
    f_rest[0] = full
    w0, w1, hits = _words(board[0], board[1], theirs0)
    root_final = final_of.get((w0, w1, hits), -1)
    f_key[0, 0] = w0
    f_key[0, 1] = w1
    f_key[0, 2] = hits
    f_key[0, 3] = full
    memo[(w0, w1, hits, full)] = -2
    f_die_index[0] = -1
    f_n_steps[0] = 0
    f_k[0] = 0
    f_n_edges[0] = 0
    pending = False  # the top frame waits for a child's result
    if root_final >= 0:  # no dice to play at all is listed as one play (never happens here)
        top = -1
        out_boards[0, :26] = board[0]
        out_boards[0, 26:] = board[1]
        out_pips[0] = f_pips[0]
        out_rest[0] = full
        out_final[0] = root_final
        n_nodes = 1

    while top >= 0:
        if pending:
            pending = False
            if result >= 0:
                e = f_n_edges[top]
                k = f_k[top] - 1
                f_edges[top, e, 0] = f_steps[top, k, 0]
                f_edges[top, e, 1] = f_steps[top, k, 1]
                f_edges[top, e, 2] = dice[f_die_index[top]]
                # f_edges[top, e, 3], the hit, was set when the step was tried
                f_edges[top, e, 4] = result
                f_n_edges[top] = e + 1
        # the next step of this frame, moving on to the next distinct die when one is done
        while f_k[top] >= f_n_steps[top]:
            rest = f_rest[top]
            i = f_die_index[top] + 1
            prev = dice[f_die_index[top]] if f_die_index[top] >= 0 else -1
            while i < n_dice and (not (rest >> i) & 1 or dice[i] == prev):
                i += 1
            if i >= n_dice:
                break
            f_die_index[top] = i
            f_n_steps[top] = single_steps(f_board[top, 0], f_board[top, 1], dice[i], step_buf)
            f_steps[top, : f_n_steps[top]] = step_buf[: f_n_steps[top]]
            f_k[top] = 0
        if f_k[top] >= f_n_steps[top]:
            # every die tried: this frame is a node (or a dead end)
            key = (f_key[top, 0], f_key[top, 1], f_key[top, 2], f_key[top, 3])
            ne = f_n_edges[top]
            if ne == 0:
                memo[key] = -1
                result = -1
            else:
                cap, out_boards, out_pips, out_rest, out_final = _room(
                    n_nodes, cap, out_boards, out_pips, out_rest, out_final
                )
                out_boards[n_nodes, :26] = f_board[top, 0]
                out_boards[n_nodes, 26:] = f_board[top, 1]
                out_pips[n_nodes] = f_pips[top]
                out_rest[n_nodes] = f_rest[top]
                out_final[n_nodes] = -1
                while n_edges + ne > ecap:
                    ecap *= 2
                    out_edges = _grow2(out_edges, ecap)
                for e in range(ne):
                    out_edges[n_edges, 0] = n_nodes
                    for c in range(5):
                        out_edges[n_edges, 1 + c] = f_edges[top, e, c]
                    n_edges += 1
                memo[key] = n_nodes
                result = n_nodes
                n_nodes += 1
            top -= 1
            pending = True
            continue
        # try step k: the child position
        k = f_k[top]
        f_k[top] = k + 1
        src = f_steps[top, k, 0]
        dst = f_steps[top, k, 1]
        child_board[:] = f_board[top]
        child_board[0, src] -= 1
        child_board[0, dst] += 1
        pip0 = f_pips[top, 0] - (src - dst)
        pip1 = f_pips[top, 1]
        hit = 0
        if dst != 0 and child_board[1, 25 - dst] == 1:
            child_board[1, 25 - dst] = 0
            child_board[1, 25] += 1
            pip1 += dst
            hit = 1
        # the dice left: the first one left of this value taken away
        i = f_die_index[top]
        left = f_rest[top] & ~(np.int64(1) << i)
        w0, w1, hits = _words(child_board[0], child_board[1], theirs0)
        key = (w0, w1, hits, left)
        f_edges[top, f_n_edges[top], 3] = hit
        known = memo.get(key, -3)
        if known != -3:
            result = known if known >= 0 else -1
            pending = True
            continue
        fin = final_of.get((w0, w1, hits), -1)
        if fin >= 0:
            cap, out_boards, out_pips, out_rest, out_final = _room(
                n_nodes, cap, out_boards, out_pips, out_rest, out_final
            )
            out_boards[n_nodes, :26] = child_board[0]
            out_boards[n_nodes, 26:] = child_board[1]
            out_pips[n_nodes, 0] = pip0
            out_pips[n_nodes, 1] = pip1
            out_rest[n_nodes] = left
            out_final[n_nodes] = fin
            memo[key] = n_nodes
            result = n_nodes
            n_nodes += 1
            pending = True
            continue
        # a new inner position: its own frame
        memo[key] = -2
        top += 1
        f_board[top] = child_board
        f_pips[top, 0] = pip0
        f_pips[top, 1] = pip1
        f_rest[top] = left
        f_key[top, 0] = w0
        f_key[top, 1] = w1
        f_key[top, 2] = hits
        f_key[top, 3] = left
        f_die_index[top] = -1
        f_n_steps[top] = 0
        f_k[top] = 0
        f_n_edges[top] = 0
        pending = False
    return (
        out_boards[:n_nodes],
        out_pips[:n_nodes],
        out_rest[:n_nodes],
        out_final[:n_nodes],
        out_edges[:n_edges],
    )


@njit(cache=True, nogil=True)
def _room(
    n: int, cap: int, boards: Any, pips: Any, rest: Any, final: Any
) -> tuple[int, Any, Any, Any, Any]:
    """The node arrays with room for node ``n`` (their capacity doubled when full)."""
    if n < cap:
        return cap, boards, pips, rest, final
    cap *= 2
    return cap, _grow2(boards, cap), _grow2(pips, cap), _grow1(rest, cap), _grow1(final, cap)


@njit(cache=True, nogil=True)
def _grow1(a: Any, n: int) -> Any:
    out = np.empty(n, dtype=a.dtype)
    out[: len(a)] = a
    return out


@njit(cache=True, nogil=True)
def _grow2(a: Any, n: int) -> Any:
    out = np.empty((n, a.shape[1]), dtype=a.dtype)
    out[: a.shape[0]] = a
    return out


@njit(cache=True, nogil=True)
def text_keys(board: Any, rows: Any) -> Any:
    """A key per play of ``rows`` (``fast.packed_plays``'s array) for a cache of play texts:
    its steps (from, to) and, last, a mask with bit ``k`` set where step ``k`` hits (lands on
    an opponent's single checker, of ``board``, that no earlier step hit). The text of a play
    depends on nothing else (``notation.format_play``).

    >>> import numpy as np
    >>> from dicehall.games.backgammon.fast import packed_plays
    >>> mine = [0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]
    >>> theirs = [0] * 26; theirs[20] = 1; theirs[0] = 14
    >>> flat = bytes(mine + theirs)
    >>> used, rows = packed_plays(flat, 6, 2)
    >>> keys = text_keys(np.frombuffer(flat, dtype=np.int8).reshape(2, 26), rows)
    >>> [k.tolist() for k in keys if k[4]]   # 13/7 7/5* (the blot on their 20 is our 5)
    [[13, 7, 7, 5, 2]]
    """
    n = rows.shape[0]
    used = 0
    if n > 0:
        while used < 4 and rows[0, 52 + 2 * used] != 0:
            used += 1
    out = np.empty((n, 2 * used + 1), dtype=np.int8)
    for i in range(n):
        mask = 0
        hit_points = 0
        for k in range(used):
            src = rows[i, 52 + 2 * k]
            dst = rows[i, 53 + 2 * k]
            out[i, 2 * k] = src
            out[i, 2 * k + 1] = dst
            if dst != 0 and board[1, 25 - dst] == 1 and not (hit_points >> dst) & 1:
                mask |= 1 << k
                hit_points |= 1 << dst
        out[i, 2 * used] = mask
    return out


@njit(cache=True, nogil=True)
def _put_point(buf: Any, at: int, point: int, hit: int) -> int:
    """Write ``notation.point_text(point)`` (and ``*`` for a hit) at ``buf[at]``."""
    if point == 0:
        buf[at : at + 3] = np.array([111, 102, 102], dtype=np.uint8)  # off
        at += 3
    elif point == 25:
        buf[at : at + 3] = np.array([98, 97, 114], dtype=np.uint8)  # bar
        at += 3
    elif point >= 10:
        buf[at] = 48 + point // 10
        buf[at + 1] = 48 + point % 10
        at += 2
    else:
        buf[at] = 48 + point
        at += 1
    if hit:
        buf[at] = 42  # *
        at += 1
    return at


@njit(cache=True, nogil=True)
def play_texts(keys: Any) -> tuple[Any, Any]:
    """``notation.format_play`` of every play of ``keys`` (``text_keys``' rows: its steps and
    its hit mask are all the text depends on), written as ASCII one after another: returns
    the bytes and where each text ends. The same algorithm, step for step: the steps as
    one-step paths, a path joined to the first path that starts where it ends (again until
    none is), a hit kept on the way, identical routes counted, highest first. The server
    formats every legal play it has not cached yet (8% of its time under load in Python)."""
    n = keys.shape[0]
    used = (keys.shape[1] - 1) // 2
    buf = np.empty(n * 48 + 8, dtype=np.uint8)
    ends = np.empty(n, dtype=np.int64)
    pts = np.zeros((4, 5), dtype=np.int64)  # each path's points
    hits = np.zeros((4, 5), dtype=np.int64)  # whether the step onto that point hit
    lens = np.zeros(4, dtype=np.int64)
    shown = np.zeros((4, 5), dtype=np.int64)  # the points shown: first, hits, last
    shown_hit = np.zeros((4, 5), dtype=np.int64)
    shown_len = np.zeros(4, dtype=np.int64)
    starred = np.zeros(4, dtype=np.int64)
    count = np.zeros(4, dtype=np.int64)
    rep = np.zeros(4, dtype=np.int64)  # the path whose text a route shows
    order = np.zeros(4, dtype=np.int64)
    at = 0
    for i in range(n):
        if used == 0:
            buf[at : at + 4] = np.array([112, 97, 115, 115], dtype=np.uint8)  # pass
            at += 4
            ends[i] = at
            continue
        mask = keys[i, 2 * used]
        m = used
        for k in range(used):
            pts[k, 0] = keys[i, 2 * k]
            hits[k, 0] = 0
            pts[k, 1] = keys[i, 2 * k + 1]
            hits[k, 1] = (mask >> k) & 1
            lens[k] = 2
        merged = m > 1
        while merged:
            merged = False
            for a in range(m):
                end = pts[a, lens[a] - 1]
                if end == 0:
                    continue
                for b in range(m):
                    if a != b and pts[b, 0] == end:
                        for t in range(1, lens[b]):
                            pts[a, lens[a]] = pts[b, t]
                            hits[a, lens[a]] = hits[b, t]
                            lens[a] += 1
                        for r in range(b, m - 1):
                            lens[r] = lens[r + 1]
                            for t in range(lens[r]):
                                pts[r, t] = pts[r + 1, t]
                                hits[r, t] = hits[r + 1, t]
                        m -= 1
                        merged = True
                        break
                if merged:
                    break
        # the routes (the points shown), identical ones counted; a route's text is that of
        # its first path with a hit shown, else of its first path
        routes = 0
        for a in range(m):
            sl = 0
            star = 0
            for t in range(lens[a]):
                if t == 0 or t == lens[a] - 1 or hits[a, t]:
                    shown[a, sl] = pts[a, t]
                    shown_hit[a, sl] = hits[a, t]
                    star |= hits[a, t]
                    sl += 1
            shown_len[a] = sl
            same = -1
            for r in range(routes):
                q = rep[r]
                if shown_len[q] == sl:
                    equal = True
                    for t in range(sl):
                        if shown[q, t] != shown[a, t]:
                            equal = False
                            break
                    if equal:
                        same = r
                        break
            if same < 0:
                rep[routes] = a
                count[routes] = 1
                starred[routes] = star
                routes += 1
            else:
                count[same] += 1
                if not starred[same]:
                    rep[same] = a
                    starred[same] = star
        # highest first: by the points shown, a route before its longer continuations
        for r in range(routes):
            order[r] = r
        for r in range(1, routes):
            x = order[r]
            u = r
            while u > 0:
                y = order[u - 1]
                p, q = rep[x], rep[y]
                first = False  # whether route x goes before route y
                decided = False
                for t in range(min(shown_len[p], shown_len[q])):
                    if shown[p, t] != shown[q, t]:
                        first = shown[p, t] > shown[q, t]
                        decided = True
                        break
                if not decided:
                    first = shown_len[p] < shown_len[q]
                if not first:
                    break
                order[u] = y
                u -= 1
            order[u] = x
        for r in range(routes):
            if r:
                buf[at] = 32
                at += 1
            q = rep[order[r]]
            for t in range(shown_len[q]):
                if t:
                    buf[at] = 47  # /
                    at += 1
                at = _put_point(buf, at, shown[q, t], shown_hit[q, t])
            c = count[order[r]]
            if c > 1:
                buf[at] = 40
                buf[at + 1] = 48 + c
                buf[at + 2] = 41
                at += 3
        ends[i] = at
    return buf[:at], ends


#: the byte ``graph_json`` writes where a node's play text goes (the caller puts the text's
#: JSON there: the kernel knows the plays by number only)
TEXT_MARK = 0


@njit(cache=True, nogil=True)
def _put(buf: Any, at: int, text: Any) -> int:
    for k in range(len(text)):
        buf[at + k] = text[k]
    return at + len(text)


@njit(cache=True, nogil=True)
def _put_int(buf: Any, at: int, value: Any) -> int:
    v = np.int64(value)
    if v < 0:
        buf[at] = 45  # "-"
        at += 1
        v = -v
    if v == 0:
        buf[at] = 48
        return at + 1
    digits = 0
    w = v
    while w > 0:
        digits += 1
        w //= 10
    for k in range(digits - 1, -1, -1):
        buf[at + k] = 48 + v % 10
        v //= 10
    return at + digits


@njit(cache=True, nogil=True)
def graph_json(
    boards: Any, pips: Any, rest: Any, final: Any, edges: Any, dice: Any
) -> tuple[Any, Any]:
    """The nodes of ``click_graph``'s answer as the JSON array the server sends (``nodes`` of
    ``server.views.backgammon.legal_view``), written here byte for byte as ``orjson`` writes
    the dictionaries that view builds: building them, and then serialising them, was most of
    the cost of the view once the walk was compiled.

    The root (finished last) comes first; a node is ``{"edges":[[from,to,die,hit,child],...],
    "text":T,"dice":[...],"sides":[[...26],[...26]],"pips":[mine,theirs]}`` where ``child``
    counts the root as 0. Returns ``(buf, texts)``: the UTF-8 bytes with a ``TEXT_MARK`` byte
    where each final node's text goes (``null`` for the others) and, in the same order, the
    index in the listing of the play each mark stands for.
    """
    n = boards.shape[0]
    m = edges.shape[0]
    # each node's edges, in the order of the answer (a stable counting sort by node)
    first = np.zeros(n + 1, dtype=np.int64)
    for e in range(m):
        first[edges[e, 0] + 1] += 1
    for i in range(n):
        first[i + 1] += first[i]
    order = np.empty(m, dtype=np.int64)
    fill = first[:n].copy()
    for e in range(m):
        node = edges[e, 0]
        order[fill[node]] = e
        fill[node] += 1
    # at most: 80 bytes of keys and brackets, 5 ints of 3 digits per edge, 52 + 2 + 4 ints
    buf = np.empty(n * (120 + 58 * 4) + m * 32 + 16, dtype=np.uint8)
    texts = np.empty(n, dtype=np.int64)
    n_texts = 0
    at = 0
    buf[at] = 91  # "["
    at += 1
    for j in range(n):
        node = n - 1 if j == 0 else j - 1
        if j > 0:
            buf[at] = 44  # ","
            at += 1
        at = _put(buf, at, b'{"edges":[')
        for k in range(first[node], first[node + 1]):
            e = order[k]
            if k > first[node]:
                buf[at] = 44
                at += 1
            buf[at] = 91
            at += 1
            at = _put_int(buf, at, edges[e, 1])
            buf[at] = 44
            at = _put_int(buf, at + 1, edges[e, 2])
            buf[at] = 44
            at = _put_int(buf, at + 1, edges[e, 3])
            buf[at] = 44
            at += 1
            at = _put(buf, at, b"true" if edges[e, 4] == 1 else b"false")
            buf[at] = 44
            at = _put_int(buf, at + 1, edges[e, 5] + 1)
            buf[at] = 93  # "]"
            at += 1
        at = _put(buf, at, b'],"text":')
        if final[node] >= 0:
            buf[at] = TEXT_MARK
            at += 1
            texts[n_texts] = final[node]
            n_texts += 1
        else:
            at = _put(buf, at, b"null")
        at = _put(buf, at, b',"dice":[')
        mask = rest[node]
        written = 0
        for d in range(len(dice)):
            if mask >> d & 1:
                if written:
                    buf[at] = 44
                    at += 1
                at = _put_int(buf, at, dice[d])
                written += 1
        at = _put(buf, at, b'],"sides":[[')
        for p in range(52):
            if p == 26:
                at = _put(buf, at, b"],[")
            elif p > 0:
                buf[at] = 44
                at += 1
            at = _put_int(buf, at, boards[node, p])
        at = _put(buf, at, b']],"pips":[')
        at = _put_int(buf, at, pips[node, 0])
        buf[at] = 44
        at = _put_int(buf, at + 1, pips[node, 1])
        at = _put(buf, at, b"]}")
    buf[at] = 93
    at += 1
    return buf[:at], texts[:n_texts]
