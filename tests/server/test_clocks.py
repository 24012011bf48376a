"""Clocks with a controllable time source: a flag loses, increment and delay, time survives a
restart, a client cannot cheat the clock by its messages; on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from dicehall_server_fixtures import store_fixture  # noqa: F401 (the store fixture)
from hypothesis import given, settings
from hypothesis import strategies as st

from dicehall.server.clocks import Clocks, TimeControl, replay
from dicehall.server.service import GameService, ServiceError
from dicehall.server.storage import Store


class FakeTime:
    """A wall clock that moves only when told."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


def timed(store: Store, clock: TimeControl | None) -> tuple[GameService, Clocks, str, FakeTime]:
    """A backgammon game between two people on ``clock``, started (both seeds given)."""
    fake = FakeTime()
    store.now = fake
    service = GameService(store, bot_delay=0)
    clocks = Clocks(store, service)
    game_id, _ = service.create("backgammon", opponent="friend", seed="s0", name="ann")
    clocks.attach(game_id, clock)
    service.join(game_id, 1, "bob", "b0b")
    assert service.get(game_id).row.status == "playing"
    return service, clocks, game_id, fake


def mover(service: GameService, game_id: str) -> int:
    return service.get(game_id).state.current_player()


def move(service: GameService, game_id: str) -> None:
    """The seat to move plays its first legal action."""
    seat = mover(service, game_id)
    snap = service.snapshot(service.get(game_id), [seat])
    service.act(game_id, [seat], snap["legal"][0], snap["seq"])


def clock_of(service: GameService, game_id: str) -> dict[str, Any]:
    return service.snapshot(service.get(game_id), [])["clock"]  # type: ignore[no-any-return]


def test_time_control_texts_and_bad_ones() -> None:
    assert TimeControl.parse("5+12d") == TimeControl(300, 0, 12)
    assert TimeControl.parse("3+2") == TimeControl(180, 2, 0)
    assert TimeControl.from_any({"initial": 60, "delay": 5}) == TimeControl(60, 0, 5)
    assert TimeControl.from_any(None) is None
    for bad in ("3", "fast", "0+2", "999+0", "3+500", {"initial": 60, "increment": 2, "delay": 2}):
        with pytest.raises(ServiceError) as err:
            TimeControl.from_any(bad)
        assert err.value.code == "bad_request" and err.value.message


def test_a_flag_falls_by_itself_and_loses(store: Store) -> None:
    service, clocks, game_id, fake = timed(store, TimeControl(30, increment=2))
    seat = mover(service, game_id)
    fake.advance(29.9)
    assert clocks.tick() == []
    assert clock_of(service, game_id)["remaining"][seat] == pytest.approx(0.1)
    fake.advance(0.2)
    assert clocks.tick() == [game_id]
    live = service.get(game_id)
    assert live.row.status == "finished" and live.row.ended == f"time:{seat}"
    assert live.row.result is not None and live.row.result[seat] == -1.0
    summary = service.snapshot(live, [])["summary"]
    assert summary == f"{live.row.seats[seat].name} lost on time"
    assert store.get_game(game_id).ended == f"time:{seat}"  # committed, not only in memory
    assert clock_of(service, game_id)["remaining"][seat] == 0.0
    assert clock_of(service, game_id)["running"] is None


def test_a_move_after_the_flag_is_refused_and_loses(store: Store) -> None:
    service, _clocks, game_id, fake = timed(store, TimeControl(30, delay=5))
    seat = mover(service, game_id)
    fake.advance(35.5)  # no tick ran: the move itself finds the flag down
    with pytest.raises(ServiceError) as err:
        move(service, game_id)
    assert err.value.code == "time_out"
    live = service.get(game_id)
    assert live.row.status == "finished" and live.row.ended == f"time:{seat}"
    assert len(store.load_actions(game_id)) == live.seq  # the late move was not logged


def test_increment_is_added_after_each_move(store: Store) -> None:
    service, _clocks, game_id, fake = timed(store, TimeControl(60, increment=5))
    first = mover(service, game_id)
    fake.advance(20)
    move(service, game_id)
    clock = clock_of(service, game_id)
    assert clock["remaining"][first] == pytest.approx(45.0)  # 60 - 20 + 5
    second = mover(service, game_id)
    assert clock["running"] == second != first
    fake.advance(7)
    assert clock_of(service, game_id)["remaining"][second] == pytest.approx(53.0)  # running
    move(service, game_id)
    assert clock_of(service, game_id)["remaining"][second] == pytest.approx(58.0)


def test_delay_is_free_time_and_no_bonus(store: Store) -> None:
    service, _clocks, game_id, fake = timed(store, TimeControl(60, delay=12))
    first = mover(service, game_id)
    fake.advance(8)
    assert clock_of(service, game_id)["delay_left"] == pytest.approx(4.0)
    move(service, game_id)  # within the delay: nothing used, nothing added
    assert clock_of(service, game_id)["remaining"][first] == pytest.approx(60.0)
    second = mover(service, game_id)
    fake.advance(20)
    move(service, game_id)
    assert clock_of(service, game_id)["remaining"][second] == pytest.approx(52.0)


def test_time_survives_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'clock.sqlite3'}"
    store = Store(url)
    service, _clocks, game_id, fake = timed(store, TimeControl(100, increment=1))
    first = mover(service, game_id)
    fake.advance(30)
    move(service, game_id)
    second = mover(service, game_id)
    fake.advance(40)  # the second player thinks ... and the server dies
    before = clock_of(service, game_id)
    service.close()
    store.close()

    again = Store(url)
    again.now = fake
    service2 = GameService(again, bot_delay=0)
    clocks2 = Clocks(again, service2)
    assert clocks2.resume() == 1
    after = clock_of(service2, game_id)
    assert after["remaining"] == before["remaining"]
    assert after["remaining"][first] == pytest.approx(71.0)
    assert after["remaining"][second] == pytest.approx(60.0)  # his thinking time still counts
    fake.advance(60.5)
    assert clocks2.tick() == [game_id]  # the restarted server drops the flag by itself
    assert again.get_game(game_id).ended == f"time:{second}"
    service2.close()


