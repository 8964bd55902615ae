import EkiKit
import EkiPhotos
import Foundation

/// `/api/visits/{id}/photos` and `/api/photos/{id}[/thumb]`: the photos of the caller's visits.
/// Another person's visit or photo is none of the caller's (404), as for visits.
extension MapAPI {
    /// `POST /api/visits/{id}/photos` with the image as the body (`Content-Type: image/*`,
    /// at most `HTTPLimits.maxPhotoBody`, 40 MiB; `X-CSRF-Token`): the photo is checked and
    /// made as `eki visit photo add` makes it (`PhotoProcessor`: upright, ≤ 1,600 px, no EXIF
    /// or GPS, ≤ 1 MiB) and stored with the visit. 201 `{"photo": {id, visit_id, width,
    /// height, bytes}}`; 404 no such visit of the caller; 415 not `image/*`, not an image or
    /// a format not read; 413 over the size or pixel limits; 400 empty or broken.
    func addPhoto(_ r: HTTPRequest, _ caller: Caller, visit text: String) throws -> HTTPResponse {
        guard let visitID = Int64(text), visitID > 0 else { throw APIError.bad(.badVisitID(text)) }
        let type = (r.headers["content-type"] ?? "").trimmingCharacters(in: .whitespaces)
        guard type.lowercased().hasPrefix("image/") else { throw APIError(415, "unsupported_media_type", .photoMediaType(type)) }
        // The visit first (no decoding for a visit that is not there), then the work outside the write lock.
        guard try readers.with({ try $0.log(of: caller.owner).visit(id: visitID) }) != nil else {
            throw APIError(404, "unknown_visit", .unknownVisit(visitID))
        }
        let p: ProcessedPhoto
        do {
            p = try PhotoProcessor().process(r.body, source: "upload")
        } catch {
            switch error.reason {
            case .inputTooLarge, .tooManyPixels, .tooLargeAtFloor: throw APIError(413, "photo_too_large", .photo(error))
            case .notAnImage, .unsupported: throw APIError(415, "unsupported_image", .photo(error))
            default: throw APIError(400, "bad_photo", .photo(error))
            }
        }
        let stored: VisitPhoto
        do {
            stored = try writer.write(owner: caller.owner) { log in
                try log.addPhotos([NewVisitPhoto(jpeg: p.jpeg, width: p.width, height: p.height, thumbnail: p.thumbnail,
                                                 thumbnailWidth: p.thumbnailWidth, thumbnailHeight: p.thumbnailHeight)], to: visitID)
            }[0]
        } catch VisitLogError.noSuchVisit {
            throw APIError(404, "unknown_visit", .unknownVisit(visitID))
        }
        return .json(Self.photoJSON(stored), status: 201)
    }

    /// `GET /api/photos/{id}` and `/api/photos/{id}/thumb`: the stored JPEG (`image/jpeg`,
    /// private to the caller); 404 when the caller has no photo with that id.
    func photo(_ caller: Caller, id text: String, thumbnail: Bool) throws -> HTTPResponse {
        guard let id = Int64(text), id > 0 else { throw APIError.bad(.badPhotoID(text)) }
        guard let bytes = try readers.with({ try $0.log(of: caller.owner).photoBytes(id: id, thumbnail: thumbnail) }) else {
            throw APIError(404, "unknown_photo", .unknownPhoto(id))
        }
        // A photo id is never reused: its bytes never change.
        return HTTPResponse(status: 200, headers: [("Content-Type", "image/jpeg"), ("Cache-Control", "private, max-age=86400")],
                            body: bytes)
    }

    /// `DELETE /api/photos/{id}` (`X-CSRF-Token`): 200 `{"photo": …}` with the removed photo;
    /// 404 when the caller has none with that id.
    func removePhoto(_ caller: Caller, id text: String) throws -> HTTPResponse {
        guard let id = Int64(text), id > 0 else { throw APIError.bad(.badPhotoID(text)) }
        do {
            return .json(Self.photoJSON(try writer.write(owner: caller.owner) { try $0.removePhoto(id: id) }))
        } catch VisitLogError.noSuchPhoto {
            throw APIError(404, "unknown_photo", .unknownPhoto(id))
        }
    }

    static func photoJSON(_ p: VisitPhoto) -> String {
        "{\"photo\":{\"id\":\(p.id),\"visit_id\":\(p.visitID),\"width\":\(p.width),\"height\":\(p.height),\"bytes\":\(p.bytes)}}"
    }
}
