import Foundation
import Testing
import EkiTestSupport

/// Every relative link of README.md and docs/*.md reaches a file, and its `#anchor` a heading of
/// that file as GitHub names it (lower case; punctuation other than `-` and `_` dropped; spaces
/// as `-`; a repeated heading gets `-1`, `-2` …). Links into code blocks are not links.
@Suite struct DocsLinkTests {
    @Test("links from the README and between the docs/ pages resolve")
    func linksResolve() throws {
        let docs = try FileManager.default.contentsOfDirectory(atPath: TestPaths.package("docs"))
            .filter { $0.hasSuffix(".md") }.sorted()
        let pages = ["README.md"] + docs.map { "docs/" + $0 }
        var broken: [String] = []
        var links = 0
        for page in pages {
            let folder = (page as NSString).deletingLastPathComponent
            for line in try Self.prose(TestPaths.package(page)) {
                for target in Self.targets(line) where !Self.hasScheme(target) {
                    links += 1
                    let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                    let file = parts[0].isEmpty ? page : ((folder as NSString).appendingPathComponent(String(parts[0])) as NSString).standardizingPath
                    guard FileManager.default.fileExists(atPath: TestPaths.package(file)) else {
                        broken.append("\(page): \(target): no such file"); continue
                    }
                    if parts.count == 2, try !Self.anchors(TestPaths.package(file)).contains(String(parts[1])) {
                        broken.append("\(page): \(target): no such heading")
                    }
                }
            }
        }
        #expect(links > 100, "only \(links) links found in \(pages)")
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
    }

    /// The lines outside fenced code blocks.
    static func prose(_ path: String) throws -> [String] {
        var fenced = false
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .compactMap { line in
                if line.hasPrefix("```") { fenced.toggle(); return nil }
                return fenced ? nil : String(line)
            }
    }

    /// The targets of `[text](target)` on a line.
    static func targets(_ line: String) -> [String] {
        line.components(separatedBy: "](").dropFirst().compactMap { rest in
            rest.firstIndex(of: ")").map { String(rest[..<$0]) }
        }
    }

    static func hasScheme(_ target: String) -> Bool {
        guard let colon = target.firstIndex(of: ":") else { return false }
        return target[..<colon].allSatisfy { $0.isLetter && $0.isASCII }
    }

    /// The anchors of a page's headings.
    static func anchors(_ path: String) throws -> Set<String> {
        var seen: [String: Int] = [:]
        var result = Set<String>()
        for line in try prose(path) where line.hasPrefix("#") {
            let hashes = line.prefix { $0 == "#" }
            guard hashes.count <= 6, line.dropFirst(hashes.count).hasPrefix(" ") else { continue }
            let slug = Self.slug(String(line.dropFirst(hashes.count + 1)))
            let n = seen[slug, default: 0]
            seen[slug] = n + 1
            result.insert(n == 0 ? slug : "\(slug)-\(n)")
        }
        return result
    }

    /// GitHub's anchor of a heading's text (a link in it counts by its text).
    static func slug(_ heading: String) -> String {
        var text = heading
        while let open = text.range(of: "]("), let close = text[open.upperBound...].firstIndex(of: ")") {
            text.removeSubrange(open.lowerBound...close)
        }
        let kept = text.trimmingCharacters(in: .whitespaces).lowercased().unicodeScalars.filter {
            $0.properties.isAlphabetic || $0.properties.numericType != nil || "-_ ".unicodeScalars.contains($0)
        }
        return String(String.UnicodeScalarView(kept)).replacingOccurrences(of: " ", with: "-")
    }
}
