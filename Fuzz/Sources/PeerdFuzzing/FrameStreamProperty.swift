import NIOCore
import PeerdWire

/// What must hold for any byte stream cut into frames by `FrameDecoder.nextFrame(in:limit:)`.
///
/// The input is a whole byte stream, header included: it is split into frames at once and again
/// as if it arrived one byte at a time, under the real limit and under a small one, so the length
/// check meets lengths at, below and above its limit.
package enum FrameStreamProperty {
    /// A limit small enough that fuzzed headers land on both sides of it.
    static let smallLimit = 64

    /// Traps if splitting `bytes` breaks a property; returns normally for any stream, valid or not.
    package static func check(_ bytes: UnsafeRawBufferPointer) {
        for limit in [Frame.maxFrameLength, smallLimit] {
            let whole = split(bytes, limit: limit)
            let trickled = splitByteByByte(bytes, limit: limit)
            require(whole == trickled, "one byte at a time gave \(trickled), all at once \(whole)")

            var reframed = ByteBuffer()
            for body in whole.bodies {
                require((1...limit).contains(body.count), "a body of \(body.count) bytes under limit \(limit)")
                Frame.write(body, to: &reframed)
            }
            let consumed = Array(bytes.prefix(reframed.readableBytes))
            require(Array(reframed.readableBytesView) == consumed, "re-framing the bodies changed the bytes")
            require(whole.bodies.flatMap { Frame.bytes($0) } == consumed, "Frame.bytes and Frame.write differ")
        }
    }

    struct Split: Equatable, CustomStringConvertible {
        var bodies: [[UInt8]] = []
        var error: FrameError?

        var description: String { "\(bodies.map(\.count)) then \(error.map { "\($0)" } ?? "no error")" }
    }

    /// Every frame of `bytes`, read from one buffer holding all of them.
    static func split(_ bytes: UnsafeRawBufferPointer, limit: Int) -> Split {
        var buffer = ByteBuffer(bytes: bytes)
        var result = Split()
        do {
            while let body = try next(in: &buffer, limit: limit) { result.bodies.append(body) }
        } catch {
            result.error = error
        }
        return result
    }

    /// Every frame of `bytes`, offered to the decoder after each byte arrives.
    static func splitByteByByte(_ bytes: UnsafeRawBufferPointer, limit: Int) -> Split {
        var buffer = ByteBuffer()
        var result = Split()
        do {
            for byte in bytes {
                buffer.writeInteger(byte)
                while let body = try next(in: &buffer, limit: limit) { result.bodies.append(body) }
            }
        } catch {
            result.error = error
        }
        return result
    }

    /// `nextFrame`, checking that it consumes nothing when it returns nil or throws, and exactly the
    /// header and body when it returns one.
    static func next(in buffer: inout ByteBuffer, limit: Int) throws(FrameError) -> [UInt8]? {
        let before = buffer.readerIndex
        let body: ByteBuffer?
        do {
            body = try FrameDecoder.nextFrame(in: &buffer, limit: limit)
        } catch {
            require(buffer.readerIndex == before, "a refused frame consumed bytes")
            throw error
        }
        guard let body else {
            require(buffer.readerIndex == before, "an incomplete frame consumed bytes")
            return nil
        }
        require(buffer.readerIndex == before + Frame.headerLength + body.readableBytes, "consumed the wrong count")
        return Array(body.readableBytesView)
    }
}
