import PeerdFuzzing
import PeerdWire

@main
enum FuzzPeerMessage {
    static func main() { FuzzTarget.main("fuzz-peer-message", testOneInput: testOneInput) }
}

/// libFuzzer's entry point. An input is one frame body: the JSON, without the 4-byte length header
/// (`FrameDecoder` is fuzz-frame's), so mutations need not keep a header in step with the body.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let body = Array(FuzzTarget.bytes(data, size))
    MessageBodyProperty.check(PeerMessage.self, body: body)
    return 0
}
