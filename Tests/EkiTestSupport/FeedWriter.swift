import Foundation

/// Writes a small GTFS feed into `folder`: one agency, one rail route, one trip calling at S1;
/// `stops` is the whole of stops.txt.
public func writeFeed(_ folder: String, stops: String) throws {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let files = [
        "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Test,https://example.org,Asia/Tokyo\n",
        "routes.txt": "route_id,agency_id,route_long_name,route_type\nR,A,本線,2\n",
        "trips.txt": "route_id,service_id,trip_id\nR,S,T\n",
        "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT,6:00:00,6:00:00,S1,1\n",
        "stops.txt": stops,
    ]
    for (name, text) in files { try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8) }
}

/// Zips the files of `folder` into `zip` (deflate, at the root) with python3's zipfile.
public func zipFolder(_ folder: String, into zip: String) throws {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["python3", "-c", """
        import os, sys, zipfile
        src, out = sys.argv[1], sys.argv[2]
        with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as z:
            for name in sorted(os.listdir(src)):
                z.write(os.path.join(src, name), name)
        """, folder, zip]
    try p.run()
    p.waitUntilExit()
    guard p.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
}
