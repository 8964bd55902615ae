import CCompression
import Foundation

/// Bytes of OSM XML text handed to expat in chunks: a whole input (`OSMByteStream`) or one
/// part of a file (`OSMFilePart`).
protocol OSMByteSource {
    /// Fills up to `capacity` bytes at `dst`.
    /// - Returns: the number of bytes written; 0 only at the end.
    func read(into dst: UnsafeMutableRawPointer, capacity: Int) throws -> Int
}

/// The bytes of one OSM XML input (a file or stdin), decompressed on the fly.
///
/// Compression is recognised by its magic bytes, not by the file name: gzip (`1f 8b`, zlib,
/// concatenated members allowed) and bzip2 (`BZh`, libbz2, concatenated streams allowed);
/// anything else is passed through unchanged. Reading is streamed in fixed-size chunks, so
/// memory does not depend on the input size.
///
/// Not thread-safe: one stream belongs to one parse.
final class OSMByteStream: OSMByteSource {
    enum Compression: String { case none, gzip, bzip2 }

    /// The name used in errors: the path as given, or `<stdin>`.
    let displayName: String
    private(set) var compression: Compression = .none
    /// Bytes read from the file or pipe so far (compressed size when compressed).
    private(set) var rawBytesRead = 0
    /// Bytes of text the decompressor has given so far (for saying how far a truncated file got).
    private(set) var decodedBytes = 0

    private let fd: Int32
    private let ownsFD: Bool
    /// When set, every raw byte read is also written here (to re-read a pipe in a later pass).
    private let teeFD: Int32?
    private let raw: UnsafeMutableRawBufferPointer
    private var rawStart = 0
    private var rawEnd = 0
    private var rawEOF = false
    private var zstream: UnsafeMutablePointer<z_stream>?
    private var bzstream: UnsafeMutablePointer<bz_stream>?
    /// True between the end of one gzip member / bzip2 stream and the start of the next.
    private var memberEnded = false

    static let rawChunk = 256 * 1024

