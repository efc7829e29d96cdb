import PeerdFuzzing

@main
enum FuzzImport {
    static func main() { FuzzTarget.main("fuzz-import", testOneInput: testOneInput) }
}

/// libFuzzer's entry point. An input is the bytes of a file given to `peerctl import`: a ZIP, CSV or JSON.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    ImportFileProperty.check(FuzzTarget.bytes(data, size))
    return 0
}
