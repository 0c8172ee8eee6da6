"""Perfect plans from finite fields: resolvable transversal designs.

For a prime power q >= 4 the 4q players (group j, value v), j in 0..3 and v in GF(q), sit in
round s at tables {(j, t + c_j * s)} for t in GF(q), with four distinct constants c_j. Two
players of different groups meet exactly once over the q rounds, and players of one group
never meet. For q = 4 the groups themselves make a fifth round: the affine plane of order 4.

Tables of three (a three-player game) are the same with three groups and constants 0, 1, 2:
3q players over q rounds for a prime power q >= 3, and for any odd q with the integers mod q
(the differences of the constants, 1 and 2, can be divided by there). For q = 3 the groups
make a fourth round: the affine plane of order 3, nine players over four rounds.
"""

from __future__ import annotations

import math
from functools import cache
from itertools import product


def prime_power(q: int) -> tuple[int, int] | None:
    """(p, k) with p prime and p**k == q, or None: prime_power(9) == (3, 2)."""
    if q < 2:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)
    k = 0
    while q % p == 0:
        q //= p
        k += 1
    return (p, k) if q == 1 else None


def _poly_mod(a: list[int], m: list[int], p: int) -> list[int]:
    """a mod m over GF(p); m monic; coefficients lowest degree first."""
    a = a[:]
    while len(a) >= len(m):
        lead = a[-1]
        if lead:
            shift = len(a) - len(m)
            for i, c in enumerate(m):
                a[shift + i] = (a[shift + i] - lead * c) % p
        a.pop()
    return a


def _irreducible(p: int, k: int) -> list[int]:
    """The first monic irreducible polynomial of degree k over GF(p)."""
    for tail in product(range(p), repeat=k):
        m = list(tail) + [1]
        if all(
            any(_poly_mod(m, list(d) + [1], p))
            for degree in range(1, k // 2 + 1)
            for d in product(range(p), repeat=degree)
        ):
            return m
    raise AssertionError("every degree has an irreducible polynomial")


@cache
def field(q: int) -> tuple[list[list[int]], list[list[int]]]:
    """Addition and multiplication tables of GF(q); elements are 0..q-1, 0 and 1 as usual."""
    pk = prime_power(q)
    if pk is None:
        raise ValueError(f"{q} is not a prime power")
    p, k = pk

    def digits(x: int) -> list[int]:
        return [(x // p**i) % p for i in range(k)]

    def number(ds: list[int]) -> int:
        return sum(d * p**i for i, d in enumerate(ds))

    modulus = _irreducible(p, k) if k > 1 else [0, 1]
    add = [
        [number([(a + b) % p for a, b in zip(digits(x), digits(y), strict=True)]) for y in range(q)]
        for x in range(q)
    ]
    mul = [[0] * q for _ in range(q)]
    for x in range(q):
        dx = digits(x)
        for y in range(q):
            dy = digits(y)
            prod = [0] * (2 * k - 1)
            for i, a in enumerate(dx):
                for j, b in enumerate(dy):
                    prod[i + j] = (prod[i + j] + a * b) % p
            reduced = _poly_mod(prod, modulus, p) if k > 1 else [prod[0] % p]
            mul[x][y] = number(reduced + [0] * (k - len(reduced)))
    return add, mul


def _ring(q: int, size: int) -> tuple[list[list[int]], list[list[int]]] | None:
    """Addition and multiplication where the construction for tables of `size` works: the
    field GF(q), or else the integers mod q when every difference of the constants
    0..size-1 can be divided by there; None when neither."""
    if q < size:
        return None
    if prime_power(q) is not None:
        return field(q)
    if math.gcd(q, math.factorial(size - 1)) != 1:
        return None
    return (
        [[(x + y) % q for y in range(q)] for x in range(q)],
        [[(x * y) % q for y in range(q)] for x in range(q)],
    )


def construction_rounds(players: int, size: int = 4) -> int:
    """How many perfect rounds the construction gives for this many players at tables of
    `size` (0 if none)."""
    if players % size:
        return 0
    q = players // size
    if _ring(q, size) is None:
        return 0
    return q + 1 if q == size else q


def transversal_rounds(players: int, rounds: int, size: int = 4) -> list[list[list[int]]]:
    """`rounds` perfect rounds for `players` (0-based), as tables of `size`.

    >>> plan = transversal_rounds(16, 5)
    >>> len(plan), len(plan[0]), sorted(plan[0][0])
    (5, 4, [0, 4, 8, 12])
    >>> len(transversal_rounds(9, 4, 3)), len(transversal_rounds(15, 5, 3)[0])
    (4, 5)
    """
    q = players // size
    if rounds > construction_rounds(players, size):
        raise ValueError(f"no construction for {players} players over {rounds} rounds")
    ring = _ring(q, size)
    assert ring is not None
    add, mul = ring
    consts = range(size)
    plan = []
    for s in range(min(rounds, q)):
        plan.append([[j * q + add[t][mul[c][s]] for j, c in enumerate(consts)] for t in range(q)])
    if rounds > q:
        plan.append([[j * q + v for v in range(q)] for j in range(size)])
    return plan
