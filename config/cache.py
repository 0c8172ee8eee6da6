"""Django's Redis cache with one Redis client object kept for each connection pool.

Django's own client makes a new `redis.Redis` object (over the same pool of connections)
for every cache operation, and setting one up costs more than the round trip to Redis for
the small entries the pages keep. `RedisCacheClient.get_client` is where Django expects a
client of one's own; the pools, the connections and everything else stay Django's and
redis-py's."""

from __future__ import annotations

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class KeptClient(RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(pool)
        if client is None:
            client = self._clients[pool] = self._client(connection_pool=pool)
        return client


class KeptClientRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = KeptClient
