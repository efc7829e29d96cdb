import PeerdLoops

#if canImport(Glibc)
import Glibc
#endif

/// Opens a link in the desktop's browser, as a click on a notification asks: `xdg-open`, started
/// through `sh -c '… &'` so that the shell returns at once and the browser, which may run for
/// hours, is no child of peerd's (nobody here waits for it). Written here rather than taken from
/// a library: Foundation's `Process` would bring Foundation into the daemon for one call.
enum DesktopOpener {
    static func open(_ url: String) {
        let argv = ["sh", "-c", #"xdg-open "$1" >/dev/null 2>&1 &"#, "sh", url]
        var pid: pid_t = 0
        let spawned = withCStrings(argv) { posix_spawnp(&pid, "sh", nil, nil, $0, environ) }
        guard spawned == 0 else { return }
        let child = pid
        Task { await BlockingPool.run { _ = waitpid(child, nil, 0) } }
    }

    private static func withCStrings<Result>(
        _ strings: [String],
        _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result
    ) -> Result {
        let copies = strings.map { strdup($0) } + [nil]
        defer { copies.forEach { free($0) } }
        return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
