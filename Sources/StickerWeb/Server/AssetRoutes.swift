import Hummingbird

/// The page and its script and style, compiled into the binary: nothing to install or find at
/// run time.
struct AssetRoutes: Sendable {
    func register(on router: Router<some RequestContext>) {
        router.get("/") { _, _ in Self.asset(Assets.indexHTML, "text/html; charset=utf-8") }
        router.get("/app.js") { _, _ in Self.asset(Assets.appJS, "text/javascript; charset=utf-8") }
        router.get("/app.css") { _, _ in Self.asset(Assets.appCSS, "text/css; charset=utf-8") }
        router.get("/healthz") { _, _ in "ok" }
    }

    static func asset(_ text: String, _ contentType: String) -> Response {
        Response(status: .ok, headers: [.contentType: contentType, .cacheControl: "no-cache"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
