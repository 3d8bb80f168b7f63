"""Base rounds of the designs developed over a cyclic group (see ``designs``).

Each entry ``(v, k): (n, columns, name, text)`` describes v players at tables of k.
Players are numbered ``c * n + x`` for column c < columns and x in Z_n, then the fixed
points ``n * columns + i``. ``text`` lists parts separated by "/": ``base: B1 B2 ...`` is a
base round (its blocks, players joined by "."), whose n translates (x -> x + j mod n, fixed
points fixed) are n rounds; ``fixed: B1 ...`` is one round made of all the translates of its
blocks. Every pair difference occurs at most once, so no two players meet twice.

Only designs that no general construction in ``designs`` gives are stored here (a Kirkman
triple system of order 2q + 1 or 3q for a prime power q = 1 (mod 6), 3u by tripling or
2u + 1 by doubling a pairwise balanced design, a resolvable (3q + 1, 4, 1) design and the
transversal designs are built there; NKTS(54), NKTS(72) and NKTS(90) by tripling NKTS(18),
NKTS(24) and NKTS(30) over a resolvable TD(3, u) from an OA(4, u)). The base rounds were
found once, offline, by a computer search (randomised backtracking, a SAT solver, and a tabu
search over swaps of two players between tables of the base round, cost = repeated pair
classes) for base rounds whose differences are all distinct: the difference method of Bose
(1939) with fixed points (1-rotational designs, Buratti), and for the earlier KTS(33),
KTS(57), KTS(69) and KTS(93) the 3-pyramidal form (three fixed points forming one table of
the extra round, with the short orbits {x, x + n/3, x + 2n/3} of each column; Buratti,
Rinaldi and Traetta, "3-pyramidal Steiner triple systems", 2017). The existence of these
designs is known (NKTS: Baker and Wilson 1977, Kotzig and Rosa; 24 in fours for 7 rounds:
the social golfer problem 6-4-7, OEIS A107431; the 8-4-10 social golfer solution: Aguado
2004; 30 in fives for 6 rounds: the social golfer problem 6-5-6, OEIS A107431).

Why the other nearly Kirkman systems, NKTS(18, 24, 30, 36, 42, 48, 60, 66, 78, 84, 96), are
stored. Up to 96 players two recursions are known to us (a 3-RGDD of type 2^(v/2) is an
NKTS(v); Rees and Stinson, "On resolvable group-divisible designs with block size 3", Ars
Combin. 23, 1987; Handbook of Combinatorial Designs, 2nd ed., II.7):

* tripling, NKTS(u) on the groups of a resolvable TD(3, u) (an OA(4, u)) -> NKTS(3u), needs
  u = 0 (mod 6), u >= 18: it gives 54, 72 and 90 (built); 36 would need an NKTS(12), which
  does not exist (Kotzig and Rosa 1974);
* filling the holes of a Kirkman frame of type g^u (Stinson, "Frames for Kirkman triple
  systems", Discrete Math. 65, 1987), each hole with two new points by an NKTS(g + 2),
  -> NKTS(gu + 2), needs g + 2 = 0 (mod 6) with an NKTS(g + 2) (g >= 16) and u >= 4 with
  g(u - 1) = 0 (mod 3): the only order up to 96 is 66 = 16 * 4 + 2, which would need a
  Kirkman frame of type 16^4, itself from a weighting construction with ingredients not
  built here (4-frames, Kirkman frames of smaller type); for 18, 24, 30, 36, 42, 48, 60,
  78, 84 and 96, gu = v - 2 has no admissible g and u (the holes would need an NKTS(6) or
  NKTS(12), which do not exist).

The small orders are the base cases of the existence proofs (Kotzig and Rosa 1974, Baker and
Wilson 1977), given there directly; the others here have no construction we know of short of
those general recursions, so their base rounds stay stored.
Where no design reaching the counting bound is built, base rounds with several fixed points
give packings with more rounds than the tabu search finds from scratch: 56, 60, 72, 84 and
96 in fours for 16, 17, 21, 23 and 27 rounds (against 13, 14, 17, 21 and 24), found by the
same tabu search over base rounds (a fixed point's table holds at most one player of each
column); ``known_max_rounds`` names the counting bound there. tests/seating checks every
design built from them.
"""

