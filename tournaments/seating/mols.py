"""Orthogonal arrays: mutually orthogonal Latin squares (MOLS) stored for orders with no
construction here, arrays built from quasi-difference matrices, finite fields and their
direct products.

``MOLS[n] = (count, source, text)``: ``count`` MOLS of order n. ``text`` has one line per
row r; the line lists row r of each square in turn, separated by spaces, symbols a, b, c, ...
for 0, 1, 2, ... Two squares are orthogonal when every ordered pair of symbols appears once
in their superposition; ``designs`` seats players from them (a resolvable transversal
design). Orders 12, 14 and 15 have no product construction reaching these counts
(MacNeish's gives 2, 1 and 2), and no general construction is known to give them, so they are
stored, each with its source; tests/seating checks they are mutually orthogonal.

``orthogonal_array(n)`` gives the widest orthogonal array OA(k, n) stored or built here (n^2
rows of k symbols < n, every two columns holding every ordered pair of symbols once): from the
MOLS (rows r, c, L1[r][c], ...), for orders 18 and 20 from quasi-difference matrices
(Colbourn and Dinitz, Handbook of Combinatorial Designs, 2nd ed., III.3.46 and III.3.49), for
order 10 from a V(2, 3) vector (two orthogonal Latin squares of order 10), over the finite
fields, and as the direct product of two of these (MacNeish 1922): OA(4, 30) from OA(4, 10)
and OA(4, 3), which gives the resolvable TD(3, 30) that triples NKTS(30) to NKTS(90).
"""

from __future__ import annotations

from functools import lru_cache

from tournaments.seating.fields import factor_fields, field, field_product, powers_and_negatives

