import EkiKit
import Foundation

/// The files of a dataset published as several CSV files (station_database, ekidata), each in
/// one role (station, line, register, company…) recognised by its header: where to find them
/// in a folder or beside a station file, and how to plan the import of files given one by one.
/// A format declares its roles as data (`StationDatabaseImporter.fileSet`,
/// `EkidataImporter.fileSet`); the finding and planning are this type's.
public struct CSVFileSet: Sendable {
    /// One file of the set.
    public struct Role: Sendable {
        /// The role's name, the key of `Paths` (`station`, `line`, …).
        public var name: String
        /// How messages name the file: a file name (`line.csv`) or a description (`line file`).
        public var label: String
        /// The file's fixed name; nil when it is found by its header among a folder's `.csv`
        /// files (in name order), whatever it is called (ekidata's dated names).
        public var fileName: String?
        /// The start of its header as messages show it (`line_cd,company_cd,…`).
        public var headerHint: String?
        /// True when `header` is this file's header.
        public var matches: @Sendable (_ header: [String]) -> Bool
        /// Where it is looked for, relative to the folder of the station file (`.` that folder,
        /// `../src` …), in order.
        public var folders: [String]
        /// True when a folder is the dataset's only if it holds this file.
        public var marksFolder: Bool

        public init(_ name: String, label: String, fileName: String? = nil, headerHint: String? = nil,
                    folders: [String] = ["."], marksFolder: Bool = false,
                    matches: @escaping @Sendable (_ header: [String]) -> Bool) {
            self.name = name
            self.label = label
            self.fileName = fileName
            self.headerHint = headerHint
            self.matches = matches
            self.folders = folders
            self.marksFolder = marksFolder
        }

        /// `station.csv`, or `the station file`.
        var definite: String { fileName != nil ? label : "the " + label }
    }

    /// The paths of one dataset's files, by role name.
    public struct Paths: Sendable, Equatable {
        public var byRole: [String: String]
        public init(_ byRole: [String: String]) { self.byRole = byRole }
        /// The path of the file in role `name`.
        public subscript(_ name: String) -> String { byRole[name]! }
    }

    /// The dataset as messages name it (`station_database`, `ekidata`).
    public var title: String
    /// The files; the first is the station file, which every import starts from. A header is
    /// matched against them in this order.
    public var roles: [Role]

    public init(title: String, roles: [Role]) {
        precondition(!roles.isEmpty, "a file set has a station file")
        self.title = title
        self.roles = roles
    }

    /// The station file's role.
    public var main: Role { roles[0] }

    /// The role whose header `header` is, or nil.
    public func role(forHeader header: [String]) -> Role? {
        roles.first { $0.matches(header) }
    }

    /// Yes for a folder holding every file that marks the dataset's folders, or for a file with
    /// one of the roles' headers; no otherwise.
    public func identify(_ input: ImportInput) -> Identification {
        if input.isDirectory {
            return roles.filter(\.marksFolder).allSatisfy { find($0, from: input.path, in: ["."]) != nil } ? .yes : .no
        }
        guard let header = input.csvHeader(encoding: nil) else { return .no }
        return role(forHeader: header) != nil ? .yes : .no
    }

    /// The files of one dataset: from `path`, a folder holding the station file or the station
    /// file itself; a file named in `given` (by role name) is taken as it is, the others are
    /// looked for (`Role.folders`, from the station file's folder).
    /// - Throws: `ImportError` naming the file that cannot be found and where it was looked for.
    public func paths(_ path: String, given: [String: String] = [:]) throws(ImportError) -> Paths {
        var isDir: ObjCBool = false
        let isFolder = FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
        let dir = isFolder ? path : (path as NSString).deletingLastPathComponent
        let base = dir.isEmpty ? "." : dir
        var found = given
        if !isFolder { found[main.name] = path }
        for role in roles where found[role.name] == nil {
            guard let p = find(role, from: base, in: role.folders) else {
                let looked = role.folders.map { $0 == "." ? base : base + "/" + $0 }
                throw ImportError(file: role.fileName.map { (base as NSString).appendingPathComponent($0) } ?? base,
                                  message: "\(title) needs \(role.definite)\(role.headerHint.map { ", header \($0)" } ?? "")"
                                    + " (looked in \(looked.joined(separator: ", ")))")
            }
            found[role.name] = p
        }
        return Paths(found)
    }

