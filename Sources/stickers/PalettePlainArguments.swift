import ArgumentParser
import StickerKit

/// `stickers palette …` in its plain forms, read without ArgumentParser.
///
/// Why: a palette process is ~15 ms, and ArgumentParser's parse was a third of its instructions
/// (32 M of 102 M, release, callgrind): it reflects each command's properties (`Mirror`), casts each
/// to its protocols and instantiates generic types by mangled name, and every first such question
/// makes the Swift runtime scan all ~9,300 protocol-conformance records of the binary (~370 k
/// instructions a scan, ~75 scans). Nothing in ArgumentParser's API avoids them.
///
/// So the forms the palette is used with — the photo, `-n N`/`--colors N`, `--format F`, `--mood M`,
/// `--contrast`, `-o FILE`/`--output FILE` (long options also as `--name=value`), each at most once,
/// in any order — are read here, each value converted by its type's own `init?(argument:)`, and the
/// command checked by its own `validate()`. Anything else (help, a repeated or unknown option, a
/// value that starts with "-", `--`, a bad value, a failed validation) returns nil and ArgumentParser
/// parses the whole command line as before, so every message, usage text and exit status is its own.
/// `PalettePlainArgumentsTests` checks, over thousands of command lines, that whatever this accepts
/// ArgumentParser parses to the same command.
enum PalettePlainArguments {
    /// The palette command `arguments` (without the program's name) ask for, or nil when they are
    /// not all in the plain forms (ArgumentParser is then the one to read them).
    static func command(_ arguments: [String]) -> PaletteCommand? {
        guard arguments.first == PaletteCommand.configuration.commandName else { return nil }
        var image: String?
        var count: Int?
        var format: PaletteFormat?
        var mood: PaletteMood?
        var contrast = false
        var output: String?

        var rest = arguments.dropFirst()
        while let token = rest.popFirst() {
            guard token.hasPrefix("-") else {
                guard image == nil else { return nil }
                image = token
                continue
            }
            var name = Substring(token)
            var attached: Substring?
            if token.hasPrefix("--"), let equals = token.firstIndex(of: "=") {
                name = token[..<equals]
                attached = token[token.index(after: equals)...]
            }
            /// The option's value: attached (`--name=value`) or the next argument; nil when it is
            /// missing, empty or looks like an option (ArgumentParser's rules decide those).
            func value() -> String? {
                let value = attached.map(String.init) ?? rest.popFirst()
                guard let value, !value.isEmpty, !value.hasPrefix("-") else { return nil }
                return value
            }
            switch name {
            case "-n", "--colors":
                guard count == nil, let text = value(), let parsed = Int(argument: text) else { return nil }
                count = parsed
            case "--format":
                guard format == nil, let text = value(), let parsed = PaletteFormat(argument: text) else { return nil }
                format = parsed
            case "--mood":
                guard mood == nil, let text = value(), let parsed = PaletteMood(argument: text) else { return nil }
                mood = parsed
            case "--contrast":
                guard !contrast, attached == nil else { return nil }
                contrast = true
            case "-o", "--output":
                guard output == nil, let text = value() else { return nil }
                output = text
            default:
                return nil
            }
        }
        guard let image else { return nil }

        var command = PaletteCommand()
        command.image = image
        command.count = count ?? PaletteCommand.defaultCount
        command.format = format ?? PaletteCommand.defaultFormat
        command.mood = mood
        command.contrast = contrast
        command.output = output
        do { try command.validate() } catch { return nil }
        return command
    }
}