MOLS: dict[int, tuple[int, str, str]] = {
    12: (
        5,
        "5 MOLS of order 12 found by B. D. McKay (Handbook of Combinatorial Designs, 2nd ed., "
        "III.3: N(12) >= 5)",
        """
        abcdefghijkl abcdefghijkl abcdefghijkl abcdefghijkl abcdefghijkl
        badcfehgjilk ghefklijcdab dcbahgfelkji jilkbadcfehg klijcdabghef
        cdabghefklij efghijklabcd lkjidcbahgfe ijklabcdefgh fehgjilkbadc
        dcbahgfelkji cdabghefklij ghefklijcdab badcfehgjilk hgfelkjidcba
        ijklabcdefgh klijcdabghef efghijklabcd fehgjilkbadc jilkbadcfehg
        jilkbadcfehg fehgjilkbadc hgfelkjidcba dcbahgfelkji lkjidcbahgfe
        klijcdabghef hgfelkjidcba jilkbadcfehg cdabghefklij dcbahgfelkji
        lkjidcbahgfe ijklabcdefgh badcfehgjilk efghijklabcd ghefklijcdab
        efghijklabcd jilkbadcfehg fehgjilkbadc lkjidcbahgfe cdabghefklij
        fehgjilkbadc dcbahgfelkji cdabghefklij ghefklijcdab badcfehgjilk
        ghefklijcdab badcfehgjilk klijcdabghef hgfelkjidcba ijklabcdefgh
        hgfelkjidcba lkjidcbahgfe ijklabcdefgh klijcdabghef efghijklabcd
        """,
    ),
    14: (
        4,
        "4 MOLS of order 14 (D. T. Todorov, Four mutually orthogonal Latin squares of order "
        "14, J. Combin. Des. 20 (2012) 363-367; these squares as shared by I. M. Wanless)",
        """
        bjihgkecalnfmd bfmcenidgjhalk bcdefghijklmna bcdefghijklmna
        fckjbhledimagn jcgndfalehkbim gnkjdmiclbhaef jflhnkaecmgdib
        mgdlkcbafejnih ikdhaegnmfblcj lifhbjemkangcd emkdjbgfnliahc
        cnhemldbigfkaj hjlebifkangcmd dalmgnbjehcfik anighmflkbdcej
        edabfnmkcjhgli gbkmfcjeliahdn njcaeifhbdgkml kebcajimdgfhln
        nfeicgajldkbhm khclngdafmjibe mfbkcdlagnjihe cgnflembihakjd
        iagfjdhnkmelcb elbdmahfignkjc aemnhkjdcifblg ilabkdnhfcjegm
        dlnkeafimhcjbg ceabkjnihdmgfl hdnikbagmcelfj ljgnihecbamfdk
        gemalfihjnbdkc adficlkmjbenhg cgjflhnbiekdam ndmabcjglfeikh
        jhfnimgdbkacel liegjdmhnkcfab fkibmagenldhjc mbhiefljadkncg
        hkbgajnmeclidf nmjfhkecbaldgi imhlneckdfajgb difjcnkamehgbl
        ablchikgnfdmje fankgbljdcimeh klegafdnhjmcbi ghckmlbdeinjaf
        licmdbjfhagenk mgialhcbkedjnf jhadicmlfgbekn fajlgidkhncbme
        kmjdneclgbihfa dnhjimbgclfeka ebgcjlkfamindh hkemdacngjblfi
        """,
    ),
    15: (
        4,
        "4 MOLS of order 15 as shared by I. M. Wanless (Handbook of Combinatorial Designs, "
        "2nd ed., III.3: N(15) >= 4)",
        """
        bcdefghijklmnoa bdgiknfcamehjlo bhealiofmdjgcnk blhcmdinejofakg
        abcdefghijklmno acehjlogdbnfikm lcifbmjagnekhdo hcmidnejofkagbl
        oabcdefghijklmn nbdfikmahecogjl amdjgcnkbhoflie midnjeofkaglbhc
        noabcdefghijklm mocegjlnbifdahk fbnekhdolciagmj dnjeokfaglbhmci
        mnoabcdefghijkl lnadfhkmocjgebi kgcoflieamdjbhn jeokfalgbhmcind
        lmnoabcdefghijk jmobegilnadkhfc olhdagmjfbnekci ekfalgbmhcindjo
        klmnoabcdefghij dknacfhjmobelig jamiebhnkgcofld aflgbmhcnidjoek
        jklmnoabcdefghi helobdgiknacfmj ekbnjfciolhdagm lbgmhcnidojekaf
        ijklmnoabcdefgh kifmacehjlobdgn nflcokgdjamiebh gmchnidojeakflb
        hijklmnoabcdefg oljgnbdfikmaceh iogmdalhekbnjfc chndiojeakfblgm
        ghijklmnoabcdef iamkhocegjlnbdf djahnebmiflcokg ndioejakfblgcmh
        fghijklmnoabcde gjbnliadfhkmoce hekbiofcnjgmdal ioejafkblgcmhdn
        efghijklmnoabcd fhkcomjbegilnad miflcjagdokhneb ojafkbglcmhdnie
        defghijklmnoabc egildankcfhjmob cnjgmdkbhealiof fakbglchmdnieoj
        cdefghijklmnoab cfhjmeboldgikna gdokhnelcifbmja kgblchmdineojfa
        """,
    ),
}


def squares(n: int) -> list[list[list[int]]]:
    """The stored MOLS of order n (each a list of rows), or [] when none is stored."""
    entry = MOLS.get(n)
    if entry is None:
        return []
    count, _, text = entry
    out: list[list[list[int]]] = [[] for _ in range(count)]
    for line in text.split("\n"):
        words = line.split()
        if not words:
            continue
        for i, word in enumerate(words):
            out[i].append([ord(c) - ord("a") for c in word])
    return out


def _from_squares(n: int) -> list[tuple[int, ...]]:
    latin = squares(n)
    return [(r, c, *(square[r][c] for square in latin)) for r in range(n) for c in range(n)]


def _oa_6_20() -> list[tuple[int, ...]]:
    """An OA(6, 20) from a (19, 6; 1, 1; 1) quasi-difference matrix over Z19 (Handbook of
    Combinatorial Designs, 2nd ed., III.3.49): each column of the matrix below, with its
    entries permuted in two cycles of three, is translated by every g in Z19 (an empty entry
    stays the symbol 19), then the row of 19s is added: 21 * 19 + 1 = 400 rows."""
    base = [
        [None, 7, 13, 1, 16, 9, 2],
        [0, 1, 15, 7, 17, 6, 14],
        [0, 11, 10, 11, 5, 4, 3],
        [7, None, 13, 16, 1, 2, 9],
        [1, 0, 15, 17, 7, 14, 6],
        [11, 0, 10, 5, 11, 3, 4],
    ]
    columns: list[tuple[int | None, ...]] = []
    for a, b, c, d, e, f in zip(*base, strict=True):
        columns += [(a, b, c, d, e, f), (b, c, a, f, d, e), (c, a, b, e, f, d)]
    rows = [
        tuple(19 if x is None else (x + g) % 19 for x in column)
        for column in columns
        for g in range(19)
    ]
    return [*rows, (19,) * 6]


