import Foundation

/// An `OSMByteStream` read ahead on a thread of its own, so that decompressing gzip or bzip2
/// overlaps with parsing on the caller's thread. At most `depth` chunks of `chunkSize` bytes
/// are held; a read error reaches the caller after the chunks read before it, as without
/// reading ahead. Used for compressed regular files only: a read from a file never blocks, so
/// stopping early (an error, a later pass that ends at the first way) never waits for input.
///
/// Thread-safety: the stream is used by the reading thread only, once it has started; the
/// chunk lists and flags are guarded by `condition`.
final class OSMReadAhead: OSMByteSource {
    static let chunkSize = 1 << 20
    static let depth = 3

    private let shared: Shared
    // The caller's side: the chunk being handed out.
    private var current: (buffer: UnsafeMutableRawPointer, count: Int)?
    private var offset = 0
    private var atEnd = false

    init(_ stream: OSMByteStream) {
        shared = Shared(stream)
        let thread = Thread { [shared] in shared.readAhead() }
        thread.name = "eki-osm-read"
        thread.start()
    }

    deinit {
        shared.stop()
        current?.buffer.deallocate()
    }

    func read(into dst: UnsafeMutableRawPointer, capacity: Int) throws -> Int {
        if atEnd { return 0 }
        if let c = current, offset == c.count {
            shared.giveBack(c.buffer)
            current = nil
        }
        if current == nil {
            current = try shared.next()
            offset = 0
            if current!.count == 0 {
                atEnd = true
                return 0
            }
        }
        let c = current!
        let n = min(capacity, c.count - offset)
        dst.copyMemory(from: c.buffer + offset, byteCount: n)
        offset += n
        return n
    }

    /// What the reading thread and the caller share (the thread holds it, not the handle, so
    /// that the handle's deinit can stop the thread).
    private final class Shared: @unchecked Sendable {
        private let stream: OSMByteStream
        private let condition = NSCondition()
        /// Chunks read, in order; a count of 0 is the end of the input.
        private var ready: [(buffer: UnsafeMutableRawPointer, count: Int)] = []
        private var spare: [UnsafeMutableRawPointer] = []
        private var failure: (any Error)?
        private var cancelled = false
        private var readerDone = false

        init(_ stream: OSMByteStream) {
            self.stream = stream
            for _ in 0..<OSMReadAhead.depth {
                spare.append(.allocate(byteCount: OSMReadAhead.chunkSize, alignment: 16))
            }
        }

        /// Stops the thread, waiting for a read in progress, and frees the chunks it holds.
        func stop() {
            condition.lock()
            cancelled = true
            condition.broadcast()
            while !readerDone { condition.wait() }
            for b in spare { b.deallocate() }
            for c in ready { c.buffer.deallocate() }
            spare = []
            ready = []
            condition.unlock()
        }

        /// The next chunk read, waiting for it; the read error once the chunks before it are taken.
        func next() throws -> (buffer: UnsafeMutableRawPointer, count: Int) {
            condition.lock()
            defer { condition.unlock() }
            while ready.isEmpty && failure == nil { condition.wait() }
            if ready.isEmpty, let failure { throw failure }
            return ready.removeFirst()
        }

        func giveBack(_ buffer: UnsafeMutableRawPointer) {
            condition.lock()
            spare.append(buffer)
            condition.broadcast()
            condition.unlock()
        }

        /// The reading thread's loop.
        func readAhead() {
            while true {
                condition.lock()
                while spare.isEmpty && !cancelled { condition.wait() }
                if cancelled {
                    readerDone = true
                    condition.broadcast()
                    condition.unlock()
                    return
                }
                let buffer = spare.removeLast()
                condition.unlock()
                let n: Int
                do {
                    n = try stream.read(into: buffer, capacity: OSMReadAhead.chunkSize)
                } catch {
                    condition.lock()
                    spare.append(buffer)
                    failure = error
                    readerDone = true
                    condition.broadcast()
                    condition.unlock()
                    return
                }
                condition.lock()
                ready.append((buffer, n))
                if n == 0 { readerDone = true }
                condition.broadcast()
                condition.unlock()
                if n == 0 { return }
            }
        }
    }
}
