"""Hard limits of the public server and the token buckets that enforce its rate limits.

Every number an anonymous visitor can make the server spend is bounded here: the size of an
HTTP body and of a WebSocket frame, the length of an action text and of anything echoed back in
an error, how many messages a connection and requests an address may send, and how many
messages may wait for a slow reader. ``Limits`` gathers them so an operator (``dicehall serve``)
or a test can change them in one place.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """What one visitor may cost the server.

    ``*_rate`` are sustained rates per second, ``*_burst`` the bucket sizes; a rate of 0 turns
    that limit off (benchmarks on loopback).
    """

    max_body: int = 64 * 1024  #: bytes of an HTTP request body
    max_frame: int = 16 * 1024  #: bytes of one WebSocket message
    max_action: int = 200  #: characters of an action text
    max_tokens: int = 8  #: seat tokens in one request
    max_echo: int = 60  #: characters of client input quoted back in an error
    message_rate: float = 20.0  #: WebSocket messages per second and connection
    message_burst: float = 40.0
    flood_errors: int = 20  #: rate-limited messages a connection may send before it is closed
    address_rate: float = 20.0  #: HTTP requests and WebSocket connections per second and address
    address_burst: float = 200.0
    send_queue: int = 256  #: messages waiting for a slow reader before it is disconnected


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters (with an ellipsis), for quoting input in errors.

    >>> clip("24/18 13/11", 5)
    '24/18…'
    """
    return text if len(text) <= limit else text[:limit] + "…"


class TokenBucket:
    """A token bucket: ``rate`` tokens a second up to ``burst``; ``take`` spends one."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self, now: float | None = None) -> bool:
        """Spend one token; False (and nothing spent) when the bucket is empty."""
        if self.rate <= 0:
            return True
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class AddressLimiter:
    """One token bucket per client address, forgotten when full again (bounded memory)."""

    def __init__(self, rate: float, burst: float, max_addresses: int = 100_000) -> None:
        self.rate, self.burst, self.max_addresses = rate, burst, max_addresses
        self._buckets: dict[str, TokenBucket] = {}
        self._lock = threading.Lock()

    async def allow_async(self, address: str) -> bool:
        """``allow`` for the ASGI guard (the same interface as ``RedisAddressLimiter``)."""
        return self.allow(address)

    def allow(self, address: str) -> bool:
        """Whether ``address`` may make one more request now."""
        if self.rate <= 0:
            return True
        now = time.monotonic()
        with self._lock:
            bucket = self._buckets.get(address)
            if bucket is None:
                if len(self._buckets) >= self.max_addresses:
                    self._sweep(now)
                bucket = self._buckets[address] = TokenBucket(self.rate, self.burst)
            return bucket.take(now)

    def _sweep(self, now: float) -> None:
        """Drop buckets that have refilled (their addresses are idle)."""
        full = [
            a for a, b in self._buckets.items() if b.tokens + (now - b.stamp) * b.rate >= b.burst
        ]
        for a in full:
            del self._buckets[a]
        if len(self._buckets) >= self.max_addresses:  # everybody busy: start over
            self._buckets.clear()


#: The token bucket of one address, in Redis (one round trip; the time is Redis's own, so the
#: processes' clocks need not agree). KEYS[1]: the bucket; ARGV: rate, burst.
_BUCKET_LUA = """
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local b = redis.call('HMGET', KEYS[1], 'tokens', 'stamp')
local tokens = tonumber(b[1]) or burst
local stamp = tonumber(b[2]) or now
tokens = math.min(burst, tokens + math.max(now - stamp, 0) * rate)
local ok = 0
if tokens >= 1 then
  tokens = tokens - 1
  ok = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'stamp', tostring(now))
redis.call('EXPIRE', KEYS[1], math.ceil(burst / rate) + 1)
return ok
"""


class RedisAddressLimiter:
    """``AddressLimiter`` shared by every process and host of one server, through Redis.

    With ``dicehall serve --workers N`` (or several hosts) each process would otherwise grant
    an address its own bucket, N times the rate. The buckets live in Redis under
    ``{prefix}bucket:{address}`` and expire once full again, so memory stays bounded. If Redis
    cannot be reached the limiter lets requests through (and says so in the log, at most
    once a minute): a rate limit protects the server, it must not take it down.
    """

    def __init__(self, url: str, rate: float, burst: float, prefix: str = "dicehall:") -> None:
        import redis.asyncio

        self.rate, self.burst, self.prefix = rate, burst, prefix
        self.client = redis.asyncio.Redis.from_url(url, socket_timeout=1.0)
        self._script = self.client.register_script(_BUCKET_LUA)
        self._warned = 0.0

    async def allow_async(self, address: str) -> bool:
        """Whether ``address`` may make one more request now (one Redis round trip)."""
        if self.rate <= 0:
            return True
        try:
            ok = await self._script(
                keys=[f"{self.prefix}bucket:{address}"], args=[self.rate, self.burst]
            )
        except Exception as exc:  # Redis is down or slow: fail open, loudly
            now = time.monotonic()
            if now - self._warned > 60:
                self._warned = now
                import logging

                logging.getLogger("dicehall.server").warning(
                    "rate limits are off: Redis cannot be reached (%s)", exc
                )
            return True
        return bool(ok)

    async def aclose(self) -> None:
        await self.client.aclose()
