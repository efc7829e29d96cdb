/// The group's news of wanted movies, newest first (proto/CONTROL.md, "news"): at most `limit`
/// reports (50 by default, 0 for only the counts). `looked` says the member has now seen them, so
/// their unread count starts again from here (the page's News view, `peerctl news`). With
/// `follow`, the answer is followed by one `news` message per commit that brings reports, until
/// the client hangs up. News is the group's: `inList` does not apply.
package struct NewsRequest: ControlRequestBody {
    package static let tag = "news"
    package static let takesList = false
    package var limit: Int?
    package var looked: Bool?
    package var follow: Bool?

    package init(limit: Int? = nil, looked: Bool? = nil, follow: Bool? = nil) {
        self.limit = limit
        self.looked = looked
        self.follow = follow
    }
}
