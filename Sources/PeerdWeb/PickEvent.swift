package import NIOCore
package import PeerdWire

/// One `event: pick` of the page's event stream (proto/WEB.md), framed once for every stream that
/// sends it: its `data:` is the pick's state as `pickStatus` answers it, a `pickState` response.
package struct PickEvent: Sendable {
    package let frame: ByteBuffer

    package init(_ state: ControlResponse) {
        let data = String(decoding: WireCoding.encode(state), as: UTF8.self)
        frame = ByteBuffer(string: "event: pick\ndata: \(data)\n\n")
    }
}
