import ArgumentParser
import Testing
@testable import StickerKit  // SplitMix64: the same random lines on every run
@testable import stickers

/// `PalettePlainArguments` reads the palette's plain command lines without ArgumentParser; these
/// tests keep it in step with ArgumentParser, which stays the one authority on the command line.
@MainActor
struct PalettePlainArgumentsTests {
    /// The palette command ArgumentParser makes of `arguments`, nil when it refuses them (an error,
    /// help, validation).
    static func parsedByArgumentParser(_ arguments: [String]) -> PaletteCommand? {
        (try? StickersCommand.parseAsRoot(arguments)) as? PaletteCommand
    }

    static func same(_ a: PaletteCommand, _ b: PaletteCommand) -> Bool {
        a.image == b.image && a.count == b.count && a.format == b.format && a.mood == b.mood
            && a.contrast == b.contrast && a.output == b.output
    }

    @Test("the plain forms are read without ArgumentParser, to the command ArgumentParser makes of them")
    func plainForms() throws {
        let lines: [[String]] = [
            ["palette", "a.jpg"],
            ["palette", "a.jpg", "-n", "8", "--format", "json"],
            ["palette", "--colors", "3", "a.jpg", "--mood", "dark", "--contrast"],
            ["palette", "a.jpg", "--format=css", "--colors=10", "--output=out.css"],
            ["palette", "a.jpg", "-o", "out.gpl", "--format", "gpl", "--mood=muted"],
            ["palette", "a.jpg", "--output", "x.json", "-n", "+5"],
        ]
        for line in lines {
            let plain = try #require(PalettePlainArguments.command(line), "\(line) should be read plainly")
            let parsed = try #require(Self.parsedByArgumentParser(line))
            #expect(Self.same(plain, parsed), "\(line)")
        }
    }

    @Test("anything else is left to ArgumentParser: help, errors, repeats, unknown options, values like options")
    func leftToArgumentParser() {
        let lines: [[String]] = [
            ["palette"], ["palette", "--help"], ["palette", "-h"], ["palette", "a.jpg", "--help"],
            ["palette", "a.jpg", "-n", "2"], ["palette", "a.jpg", "-n", "11"], ["palette", "a.jpg", "-n", "five"],
            ["palette", "a.jpg", "--format", "bmp"], ["palette", "a.jpg", "--mood", "sleepy"],
            ["palette", "a.jpg", "b.jpg"], ["palette", "a.jpg", "-n", "5", "-n", "6"], ["palette", "a.jpg", "--contrast", "--contrast"],
            ["palette", "a.jpg", "-o"], ["palette", "a.jpg", "-o", "-n"], ["palette", "a.jpg", "--output="],
            ["palette", "--", "a.jpg"], ["palette", "-x.jpg"], ["palette", "a.jpg", "--contrast=yes"],
            ["palette", "a.jpg", "-n5"], ["palette", "a.jpg", "--generate-completion-script", "bash"],
            ["palette", "a.jpg", "--experimental-dump-help"], ["sticker", "a.jpg"], ["--help"], [],
        ]
        for line in lines {
            #expect(PalettePlainArguments.command(line) == nil, "\(line) should be left to ArgumentParser")
        }
    }

    @Test("over 3,000 random command lines, whatever is read plainly ArgumentParser reads the same way")
    func randomLines() {
        let tokens = ["a.jpg", "b.png", "help", "make", "-n", "--colors", "5", "3", "10", "0", "11", "+4", "-3", "x",
                      "--colors=6", "--colors=", "--format", "json", "text", "ase", "bmp", "--format=scss", "--format=",
                      "--mood", "dark", "bright", "sleepy", "--mood=deep", "--contrast", "--contrast=1", "-o", "--output",
                      "out.txt", "--output=o.css", "-", "--", "-h", "--help", "-n5", "-on", "--json", "palette"]
        var generator = SplitMix64(seed: 37)
        var plain = 0
        for _ in 0..<3_000 {
            let length = Int.random(in: 0...6, using: &generator)
            let line = ["palette"] + (0..<length).map { _ in tokens.randomElement(using: &generator)! }
            guard let fast = PalettePlainArguments.command(line) else { continue }
            plain += 1
            let parsed = Self.parsedByArgumentParser(line)
            #expect(parsed.map { Self.same(fast, $0) } == true, "\(line)")
        }
        #expect(plain > 100, "the random lines should include plain ones")
    }
}
