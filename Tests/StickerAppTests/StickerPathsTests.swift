import Foundation
@testable import StickerApp
import Testing

@Suite("Where the app keeps its files")
struct StickerPathsTests {
    @Test("The cache and the library live under $HOME when no variable names them, as the model does")
    func homeVariableIsHonoured() {
        let environment = ["HOME": "/home/someone"]
        #expect(StickerPaths.cacheDirectory(environment: environment).path == "/home/someone/.cache/stickers")
        #expect(StickerPaths.dataDirectory(environment: environment).path == "/home/someone/.local/share/stickers")
    }

    @Test("An option, then the app's own variable, then an absolute XDG folder come before $HOME")
    func explicitFoldersComeFirst() {
        var environment = ["HOME": "/home/someone", "XDG_CACHE_HOME": "/xdg/cache", "XDG_DATA_HOME": "relative/data"]
        #expect(StickerPaths.cacheDirectory(environment: environment).path == "/xdg/cache/stickers")
        #expect(StickerPaths.dataDirectory(environment: environment).path == "/home/someone/.local/share/stickers",
                "a relative XDG folder is ignored")
        #expect(StickerPaths.dataDirectory(environment: ["HOME": "/home/someone", "XDG_DATA_HOME": "/xdg/data"]).path
                == "/xdg/data/stickers")
        environment[StickerPaths.cacheVariable] = "/mine/cache"
        #expect(StickerPaths.cacheDirectory(environment: environment).path == "/mine/cache")
        #expect(StickerPaths.cacheDirectory(explicit: "/option", environment: environment).path == "/option")
    }

    @Test("Without an absolute $HOME the password database's home is used")
    func relativeHomeFallsBack() {
        let home = FileManager.default.homeDirectoryForCurrentUser.path
        #expect(StickerPaths.homeDirectory(environment: ["HOME": "relative"]).path == home)
        #expect(StickerPaths.homeDirectory(environment: [:]).path == home)
    }
}
