import Foundation
import Raster

/// How a photo's subjects are kept beside its sticker files, so another choice of them is cut out
/// later without the network: `subjects.json` (the list, the main subjects, the owner grid) and
/// `subjects.png` (the union cut-out, straight alpha).
struct PhotoSubjectsRecord: Codable, Sendable {
    struct Entry: Codable, Sendable {
        /// x0, y0, x1, y1 (x1, y1 exclusive), as `stickers sticker --list-subjects --json`.
        var bbox: [Int]
        var point: [Int]
        var share: Double
    }

    var subjects: [Entry]
    var main: [Int]
    var width: Int
    var height: Int
    var originX: Int
    var originY: Int
    var ownersWidth: Int
    var ownersHeight: Int
    /// One byte (a rank) per cell of the owner grid, row by row; base64 in the JSON.
    var owners: Data
}

/// Why kept subjects cannot be read back.
public struct PhotoSubjectsFileError: Error, Sendable, CustomStringConvertible {
    public var description: String
}

extension PhotoSubjects {
    /// The file names the subjects are kept as, in the folder of the sticker's files.
    public static let fileName = "subjects.json"
    public static let cutOutFileName = "subjects.png"

    /// The two files' contents: the JSON record and the union cut-out's PNG.
    public func fileContents() throws -> (json: Data, png: Data) {
        let record = PhotoSubjectsRecord(
            subjects: subjects.map {
                .init(bbox: [$0.bounds.x, $0.bounds.y, $0.bounds.x + $0.bounds.width, $0.bounds.y + $0.bounds.height],
                      point: [$0.pointX, $0.pointY], share: $0.share)
            },
            main: main, width: width, height: height, originX: originX, originY: originY,
            ownersWidth: ownersWidth, ownersHeight: ownersHeight, owners: Data(owners))
        return (try JSONEncoder().encode(record), try ImageEncoder.png(cutOut))
    }

    /// The subjects kept as `json` and `png` (see `fileContents`), their choice the main subjects.
    public init(json: Data, png: Data) throws {
        let record = try JSONDecoder().decode(PhotoSubjectsRecord.self, from: json)
        let union = try ImageDecoder.decode(png)
        guard record.owners.count == record.ownersWidth * record.ownersHeight,
              record.subjects.allSatisfy({ $0.bbox.count == 4 && $0.point.count == 2 }),
              record.subjects.count <= 256, record.main.allSatisfy(record.subjects.indices.contains) else {
            throw PhotoSubjectsFileError(description: "the kept subjects are damaged")
        }
        self.init(subjects: record.subjects.map {
                      Subject(bounds: Mask.Bounds(x: $0.bbox[0], y: $0.bbox[1], width: $0.bbox[2] - $0.bbox[0], height: $0.bbox[3] - $0.bbox[1]),
                              pointX: $0.point[0], pointY: $0.point[1], share: $0.share)
                  },
                  main: record.main, width: record.width, height: record.height, cutOut: union,
                  originX: record.originX, originY: record.originY,
                  owners: [UInt8](record.owners), ownersWidth: record.ownersWidth, ownersHeight: record.ownersHeight)
    }

    /// The image's left and right halves as two subjects, both chosen: the deterministic
    /// subjects of the stand-in processors (`serve --preview`, the web tests), so choosing
    /// subjects can be tried end to end without the network. One subject for an image 1 pixel wide.
    public static func sideBySide(_ image: Image) -> PhotoSubjects {
        let columns = image.width >= 2 ? 2 : 1
        // Column x belongs to cell x * columns / width: the left subject is the first ceil(w/2) columns.
        let left = columns == 2 ? (image.width + 1) / 2 : image.width
        var subjects = [Subject(bounds: Mask.Bounds(x: 0, y: 0, width: left, height: image.height),
                                pointX: left / 2, pointY: image.height / 2, share: Double(left) / Double(image.width))]
        if columns == 2 {
            let right = image.width - left
            subjects.append(Subject(bounds: Mask.Bounds(x: left, y: 0, width: right, height: image.height),
                                    pointX: left + right / 2, pointY: image.height / 2, share: Double(right) / Double(image.width)))
        }
        return PhotoSubjects(subjects: subjects, main: Array(subjects.indices), width: image.width, height: image.height,
                             cutOut: image, originX: 0, originY: 0,
                             owners: (0..<columns).map(UInt8.init), ownersWidth: columns, ownersHeight: 1)
    }
}
