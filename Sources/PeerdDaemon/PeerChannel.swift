import NIOCore
import PeerdWire

/// The pipeline every peer and control connection gets: frames in, frames out.
enum PeerChannel {
    static func wrap(_ channel: any Channel) throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(FrameDecoder()))
        try channel.pipeline.syncOperations.addHandler(MessageToByteHandler(FrameEncoder()))
        return try NIOAsyncChannel(wrappingChannelSynchronously: channel)
    }
}
