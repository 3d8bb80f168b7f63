"""Base rounds of the designs developed over a cyclic group (see ``designs``).

Each entry ``(v, k): (n, columns, name, text)`` describes v players at tables of k.
Players are numbered ``c * n + x`` for column c < columns and x in Z_n, then the fixed
points ``n * columns + i``. ``text`` lists parts separated by "/": ``base: B1 B2 ...`` is a
base round (its blocks, players joined by "."), whose n translates (x -> x + j mod n, fixed
points fixed) are n rounds; ``fixed: B1 ...`` is one round made of all the translates of its
blocks. Every pair difference occurs at most once, so no two players meet twice.

The base rounds were found once, offline, by a computer search (randomised backtracking
and a SAT solver) for base rounds whose differences are all distinct; tests/seating
checks every design built from them.
"""

DEVELOPED: dict[tuple[int, int], tuple[int, int, str, str]] = {
    (15, 3): (
        7,
        2,
        "Kirkman triple system KTS(15), 1-rotational over Z7",
        "base: 0.9.14 6.12.13 1.2.4 5.8.10 3.7.11",
    ),
    (18, 3): (
        4,
        4,
        "nearly Kirkman triple system NKTS(18) over Z4",
        "base: 2.15.16 4.12.17 0.1.7 5.11.14 6.9.10 3.8.13 / base: 7.8.16 3.11.17 1.5.6 "
        "4.14.15 0.10.12 2.9.13",
    ),
    (21, 3): (
        5,
        4,
        "Kirkman triple system KTS(21), 1-rotational over Z5",
        "base: 0.9.20 5.8.13 7.11.17 4.6.19 3.10.14 1.2.18 12.15.16 / base: 13.15.20 0.6.18 "
        "5.16.19 8.9.10 3.12.17 2.4.7 1.11.14",
    ),
    (24, 3): (
        11,
        2,
        "nearly Kirkman triple system NKTS(24) over Z11",
        "base: 3.11.22 6.15.23 9.12.13 0.1.18 2.4.8 14.16.19 5.17.21 7.10.20",
    ),
    (30, 3): (
        14,
        2,
        "nearly Kirkman triple system NKTS(30) over Z14",
        "base: 11.18.28 8.26.29 4.5.17 6.20.25 14.24.27 2.12.22 0.3.9 7.15.23 10.19.21 1.13.16",
    ),
    (36, 3): (
        17,
        2,
        "nearly Kirkman triple system NKTS(36) over Z17",
        "base: 3.21.34 15.28.35 4.6.9 12.17.19 0.23.31 8.20.33 18.29.30 1.2.11 10.14.25 "
        "7.24.27 5.16.26 13.22.32",
    ),
    (39, 3): (
        19,
        2,
        "Kirkman triple system KTS(39), 1-rotational over Z19",
        "base: 12.25.38 9.13.28 11.17.34 16.30.32 10.21.35 1.19.22 24.33.37 5.6.14 2.4.18 "
        "0.26.27 8.15.20 7.29.36 3.23.31",
    ),
    (42, 3): (
        20,
        2,
        "nearly Kirkman triple system NKTS(42) over Z20",
        "base: 18.20.40 8.22.41 0.23.26 4.5.13 1.32.34 10.15.30 11.14.21 2.27.39 9.16.25 "
        "17.19.38 3.7.31 29.35.36 6.12.24 28.33.37",
    ),
    (45, 3): (
        11,
        4,
        "Kirkman triple system KTS(45), 1-rotational over Z11",
        "base: 0.27.31 1.3.9 2.12.24 4.17.32 5.26.36 6.21.30 7.14.39 8.19.43 10.16.33 "
        "11.22.42 13.29.44 15.18.25 20.35.41 23.28.34 37.38.40 / base: 0.23.41 1.20.38 2.9.18 "
        "3.17.36 4.16.29 5.6.33 7.43.44 8.26.27 10.25.39 11.12.34 13.32.40 14.28.31 15.19.21 "
        "22.24.37 30.35.42",
    ),
    (24, 4): (
        3,
        8,
        "resolvable 4-design of 24 players for 6 rounds over Z3",
        "base: 4.5.10.15 2.18.20.21 8.9.14.19 3.7.12.23 1.13.16.22 0.6.11.17 / base: 0.5.7.8 "
        "6.16.19.21 1.10.17.18 2.9.12.13 4.11.22.23 3.14.15.20",
    ),
    (28, 4): (
        9,
        3,
        "resolvable (28,4,1) design, 1-rotational over Z9",
        "base: 8.12.24.27 3.4.14.25 1.18.19.21 0.2.5.17 9.10.15.23 6.11.13.20 7.16.22.26",
    ),
    (32, 4): (
        5,
        6,
        "resolvable 4-GDD of type 2^16 (social golfer 8-4-10) over Z5",
        "base: 0.3.17.26 1.9.25.30 2.8.21.24 4.10.11.22 5.7.13.29 6.15.19.23 12.18.20.31 "
        "14.16.27.28 / base: 0.1.16.21 2.10.12.27 3.7.25.31 4.6.13.17 5.9.14.24 8.15.18.28 "
        "11.19.20.30 22.23.26.29",
    ),
    (40, 4): (
        13,
        3,
        "resolvable (40,4,1) design, 1-rotational over Z13",
        "base: 0.13.26.39 1.12.29.36 2.11.16.23 3.10.30.35 4.9.27.38 5.8.14.25 6.7.17.22 "
        "15.24.32.33 18.21.28.37 19.20.31.34",
    ),
    (44, 4): (
        14,
        3,
        "resolvable 4-GDD of type 2^22 (social golfer 11-4-14) over Z14",
        "base: 0.27.34.36 1.9.10.38 2.12.14.33 3.18.24.28 4.22.30.42 5.7.15.16 6.20.23.25 "
        "8.11.35.41 13.19.31.43 17.21.32.37 26.29.39.40",
    ),
    (48, 4): (
        15,
        3,
        "resolvable 4-design of 48 players for 15 rounds over Z15",
        "base: 0.23.32.46 1.14.16.28 2.3.38.42 4.11.34.37 5.10.21.39 6.25.33.45 7.13.20.35 "
        "8.12.17.18 9.27.40.47 15.24.26.31 19.30.36.44 22.29.41.43",
    ),
    (52, 4): (
        17,
        3,
        "resolvable (52,4,1) design, 1-rotational over Z17",
        "base: 0.17.34.51 1.16.39.46 2.15.41.44 3.14.23.28 4.13.37.48 5.12.24.27 6.11.22.29 "
        "7.10.20.31 8.9.40.45 18.33.42.43 19.32.35.50 21.30.36.49 25.26.38.47",
    ),
    (100, 4): (
        33,
        3,
        "resolvable (100,4,1) design, 1-rotational over Z33",
        "base: 0.33.66.99 1.32.35.64 2.31.42.57 3.30.38.61 4.29.46.53 5.28.48.51 6.27.81.84 "
        "7.26.79.86 8.25.73.92 9.24.67.98 10.23.37.62 11.22.40.59 12.21.71.94 13.20.41.58 "
        "14.19.82.83 15.18.70.95 16.17.78.87 34.65.77.88 36.63.76.89 39.60.68.97 43.56.75.90 "
        "44.55.72.93 45.54.69.96 47.52.74.91 49.50.80.85",
    ),
}
