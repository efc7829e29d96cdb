// The standard library's own Unicode decomposition (NFD, the `_Unicode` SPI FoundationEssentials itself uses):
// Foundation's `folding(options:locale:)` lives in FoundationInternationalization, which brings ICU's data
// (about 30 MB) into a static peerctl, and a table of our own would miss letters.
@_spi(_Unicode) import Swift

extension String {
    /// The text without accents, in lower case (full case folding: `ß` is `ss`, `ﬁ` is `fi`), fullwidth
    /// ASCII as ASCII: Foundation's folding with `.caseInsensitive`, `.diacriticInsensitive` and
    /// `.widthInsensitive`, for the letters titles hold. An accent is a nonspacing mark of the canonical
    /// decomposition (`é` is `e` and U+0301); the kana voicing marks stay (`ポ` is not `ホ`).
    var foldedForSearch: String {
        var scalars = String.UnicodeScalarView()
        for scalar in _nfd {
            if scalar.properties.generalCategory == .nonspacingMark, !(0x3099...0x309A).contains(scalar.value) {
                continue
            }
            if (0xFF01...0xFF5E).contains(scalar.value), let narrow = Unicode.Scalar(scalar.value - 0xFEE0) {
                scalars.append(narrow)
            } else {
                scalars.append(scalar)
            }
        }
        return String(scalars).uppercased().lowercased()
    }
}
