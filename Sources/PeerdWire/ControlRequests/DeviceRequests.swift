/// A one-use link that makes the phone, tablet or TV browser that opens it a device of the
/// request's member (its `profile`, or the machine's own member): proto/CONTROL.md, "deviceLink".
package struct DeviceLinkRequest: ControlRequestBody {
    package static let tag = "deviceLink"
    package static let takesList = false
    package static let allowedFromPage = false
    /// The device's name; absent: named after the member and the kind of browser that opens the link.
    package var name: String?
    /// Seconds the link stays valid; absent means 600.
    package var expiresIn: Int?

    package init(name: String? = nil, expiresIn: Int? = nil) {
        self.name = name
        self.expiresIn = expiresIn
    }
}

/// The devices linked to this machine's members (proto/CONTROL.md, "deviceList").
package struct DeviceListRequest: ControlRequestBody {
    package static let tag = "deviceList"
    package static let takesList = false
    package static let allowedFromPage = false
    package init() {}
}

/// Ends a device's access at once: by its name or its id (proto/CONTROL.md, "deviceUnlink").
package struct DeviceUnlinkRequest: ControlRequestBody {
    package static let tag = "deviceUnlink"
    package static let takesList = false
    package static let allowedFromPage = false
    package var device: String

    package init(device: String) { self.device = device }
}
