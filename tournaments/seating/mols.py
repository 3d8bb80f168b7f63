"""Orthogonal arrays of orders with no construction from finite fields: mutually orthogonal
Latin squares (MOLS) and quasi-difference matrices.

``MOLS[n] = (count, source, text)``: ``count`` MOLS of order n. ``text`` has one line per
row r; the line lists row r of each square in turn, separated by spaces, symbols a, b, c, ...
for 0, 1, 2, ... Two squares are orthogonal when every ordered pair of symbols appears once
in their superposition; ``designs`` seats players from them (a resolvable transversal
design). Orders 12, 14 and 15 have no product-of-fields construction reaching these counts
(MacNeish's gives 2, 1 and 2), and no general construction is known to give them, so they are
stored, each with its source; tests/seating checks they are mutually orthogonal.

``orthogonal_array(n)`` gives the widest orthogonal array OA(k, n) stored or built here (n^2
rows of k symbols < n, every two columns holding every ordered pair of symbols once): from the
MOLS (rows r, c, L1[r][c], ...), and for orders 18 and 20 from quasi-difference matrices
(Colbourn and Dinitz, Handbook of Combinatorial Designs, 2nd ed., III.3.46 and III.3.49).
"""

from __future__ import annotations

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


def orthogonal_array(n: int) -> list[tuple[int, ...]]:
    """The widest OA(k, n) stored or built here, or [] when there is none."""
    if n == 20:
        return _oa_6_20()
    if n == 18:
        return _oa_7_18()
    if n in MOLS:
        return _from_squares(n)
    return []