    /// Opens `path` (`-` = stdin) and sniffs its compression.
    /// - Parameters:
    ///   - displayName: the name for errors (default: the path, or `<stdin>`).
    ///   - teeFD: a file descriptor that receives a copy of every raw byte read.
    /// - Throws: `ImportError` when the file cannot be opened or read, or the decoder fails to start.
    init(path: String, displayName: String? = nil, teeFD: Int32? = nil) throws {
        if path == "-" {
            self.displayName = displayName ?? "<stdin>"
            fd = STDIN_FILENO
            ownsFD = false
        } else {
            self.displayName = displayName ?? path
            fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                throw ImportError(file: self.displayName, message: "cannot open: \(String(cString: strerror(errno)))")
            }
            ownsFD = true
        }
        self.teeFD = teeFD
        raw = .allocate(byteCount: Self.rawChunk, alignment: 16)
        // Every stored property is set, so a throw from here on runs deinit, which cleans up
        // (cleaning up here as well freed the buffer twice).
        try sniff()
    }

    deinit { cleanUp() }

    private func cleanUp() {
        if let z = zstream {
            inflateEnd(z)
            z.deallocate()
            zstream = nil
        }
        if let b = bzstream {
            BZ2_bzDecompressEnd(b)
            b.deallocate()
            bzstream = nil
        }
        if ownsFD && fd >= 0 { close(fd) }
        raw.deallocate()
    }

    private func error(_ message: String) -> ImportError {
        ImportError(file: displayName, message: message)
    }

    /// Reads more raw bytes when the raw buffer is empty. Returns false at end of input.
    private func fillRaw() throws -> Bool {
        if rawStart < rawEnd { return true }
        if rawEOF { return false }
        rawStart = 0
        rawEnd = try readRaw(into: raw.baseAddress!, capacity: raw.count)
        return rawEnd > 0
    }

    /// One `read(2)`, retried on EINTR, copied to the tee when there is one.
    private func readRaw(into dst: UnsafeMutableRawPointer, capacity: Int) throws -> Int {
        var n: Int
        repeat { n = Glibc.read(fd, dst, capacity) } while n < 0 && errno == EINTR
        guard n >= 0 else { throw error("read failed: \(String(cString: strerror(errno)))") }
        if n == 0 { rawEOF = true }
        rawBytesRead += n
        if let teeFD, n > 0 {
            var done = 0
            while done < n {
                let w = write(teeFD, dst + done, n - done)
                if w < 0 && errno == EINTR { continue }
                guard w > 0 else { throw error("cannot write temporary copy: \(String(cString: strerror(errno)))") }
                done += w
            }
        }
        return n
    }

    /// Reads the first bytes and sets up the decoder their magic number calls for.
    private func sniff() throws {
        // Up to 3 bytes are needed; a short first read (pipe) is topped up.
        while rawEnd < 3 && !rawEOF {
            rawEnd += try readRaw(into: raw.baseAddress! + rawEnd, capacity: raw.count - rawEnd)
        }
        let b = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
        if rawEnd >= 2 && b[0] == 0x1f && b[1] == 0x8b {
            compression = .gzip
            let z = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
            z.initialize(to: z_stream())
            // 15 + 16: gzip wrapper only (the magic said so), maximum window.
            guard eki_inflate_init2(z, 15 + 16) == Z_OK else {
                z.deallocate()
                throw error("cannot start the gzip decoder")
            }
            zstream = z
        } else if rawEnd >= 3 && b[0] == 0x42 && b[1] == 0x5a && b[2] == 0x68 {  // "BZh"
            compression = .bzip2
            let s = UnsafeMutablePointer<bz_stream>.allocate(capacity: 1)
            s.initialize(to: bz_stream())
            guard BZ2_bzDecompressInit(s, 0, 0) == BZ_OK else {
                s.deallocate()
                throw error("cannot start the bzip2 decoder")
            }
            bzstream = s
        }
    }

    /// Fills up to `capacity` bytes at `dst` with decompressed data.
    /// - Returns: the number of bytes written; 0 only at the end of the input.
    /// - Throws: `ImportError` on read errors, corrupt or truncated compressed data.
    func read(into dst: UnsafeMutableRawPointer, capacity: Int) throws -> Int {
        switch compression {
        case .none:
            if rawStart < rawEnd {
                let n = min(capacity, rawEnd - rawStart)
                dst.copyMemory(from: raw.baseAddress! + rawStart, byteCount: n)
                rawStart += n
                return n
            }
            return rawEOF ? 0 : try readRaw(into: dst, capacity: capacity)
        case .gzip: return try inflateChunk(into: dst, capacity: capacity)
        case .bzip2: return try bunzipChunk(into: dst, capacity: capacity)
        }
    }

    /// At the end of a gzip member or bzip2 stream: true when another one follows.
    private func nextMemberFollows(magic: [UInt8]) throws -> Bool {
        while rawEnd - rawStart < magic.count {
            if rawEOF { break }
            // Keep the bytes already there and read behind them.
            if rawStart > 0 {
                let left = rawEnd - rawStart
                (raw.baseAddress!).copyMemory(from: raw.baseAddress! + rawStart, byteCount: left)
                rawStart = 0
                rawEnd = left
            }
            rawEnd += try readRaw(into: raw.baseAddress! + rawEnd, capacity: raw.count - rawEnd)
        }
        if rawStart == rawEnd { return false }
        let b = raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + rawStart
        guard rawEnd - rawStart >= magic.count, magic.indices.allSatisfy({ b[$0] == magic[$0] }) else {
            throw error("unexpected bytes after the end of the \(compression.rawValue) data")
        }
        return true
    }

    /// One decoder call on `count` raw bytes at `input`, writing at most `capacity` bytes of
    /// text at `output`: the raw bytes it consumed, the bytes it produced, and whether the gzip
    /// member or bzip2 stream ended.
    private typealias DecodeStep = (_ input: UnsafeMutableRawPointer, _ count: Int, _ output: UnsafeMutableRawPointer,
                                    _ capacity: Int) throws -> (consumed: Int, produced: Int, ended: Bool)

    /// The decoding loop gzip and bzip2 share: raw bytes fed to `step` until it produces text;
    /// at the end of a member, the next one (starting with `magic`) after `restart`, or the end.
    private func decodeChunk(into dst: UnsafeMutableRawPointer, capacity: Int, magic: [UInt8],
                             restart: () throws -> Void, step: DecodeStep) throws -> Int {
        while true {
            if memberEnded {
                guard try nextMemberFollows(magic: magic) else { return 0 }
                try restart()
                memberEnded = false
            }
            guard try fillRaw() else {
                throw error("truncated \(compression.rawValue) data: the stream ends after \(rawBytesRead) compressed bytes, \(decodedBytes) bytes of text read")
            }
            let r = try step(raw.baseAddress! + rawStart, rawEnd - rawStart, dst, capacity)
            rawStart += r.consumed
            if r.ended { memberEnded = true }
            if r.produced > 0 { decodedBytes += r.produced; return r.produced }
        }
    }

    private func inflateChunk(into dst: UnsafeMutableRawPointer, capacity: Int) throws -> Int {
        let z = zstream!
        return try decodeChunk(into: dst, capacity: capacity, magic: [0x1f, 0x8b], restart: {
            guard inflateReset(z) == Z_OK else { throw error("cannot restart the gzip decoder") }
        }) { input, count, output, space in
            z.pointee.next_in = input.assumingMemoryBound(to: Bytef.self)
            z.pointee.avail_in = uInt(count)
            z.pointee.next_out = output.assumingMemoryBound(to: Bytef.self)
            z.pointee.avail_out = uInt(space)
            let ret = inflate(z, Z_NO_FLUSH)
            guard ret == Z_STREAM_END || ret == Z_OK || ret == Z_BUF_ERROR else {
                throw error("corrupt gzip data: " + (z.pointee.msg.map { String(cString: $0) } ?? "error \(ret)"))
            }
            return (count - Int(z.pointee.avail_in), space - Int(z.pointee.avail_out), ret == Z_STREAM_END)
        }
    }

    private func bunzipChunk(into dst: UnsafeMutableRawPointer, capacity: Int) throws -> Int {
        let s = bzstream!
        return try decodeChunk(into: dst, capacity: capacity, magic: [0x42, 0x5a, 0x68], restart: {
            BZ2_bzDecompressEnd(s)
            s.initialize(to: bz_stream())
            guard BZ2_bzDecompressInit(s, 0, 0) == BZ_OK else { throw error("cannot restart the bzip2 decoder") }
        }) { input, count, output, space in
            s.pointee.next_in = input.assumingMemoryBound(to: CChar.self)
            s.pointee.avail_in = UInt32(count)
            s.pointee.next_out = output.assumingMemoryBound(to: CChar.self)
            s.pointee.avail_out = UInt32(space)
            let ret = BZ2_bzDecompress(s)
            guard ret == BZ_STREAM_END || ret == BZ_OK else { throw error("corrupt bzip2 data (libbz2 error \(ret))") }
            return (count - Int(s.pointee.avail_in), space - Int(s.pointee.avail_out), ret == BZ_STREAM_END)
        }
    }
}
