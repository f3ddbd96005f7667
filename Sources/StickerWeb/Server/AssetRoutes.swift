import Hummingbird

/// The page, its style and its scripts: real files in `Sources/StickerWeb/Assets`, compiled into
/// the binary by SwiftPM (`.embedInCode` in Package.swift generates `PackageResources`), so the
/// server has nothing to install or find at run time.
struct AssetRoutes: Sendable {
    /// One file the page loads, served with the content type its extension implies.
    struct Asset: Sendable {
        let path: String
        let contentType: String
        let body: ByteBuffer

        init(_ path: String, _ bytes: [UInt8], _ contentType: String) {
            self.path = path
            self.contentType = contentType
            self.body = ByteBuffer(bytes: bytes)
        }
    }

    /// common.js (the shared helpers and tab switching) is loaded first, then carousel.js (the
    /// sticker strip, a component of the stickers tab), then one script per tab (editor.js, the sticker
    /// editor, right after stickers.js, which opens it); index.html lists
    /// them in that order.
    static let assets: [Asset] = [
        Asset("/", PackageResources.index_html, "text/html; charset=utf-8"),
        Asset("/app.css", PackageResources.app_css, "text/css; charset=utf-8"),
        Asset("/common.js", PackageResources.common_js, "text/javascript; charset=utf-8"),
        Asset("/carousel.js", PackageResources.carousel_js, "text/javascript; charset=utf-8"),
        Asset("/clips.js", PackageResources.clips_js, "text/javascript; charset=utf-8"),
        Asset("/stickers.js", PackageResources.stickers_js, "text/javascript; charset=utf-8"),
        Asset("/editor.js", PackageResources.editor_js, "text/javascript; charset=utf-8"),
        Asset("/colors.js", PackageResources.colors_js, "text/javascript; charset=utf-8"),
        Asset("/space.js", PackageResources.space_js, "text/javascript; charset=utf-8"),
        // The API described for other programs (OpenAPI 3.1): every route, status and body. A
        // test keeps it and the router in step; scripts/api_fuzz.sh fuzzes the server from it.
        Asset("/openapi.json", PackageResources.openapi_json, "application/json"),
    ]

    func register(on router: Router<some RequestContext>) {
        for asset in Self.assets {
            router.get(RouterPath(asset.path)) { _, _ in
                Response(status: .ok, headers: [.contentType: asset.contentType, .cacheControl: "no-cache"],
                         body: ResponseBody(byteBuffer: asset.body))
            }
        }
        router.get("/healthz") { _, _ in "ok" }
    }
}
