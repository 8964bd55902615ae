import EkiImport
import EkiKit
import Foundation
import Testing

/// Hostile and broken input: every case is an `ImportError` naming file, line and column.
@Suite("OSM import: refused and malformed input")
struct OSMBadInputTests {
    func error(reading name: String) throws -> ImportError {
        let path = OSMTestSupport.fixture(name)
        let error = try #require(throws: ImportError.self) { try OSMImporter(path: path).read() }
        #expect(error.file == path)
        return error
    }

    @Test("Billion laughs: the DOCTYPE with entity declarations is refused before any expansion")
    func billionLaughs() throws {
        let e = try error(reading: "bad-doctype-billion-laughs.osm")
        #expect(e.line == 2)
        #expect(e.column == 15)  // expat reports the DOCTYPE at its `[`
        #expect(e.message.hasPrefix("refused: the DOCTYPE has an internal subset"))
    }

    @Test("XXE: an external entity declared in the DOCTYPE is refused, nothing is read")
    func externalEntity() throws {
        let e = try error(reading: "bad-doctype-xxe-file.osm")
        #expect(e.line == 2)
        #expect(e.message.hasPrefix("refused: the DOCTYPE has an internal subset"))
        #expect(!e.description.contains("root:"))  // no /etc/passwd content anywhere
    }

    @Test("A DOCTYPE naming an external DTD is refused")
    func externalDTD() throws {
        let e = try error(reading: "bad-doctype-external-dtd.osm")
        #expect(e.line == 2)
        #expect(e.message.hasPrefix("refused: the DOCTYPE refers to an external DTD"))
    }

    @Test("Truncated XML: expat's error at the end of the data")
    func truncated() throws {
        let e = try error(reading: "bad-truncated-in-node-n2.osm")
        #expect(e.line == 8)
        #expect(e.column == 5)
        #expect(e.message == "malformed or truncated XML: unclosed token")
    }

    @Test("Wrong root element (osmChange) is refused")
    func wrongRoot() throws {
        let e = try error(reading: "bad-root-osmchange.osm")
        #expect(e.line == 2)
        #expect(e.column == 1)
        #expect(e.message.hasPrefix("the root element is <osmChange>, not <osm>"))
    }

    @Test("OSM XML version other than 0.6 is refused")
    func wrongVersion() throws {
        let e = try error(reading: "bad-version-0.5.osm")
        #expect(e.line == 2)
        #expect(e.field == "version")
        #expect(e.message == "OSM XML version 0.5 is not supported (0.6 expected)")
    }

    @Test("A non-numeric latitude names the node's line, column and field")
    func badCoordinate() throws {
        let e = try error(reading: "bad-coordinate-lat-not-numeric.osm")
        #expect(e.line == 4)
        #expect(e.column == 3)
        #expect(e.field == "lat")
        #expect(e.message == "'35,27086' is not a number")
        #expect(e.description.hasSuffix("bad-coordinate-lat-not-numeric.osm:4:3: lat: '35,27086' is not a number"))
    }

    @Test("An Overpass remark reporting a runtime error is an error, not a partial import")
    func overpassRuntimeError() throws {
        let e = try error(reading: "bad-overpass-runtime-error-remark.osm")
        #expect(e.line == 10)
        #expect(e.field == "remark")
        #expect(e.message.contains("runtime error: Query timed out in \"query\" at line 3 after 26 seconds."))
    }

    @Test("Other bad values", arguments: [
        ("<node id=\"1\" lat=\"91\" lon=\"139\"/>", "lat", "91.0 is outside -90...90"),
        ("<node id=\"1\" lat=\"35\" lon=\"nan\"/>", "lon", "'nan' is not a number"),
        ("<node id=\"1\" lat=\"35\" lon=\"0x1p3\"/>", "lon", "'0x1p3' is not a number"),
        ("<node id=\"1\" lat=\"35\"/>", "lon", "lat without lon"),
        ("<node id=\"x1\" lat=\"35\" lon=\"139\"/>", "id", "id 'x1' is not an integer"),
        ("<way id=\"1\"><nd ref=\"\"/></way>", "ref", "<nd> ref '' is not an integer"),
        ("<relation id=\"1\"><member type=\"area\" ref=\"2\" role=\"\"/></relation>", "type",
         "<member> type must be node, way or relation"),
    ])
    func badValues(element: String, field: String, message: String) throws {
        let xml = "<?xml version=\"1.0\"?>\n<osm version=\"0.6\">\n  \(element)\n</osm>\n"
        let e = try #require(throws: ImportError.self) { try OSMTestSupport.importXML(xml) }
        #expect(e.line == 3)
        #expect(e.field == field)
        #expect(e.message == message)
    }

    @Test("Empty, non-XML and missing files")
    func notXML() throws {
        let empty = try #require(throws: ImportError.self) { try OSMTestSupport.importXML("") }
        #expect(empty.message == "malformed or truncated XML: no element found")
        let text = try #require(throws: ImportError.self) { try OSMTestSupport.importXML("name,lat,lon\n") }
        #expect(text.line == 1 && text.column == 1)
        let missing = try #require(throws: ImportError.self) { try OSMImporter(path: "/nonexistent/x.osm").read() }
        #expect(missing.message == "cannot open: No such file or directory")
    }
}
