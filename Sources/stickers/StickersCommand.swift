import ArgumentParser

@main
struct StickersCommand: AsyncParsableCommand {
    // Every command names itself (`commandName`), subcommands included: without it ArgumentParser
    // derives the name from `String(describing:)` of the type when it builds the command tree, in
    // every process, and each such description made the Swift runtime scan all the binary's
    // protocol-conformance records four times or so: 11 M instructions of a 120 M palette process.
    static let configuration = CommandConfiguration(
        commandName: "stickers",
        abstract: "Turn photos into sticker packs and colour palettes.",
        subcommands: [
            MakeCommand.self,
            StickerCommand.self,
            PaletteCommand.self,
            CatalogCommand.self,
            ServeCommand.self,
            ModelCommand.self,
            CacheCommand.self,
            LibraryCommand.self,
        ]
    )

    /// ArgumentParser's `main`, with the palette's plain command lines read first without it
    /// (`PalettePlainArguments`: for a palette, argument parsing was a third of the process).
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let palette = PalettePlainArguments.command(arguments) else {
            await main(arguments)
            return
        }
        do { try await palette.run() } catch { exit(withError: error) }
    }
}