def _oa_7_18() -> list[tuple[int, ...]]:
    """An OA(7, 18) from a quasi-difference matrix over G = Z2 x Z3 x Z3 (J. R. Abel; Handbook
    of Combinatorial Designs, 2nd ed., III.3.46): each column of the matrix below (entries
    written abc for (a, b, c)) gives three columns, adding (0, 0, 0), (0, 0, y), (0, y, 0),
    (0, 2y, y), (0, 2y, 2y), (0, y, 2y), (0, 0, 2y) to its rows for y = 0, 1, 2; each is
    translated by the nine elements of {0} x Z3 x Z3: 36 * 9 = 324 rows."""
    text = """
        000 100 100 000 100 100 100 000 000 000 100 000
        000 020 100 100 000 120 110 110 010 020 010 120
        000 100 022 102 112 001 101 120 121 001 020 002
        000 002 100 002 102 122 010 111 110 121 021 001
        000 021 000 100 020 112 100 021 112 102 102 012
        000 000 011 010 100 010 110 122 011 121 120 111
        000 100 002 022 011 121 020 122 100 010 112 112
        """
    matrix = [
        [(int(w[0]), int(w[1]), int(w[2])) for w in line.split()]
        for line in text.strip().splitlines()
    ]

    def add(x: tuple[int, int, int], y: tuple[int, int, int]) -> tuple[int, int, int]:
        return (x[0] + y[0]) % 2, (x[1] + y[1]) % 3, (x[2] + y[2]) % 3

    rows = []
    for column in zip(*matrix, strict=True):
        for y in range(3):
            z = 2 * y % 3
            shifts = [(0, 0, 0), (0, 0, y), (0, y, 0), (0, z, y), (0, z, z), (0, y, z), (0, 0, z)]
            shifted = [add(x, t) for x, t in zip(column, shifts, strict=True)]
            for b in range(3):
                for c in range(3):
                    rows.append(
                        tuple(
                            p[0] * 9 + p[1] * 3 + p[2] for p in (add(x, (0, b, c)) for x in shifted)
                        )
                    )
    return rows


def _from_vmt(m: int, t: int, vector: tuple[int, ...]) -> list[tuple[int, ...]]:
    """An OA(m + 2, mt + 1 + t) from a V(m, t) vector (a_1, ..., a_(m+1)) over GF(q),
    q = mt + 1 (Mullin, Schellenberg, Vanstone and Wallis, "On the existence of frames",
    Discrete Math. 37, 1981; Handbook of Combinatorial Designs, 2nd ed., III.3, V(m, t)
    vectors and quasi-difference matrices). The row (-, a_1, ..., a_(m+1)), "-" an empty
    entry, times each of the t powers s of w^m (w primitive: s runs over the m-th powers),
    and each of its m + 2 cyclic shifts, is a column of a (q, m + 2; 1, 0; t)
    quasi-difference matrix, with the column of zeros: in rows j and j + d the differences
    are s (a_(i+d) - a_i) for the i with both entries defined (indices mod m + 2), and a
    V(m, t) has them in the m different classes of the m-th powers, so s times them is each
    non-zero element once. Each column translated by every g in GF(q), the empty entry of
    row j in the column of s becoming the extra symbol q + (index of s), and an OA(m + 2, t)
    on the t extra symbols, give the (mt + 1 + t)^2 rows: the extra symbol meets every
    element of GF(q) once in the translates of its column."""
    gf = field(m * t + 1)
    q = gf.q
    power, _ = powers_and_negatives(gf)
    rows: list[tuple[int, ...]] = [(g,) * (m + 2) for g in range(q)]
    for index in range(t):
        s = power[m * index]
        line: list[int | None] = [None, *(gf.mul[s][a] for a in vector)]
        for shift in range(m + 2):
            column = line[-shift:] + line[:-shift] if shift else line
            for g in range(q):
                rows.append(tuple(q + index if x is None else gf.add[x][g] for x in column))
    holes = _widest(t)  # an OA(m + 2, t): t >= m + 1 for a V(m, t) to exist
    rows += [tuple(q + x for x in row[: m + 2]) for row in holes]
    return rows


