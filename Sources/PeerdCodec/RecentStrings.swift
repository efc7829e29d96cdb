package import PeerdModel

/// The last few origins and names read. A run of operations from one origin (a catch-up, the log)
/// then shares one string storage for its 32-hex-digit origin instead of allocating one each:
/// 64 bytes of heap per operation held, plus the allocation's time. A list page's reader keeps more:
/// its rows name the same few members over and over.
package struct RecentStrings {
    private let capacity: Int
    private var origins: [PeerID] = []
    private var names: [String] = []

    package init(capacity: Int = 4) {
        self.capacity = capacity
    }

    package func origin(equalTo raw: Range<Int>, in bytes: UnsafeRawBufferPointer) -> PeerID? {
        origins.first { Self.equal($0.rawValue, bytes[raw]) }
    }

    package func name(equalTo raw: Range<Int>, in bytes: UnsafeRawBufferPointer) -> String? {
        names.first { Self.equal($0, bytes[raw]) }
    }

    package mutating func remember(_ origin: PeerID) {
        remember(origin, in: &origins)
    }

    package mutating func remember(_ name: String) {
        // Names of up to 15 UTF-8 bytes are stored inline by `String`; only longer ones allocate.
        if name.utf8.count > 15 { remember(name, in: &names) }
    }

    private func remember<Value>(_ value: Value, in values: inout [Value]) {
        if values.count == capacity { values.removeLast() }
        values.insert(value, at: 0)
    }

    private static func equal(_ text: String, _ bytes: Slice<UnsafeRawBufferPointer>) -> Bool {
        guard text.utf8.count == bytes.count else { return false }
        return text.utf8.withContiguousStorageIfAvailable { utf8 in
            bytesEqual(UnsafeRawBufferPointer(utf8), UnsafeRawBufferPointer(rebasing: bytes))
        } ?? false
    }
}

/// Byte-wise equality, 8 bytes at a time. `elementsEqual` on buffer slices cost about 1,400
/// instructions an operation in the parser (callgrind); with this the whole parse of an operation
/// went from about 7,600 instructions to 6,100.
@inlinable
package func bytesEqual(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    guard a.count == b.count else { return false }
    var offset = 0
    while offset + 8 <= a.count {
        let left = a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        guard left == b.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
        offset += 8
    }
    while offset < a.count {
        guard a[offset] == b[offset] else { return false }
        offset += 1
    }
    return true
}
