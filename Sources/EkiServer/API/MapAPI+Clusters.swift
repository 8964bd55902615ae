import EkiKit

/// `/api/clusters`: what the map shows below its pin zoom (`SpatialIndex.clusters`).
extension MapAPI {
    /// The most cells one answer may cover (a 4K screen at any zoom needs about 2,000).
    static let maxClusterCells = 65_536

    /// `GET /api/clusters?bbox=minLon,minLat,maxLon,maxLat&zoom=Z[&filter=…][&include_closed=0|1]`:
    /// `{"zoom", "cell_zoom", "total", "visited", "clusters": [{"id", "lat", "lon", "total",
    /// "visited", "prefecture", "bbox"}]}`, the cells of `ClusterQuery` (a tile at zoom + 2 split
    /// by prefecture), sorted by id; `lat` / `lon` the representative entry's point, `bbox` the
    /// extent of the cluster's entries, `prefecture` null for entries without one. `total` and
    /// `visited` count after the filter, the top ones summing the clusters. 400 for a zoom
    /// outside 0…20 or a box of more than `maxClusterCells` cells.
    func clusters(_ r: HTTPRequest, _ caller: Caller) throws -> HTTPResponse {
        let p = try APIParameters(r, allowed: ["bbox", "zoom", "filter", "include_closed"])
        let box = try p.requiredBBox()
        guard let zoom = try p.int("zoom", default: nil, min: 0, max: ClusterQuery.maxZoom) else { throw APIError.bad(.required("zoom")) }
        var q = ClusterQuery(bbox: box, zoom: zoom, filter: try p.filter(), includeClosed: try p.includeClosed())
        guard q.cellCount <= Self.maxClusterCells else { throw APIError.bad(.tooManyCells(q.cellCount, max: Self.maxClusterCells)) }
        let body: [UInt8] = try readers.with { ctx in
            try ctx.snapshot(owner: caller.owner) { visits in
                q.visited = visits.fids
                let result = try ctx.store.spatial.clusters(q)
                var out: [UInt8] = []
                out.reserveCapacity(result.clusters.count * 160 + 80)
                JSONBytes.append("{\"zoom\":\(zoom),\"cell_zoom\":\(result.cellZoom),\"total\":\(result.total),"
                                 + "\"visited\":\(result.visited),\"clusters\":[", to: &out)
                for (i, c) in result.clusters.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    JSONBytes.append("{\"id\":\"\(c.id)\",\"lat\":", to: &out)
                    JSONBytes.appendNumber(c.representative.coordinate.lat, to: &out)
                    JSONBytes.append(",\"lon\":", to: &out)
                    JSONBytes.appendNumber(c.representative.coordinate.lon, to: &out)
                    JSONBytes.append(",\"total\":\(c.total),\"visited\":\(c.visited),\"prefecture\":", to: &out)
                    JSONBytes.appendOptional(c.prefecture, to: &out)
                    JSONBytes.append(",\"bbox\":[", to: &out)
                    for (j, v) in [c.extent.minLon, c.extent.minLat, c.extent.maxLon, c.extent.maxLat].enumerated() {
                        if j > 0 { out.append(UInt8(ascii: ",")) }
                        JSONBytes.appendNumber(v, to: &out)
                    }
                    JSONBytes.append("]}", to: &out)
                }
                JSONBytes.append("]}", to: &out)
                return out
            }
        }
        return .json(body)
    }
}
