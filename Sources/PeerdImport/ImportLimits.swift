/// How much one import may read, so that a hostile file ends in an ``ImportError`` rather than in
/// unbounded memory or time. Real exports are far below each: a Letterboxd ZIP of a heavy user is a
/// few MB with a few dozen entries and a few thousand rows.
package struct ImportLimits: Hashable, Sendable {
    /// The file's size, checked with `stat` before a byte of it is read.
    package var maxFileBytes: Int
    /// One entry of a ZIP, uncompressed: its header's size is checked first, and the bytes are counted
    /// as they are inflated, since a header can lie.
    package var maxEntryBytes: Int
    /// Entries in a ZIP, of every kind, read or ignored.
    package var maxEntries: Int
    /// Records in the file, all parts of a ZIP together: rows, skipped rows and items of a JSON array.
    package var maxRows: Int
    /// The entries of a ZIP that are read, uncompressed, all together: entries may share one run of
    /// deflated bytes, so that each is small and their sum is not.
    package var maxArchiveBytes: Int
    /// Fields of one CSV record, the header's included: no export has more than a few dozen columns,
    /// and a line of commas would otherwise cost memory for every comma.
    package var maxColumns: Int

    package init(
        maxFileBytes: Int,
        maxEntryBytes: Int,
        maxEntries: Int,
        maxRows: Int,
        maxArchiveBytes: Int = 64 << 20,
        maxColumns: Int = 200
    ) {
        self.maxFileBytes = maxFileBytes
        self.maxEntryBytes = maxEntryBytes
        self.maxEntries = maxEntries
        self.maxRows = maxRows
        self.maxArchiveBytes = maxArchiveBytes
        self.maxColumns = maxColumns
    }

    /// 32 MiB a file, 32 MiB an entry and 64 MiB all entries read, 5,000 entries, 20,000 rows, 200 columns.
    package static let standard = ImportLimits(
        maxFileBytes: 32 << 20,
        maxEntryBytes: 32 << 20,
        maxEntries: 5_000,
        maxRows: 20_000
    )
}
