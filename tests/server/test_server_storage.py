"""Storage on SQLite and on PostgreSQL: the action log, seats, conflicts, and whole games."""

from __future__ import annotations

import time

import pytest
from dicehall_server_fixtures import store_fixture  # noqa: F401

from dicehall.core.fairness import commitment, new_server_seed
from dicehall.server.service import GameService
from dicehall.server.storage import (
    ConflictError,
    GameRow,
    NotFoundError,
    SeatRow,
    Store,
    hash_token,
    normalise_url,
)


def make_row(game_id: str = "g1") -> GameRow:
    seed = new_server_seed()
    now = time.time()
    return GameRow(
        id=game_id,
        game="backgammon",
        options={"scoring": "single"},
        mode="friend",
        status="waiting",
        server_seed=seed,
        commitment=commitment(seed),
        created=now,
        updated=now,
        seats=[
            SeatRow(0, "human", "human", "ann", hash_token("t0"), "s0"),
            SeatRow(1, "human", "human", "seat 2"),
        ],
    )


def test_game_rows_round_trip(store: Store) -> None:
    store.create_game(make_row())
    row = store.get_game("g1")
    assert row.options == {"scoring": "single"}
    assert [s.name for s in row.seats] == ["ann", "seat 2"]
    assert row.seats[0].claimed and not row.seats[1].claimed
    assert [r.id for r in store.list_games("waiting")] == ["g1"]
    with pytest.raises(NotFoundError):
        store.get_game("nope")


def test_a_seat_is_claimed_once(store: Store) -> None:
    store.create_game(make_row())
    assert store.claim_seat("g1", 1, "bob", hash_token("t1"), "s1")
    assert not store.claim_seat("g1", 1, "eve", hash_token("t2"), "")
    assert store.get_game("g1").seats[1].name == "bob"


def test_action_log_is_append_only_with_unique_numbers(store: Store) -> None:
    store.create_game(make_row())
    store.append_actions("g1", 1, [(-1, "3-1"), (0, "8/5 6/5")], status="playing")
    with pytest.raises(ConflictError):
        store.append_actions("g1", 2, [(1, "24/18")])
    # the failed transaction left nothing behind
    assert [(a.seq, a.actor, a.text) for a in store.load_actions("g1")] == [
        (1, -1, "3-1"),
        (2, 0, "8/5 6/5"),
    ]
    store.append_actions("g1", 3, [(-1, "6-5")], status="finished", result=[1.0, -1.0])
    row = store.get_game("g1")
    assert row.status == "finished" and row.result == [1.0, -1.0]


@pytest.mark.postgres
def test_postgresql_appends_survive_a_dead_idle_connection() -> None:
    """PostgreSQL appends go through the driver's own connections, kept idle between them: one
    killed while idle (a restart of the database) costs a retry on a fresh one, not the
    append; a taken number is still a conflict that writes nothing."""
    from dicehall_server_fixtures import postgres_store

    store = postgres_store()
    try:
        store.create_game(make_row())
        store.append_actions("g1", 1, [(-1, "3-1")], status="playing")
        assert len(store._raw_idle) == 1
        idle = store._raw_idle[0]
        with store.engine.connect() as conn:
            conn.exec_driver_sql(f"SELECT pg_terminate_backend({idle.info.backend_pid}, 10000)")
        store.append_actions("g1", 2, [(0, "8/5 6/5")])
        assert idle.closed and store._raw_idle and store._raw_idle[0] is not idle
        with pytest.raises(ConflictError):
            store.append_actions("g1", 2, [(1, "24/18"), (-1, "6-5")])
        assert [(a.seq, a.text) for a in store.load_actions("g1")] == [(1, "3-1"), (2, "8/5 6/5")]
        assert store.get_game("g1").status == "playing"
    finally:
        store.drop_all()
        store.close()


