import EkiKit
import Foundation

/// Picks the importer for each input of `eki import`: every format identifies the input
/// (`yes`, `maybe`, `no`); the first `yes` in `formats` order wins, else the first `maybe`.
/// An explicit profile chooses the format instead. An input no format claims is refused with
/// the list of formats tried.
public struct ImporterRegistry: Sendable {
    /// The formats, most specific first (the generic CSV last: it takes any CSV).
    public let formats: [any ImportFormat]

    public init(formats: [any ImportFormat] = ImporterRegistry.builtIn) {
        self.formats = formats
    }

    /// The formats EkiImport reads.
    public static let builtIn: [any ImportFormat] = [
        N02Format(), StationDatabaseFormat(), EkidataFormat(), GTFSFormat(), OSMFormat(), GenericCSVFormat(),
    ]

    /// The profile names, in order (`n02`, `station-database`, …).
    public var names: [String] { formats.map(\.name) }

    /// The format named `name`, or nil.
    public func format(named name: String) -> (any ImportFormat)? {
        formats.first { $0.name == name }
    }

    /// For a folder no format claims (N02's download folder, a folder of downloads): the inputs
    /// in it or one folder down that a format claims for sure, to give instead, one per format
    /// (UTF-8 files first: `; give the file inside it: DIR/N02-23_Station.utf8.csv (n02)`), at
    /// most four; else, when it holds shapefiles, that they are not read. Empty when neither.
    func folderHint(_ folder: ImportInput) -> String {
        var claimed: [(path: String, format: String, utf8: Bool)] = [], shapefiles: [String] = []
        func scan(_ dir: String, _ names: [String], depth: Int) {
            for name in names where !name.hasPrefix(".") {
                let path = (dir as NSString).appendingPathComponent(name)
                if name.lowercased().hasSuffix(".shp") { shapefiles.append(path); continue }
                guard let input = try? ImportInput(path) else { continue }
                if let f = formats.first(where: { $0.identify(input) == .yes }) {
                    let n = name.lowercased()
                    claimed.append((path, f.name, !input.isDirectory && (n.contains("utf8") || n.contains("utf-8"))))
                } else if input.isDirectory, depth == 0 {
                    scan(path, input.entries, depth: 1)
                }
            }
        }
        scan(folder.path, folder.entries, depth: 0)
        var formatsSeen = Set<String>()
        let shown = claimed.enumerated().sorted { ($0.element.utf8 ? 0 : 1, $0.offset) < ($1.element.utf8 ? 0 : 1, $1.offset) }
            .map(\.element).filter { formatsSeen.insert($0.format).inserted }
            .prefix(4).map { "\($0.path) (\($0.format))" }
        if let last = shown.last {
            return shown.count == 1 ? "; give the file inside it: " + last
                : "; give one inside it: " + shown.dropLast().joined(separator: ", ") + " or " + last
        }
        if let shp = shapefiles.first {
            return "; shapefiles (\((shp as NSString).lastPathComponent)) are not read: give the GeoJSON (.geojson) of the same data"
        }
        return ""
    }