def _oa_4_10() -> list[tuple[int, ...]]:
    """An OA(4, 10) (two orthogonal Latin squares of order 10, first found by Parker, 1959)
    from the V(2, 3) vector (0, 1, 4) over GF(7): the one difference class condition (d = 1)
    asks that 1 - 0 and 4 - 1 be one a square, one not (1 is a square mod 7, 3 is not), and
    for d = 2 the differences 4 - 0 and 0 - 4 differ by the non-square -1. See
    ``_from_vmt``; 7 + 3 = 10."""
    return _from_vmt(2, 3, (0, 1, 4))


#: The orders with an array built from a difference matrix or a V(m, t) vector.
_BUILT = {10: _oa_4_10, 18: _oa_7_18, 20: _oa_6_20}


@lru_cache(maxsize=16)
def _direct(n: int) -> list[tuple[int, ...]]:
    """The array of order n built from a difference matrix or stored as MOLS here, or []."""
    if n in _BUILT:
        return _BUILT[n]()
    if n in MOLS:
        return _from_squares(n)
    return []


def _field_width(n: int) -> int:
    """The width of the OA from the finite fields dividing n: q + 1 for the smallest q."""
    fields = factor_fields(n)
    return min(fields) + 1 if fields else 0


def _field_array(n: int) -> list[tuple[int, ...]]:
    """The OA(q + 1, n) over the ring GF(q1) x ... x GF(qs), q the smallest qj: row (m, c)
    is m, then c + m * i for i = 0 ... q - 1 (as in ``designs._transversal``; MacNeish
    1922)."""
    fields = factor_fields(n) or []
    affine = field_product(tuple(fields)).affine
    width = min(fields)
    return [(m, *(affine(m, i, c) for i in range(width))) for m in range(n) for c in range(n)]


@lru_cache(maxsize=256)
def _width(n: int) -> tuple[int, int]:
    """The widest OA(k, n) built here, as (k, how): how = 0 stored or from a difference
    matrix, 1 from the fields, else the smaller order a of the direct product a x n/a."""
    direct = _direct(n)
    best = (len(direct[0]) if direct else 0, 0)
    if _field_width(n) > best[0]:
        best = (_field_width(n), 1)
    for a in range(2, n):
        if a * a > n:
            break
        if n % a == 0:
            width = min(_width(a)[0], _width(n // a)[0])
            if width > best[0]:
                best = (width, a)
    return best


def _widest(n: int) -> list[tuple[int, ...]]:
    """The widest OA(k, n) built here (see ``_width``)."""
    width, how = _width(n)
    if how == 0:
        return list(_direct(n))
    if how == 1:
        return _field_array(n)
    return _product(_widest(how), _widest(n // how), n // how, width)


def _product(
    first: list[tuple[int, ...]], second: list[tuple[int, ...]], b: int, width: int
) -> list[tuple[int, ...]]:
    """The direct (Kronecker) product of an OA(k, a) and an OA(k', b) (b the order of the
    second), their first ``width`` columns: an OA(width, ab) whose rows are (x_i b + y_i)
    for every row x of the first and y of the second (MacNeish, "Euler squares", Ann. of
    Math. 23, 1922; Handbook of Combinatorial Designs, 2nd ed., III.3): in two columns,
    (x_i b + y_i, x_j b + y_j) gives (x_i, x_j) and (y_i, y_j), each pair of which occurs
    once."""
    return [tuple(x[i] * b + y[i] for i in range(width)) for x in first for y in second]


def orthogonal_array(n: int) -> list[tuple[int, ...]]:
    """The widest OA(k, n) stored or built here, or [] for n < 2: stored MOLS,
    quasi-difference matrices (orders 18, 20), the V(2, 3) vector (order 10), the finite
    fields (OA(q + 1, q), and over their product OA(q + 1, n) for the smallest prime-power
    factor q of n, as in ``designs._transversal``) and direct products of all these
    (OA(4, 30) = OA(4, 10) x OA(4, 3), OA(6, 60) = OA(6, 5) x OA(7, 12), ...)."""
    if n < 2:
        return []
    return _widest(n)
