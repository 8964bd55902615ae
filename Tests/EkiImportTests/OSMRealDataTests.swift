import EkiImport
import EkiKit
import EkiTestSupport
import Foundation
import Testing

/// The two JOSM files in ../shared/datasets (see their PROVENANCE.md). Skipped when absent.
@Suite("OSM import: real JOSM files")
struct OSMRealDataTests {
    @Test("Hokkaido: 376 railway=station + 24 tram_stop nodes give 400 entries",
          .needsShared(OSMTestSupport.hokkaidoFile))
    func hokkaidoEntries() throws {
        let batch = try OSMImporter(path: OSMTestSupport.hokkaido).read()
        #expect(batch.dataset == "osm")
        #expect(batch.records.count == 400)
        // The 24 tram stops carry JOSM's action='delete' (pending edit); read as osmium reads them.
        #expect(batch.warnings.map(\.message) == [
            "24 station(s) marked action=\"delete\" by JOSM were imported (the attribute is ignored, as osmium does)",
        ])
        // No operator tags and no relations: every row is operator-less, conventional, lineless.
        #expect(batch.records.allSatisfy { $0.operatorName == nil && $0.serviceClass == .conventional && $0.lines.isEmpty })
        #expect(batch.records.allSatisfy { $0.source.dataset == "osm" && $0.source.id.hasPrefix("node/") })
        #expect(Set(batch.records.map(\.source)).count == 400)
        let entries = EntryRule().entries(from: batch.records)
        #expect(entries.count == 400)
    }

    @Test("Hokkaido: 小樽 has reading おたる (name:ja_kana) and latin name Otaru (name:en)",
          .needsShared(OSMTestSupport.hokkaidoFile))
    func otaru() throws {
        let entries = EntryRule().entries(from: try OSMImporter(path: OSMTestSupport.hokkaido).read().records)
        let otaru = try #require(entries.first { $0.name == "小樽" })
        #expect(otaru.reading == "おたる")
        #expect(otaru.latinName == "Otaru")
        #expect(otaru.sources == [SourceRef(dataset: "osm", id: "node/-176889")])
        #expect(abs(otaru.coordinate.lat - 43.1975700845) < 1e-9)
        #expect(abs(otaru.coordinate.lon - 140.99349796236) < 1e-9)
        #expect(otaru.key == "-/c/小樽")
    }

    @Test("Hokkaido: 西線１６条 keeps its full-width digits and is found as 西線16条",
          .needsShared(OSMTestSupport.hokkaidoFile))
    func fullWidthDigits() throws {
        let entries = EntryRule().entries(from: try OSMImporter(path: OSMTestSupport.hokkaido).read().records)
        let stop = try #require(entries.first { TextFold.nameKey($0.name) == "西線16条" })
        #expect(stop.name == "西線１６条")
        #expect(stop.reading == "にしせんじゅうろくじょう")
        #expect(stop.key == "-/c/西線16条")
    }

    @Test("Hokkaido: name:ja_rm wins over name:en for the latin name",
          .needsShared(OSMTestSupport.hokkaidoFile))
    func romajiPrecedence() throws {
        let records = try OSMImporter(path: OSMTestSupport.hokkaido).read().records
        #expect(records.first { $0.name == "新千歳空港" }?.latinName == "Shin-Chitose-Kūkō")
        #expect(records.first { $0.name == "札幌" }?.latinName == "Sapporo")
    }

    @Test("Hokkaido: --operator fills the operator of every row",
          .needsShared(OSMTestSupport.hokkaidoFile))
    func operatorOverride() throws {
        let batch = try OSMImporter(path: OSMTestSupport.hokkaido, operatorOverride: "北海道旅客鉄道").read()
        #expect(batch.records.allSatisfy { $0.operatorName == "北海道旅客鉄道" })
        let entries = EntryRule().entries(from: batch.records)
        #expect(entries.count == 400)
        #expect(entries.contains { $0.key == "jr-hokkaido/c/小樽" })
    }

    @Test("Tokyo rail geometry (ways, no stations): 0 entries, no error",
          .needsShared(OSMTestSupport.tokyoRailGeoFile))
    func tokyoRailGeometry() throws {
        let batch = try OSMImporter(path: OSMTestSupport.tokyoRailGeo).read()
        #expect(batch.records.isEmpty)
        #expect(batch.warnings.isEmpty)
        #expect(EntryRule().entries(from: batch.records).isEmpty)
    }

    @Test("looksLikeOSM recognises both JOSM files and rejects other text",
          .needsShared(OSMTestSupport.hokkaidoFile, OSMTestSupport.tokyoRailGeoFile,
                       "datasets/osm-hokkaido-rail-josm/PROVENANCE.md"))
    func sniffing() throws {
        #expect(OSMImporter.looksLikeOSM(path: OSMTestSupport.hokkaido))
        #expect(OSMImporter.looksLikeOSM(path: OSMTestSupport.tokyoRailGeo))
        let provenance = TestPaths.requireShared("datasets/osm-hokkaido-rail-josm/PROVENANCE.md")
        #expect(!OSMImporter.looksLikeOSM(path: provenance))
        #expect(!OSMImporter.looksLikeOSM(path: OSMTestSupport.fixture("bad-root-osmchange.osm")))
        #expect(!OSMImporter.looksLikeOSM(path: "-"))
        #expect(!OSMImporter.looksLikeOSM(path: "/nonexistent/file.osm"))
    }
}