def test_an_untimed_game_has_no_clock(store: Store) -> None:
    service, clocks, game_id, fake = timed(store, None)
    fake.advance(10**6)
    assert clocks.tick() == [] and clock_of(service, game_id) is None
    move(service, game_id)


def test_a_client_cannot_cheat_the_clock(tmp_path: Path) -> None:
    """Nothing a client sends carries a time: extra fields are ignored, the server's commit
    time counts, and the clock it asks for is the server's."""
    from fastapi.testclient import TestClient

    from dicehall.server.app import create_app

    app = create_app(f"sqlite:///{tmp_path / 'cheat.sqlite3'}", bot_delay=0)
    fake = FakeTime()
    with TestClient(app) as client:
        store = app.state.service.store
        store.now = fake
        app.state.clocks.now = fake
        app.state.presence.now = fake
        created = client.post(
            "/api/games",
            json={"game": "backgammon", "opponent": "friend", "clock": "1+0", "name": "ann"},
        ).json()
        game_id, t0 = created["id"], created["tokens"]["0"]
        client.post(f"/api/games/{game_id}/seed", json={"seed": "a"}, headers={"X-Seat-Token": t0})
        t1 = client.post(f"/api/games/{game_id}/join", json={"name": "bob", "seed": "b"}).json()
        tokens = {0: t0, 1: t1["token"]}
        snap = client.get(f"/api/games/{game_id}").json()
        seat = snap["to_move"]
        assert snap["clock"]["remaining"] == [60.0, 60.0]
        fake.advance(50)
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "v": 1, "game": game_id, "tokens": [tokens[seat]]})
            mine = _next(ws, "snapshot")
            # a client claiming time it does not have: the fields mean nothing
            ws.send_json(
                {
                    "type": "act",
                    "v": 1,
                    "ref": 1,
                    "text": mine["legal"][0],
                    "seq": mine["seq"],
                    "clock": {"remaining": [60, 60]},
                    "time": 0,
                    "elapsed": 0,
                }
            )
            assert _answer(ws)["ref"] == 1
            ws.send_json({"type": "clock", "v": 1, "ref": 2, "remaining": [999, 999]})
            clock = _next(ws, "clock")["clock"]
        assert clock["remaining"][seat] == pytest.approx(10.0)  # the server's 50 s counted
        assert clock["running"] == 1 - seat


def _answer(ws: Any) -> dict[str, Any]:
    """The answer to an accepted act: the connection's update carrying its ``ref``."""
    while True:
        msg = ws.receive_json()
        if msg["type"] == "update" and "ref" in msg:
            return msg  # type: ignore[no-any-return]
        assert msg["type"] not in ("error", "ok"), msg


def _next(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        msg = ws.receive_json()
        if msg["type"] == kind:
            return msg  # type: ignore[no-any-return]
        assert msg["type"] != "error", msg


@settings(deadline=None, max_examples=60)
@given(
    st.floats(10, 600),
    st.sampled_from(["increment", "delay"]),
    st.floats(0, 30),
    st.lists(st.tuples(st.sampled_from([-1, 0, 1]), st.floats(0, 100)), max_size=30),
)
def test_replay_never_goes_below_zero_and_counts_only_decisions(
    initial: float, kind: str, bonus: float, steps: list[tuple[int, float]]
) -> None:
    control = TimeControl(initial, **{kind: bonus})
    at, events = 0.0, []
    for actor, gap in steps:
        at += gap
        events.append((actor, at))
    state = replay(control, 2, events, 0)
    assert all(r >= 0 for r in state.remaining)
    decisions = [a for a, _ in events[1:] if a >= 0]
    if kind == "increment" and not decisions:
        assert state.remaining == (initial, initial)
    if not events:
        assert state.running is None and state.deadline() is None
    else:
        assert state.running == 0 and state.since == events[-1][1]


def test_a_flag_in_a_rated_game_is_rated_once(store: Store) -> None:
    from argon2 import PasswordHasher

    from dicehall.server.accounts import Accounts
    from dicehall.server.ratings import Ratings

    fake = FakeTime()
    store.now = fake
    accounts = Accounts(store, PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    ratings = Ratings(store, accounts)
    service = GameService(store, bot_delay=0)
    service.listeners.append(ratings.on_commit)
    clocks = Clocks(store, service)
    ann, bob = (accounts.register(n, "password " + n) for n in ("ann", "bob"))
    game_id, _ = service.create(
        "coinrows", opponent="friend", seed="a", account_id=ann.id, name="ann", rated=True
    )
    clocks.attach(game_id, TimeControl.parse("1+1"))
    service.join(game_id, 1, "bob", "b", account_id=bob.id)
    move(service, game_id)  # Coin Rows opens without a roll: the clock starts with this move
    assert clock_of(service, game_id)["remaining"] == [60.0, 60.0]
    flagged = mover(service, game_id)
    fake.advance(61)
    assert clocks.tick() == [game_id] and clocks.tick() == []
    changes = ratings.game_changes(game_id)
    assert [c["seat"] for c in changes] == [0, 1]
    assert changes[flagged]["change"] < 0 < changes[1 - flagged]["change"]
    assert ratings.sweep() == 0  # nothing left to rate
