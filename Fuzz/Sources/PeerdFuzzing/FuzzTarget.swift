#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `main` of every fuzz target.
///
/// SwiftPM links each executable target with its `@main` renamed and aliased to `main`
/// (`--defsym main=<module>_main`), so a target can't just leave `main` to libFuzzer: instead its
/// `@main` hands the command line to libFuzzer's driver. Built without `-DFUZZING` (a plain
/// `swift build` builds every target of the package) there is no libFuzzer to call: it says how to
/// run it, and fails.
package enum FuzzTarget {
    /// libFuzzer's `LLVMFuzzerTestOneInput`: one input, return 0.
    package typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

    package static func main(_ name: String, testOneInput: TestOneInput) -> Never {
        #if FUZZING
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
        #else
        print(
            "\(name) is a libFuzzer target and does nothing in a normal build: run it with `make fuzz` (Fuzz/README.md)"
        )
        exit(2)
        #endif
    }

    /// The bytes of one input; libFuzzer may pass a null pointer for an empty one.
    package static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
    }
}

#if FUZZING
/// In libFuzzer (FuzzerDriver.cpp): parses libFuzzer's flags from the command line and fuzzes `callback`.
@_extern(c, "LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: FuzzTarget.TestOneInput
) -> CInt
#endif
