"""Small finite fields GF(q), q a prime power, for the algebraic constructions.

Elements are the integers 0..q-1: for q = p**e an element is a polynomial over GF(p)
written in base p (digit j is the coefficient of x**j), 0 and 1 are the field's zero and
one. Tables are built once per q and cached.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache


def prime_power(q: int) -> tuple[int, int] | None:
    """``(p, e)`` with ``q == p**e`` for a prime p, or None."""
    if q < 2:
        return None
    p = 2
    while p * p <= q and q % p:
        p += 1
    if q % p:
        p = q  # q itself is prime
    e = 0
    rest = q
    while rest % p == 0:
        rest //= p
        e += 1
    return (p, e) if rest == 1 else None


@dataclass(frozen=True)
class Field:
    q: int
    add: tuple[tuple[int, ...], ...]
    mul: tuple[tuple[int, ...], ...]


def _digits_add(a: int, b: int, p: int) -> int:
    total, place = 0, 1
    while a or b:
        total += ((a % p + b % p) % p) * place
        a //= p
        b //= p
        place *= p
    return total


def _exp_table(p: int, e: int) -> list[int] | None:
    """Powers of x modulo the first primitive polynomial of degree e found, or None."""
    q = p**e
    top = p ** (e - 1)
    for tail in range(1, q):  # monic x**e + (tail as a base-p polynomial), tail(0) != 0
        if tail % p == 0:
            continue
        powers = [1]
        current = 1
        for _ in range(q - 2):
            lead = current // top  # coefficient of x**(e-1), pushed to x**e by the shift
            current = (current % top) * p
            if lead:
                # x**e == -tail, so add lead * (p - 1) * tail digit by digit
                scaled = 0
                rest, place = tail, 1
                while rest:
                    scaled += ((rest % p) * lead * (p - 1) % p) * place
                    rest //= p
                    place *= p
                current = _digits_add(current, scaled, p)
            if current == 1:
                break
            powers.append(current)
        if len(powers) == q - 1 and len(set(powers)) == q - 1:
            return powers
    return None


@lru_cache(maxsize=16)
def field(q: int) -> Field:
    """GF(q); raises ValueError when q is not a prime power."""
    pe = prime_power(q)
    if pe is None:
        raise ValueError(f"{q} is not a prime power")
    p, e = pe
    if e == 1:
        add = tuple(tuple((a + b) % q for b in range(q)) for a in range(q))
        mul = tuple(tuple(a * b % q for b in range(q)) for a in range(q))
        return Field(q, add, mul)
    powers = _exp_table(p, e)
    if powers is None:  # pragma: no cover - a primitive polynomial always exists
        raise ValueError(f"no primitive polynomial found for GF({q})")
    log = {value: i for i, value in enumerate(powers)}
    add = tuple(tuple(_digits_add(a, b, p) for b in range(q)) for a in range(q))
    mul = tuple(
        tuple(0 if a == 0 or b == 0 else powers[(log[a] + log[b]) % (q - 1)] for b in range(q))
        for a in range(q)
    )
    return Field(q, add, mul)


def factor_fields(u: int, k: int = 2) -> list[int] | None:
    """The prime-power factors of u (one per prime, smallest prime first) when each is at
    least k, else None."""
    factors: list[int] = []
    rest, p = u, 2
    while rest > 1:
        if p * p > rest:
            p = rest
        if rest % p == 0:
            q = 1
            while rest % p == 0:
                rest //= p
                q *= p
            if q < k:
                return None
            factors.append(q)
        p += 1
    return factors


@dataclass(frozen=True)
class FieldProduct:
    """The ring R = GF(q1) x ... x GF(qs) on the integers 0 ... u - 1 (u = q1 * ... * qs):
    x is read as its mixed-radix digits, digit j (base qj) an element of GF(qj)."""

    fields: tuple[Field, ...]

    def digits(self, x: int) -> list[int]:
        out = []
        for gf in self.fields:
            x, d = divmod(x, gf.q)
            out.append(d)
        return out

    def number(self, ds: list[int]) -> int:
        x = 0
        for gf, d in zip(reversed(self.fields), reversed(ds), strict=True):
            x = x * gf.q + d
        return x

    def affine(self, m: int, i: int, c: int) -> int:
        """c + m * (i, ..., i) in R, for an integer i below every qj (an element of each
        field): for i != j, (i, ..., i) - (j, ..., j) is a unit of R."""
        md, cd = self.digits(m), self.digits(c)
        return self.number(
            [gf.add[gf.mul[a][i]][b] for gf, a, b in zip(self.fields, md, cd, strict=True)]
        )


@lru_cache(maxsize=64)
def field_product(qs: tuple[int, ...]) -> FieldProduct:
    """GF(q1) x ... x GF(qs) for the prime powers ``qs`` (see ``factor_fields``)."""
    return FieldProduct(tuple(field(q) for q in qs))


def powers_and_negatives(gf: Field) -> tuple[list[int], list[int]]:
    """In GF(q): w^0 ... w^(q-2) for a primitive w (every non-zero element once), and -x
    for each x."""
    q = gf.q
    omega = next(w for w in range(2, q) if _order(gf, w) == q - 1) if q > 2 else 1
    power = [1]
    for _ in range(q - 2):
        power.append(gf.mul[power[-1]][omega])
    neg = [next(y for y in range(q) if gf.add[x][y] == 0) for x in range(q)]
    return power, neg


def _order(gf: Field, w: int) -> int:
    x, n = w, 1
    while x != 1:
        x = gf.mul[x][w]
        n += 1
    return n