@pytest.mark.postgres
def test_postgresql_notifications_go_out_without_waiting_and_only_for_appends() -> None:
    """A PostgreSQL append sends its notification without waiting for its result (read
    when the connection is next used): the other process hears it though nothing more is
    written, every action of every append in order with its place, and nothing of an append
    refused as a conflict. The connection's next append reads the pending result first, so
    the connection stays usable."""
    import threading

    from dicehall_server_fixtures import postgres_store

    from dicehall.server.storage import Appended

    store = postgres_store()
    other = Store(store.url, prefix=store.prefix)
    heard: list[tuple[str, int, Appended | None]] = []
    got = threading.Condition()

    def callback(game_id: str, seq: int, appended: Appended | None) -> None:
        with got:
            heard.append((game_id, seq, appended))
            got.notify_all()

    def appends() -> list[tuple[str, int, Appended | None]]:
        return [h for h in heard if h[1] > 0]  # the game's creation is told as seq 0

    def wait_for(count: int) -> None:
        with got:
            assert got.wait_for(lambda: len(appends()) >= count, timeout=20), heard

    stop = threading.Event()
    listener = threading.Thread(target=other.listen, args=(callback, stop), daemon=True)
    listener.start()
    try:
        store.create_game(make_row())
        time.sleep(0.5)  # the listener is listening (it has no ready signal)
        store.append_actions("g1", 1, [(-1, "3-1")], status="playing")
        wait_for(1)  # heard with no later use of the connection
        assert store._raw_idle[0].__dict__.get("_dicehall_pending") == "g1"
        store.append_actions("g1", 2, [(0, "8/5 6/5"), (-1, "6-5")], hints=[7, -1])
        with pytest.raises(ConflictError):
            store.append_actions("g1", 3, [(1, "24/18")])
        store.append_actions("g1", 4, [(1, "24/13")])
        wait_for(3)
        heard[:] = appends()
        assert [(g, seq) for g, seq, _a in heard] == [("g1", 1), ("g1", 3), ("g1", 4)]
        assert [a.actions if a else None for _g, _s, a in heard] == [
            ((-1, "3-1"),),
            ((0, "8/5 6/5"), (-1, "6-5")),
            ((1, "24/13"),),
        ]
        assert heard[0][2] is not None and heard[0][2].status == "playing"
        assert heard[1][2] is not None and heard[1][2].hints == (7, -1)
        assert [a.text for a in store.load_actions("g1")] == ["3-1", "8/5 6/5", "6-5", "24/13"]
    finally:
        stop.set()
        listener.join(5)
        other.close()
        store.drop_all()
        store.close()


def test_whole_game_against_a_bot_and_resume(store: Store) -> None:
    service = GameService(store, bot_delay=0)
    game_id, _tokens = service.create("backgammon", opponent="random", seed="me")
    live = service.get(game_id)
    moves = 0
    while True:
        with live.lock:
            state = live.state
            if state.is_terminal():
                break
            seq = live.seq
        if state.current_player() == 0:
            service.act(game_id, [0], state.legal_texts()[0], seq)
            moves += 1
            if moves == 5:
                # a second service on the same database (a restarted server) sees the same game
                other = GameService(store, bot_delay=0)
                with live.lock:  # the bot can not commit meanwhile
                    assert other.get(game_id).state == live.state
                other.close()
        else:
            time.sleep(0.002)
    service.close()
    fresh = GameService(store, bot_delay=0)
    again = fresh.get(game_id)
    assert again.state.is_terminal() and again.row.status == "finished"
    assert [e.text for e in again.log] == [e.text for e in live.log]
    fresh.close()


def test_listed_and_other_spellings_of_a_play_commit_the_same(store: Store) -> None:
    # a listed text (sent with the position) is taken by its place in the legal actions, any
    # other spelling is parsed: both log the canonical text, and an illegal one is refused
    import random

    from dicehall.server.service import ServiceError

    service = GameService(store, bot_delay=0)
    rng = random.Random(3)
    game_id, _tokens = service.create("backgammon", opponent="local")
    live = service.get(game_id)
    for turn in range(30):
        with live.lock:
            state = live.state
            if state.is_terminal():
                break
            texts, _moves = service._legal(live)  # what the mover's client is sent
            seq = live.seq
        text = rng.choice(texts)
        sent = text if turn % 2 else f"  {text.upper().replace('/', '-')} "
        if turn == 5 and state.parse_action(text).steps:
            with pytest.raises(ServiceError) as refused:
                service.act(game_id, [0, 1], "24/1", seq)
            assert refused.value.code == "illegal_action"
        service.act(game_id, [0, 1], sent, seq)
        move = next(e for e in live.log[seq:] if e.actor >= 0)
        assert move.text == text and live.last is not None
        assert live.last["text"] == text
        assert live.last["detail"] == move_view_of(state, text)
    assert live.seq > 40
    service.close()


def move_view_of(state, text):  # type: ignore[no-untyped-def]
    """The move view of ``text`` in a copy of ``state`` that has listed nothing (parsed)."""
    from dicehall.server.views.backgammon import move_view

    fresh = state.__class__.__new__(state.__class__)
    fresh.__dict__.update(state.__dict__)
    object.__setattr__(fresh, "_cache", {})
    return move_view(fresh, text, fresh.apply_text(text))


def test_database_urls() -> None:
    assert normalise_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("sqlite:///x.db") == "sqlite:///x.db"
    assert normalise_url("/tmp/x.db") == "sqlite:////tmp/x.db"
