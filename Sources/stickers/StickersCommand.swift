import ArgumentParser

@main
struct StickersCommand: AsyncParsableCommand {
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
}