DEVELOPED: dict[tuple[int, int], tuple[int, int, str, str]] = {
    (18, 3): (
        4,
        4,
        "nearly Kirkman triple system NKTS(18) over Z4",
        "base: 2.15.16 4.12.17 0.1.7 5.11.14 6.9.10 3.8.13 / base: 7.8.16 3.11.17 1.5.6 "
        "4.14.15 0.10.12 2.9.13",
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
    (42, 3): (
        20,
        2,
        "nearly Kirkman triple system NKTS(42) over Z20",
        "base: 18.20.40 8.22.41 0.23.26 4.5.13 1.32.34 10.15.30 11.14.21 2.27.39 9.16.25 "
        "17.19.38 3.7.31 29.35.36 6.12.24 28.33.37",
    ),
    (24, 4): (
        7,
        3,
        "resolvable 4-GDD of type 3^8 (social golfer 6-4-7) over Z7",
        "base: 3.12.16.21 1.2.6.20 0.7.11.13 4.9.19.23 10.15.17.18 5.8.14.22",
    ),
    (32, 4): (
        5,
        6,
        "resolvable 4-GDD of type 2^16 (social golfer 8-4-10) over Z5",
        "base: 0.3.17.26 1.9.25.30 2.8.21.24 4.10.11.22 5.7.13.29 6.15.19.23 12.18.20.31 "
        "14.16.27.28 / base: 0.1.16.21 2.10.12.27 3.7.25.31 4.6.13.17 5.9.14.24 8.15.18.28 "
        "11.19.20.30 22.23.26.29",
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
    (100, 4): (
        33,
        3,
        "resolvable (100,4,1) design, 1-rotational over Z33",
        "base: 0.33.66.99 1.32.35.64 2.31.42.57 3.30.38.61 4.29.46.53 5.28.48.51 6.27.81.84 "
        "7.26.79.86 8.25.73.92 9.24.67.98 10.23.37.62 11.22.40.59 12.21.71.94 13.20.41.58 "
        "14.19.82.83 15.18.70.95 16.17.78.87 34.65.77.88 36.63.76.89 39.60.68.97 43.56.75.90 "
        "44.55.72.93 45.54.69.96 47.52.74.91 49.50.80.85",
    ),
    (48, 3): (
        23,
        2,
        "nearly Kirkman triple system NKTS(48) over Z23",
        "base: 12.36.46 0.30.43 10.25.47 2.15.28 3.7.21 9.17.38 1.13.24 16.26.33 5.6.22 "
        "8.27.35 19.37.41 4.29.32 18.20.34 11.14.23 39.44.45 31.40.42",
    ),
    (60, 3): (
        29,
        2,
        "nearly Kirkman triple system NKTS(60) over Z29",
        "base: 9.57.58 0.49.56 4.30.46 2.25.32 12.47.59 18.41.55 8.15.29 48.53.54 13.27.37 "
        "14.24.36 10.21.38 16.28.31 19.20.23 5.7.52 3.34.43 11.40.44 1.6.22 17.26.51 33.35.45 "
        "39.42.50",
    ),
    (66, 3): (
        32,
        2,
        "nearly Kirkman triple system NKTS(66) over Z32",
        "base: 0.35.48 8.33.64 4.34.49 11.22.37 23.40.63 19.41.51 14.42.45 24.43.47 2.17.61 "
        "21.60.62 53.54.59 13.31.55 9.16.52 20.38.58 27.32.56 10.30.44 36.50.57 6.39.65 "
        "25.26.46 7.12.15 5.18.28 1.3.29",
    ),
    (36, 4): (
        11,
        3,
        "resolvable 4-GDD of type 3^12 (social golfer 9-4-11) over Z11",
        "base: 8.12.23.33 0.9.22.28 1.4.5.14 3.15.30.34 2.7.18.21 10.16.24.35 6.26.27.29 "
        "11.13.17.31 19.20.25.32",
    ),
    (78, 3): (
        19,
        4,
        "nearly Kirkman triple system NKTS(78) over Z19",
        "base: 37.75.76 17.19.50 20.48.68 21.27.70 14.23.67 6.28.41 10.30.57 25.60.72 "
        "12.35.69 11.24.54 9.36.43 8.26.45 31.32.47 0.18.33 5.29.52 34.40.65 22.39.61 1.51.63 "
        "2.4.53 7.46.59 3.15.66 13.16.42 49.56.73 38.64.77 55.71.74 44.58.62 / base: 18.45.76 "
        "3.8.63 7.11.23 17.24.28 9.53.57 5.46.74 13.49.59 1.30.77 2.15.60 4.12.29 6.16.65 "
        "10.48.50 0.19.61 14.68.70 43.64.73 62.67.75 32.54.69 22.36.58 20.71.72 21.39.66 "
        "25.27.35 26.33.47 34.37.42 31.41.51 38.44.52 40.55.56",
    ),
    (84, 3): (
        41,
        2,
        "nearly Kirkman triple system NKTS(84) over Z41",
        "base: 18.70.82 0.46.69 8.41.75 42.59.72 5.43.78 31.68.76 24.39.73 6.47.56 1.61.71 "
        "44.48.63 30.45.83 11.22.66 21.40.64 14.20.62 13.52.77 19.49.50 15.23.81 55.58.60 "
        "4.36.57 32.67.79 33.35.51 34.54.74 2.29.65 26.53.80 9.25.38 7.10.28 3.27.37 12.16.17",
    ),
    (96, 3): (
        47,
        2,
        "nearly Kirkman triple system NKTS(96) over Z47",
        "base: 19.75.94 0.13.22 1.17.40 2.7.86 3.58.74 5.54.80 20.34.53 23.41.70 12.14.52 "
        "8.77.82 29.50.93 4.11.57 9.39.51 28.48.85 24.35.45 32.47.95 44.67.69 16.59.60 "
        "31.43.46 15.21.73 36.49.62 18.72.79 27.68.90 42.78.87 10.37.38 25.64.76 26.30.61 "
        "6.56.71 33.63.81 65.84.92 66.83.89 55.88.91",
    ),
    (30, 5): (
        6,
        5,
        "social golfer 6-5-6 (30 in fives for 6 rounds) over Z6",
        "base: 6.10.18.24.29 11.13.15.20.21 5.16.17.26.28 1.2.19.23.27 0.4.7.8.14 3.9.12.22.25",
    ),
    (56, 4): (
        16,
        3,
        "56 in fours for 16 rounds over Z16 with 8 fixed points",
        "base: 10.26.41.48 4.29.36.49 5.24.34.50 11.25.37.51 14.20.44.52 6.21.43.53 "
        "12.30.47.54 8.31.42.55 16.18.19.28 33.35.45.46 2.3.7.9 0.13.17.38 1.22.27.40 "
        "15.23.32.39",
    ),
    (60, 4): (
        17,
        3,
        "60 in fours for 17 rounds over Z17 with 9 fixed points",
        "base: 1.17.50.51 0.29.39.52 6.32.47.53 13.21.46.54 7.18.35.55 4.22.41.56 15.28.42.57 "
        "9.24.44.58 2.26.49.59 5.12.43.48 19.23.30.31 27.34.36.40 3.8.11.25 10.14.16.20 "
        "33.37.38.45",
    ),
    (72, 4): (
        21,
        3,
        "72 in fours for 21 rounds over Z21 with 9 fixed points",
        "base: 3.39.45.63 7.33.42.64 15.37.53.65 1.40.48.66 4.34.54.67 0.28.61.68 17.36.47.69 "
        "18.26.43.70 19.23.62.71 5.6.11.60 10.12.20.22 21.25.41.56 2.14.46.50 31.38.57.59 "
        "9.13.16.30 8.24.32.35 44.49.55.58 27.29.51.52",
    ),
    (84, 4): (
        23,
        3,
        "84 in fours for 23 rounds over Z23 with 15 fixed points",
        "base: 16.33.66.69 21.24.67.70 11.26.55.71 4.34.59.72 5.23.50.73 8.29.51.74 "
        "20.45.53.75 18.41.56.76 7.40.54.77 13.35.61.78 12.43.48.79 0.39.58.80 3.31.65.81 "
        "9.36.49.82 17.28.46.83 6.25.57.60 47.62.63.68 1.37.38.44 2.10.14.19 27.30.32.42 "
        "15.22.52.64",
    ),
    (96, 4): (
        27,
        3,
        "96 in fours for 27 rounds over Z27 with 15 fixed points",
        "base: 2.27.55.81 18.32.58.82 24.40.80.83 22.53.65.84 25.30.75.85 23.49.78.86 "
        "12.34.72.87 17.35.54.88 8.43.59.89 21.51.68.90 5.47.70.91 13.36.67.92 3.42.69.93 "
        "15.39.63.94 19.38.60.95 56.62.64.73 0.26.57.61 16.44.50.52 4.10.14.31 28.33.37.48 "
        "29.46.71.76 6.9.11.20 7.45.66.79 1.41.74.77",
    ),
}


#: Designs the engine seated from before a general construction in ``designs`` replaced
#: them, in the same form as ``DEVELOPED``: never used for a new plan, only so that a
#: tournament seated round by round from one of them goes on with it (``earlier_designs``).
EARLIER: dict[tuple[int, int], tuple[int, int, str, str]] = {
    (21, 3): (
        5,
        4,
        "Kirkman triple system KTS(21), 1-rotational over Z5",
        "base: 0.9.20 5.8.13 7.11.17 4.6.19 3.10.14 1.2.18 12.15.16 / base: 13.15.20 0.6.18 "
        "5.16.19 8.9.10 3.12.17 2.4.7 1.11.14",
    ),
    (33, 3): (
        15,
        2,
        "Kirkman triple system KTS(33), 3-pyramidal over Z15",
        "base: 7.23.25 15.16.24 3.11.22 2.4.19 10.18.32 12.17.21 14.28.30 13.20.31 1.26.29 "
        "5.8.9 0.6.27 / fixed: 0.5.10 15.20.25 30.31.32",
    ),
    (54, 3): (
        26,
        2,
        "nearly Kirkman triple system NKTS(54) over Z26",
        "base: 0.29.50 13.26.45 5.23.27 18.20.28 1.39.43 10.38.47 6.16.41 11.37.52 4.51.53 "
        "35.46.49 2.19.33 12.31.32 8.9.14 17.21.24 7.22.40 25.42.48 3.15.30 34.36.44",
    ),
    (57, 3): (
        27,
        2,
        "Kirkman triple system KTS(57), 3-pyramidal over Z27",
        "base: 0.6.30 1.8.43 2.3.42 16.26.52 14.32.39 11.13.24 5.53.54 9.12.50 20.36.49 "
        "4.51.56 7.15.19 25.31.47 21.38.55 10.33.37 18.23.28 17.45.48 22.29.41 27.44.46 "
        "34.35.40 / fixed: 0.9.18 27.36.45 54.55.56",
    ),
    (69, 3): (
        33,
        2,
        "Kirkman triple system KTS(69), 3-pyramidal over Z33",
        "base: 0.13.27 1.2.10 17.61.68 31.33.41 5.28.64 12.49.65 11.15.32 3.29.60 9.14.63 "
        "16.39.67 30.36.59 19.22.37 4.45.50 7.25.47 18.35.66 8.38.42 21.23.48 26.40.54 "
        "6.44.51 20.53.62 24.43.56 55.57.58 34.46.52 / fixed: 0.11.22 33.44.55 66.67.68",
    ),
    (90, 3): (
        44,
        2,
        "nearly Kirkman triple system NKTS(90) over Z44",
        "base: 0.10.37 1.4.9 24.39.72 13.33.86 19.35.45 14.59.69 2.23.44 5.11.63 22.31.53 "
        "12.50.79 25.36.61 26.54.82 6.18.32 20.70.84 7.8.51 27.29.78 38.62.68 42.77.88 "
        "3.43.60 16.56.57 41.80.87 17.30.49 28.55.75 34.71.89 15.40.74 21.81.83 47.58.66 "
        "48.52.65 46.67.85 64.73.76",
    ),
    (93, 3): (
        45,
        2,
        "Kirkman triple system KTS(93), 3-pyramidal over Z45",
        "base: 0.48.72 7.16.45 2.55.66 30.46.74 12.35.47 10.52.87 39.75.80 32.78.90 29.34.49 "
        "11.17.84 20.54.86 19.33.88 21.23.41 4.37.38 3.31.81 5.24.63 26.51.82 42.59.60 "
        "13.56.64 15.25.28 9.61.77 1.8.83 40.44.89 18.58.92 6.27.43 22.69.76 53.57.79 "
        "14.73.85 36.67.91 50.68.70 62.65.71 / fixed: 0.15.30 45.60.75 90.91.92",
    ),
}
