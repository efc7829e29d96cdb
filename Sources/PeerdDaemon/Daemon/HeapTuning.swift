#if canImport(Glibc)
import Glibc
#endif

/// glibc heap settings for a daemon that holds a large, long-lived list and passes many short-lived
/// buffers (frames, batches of operations) through it.
enum HeapTuning {
    /// Allocations of at least this many bytes get their own `mmap`, so freeing one gives its
    /// memory back to the system at once.
    static let mmapThreshold: Int32 = 32 * 1024

    /// Fixes glibc's mmap threshold at ``mmapThreshold``.
    ///
    /// glibc starts at 128 KiB but raises the threshold to the size of any mmapped block that is
    /// freed (up to 32 MiB); from then on the transient buffers of a catch-up (a 500-operation frame
    /// is about 90 KB, its decoded operations 52 KB) come from the heap, between the list's
    /// long-lived strings, and much of that space stays resident once freed. Setting the threshold
    /// turns that adjustment off. VmRSS of a peer that caught up 100,000 movies, measured on the
    /// benchmark machine: 71–84 MB with glibc's default, 56 MB at 128 KiB, 50–52 MB at 32 KiB (the
    /// catch-up itself a few percent slower); a peer that read them from its log: 49, 47 and 47 MB;
    /// an idle one unchanged. `malloc_trim(0)` afterwards then frees next to nothing.
    ///
    /// Also caps glibc's arenas at ``arenaLimit``. Peer connections run on the event loops'
    /// threads (`EventLoopTaskExecutor`), which decode the operations a catch-up brings, while the
    /// replica keeps them from its own: with glibc's default (eight arenas a core) a peer that
    /// caught up 100,000 movies ended about 1 MB higher than when the connections ran on Swift's
    /// pool (63.4–64.6 MB over five runs, against 62.4–63.5), and with two arenas 62.4–64.1 MB, at
    /// the same rate. Before connections moved, capping the arenas had gained nothing.
    static func apply() {
        #if canImport(Glibc)
        // `mallopt` is declared in <malloc.h>, which the Glibc module does not include; look it up.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let mmapThresholdParameter: Int32 = -3  // M_MMAP_THRESHOLD in <malloc.h>
        let arenaMaxParameter: Int32 = -8  // M_ARENA_MAX
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        _ = mallopt(mmapThresholdParameter, mmapThreshold)
        _ = mallopt(arenaMaxParameter, arenaLimit)
        #endif
    }

    /// At most this many malloc arenas (see ``apply()``).
    static let arenaLimit: Int32 = 2
}
