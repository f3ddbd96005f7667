import ArgumentParser
import SpacePhotos
import Testing
@testable import stickers

/// What every process pays for: ArgumentParser reads every command's configuration at start.
@MainActor
struct CommandConfigurationTests {
    @Test("every command names itself, so none is named by describing its type at start")
    func everyCommandNamed() {
        func check(_ command: ParsableCommand.Type) {
            #expect(command.configuration.commandName != nil, "\(command) has no commandName")
            command.configuration.subcommands.forEach(check)
        }
        check(StickersCommand.self)
    }

    @Test("catalog's help names the first APOD day as APODDay has it")
    func catalogFirstDay() {
        #expect(CatalogCommand.firstDayText == APODDay.string(from: APODDay.firstDay))
    }
}
