import CDBus

/// A D-Bus value of the few types the Notifications interface uses; anything else doesn't decode.
package enum BusValue: Sendable, Hashable {
    /// `y`
    case byte(UInt8)
    /// `i`
    case int32(Int32)
    /// `u`
    case uint32(UInt32)
    /// `s`
    case string(String)
    /// `as`
    case strings([String])
    /// `a{sv}`: each value is sent in a variant, and read back out of it.
    case dictionary([String: BusValue])

    /// The type signature: what a variant holding this value declares.
    var signature: String {
        switch self {
        case .byte: "y"
        case .int32: "i"
        case .uint32: "u"
        case .string: "s"
        case .strings: "as"
        case .dictionary: "a{sv}"
        }
    }
}

/// D-Bus type codes: dbus-protocol.h's `DBUS_TYPE_*` are casts (`((int) 's')`), which Swift doesn't import.
enum BusType {
    static let invalid: Int32 = 0
    static let byte = code("y")
    static let int32 = code("i")
    static let uint32 = code("u")
    static let string = code("s")
    static let array = code("a")
    static let variant = code("v")
    static let dictEntry = code("e")

    private static func code(_ letter: Unicode.Scalar) -> Int32 { Int32(letter.value) }
}
