"""Per-address rate limits shared through Redis: what one process granted, another does not
grant again (``dicehall serve --workers N --redis URL``)."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import pytest

REDIS_URL = "redis://127.0.0.1:6379/15"


def _redis_or_skip() -> None:
    redis = pytest.importorskip("redis")
    try:
        redis.Redis.from_url(REDIS_URL, socket_timeout=2).ping()
    except Exception as exc:
        pytest.skip(f"no Redis at {REDIS_URL} ({exc})")


def test_two_processes_share_one_bucket_per_address() -> None:
    _redis_or_skip()
    from dicehall.server.limits import RedisAddressLimiter

    prefix = f"issue15:test:{uuid.uuid4().hex}:"

    async def run() -> tuple[list[bool], list[bool], bool]:
        a = RedisAddressLimiter(REDIS_URL, rate=0.001, burst=5, prefix=prefix)
        b = RedisAddressLimiter(REDIS_URL, rate=0.001, burst=5, prefix=prefix)
        try:
            first = [await a.allow_async("10.0.0.1") for _ in range(3)]
            second = [await b.allow_async("10.0.0.1") for _ in range(3)]
            other = await b.allow_async("10.0.0.2")  # another address has its own bucket
        finally:
            await a.aclose()
            await b.aclose()
        return first, second, other

    first, second, other = asyncio.run(run())
    assert first == [True, True, True]
    assert second == [True, True, False]  # 5 granted in all, not 5 per process
    assert other


def test_an_unreachable_redis_lets_requests_through() -> None:
    pytest.importorskip("redis")
    from dicehall.server.limits import RedisAddressLimiter

    async def run() -> bool:
        limiter = RedisAddressLimiter("redis://127.0.0.1:1/0", rate=1, burst=1)
        try:
            return all([await limiter.allow_async("10.0.0.1") for _ in range(3)])
        finally:
            await limiter.aclose()

    assert asyncio.run(run())


def test_two_apps_on_one_redis_refuse_together(tmp_path: Path) -> None:
    _redis_or_skip()
    from fastapi.testclient import TestClient

    from dicehall.server.app import create_app
    from dicehall.server.limits import Limits

    limits = Limits(address_rate=0.001, address_burst=4)
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    prefix_key = "dicehall:bucket:testclient"
    import redis

    redis.Redis.from_url(REDIS_URL).delete(prefix_key)
    a, b = (create_app(url, limits=limits, redis_url=REDIS_URL) for _ in range(2))
    try:
        with TestClient(a) as ca, TestClient(b) as cb:
            codes = [ca.get("/api/protocol").status_code for _ in range(3)]
            codes += [cb.get("/api/protocol").status_code for _ in range(2)]
        assert codes == [200, 200, 200, 200, 429]
    finally:
        redis.Redis.from_url(REDIS_URL).delete(prefix_key)
