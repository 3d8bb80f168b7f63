"""Mutually orthogonal Latin squares of orders with no construction from finite fields.

``MOLS[n] = (count, source, text)``: ``count`` MOLS of order n. ``text`` has one line per
row r; the line lists row r of each square in turn, separated by spaces, symbols a, b, c, ...
for 0, 1, 2, ... Two squares are orthogonal when every ordered pair of symbols appears once
in their superposition; ``designs`` seats players from them (a resolvable transversal
design). Orders 12, 14 and 15 have no product-of-fields construction reaching these counts
(MacNeish's gives 2, 1 and 2), and no general construction is known to give them, so they are
stored, each with its source; tests/seating checks they are mutually orthogonal.
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
