import PeerdFuzzing

@main
enum FuzzFrame {
    static func main() { FuzzTarget.main("fuzz-frame", testOneInput: testOneInput) }
}

/// libFuzzer's entry point. An input is a byte stream of frames, length headers included.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FrameStreamProperty.check(FuzzTarget.bytes(data, size))
    return 0
}
