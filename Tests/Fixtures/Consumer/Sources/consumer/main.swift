import Foundation
import StickerKit

// The dominant colours of the photo named as the argument, one `#RRGGBB` each: StickerKit used
// from another package, built, linked and run.
guard CommandLine.arguments.count == 2 else {
    print("usage: consumer PHOTO")
    exit(64)
}
let data = try Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]))
let scheme = try ColorExtractor().extractColors(fromImageData: data, count: 5)
print(scheme.colors.map(\.hex).joined(separator: " "))
