/// What kind of browser opened a device link, told by its `User-Agent`: only to name the device
/// ("sam's phone") when the link gave no name.
package enum DeviceKind: String, Hashable, Sendable {
    case phone, tablet, tv = "TV", browser

    package init(userAgent: String?) {
        let agent = userAgent?.lowercased() ?? ""
        let has = { (words: [String]) in words.contains { agent.contains($0) } }
        if has([
            "smart-tv", "smarttv", "tizen", "web0s", "webos", "bravia", "appletv", "android tv", "googletv",
            "crkey", "hbbtv", "aftb", "aftm", "afts", "aftt", "netcast", "roku",
        ]) {
            self = .tv
        } else if has(["ipad", "tablet", "kindle", "silk/"]) || (agent.contains("android") && !agent.contains("mobile"))
        {
            self = .tablet
        } else if has(["iphone", "ipod", "mobile", "android"]) {
            self = .phone
        } else {
            self = .browser
        }
    }
}
