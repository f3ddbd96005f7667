// swift-tools-version: 6.2
import PackageDescription

// A package that depends on StickerKit as another project would, by path (see README,
// "Using StickerKit"): scripts/check-consumer.sh builds and runs it in CI, so flags that a
// dependent inherits (a CPU forced on a module, a header path of this machine) show here first.
let package = Package(
    name: "Consumer",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Stickers", path: "../../..")],
    targets: [
        .executableTarget(name: "consumer", dependencies: [.product(name: "StickerKit", package: "Stickers")]),
    ],
    swiftLanguageModes: [.v6]
)