    /// The format for one input: the named profile, else the most certain format.
    /// - Throws: `ImportError` naming the input and the formats tried when none claims it;
    ///   `ImportOptionError` for an unknown profile, or for `--columns` with an input of a
    ///   format whose columns are known.
    public func format(for input: ImportInput, profile: String?, options: ImportOptions) throws -> any ImportFormat {
        let readers = formats.filter(\.capabilities.readsStandardInput)
        let stdin = readers.compactMap(\.capabilities.standardInput)
        if let profile {
            guard let f = format(named: profile) else {
                throw ImportOptionError("--profile must be one of \(names.joined(separator: ", ")), got '\(profile)'")
            }
            if input.isStandardInput && !f.capabilities.readsStandardInput {
                throw ImportError(file: input.displayName, message: "standard input is read as \(stdin.map(\.content).joined(separator: " or ")) only ("
                                  + readers.map { "--profile \($0.name)" }.joined(separator: " or ") + "); give a \(f.name) input as a file")
            }
            if options.columns != nil && !f.capabilities.takesColumnMap {
                throw ImportOptionError("--columns goes with the \(Self.columnMapProfiles(formats)) profile")
            }
            if options.skipInvalid, let refusal = f.capabilities.skipInvalidRefusal {
                throw ImportOptionError("--skip-invalid does not go with the \(f.name) profile (\(refusal.reason))")
            }
            return f
        }
        let candidates = input.isStandardInput ? readers : formats
        var best: (format: any ImportFormat, sureness: Identification)? = nil
        for f in candidates {
            let answer = f.identify(input)
            if answer > (best?.sureness ?? .no) { best = (f, answer) }
            if answer == .yes { break }
        }
        guard let chosen = best?.format else {
            let tried = candidates.map(\.name).joined(separator: ", ")
            if input.isStandardInput {
                throw ImportError(file: input.displayName, message: "not \(stdin.map(\.content).joined(separator: " or ")) (tried: \(tried); standard input is read as "
                                  + stdin.map(\.short).joined(separator: " or ") + " only, give other formats as files)")
            }
            throw ImportError(file: input.displayName, message: "no importer recognises this \(input.isDirectory ? "folder" : "file") (tried: \(tried))"
                              + (input.isDirectory ? folderHint(input) : ""))
        }
        if options.columns != nil && !chosen.capabilities.takesColumnMap {
            throw ImportOptionError("--columns goes with the \(Self.columnMapProfiles(formats)) profile, but \(input.displayName) is \(chosen.name) (its columns are known)")
        }
        if options.skipInvalid, let refusal = chosen.capabilities.skipInvalidRefusal {
            throw ImportOptionError("--skip-invalid does not go with \(refusal.input) input (\(input.displayName)): \(refusal.reason)")
        }
        return chosen
    }

    /// The profiles that take `--columns` (`generic`), for messages.
    private static func columnMapProfiles(_ formats: [any ImportFormat]) -> String {
        formats.filter(\.capabilities.takesColumnMap).map(\.name).joined(separator: " or ")
    }

    /// The importers for `inputs` (paths, `-` for stdin): each input identified (or the
    /// profile's format), then each format's inputs handed to it together, in the order of
    /// their first input.
    /// - Throws: `ImportError` for a missing or unrecognised input or a missing companion file;
    ///   `ImportOptionError` for options that do not fit.
    public func plan(_ inputs: [String], profile: String? = nil, options: ImportOptions) throws -> [PlannedImport] {
        var groups: [(format: any ImportFormat, inputs: [ImportInput])] = []
        for argument in inputs {
            let input = try ImportInput(argument)
            let f = try format(for: input, profile: profile, options: options)
            if let i = groups.firstIndex(where: { $0.format.name == f.name }) {
                groups[i].inputs.append(input)
            } else {
                groups.append((f, [input]))
            }
        }
        var planned: [PlannedImport] = []
        for g in groups { planned += try g.format.importers(for: g.inputs, options: options) }
        let position = { (p: PlannedImport) in inputs.firstIndex(of: p.input.argument) ?? 0 }
        return planned.enumerated().sorted { a, b in
            (position(a.element), a.offset) < (position(b.element), b.offset)
        }.map(\.element)
    }
}

extension ImportBatch {
    /// The batches with those of one dataset (several OSM extracts, say) joined into one, in
    /// the order each dataset first appears; warnings are kept.
    public static func merging(_ batches: [ImportBatch]) -> [ImportBatch] {
        var merged: [ImportBatch] = []
        for b in batches {
            if let i = merged.firstIndex(where: { $0.dataset == b.dataset }) {
                merged[i].records += b.records
                merged[i].warnings += b.warnings
                merged[i].warningsNotKept += b.warningsNotKept
                merged[i].skipped.count += b.skipped.count
                merged[i].skipped.first += b.skipped.first.prefix(SkippedRows.shown - merged[i].skipped.first.count)
                if let e = b.edition, e > (merged[i].edition ?? "") { merged[i].edition = e }
            } else {
                merged.append(b)
            }
        }
        return merged
    }
}
