import Foundation

/// The file parts of a `multipart/form-data` body (RFC 7578): just enough to receive photos from
/// an HTML form or `curl -F`, without another dependency. Parts without a `filename` (plain
/// fields) are ignored.
struct MultipartForm: Sendable {
    struct File: Sendable, Equatable {
        var fieldName: String
        var fileName: String
        var data: Data
    }

    var files: [File]

    /// The boundary named by a `multipart/form-data; boundary=…` content type, or `nil`.
    static func boundary(fromContentType contentType: String) -> String? {
        let parameters = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parameters.first?.lowercased() == "multipart/form-data" else { return nil }
        for parameter in parameters.dropFirst() where parameter.lowercased().hasPrefix("boundary=") {
            let value = parameter.dropFirst("boundary=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return value.isEmpty || value.count > 70 ? nil : value
        }
        return nil
    }

    init(data: Data, boundary: String) throws(WebError) {
        let delimiter = Data("--\(boundary)".utf8)
        let lineBreak = Data("\r\n".utf8)
        let headerEnd = Data("\r\n\r\n".utf8)
        guard var cursor = data.range(of: delimiter)?.upperBound else {
            throw .badRequest("malformed multipart body: no boundary \(boundary)")
        }
        var files: [File] = []
        while true {
            // After a delimiter: "--" closes the body, CRLF starts a part.
            if data[cursor...].starts(with: Data("--".utf8)) { break }
            guard data[cursor...].starts(with: lineBreak) else {
                throw .badRequest("malformed multipart body: bad delimiter line")
            }
            let partStart = cursor + lineBreak.count
            guard let headersEnd = data.range(of: headerEnd, in: partStart..<data.endIndex),
                  let next = data.range(of: lineBreak + delimiter, in: headersEnd.upperBound..<data.endIndex) else {
                throw .badRequest("malformed multipart body: unterminated part")
            }
            let headers = String(decoding: data[partStart..<headersEnd.lowerBound], as: UTF8.self)
            if let disposition = Self.disposition(in: headers), let fileName = disposition.fileName {
                files.append(File(fieldName: disposition.name ?? "", fileName: fileName,
                                  data: Data(data[headersEnd.upperBound..<next.lowerBound])))
            }
            cursor = next.upperBound
        }
        self.files = files
    }

    private static func disposition(in headers: String) -> (name: String?, fileName: String?)? {
        for line in headers.components(separatedBy: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-disposition"
            else { continue }
            var name: String?
            var fileName: String?
            for parameter in parts[1].split(separator: ";") {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2 else { continue }
                let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                switch pair[0].lowercased() {
                case "name": name = value
                case "filename": fileName = value
                default: break
                }
            }
            return (name, fileName)
        }
        return nil
    }
}
