import Logging
import PeerdDesktop
import PeerdModel
import PeerdSecurity
import PeerdWeb
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#endif

/// News on this machine's desktop (proto/PEER.md, "News"): a notification through
/// org.freedesktop.Notifications on the session bus for each report that reaches this machine of
/// a movie a member who lives here wants (``NewsNotices``); a click opens the movie on the page.
/// Present only when a session bus answered at start and `--no-notifications` was not given.
struct NewsDesktop: Service {
    let notifier: DesktopNotifier
    let replica: ReplicaService
    let profiles: ProfileBook
    let machine: PeerID
    let page: WebPage?
    /// The reports already shown or passed over, kept so that a restart repeats none and a report
    /// that came just before a crash is still shown (``NewsShown``).
    let shown: NewsShown

    /// The desktop, when the configuration allows it and a session bus answers: the bus
    /// `DBUS_SESSION_BUS_ADDRESS` names, else the user's bus at `$XDG_RUNTIME_DIR/bus` (where the
    /// systemd user manager's bus is). Without one, one info line says so, and nothing else happens.
    static func connect(environment: [String: String], logger: Logger) -> DesktopNotifier? {
        var address = environment["DBUS_SESSION_BUS_ADDRESS"]
        if address?.isEmpty ?? true, let runtime = environment["XDG_RUNTIME_DIR"], access(runtime + "/bus", F_OK) == 0 {
            address = "unix:path=\(runtime)/bus"
        }
        return DesktopNotifier.connect(address: address, logger: logger) { DesktopOpener.open($0) }
    }

    func run() async throws {
        let ticks = await replica.listTicks()
        let known = await shown.load(holding: await replica.snapshot.list.news.reports)
        await cancelWhenGracefulShutdown {
            var notices = NewsNotices(known: known)
            for await _ in ticks {
                let snapshot = await replica.snapshot
                let locals = Set([machine] + (await profiles.profiles).map(\.identity.peer))
                let url = try? page?.url.get()
                let before = notices.known.count
                for notice in notices.notices(in: snapshot, locals: locals, page: url) {
                    _ = await notifier.notify(notice)
                }
                if notices.known.count != before { await shown.save(notices.known) }
            }
        }
        notifier.close()
    }
}
