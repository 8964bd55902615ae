import EkiGeocoding
import EkiKit
import Testing

/// The one JSON encoder of geocoding candidates: compact for the map server's `/api/geocode`,
/// pretty for `eki geocode --format json|geojson`, the same members in the same order.
@Suite struct GeocodeCandidateJSONTests {
    static let found = [
        GeocodeCandidate(title: "東京駅", coordinate: Coordinate(lat: 35.6812, lon: 139.7671), provider: .nominatim,
                         bbox: BoundingBox(minLon: 139.75, minLat: 35.67, maxLon: 139.78, maxLat: 35.69)),
        GeocodeCandidate(title: "小田原城", coordinate: Coordinate(lat: 35.2509, lon: 139.1534), provider: .gsi),
    ]

    @Test func compactFeatureCollectionAsTheServerAnswers() {
        #expect(GeocodeCandidateJSON.featureCollection(Self.found).text() == #"{"type":"FeatureCollection","features":[{"type":"Feature","bbox":[139.75,35.67,139.78,35.69],"geometry":{"type":"Point","coordinates":[139.7671,35.6812]},"properties":{"rank":1,"title":"東京駅","provider":"nominatim"}},{"type":"Feature","geometry":{"type":"Point","coordinates":[139.1534,35.2509]},"properties":{"rank":2,"title":"小田原城","provider":"gsi"}}]}"#)
        #expect(GeocodeCandidateJSON.featureCollection([]).text() == #"{"type":"FeatureCollection","features":[]}"#)
    }

    @Test func prettyFeatureCollectionAsTheCommandLineWritesIt() {
        #expect(GeocodeCandidateJSON.featureCollection([Self.found[0]]).text(pretty: true) == """
        {
          "type": "FeatureCollection",
          "features": [
            {
              "type": "Feature",
              "bbox": [139.75,35.67,139.78,35.69],
              "geometry": {
                "type": "Point",
                "coordinates": [139.7671,35.6812]
              },
              "properties": {
                "rank": 1,
                "title": "東京駅",
                "provider": "nominatim"
              }
            }
          ]
        }
        """)
    }

    @Test func flatArrayCarriesLatLonAndANullBox() {
        #expect(GeocodeCandidateJSON.array(Self.found).text() == #"[{"rank":1,"title":"東京駅","lat":35.6812,"lon":139.7671,"provider":"nominatim","bbox":[139.75,35.67,139.78,35.69]},{"rank":2,"title":"小田原城","lat":35.2509,"lon":139.1534,"provider":"gsi","bbox":null}]"#)
    }
}
