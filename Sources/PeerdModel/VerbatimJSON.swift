/// The canonical JSON of an operation that holds what this version does not know: a field it has no
/// name for (at any depth), or a kind (`op`) it does not know. The operation is hashed, signed,
/// stored and relayed in this form, byte for byte as its origin made it, so a peer of an older version
/// verifies and passes on what a newer one wrote (proto/PEER.md, "Operations can grow").
///
/// Operations this version knows entirely carry none: their canonical form is written from their
/// fields (PeerdCodec's `OperationJSON`), which keeps the common case small and fast.
package struct VerbatimJSON: Hashable, Sendable {
    /// The canonical JSON, `sig` included.
    package let bytes: [UInt8]

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }
}
