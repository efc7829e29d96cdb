extension AsyncStream {
    /// The next element, or nil when the stream ended.
    func first() async -> Element? {
        var iterator = makeAsyncIterator()
        return await iterator.next()
    }
}