    /// The imports of `inputs` given to the format together, in order: a folder is one dataset;
    /// a station file is one with the files of the other roles given with it (the one in its
    /// folder, else the only one given) and the rest looked for beside it; a file of another
    /// role goes with the station files given, and alone is an error. Inputs naming the same
    /// station file are read once. A file whose header is no role's is taken as a station file
    /// (chosen with `--profile`: its importer says what is wrong).
    /// - Parameter importer: makes the importer of one dataset's files.
    /// - Throws: `ImportError` for a file of another role given without a station file, or a
    ///   file that cannot be found; what `importer` throws.
    public func plan(_ inputs: [ImportInput], encoding: TextEncoding?, format: String,
                     importer: (Paths) throws -> any StationImporter) throws -> [PlannedImport] {
        let roled = inputs.map { i in
            (input: i, role: i.isDirectory ? nil : i.csvHeader(encoding: encoding).flatMap(role(forHeader:))?.name)
        }
        func folder(_ i: ImportInput) -> String { (i.path as NSString).deletingLastPathComponent }
        /// The file of `role` given for `station`: the one in its folder, else the only one given.
        func companion(_ role: String, of station: ImportInput) -> String? {
            let given = roled.filter { $0.role == role }.map(\.input)
            return (given.first { folder($0) == folder(station) } ?? (given.count == 1 ? given[0] : nil))?.path
        }
        let hasStation = roled.contains { $0.role == main.name }
        var planned: [PlannedImport] = []
        var seen = Set<String>()
        for (input, role) in roled {
            let files: Paths
            if input.isDirectory {
                files = try paths(input.path)
            } else if role == main.name || role == nil {
                var given: [String: String] = [:]
                for r in roles.dropFirst() { given[r.name] = companion(r.name, of: input) }
                files = try paths(input.path, given: given)
            } else {
                guard hasStation else {
                    let label = roles.first { $0.name == role }!.label
                    throw ImportError(file: input.displayName, message: "this is \(title)'s \(label): give \(main.definite) (or its folder) with it")
                }
                continue
            }
            if seen.insert(files[main.name]).inserted {
                planned.append(PlannedImport(input: input, format: format, importer: try importer(files)))
            }
        }
        return planned
    }

    /// The file of `role` in the first of `folders` (relative to `base`) that has it: by its
    /// fixed name, else the first `.csv` file whose header is the role's.
    private func find(_ role: Role, from base: String, in folders: [String]) -> String? {
        for f in folders {
            let dir = f == "." ? base : base + "/" + f
            if let name = role.fileName {
                let p = (dir as NSString).appendingPathComponent(name)
                if FileManager.default.fileExists(atPath: p) { return p }
                continue
            }
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [])
                .filter { $0.lowercased().hasSuffix(".csv") }.sorted()
            for n in names {
                let p = (dir as NSString).appendingPathComponent(n)
                if let header = (try? ImportInput(p))?.csvHeader(encoding: nil), role.matches(header) { return p }
            }
        }
        return nil
    }
}

/// An importer of a `CSVFileSet` dataset: it declares its files and reads them.
public protocol CSVFileSetImporter: StationImporter, Sendable {
    /// The dataset's files.
    static var fileSet: CSVFileSet { get }
    /// The importer of one dataset's files.
    init(files: CSVFileSet.Paths, encoding: TextEncoding?)
    /// The text encoding of the files; nil detects it.
    var encoding: TextEncoding? { get }
    /// Skip station rows without a usable position or name (`--skip-invalid`).
    var skipInvalid: Bool { get set }
    /// The longest field and line read (`--max-field-bytes`, `--max-line-bytes`).
    var limits: CSVLimits { get set }
}

extension CSVFileSetImporter {
    /// The dataset at `path`: a folder holding the station file, or the station file with the
    /// others beside it (`CSVFileSet.paths`).
    /// - Throws: `ImportError` when a file cannot be found.
    public init(path: String, encoding: TextEncoding? = nil) throws(ImportError) {
        self.init(files: try Self.fileSet.paths(path), encoding: encoding)
    }

    /// The importer with `options`' `--skip-invalid` and CSV limits.
    init(files: CSVFileSet.Paths, options: ImportOptions) {
        self.init(files: files, encoding: options.encoding)
        skipInvalid = options.skipInvalid
        limits = options.limits.csv
    }

    /// The file at `path` opened for reading row by row, within `limits`.
    func table(_ path: String) throws(ImportError) -> CSVTable {
        try CSVInput.table(path: path, encoding: encoding, maxFieldBytes: limits.maxFieldBytes, maxLineBytes: limits.maxLineBytes)
    }
}

/// The format of a `CSVFileSet` dataset: identifying and planning are the file set's.
public protocol CSVFileSetFormat: ImportFormat {
    associatedtype Importer: CSVFileSetImporter
}

extension CSVFileSetFormat {
    public func identify(_ input: ImportInput) -> Identification { Importer.fileSet.identify(input) }

    public func importer(for input: ImportInput, options: ImportOptions) throws -> any StationImporter {
        Importer(files: try Importer.fileSet.paths(input.path), options: options)
    }

    public func importers(for inputs: [ImportInput], options: ImportOptions) throws -> [PlannedImport] {
        try Importer.fileSet.plan(inputs, encoding: options.encoding, format: name) { Importer(files: $0, options: options) }
    }
}
