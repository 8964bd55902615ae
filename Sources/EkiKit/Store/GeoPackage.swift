import EkiSQLite

/// GeoPackage 1.3 plumbing (OGC 12-128r18): the required metadata tables, the geometry blob
/// for points (header `GP`, version 0, flags, srs_id, then WKB), and the SQL functions
/// ST_MinX/ST_MaxX/ST_MinY/ST_MaxY/ST_IsEmpty that the R-tree extension's triggers call.
public enum GeoPackage {
    /// `PRAGMA application_id` of a GeoPackage: ASCII "GPKG".
    public static let applicationID: Int32 = 0x4750_4B47
    /// `PRAGMA user_version` of GeoPackage 1.3.0.
    public static let userVersion: Int32 = 10300

    /// The standard point blob: little-endian, no envelope, srs_id 4326, WKB Point(x=lon, y=lat).
    /// 29 bytes.
    public static func pointBlob(lon: Double, lat: Double, srsID: Int32 = 4326) -> [UInt8] {
        var b: [UInt8] = [0x47, 0x50, 0x00, 0x01]
        withUnsafeBytes(of: srsID.littleEndian) { b.append(contentsOf: $0) }
        b.append(0x01)
        withUnsafeBytes(of: UInt32(1).littleEndian) { b.append(contentsOf: $0) }
        withUnsafeBytes(of: lon.bitPattern.littleEndian) { b.append(contentsOf: $0) }
        withUnsafeBytes(of: lat.bitPattern.littleEndian) { b.append(contentsOf: $0) }
        return b
    }

    /// The (x, y) of a GeoPackage point blob; nil for empty, non-point or malformed blobs.
    /// Accepts either byte order and any envelope type.
    public static func point(fromBlob p: UnsafeRawBufferPointer) -> (x: Double, y: Double)? {
        guard p.count >= 8, p[0] == 0x47, p[1] == 0x50 else { return nil }
        let flags = p[3]
        if flags & 0x10 != 0 { return nil }                       // empty geometry
        let envelopeSizes = [0, 32, 48, 48, 64]
        let envType = Int((flags >> 1) & 0x07)
        guard envType < envelopeSizes.count else { return nil }
        let wkb = 8 + envelopeSizes[envType]
        guard p.count >= wkb + 21 else { return nil }
        let little = p[wkb] == 1
        func u32(_ o: Int) -> UInt32 {
            let v = p.loadUnaligned(fromByteOffset: o, as: UInt32.self)
            return little ? UInt32(littleEndian: v) : UInt32(bigEndian: v)
        }
        func f64(_ o: Int) -> Double {
            let v = p.loadUnaligned(fromByteOffset: o, as: UInt64.self)
            return Double(bitPattern: little ? UInt64(littleEndian: v) : UInt64(bigEndian: v))
        }
        let type = u32(wkb + 1) % 1000
        guard type == 1 else { return nil }
        let x = f64(wkb + 5), y = f64(wkb + 13)
        if x.isNaN || y.isNaN { return nil }
        return (x, y)
    }

    /// Registers ST_MinX, ST_MaxX, ST_MinY, ST_MaxY and ST_IsEmpty on a connection (points only;
    /// other geometries give NULL), so the gpkg_rtree_index triggers work in this process.
    static func registerFunctions(_ db: Database) throws {
        for (name, axis) in [("ST_MinX", 0), ("ST_MaxX", 0), ("ST_MinY", 1), ("ST_MaxY", 1)] {
            try db.createFunction(name) { blob in
                guard let blob, let p = GeoPackage.point(fromBlob: blob) else { return .null }
                return .double(axis == 0 ? p.x : p.y)
            }
        }
        try db.createFunction("ST_IsEmpty") { blob in
            guard let blob else { return .int(1) }
            return .int(blob.count >= 4 && blob[3] & 0x10 == 0 ? 0 : 1)
        }
    }

    /// The names of the triggers `rtreeTriggers` creates.
    static func rtreeTriggerNames(table t: String, column c: String) -> [String] {
        ["insert", "update1", "update2", "update3", "update4", "delete"].map { "rtree_\(t)_\(c)_\($0)" }
    }

    /// The GeoPackage 1.3 R-tree extension triggers (spec annex F.3) for `table`.`column` with
    /// primary key `idColumn`.
    static func rtreeTriggers(table t: String, column c: String, idColumn i: String) -> String {
        let r = "rtree_\(t)_\(c)"
        let values = "NEW.\(i), ST_MinX(NEW.\(c)), ST_MaxX(NEW.\(c)), ST_MinY(NEW.\(c)), ST_MaxY(NEW.\(c))"
        return """
        CREATE TRIGGER \(r)_insert AFTER INSERT ON \(t)
          WHEN (new.\(c) NOT NULL AND NOT ST_IsEmpty(NEW.\(c)))
        BEGIN INSERT OR REPLACE INTO \(r) VALUES (\(values)); END;
        CREATE TRIGGER \(r)_update1 AFTER UPDATE OF \(c) ON \(t)
          WHEN OLD.\(i) = NEW.\(i) AND (NEW.\(c) NOTNULL AND NOT ST_IsEmpty(NEW.\(c)))
        BEGIN INSERT OR REPLACE INTO \(r) VALUES (\(values)); END;
        CREATE TRIGGER \(r)_update2 AFTER UPDATE OF \(c) ON \(t)
          WHEN OLD.\(i) = NEW.\(i) AND (NEW.\(c) ISNULL OR ST_IsEmpty(NEW.\(c)))
        BEGIN DELETE FROM \(r) WHERE id = OLD.\(i); END;
        CREATE TRIGGER \(r)_update3 AFTER UPDATE ON \(t)
          WHEN OLD.\(i) != NEW.\(i) AND (NEW.\(c) NOTNULL AND NOT ST_IsEmpty(NEW.\(c)))
        BEGIN DELETE FROM \(r) WHERE id = OLD.\(i); INSERT OR REPLACE INTO \(r) VALUES (\(values)); END;
        CREATE TRIGGER \(r)_update4 AFTER UPDATE ON \(t)
          WHEN OLD.\(i) != NEW.\(i) AND (NEW.\(c) ISNULL OR ST_IsEmpty(NEW.\(c)))
        BEGIN DELETE FROM \(r) WHERE id IN (OLD.\(i), NEW.\(i)); END;
        CREATE TRIGGER \(r)_delete AFTER DELETE ON \(t)
          WHEN old.\(c) NOT NULL
        BEGIN DELETE FROM \(r) WHERE id = OLD.\(i); END;
        """
    }
}
