import APODTestServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
import ZIPFoundation

/// The CLI's stable contract (README: exit statuses; `ExitStatus`): exit statuses 0/64/65/69/74/130, the `--json` shapes,
/// the files written, and nothing partial left behind — checked against the built executable.
@Suite struct CLIContractTests {
    // MARK: usage (64)

    @Test("Bad command lines exit 64 with a message, for every command", arguments: [
        ["--no-such-option"], ["make", "photo.jpg"], ["make", "photo.jpg", "-o", "p.zip", "--colors", "99"],
        ["sticker"], ["palette", "a.jpg", "-n", "0"], ["palette", "a.jpg", "--format", "bmp"],
        ["catalog", "--count", "0"], ["serve", "--port", "notaport"], ["model", "nonsense"],
        // Styles: a bad hex colour, an outline outside 0…100, an unknown effect (sticker and make).
        ["sticker", "a.jpg", "-o", "x.png", "--outline-color", "#GGHHII"], ["sticker", "a.jpg", "-o", "x.png", "--outline", "101"],
        ["sticker", "a.jpg", "-o", "x.png", "--effect", "glitter"], ["make", "a.jpg", "-o", "p.zip", "--outline", "-1"],
        ["make", "a.jpg", "-o", "p.zip", "--outline-color", "red"], ["sticker", "a.jpg", "-o", "x.png", "--outline", "4", "--no-outline"],
        // Messenger packs: an unknown target, an emoji that is not one emoji.
        ["make", "a.jpg", "-o", "p.zip", "--for", "myspace"], ["make", "a.jpg", "-o", "p", "--for", "whatsapp", "--emoji", "ab"],
        // Palette moods; catalog dates outside 1995-06-16…today or not yyyy-MM-dd.
        ["palette", "a.jpg", "--mood", "sleepy"], ["catalog", "--date", "1995-06-15"], ["catalog", "--date", "2024-13-01"],
        ["catalog", "--date", "2999-01-01"], ["catalog", "--start", "2024-01-05", "--end", "2024-01-01"],
        // API addresses: http(s) with a host, for catalog and serve alike.
        ["catalog", "--api", "ftp://example.com/apod"], ["serve", "--catalog-api", "not a url"],
        // Subjects: --subject is a rank from 1, main or all.
        ["sticker", "a.jpg", "-o", "x.png", "--subject", "0"], ["make", "a.jpg", "-o", "p.zip", "--subject", "2"],
    ])
    func usageErrors(arguments: [String]) async throws {
        let run = try await Stickers.run(arguments)
        #expect(run.status == 64, "\(run)")
        #expect(!run.stderr.isEmpty)
    }

    @Test("--help exits 0 and lists every command")
    func help() async throws {
        let run = try await Stickers.run(["--help"])
        #expect(run.status == 0)
        for command in ["make", "sticker", "palette", "catalog", "serve", "model", "cache", "library"] { #expect(run.output.contains(command)) }
    }

    // MARK: palette

    @Test("palette --format json prints {\"colors\":[{\"hex\",\"weight\"}…]}, heaviest first, weights summing to 1")
    func paletteJSON() async throws {
        let run = try await Stickers.run(["palette", Stickers.sample("coffee.png"), "-n", "6", "--format", "json"])
        #expect(run.status == 0, "\(run)")
        let colors = try #require(run.json?["colors"] as? [[String: Any]])
        #expect(colors.count == 6)
        let hexes = colors.compactMap { $0["hex"] as? String }
        #expect(hexes.count == 6 && hexes.allSatisfy { $0.wholeMatch(of: /#[0-9A-F]{6}/) != nil })
        let weights = colors.compactMap { $0["weight"] as? Double }
        #expect(weights == weights.sorted(by: >))
        // Four decimals that add up to exactly 1.
        #expect(weights.map { Int(($0 * 10_000).rounded()) }.reduce(0, +) == 10_000)
    }

    @Test("palette -o writes the file atomically; an unwritable place exits 74 with the cause, leaving nothing")
    func paletteOutput() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "p.gpl")
        let run = try await Stickers.run(["palette", Stickers.sample("coffee.png"), "--format", "gpl", "-o", file.path])
        #expect(run.status == 0, "\(run)")
        #expect(try String(contentsOf: file, encoding: .utf8).hasPrefix("GIMP Palette"))
        #expect(contents(of: folder) == ["p.gpl"])

        let missing = folder.appending(path: "no-such-folder/p.gpl")
        let failed = try await Stickers.run(["palette", Stickers.sample("coffee.png"), "-o", missing.path])
        #expect(failed.status == 74, "\(failed)")
        #expect(failed.stderr.contains("no such file"))
        #expect(contents(of: folder) == ["p.gpl"])
    }

    @Test("palette of data that is not a photo exits 65; of a missing file, 74 saying so")
    func paletteBadInput() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appending(path: "notes.jpg")
        try Data("not a photo".utf8).write(to: text)
        let bad = try await Stickers.run(["palette", text.path])
        #expect(bad.status == 65, "\(bad)")
        let truncated = try await Stickers.run(["palette", Stickers.sample("invalid/ladybird-truncated.jpg")])
        #expect(truncated.status == 65 || truncated.status == 0, "\(truncated)")  // a cut JPEG may still give colours
        let missing = try await Stickers.run(["palette", folder.appending(path: "gone.jpg").path])
        #expect(missing.status == 74, "\(missing)")
        #expect(missing.stderr.contains("no such file"))
    }

    @Test("A photo read through a pipe gives its palette; /dev/null is refused as empty (65), not as a permission")
    func pipesAndDevicesAreRead() async throws {
        let empty = try await Stickers.run(["palette", "/dev/null"])
        #expect(empty.status == 65, "\(empty)")
        #expect(empty.stderr.contains("empty"), "\(empty.stderr)")
        // bash's process substitution: a pipe named /dev/fd/N.
        let piped = try await ClipTools.runToEnd(["bash", "-c", "exec \"$0\" palette <(cat \"$1\") -n 3 --format json",
                                                  Stickers.executable.path, Stickers.sample("ladybird.jpg")])
        #expect(piped.status == 0, "\(piped)")
        #expect(piped.output.contains("\"hex\""), "\(piped.output)")
    }

    @Test("make -o naming a photo or clip format, or an input itself, is refused (64) before any work; the input is untouched")
    func makeNeverOverwritesAnInput() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appending(path: "photo.jpg"), odd = folder.appending(path: "photo.dat")
        try FileManager.default.copyItem(atPath: Stickers.sample("ladybird.jpg"), toPath: photo.path)
        try FileManager.default.copyItem(atPath: Stickers.sample("ladybird.jpg"), toPath: odd.path)
        let bytes = try Data(contentsOf: photo)
        for (input, out, words) in [(photo, photo.path, "a pack is a ZIP archive"), (photo, folder.appending(path: "pack.webp").path, "name it .zip"),
                                    (odd, odd.path, "is one of the inputs")] {
            let run = try await Stickers.run(["make", input.path, "-o", out])
            #expect(run.status == 64 && run.stderr.contains(words), "\(out): \(run)")
        }
        #expect(try Data(contentsOf: photo) == bytes && Data(contentsOf: odd) == bytes)
        #expect(contents(of: folder) == ["photo.dat", "photo.jpg"])
    }

    @Test("palette of a clip (a GIF, an MP4) exits 65 saying it is a clip; a text file named .mp4 is just not an image")
    func paletteOfAClip() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let gif = folder.appending(path: "moving.gif"), mp4 = folder.appending(path: "clip.dat"), text = folder.appending(path: "notes.mp4")
        try (Data("GIF89a".utf8) + Data(count: 32)).write(to: gif)
        try Data([0, 0, 0, 24] + Array("ftypisom".utf8) + [0, 0, 0, 0]).write(to: mp4)
        try Data("not a clip".utf8).write(to: text)
        for file in [gif, mp4] {
            let run = try await Stickers.run(["palette", file.path])
            #expect(run.status == 65 && run.stderr.contains("is a clip: palette takes a photo"), "\(run)")
        }
        let run = try await Stickers.run(["palette", text.path])
        #expect(run.status == 65 && run.stderr.contains("is not a usable image"), "\(run)")
    }

    // MARK: the model (69)

    @Test("A STICKERS_MODEL that is not a model exits 69 (make and sticker), writing nothing")
    func notAModel() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fake = folder.appending(path: "model.onnx")
        try Data("this is not an ONNX model".utf8).write(to: fake)
        let out = folder.appending(path: "out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let make = try await Stickers.run(["make", Stickers.sample("coffee.png"), "-o", out.appending(path: "p.zip").path],
                                          environment: ["STICKERS_MODEL": fake.path])
        #expect(make.status == 69, "\(make)")
        let sticker = try await Stickers.run(["sticker", Stickers.sample("coffee.png"), "-o", out.appending(path: "s.png").path],
                                             environment: ["STICKERS_MODEL": fake.path])
        #expect(sticker.status == 69, "\(sticker)")
        #expect(contents(of: out).isEmpty)
    }

    @Test("model path exits 69 when the model is not there yet")
    func modelPathWithoutModel() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await Stickers.run(["model", "path"], environment: ["XDG_CACHE_HOME": folder.path, "STICKERS_MODEL": nil])
        #expect(run.status == 69, "\(run)")
    }

    // MARK: make

    @Test("make --json: a pack with two PNGs per photo, palettes.json and manifest.json; invalid photos listed, exit 0")
    func makePack() async throws {
        let model = try await Stickers.model()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pack = folder.appending(path: "pack.zip")
        let run = try await Stickers.run(
            ["make", Stickers.sample("coffee.png"), Stickers.sample("invalid/ladybird-truncated.jpg"), "-o", pack.path, "--json"],
            environment: ["STICKERS_MODEL": model])
        #expect(run.status == 0, "\(run)")
        let json = try #require(run.json, "\(run)")
        #expect(json["output"] as? String == pack.path)
        let stickers = try #require(json["stickers"] as? [[String: Any]])
        #expect(stickers.map { $0["name"] as? String } == ["coffee"])
        #expect((stickers.first?["colors"] as? [String])?.count == 5)
        #expect(stickers.first?["file"] is String)
        let invalid = try #require(json["invalid"] as? [[String: Any]])
        #expect(invalid.count == 1 && (invalid.first?["reason"] as? String)?.isEmpty == false)
        #expect(contents(of: folder) == ["pack.zip"])

        let archive = try Archive(url: pack, accessMode: .read)
        #expect(Set(archive.map(\.path)) == ["coffee.sticker.png", "coffee.gradient.png", "palettes.json", "manifest.json"])
        var palettes = Data()
        _ = try archive.extract(try #require(archive["palettes.json"])) { palettes.append($0) }
        let photos = try #require((try JSONSerialization.jsonObject(with: palettes) as? [String: Any])?["photos"] as? [[String: Any]])
        let weights = (photos.first?["colors"] as? [[String: Any]])?.compactMap { $0["weight"] as? Double } ?? []
        #expect(weights.map { Int(($0 * 10_000).rounded()) }.reduce(0, +) == 10_000, "palettes.json weights sum to 1")
    }

    @Test("make records each pack it writes in the library (ZIP and messenger packs); library packs --json lists them")
    func makeRecordsPacks() async throws {
        let model = try await Stickers.model()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appending(path: "library").path
        let zip = folder.appending(path: "pack.zip"), telegram = folder.appending(path: "telegram.zip")
        let made = try await Stickers.run(["make", Stickers.sample("coffee.png"), "-o", zip.path, "--data-dir", library],
                                          environment: ["STICKERS_MODEL": model])
        #expect(made.status == 0, "\(made)")
        let forTelegram = try await Stickers.run(["make", Stickers.sample("coffee.png"), "-o", telegram.path, "--for", "telegram"],
                                                 environment: ["STICKERS_MODEL": model, "STICKERS_DATA_DIR": library])
        #expect(forTelegram.status == 0, "\(forTelegram)")

        let listed = try await Stickers.run(["library", "packs", "--json", "--data-dir", library])
        #expect(listed.status == 0, "\(listed)")
        let packs = try #require(listed.json?["packs"] as? [[String: Any]], "\(listed)")
        let zipRecord = try #require(packs.first { $0["format"] as? String == "zip" }, "\(packs)")
        #expect(zipRecord["path"] as? String == zip.path)
        #expect(zipRecord["origin"] as? String == "make")
        #expect(zipRecord["stickers"] as? [String] == ["coffee"])
        #expect(zipRecord["bytes"] as? Int == (try FileManager.default.attributesOfItem(atPath: zip.path)[.size] as? Int))
        #expect((zipRecord["digest"] as? String)?.count == 32)
        let record = try #require(packs.first { $0["format"] as? String == "telegram" }, "\(packs)")
        #expect(record["path"] as? String == telegram.path && record["stickers"] as? [String] == ["coffee"])
        #expect(packs.count == 2)
        let text = try await Stickers.run(["library", "packs", "--data-dir", library])
        #expect(text.status == 0 && text.output.contains(zip.path), "\(text)")
    }

    @Test("make with no usable photo exits 65 and writes no pack")
    func makeNothingUsable() async throws {
        let model = try await Stickers.model()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appending(path: "notes.jpg")
        try Data("not a photo".utf8).write(to: text)
        let pack = folder.appending(path: "pack.zip")
        let run = try await Stickers.run(["make", text.path, "-o", pack.path, "--json"], environment: ["STICKERS_MODEL": model])
        #expect(run.status == 65, "\(run)")
        #expect((run.json?["invalid"] as? [Any])?.count == 1)
        #expect(contents(of: folder) == ["notes.jpg"])
    }

    @Test("make into a folder that does not exist exits 74 saying why")
    func makeUnwritable() async throws {
        let model = try await Stickers.model()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await Stickers.run(["make", Stickers.sample("coffee.png"), "-o", folder.appending(path: "gone/pack.zip").path],
                                         environment: ["STICKERS_MODEL": model])
        #expect(run.status == 74, "\(run)")
        #expect(run.stderr.contains("no such file"), "\(run)")
        #expect(contents(of: folder).isEmpty)
    }

    @Test("SIGINT to a running make exits 130 and leaves no pack and no partial file")
    func makeInterrupted() async throws {
        let model = try await Stickers.model()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A FIFO as a photo: make blocks reading it, so the test knows the batch is running (the
        // reader has opened it) when it sends the signal. No timing involved.
        let fifo = folder.appending(path: "slow.jpg")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let pack = folder.appending(path: "pack.zip")
        let run = try await Stickers.run(["make", Stickers.sample("coffee.png"), fifo.path, "-o", pack.path, "--jobs", "1"],
                                         environment: ["STICKERS_MODEL": model]) { process, stderr in
            // Opening for writing returns once make has opened the FIFO for reading.
            let writer = try FileHandle(forWritingTo: fifo)
            kill(process.processIdentifier, SIGINT)
            // The FIFO is released only once make says it took the signal: no race with the batch.
            while process.isRunning, !(try String(contentsOf: stderr, encoding: .utf8)).contains("stopping") {
                try await Task.sleep(for: .milliseconds(10))
            }
            try? writer.write(contentsOf: Data("bytes".utf8))
            try? writer.close()
        }
        #expect(run.status == 130, "\(run)")
        #expect(run.stderr.contains("interrupted"))
        #expect(contents(of: folder) == ["slow.jpg"], "no pack, no partial file")
    }

    // MARK: sticker

    @Test("sticker writes the PNG and the mask at the photo's size; bad input 65, unwritable output 74")
    func sticker() async throws {
        let model = try await Stickers.model()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appending(path: "s.png"), mask = folder.appending(path: "s.mask.png")
        let run = try await Stickers.run(["sticker", Stickers.sample("coffee.png"), "-o", out.path, "--mask", mask.path],
                                         environment: ["STICKERS_MODEL": model])
        #expect(run.status == 0, "\(run)")
        #expect(contents(of: folder) == ["s.mask.png", "s.png"])
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47]
        #expect(try Data(contentsOf: out).prefix(4) == Data(png) && Data(contentsOf: mask).prefix(4) == Data(png))

        let text = folder.appending(path: "notes.jpg")
        try Data("not a photo".utf8).write(to: text)
        let bad = try await Stickers.run(["sticker", text.path, "-o", folder.appending(path: "t.png").path],
                                         environment: ["STICKERS_MODEL": model])
        #expect(bad.status == 65, "\(bad)")
        let unwritable = try await Stickers.run(["sticker", Stickers.sample("coffee.png"), "-o", folder.appending(path: "gone/u.png").path],
                                                environment: ["STICKERS_MODEL": model])
        #expect(unwritable.status == 74, "\(unwritable)")
        #expect(contents(of: folder) == ["notes.jpg", "s.mask.png", "s.png"])
    }

    @Test("sticker --list-subjects --json lists ranked subjects; a choice that does not exist is refused (64, 65)")
    func subjectChoices() async throws {
        let model = try await Stickers.model()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment: [String: String?] = ["STICKERS_MODEL": model]
        let photo = Stickers.sample("coffee.png")
        let listed = try await Stickers.run(["sticker", photo, "--list-subjects", "--json"], environment: environment)
        #expect(listed.status == 0, "\(listed)")
        struct Listing: Decodable {
            struct Subject: Decodable { var bbox: [Int]; var point: [Int]; var share: Double }
            var subjects: [Subject]
        }
        let subjects = try JSONDecoder().decode(Listing.self, from: Data(listed.output.utf8)).subjects
        #expect(!subjects.isEmpty)
        for subject in subjects {
            #expect(subject.bbox.count == 4 && subject.point.count == 2 && (0...1).contains(subject.share))
            #expect((subject.bbox[0]..<subject.bbox[2]).contains(subject.point[0]))
            #expect((subject.bbox[1]..<subject.bbox[3]).contains(subject.point[1]))
        }
        let out = folder.appending(path: "x.png").path
        let outside = try await Stickers.run(["sticker", photo, "-o", out, "--point", "100000,5"], environment: environment)
        #expect(outside.status == 64, "\(outside)")
        let missing = try await Stickers.run(["sticker", photo, "-o", out, "--subject", "\(subjects.count + 1)"], environment: environment)
        #expect(missing.status == 65, "\(missing)")
        #expect(missing.stderr.contains("\(subjects.count) subject"))
        #expect(contents(of: folder).isEmpty)
    }

    // MARK: catalog (against a local fake APOD server)

    @Test("catalog --json lists photos; --save writes them; a failing server 69, a malformed answer 65, no server 74")
    func catalog() async throws {
        try await FakeAPODServer.withRunning { server in
            let api = server.apiURL.absoluteString
            try await waitUntilAnswering(server.apiURL)
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let run = try await Stickers.run(["catalog", "--count", "2", "--api", api, "--api-key", "test", "--json",
                                              "--save", folder.path])
            #expect(run.status == 0, "\(run)")
            let photos = try #require(run.json?["photos"] as? [[String: Any]], "\(run)")
            #expect(photos.count == 2)
            #expect(photos.allSatisfy { $0["title"] is String && $0["date"] is String })
            #expect(contents(of: folder).count == photos.filter { $0["saved"] is String }.count)
            #expect(!contents(of: folder).contains { $0.contains("partial") })

            let failing = try await Stickers.run(["catalog", "--api", api, "--api-key", "fake-500"])
            #expect(failing.status == 69, "\(failing)")
            let malformed = try await Stickers.run(["catalog", "--api", api, "--api-key", "fake-malformed"])
            #expect(malformed.status == 65, "\(malformed)")
        }
        let unreachable = try await Stickers.run(["catalog", "--api", "http://127.0.0.1:9/planetary/apod"])
        #expect(unreachable.status == 74, "\(unreachable)")
    }
}

/// Waits (up to two minutes) until the in-process fake server answers: when the whole suite starts,
/// the engine tests keep both cooperative threads busy for tens of seconds, and the server answers
/// only when the pool gets to it — longer than `catalog`'s own 10 s wait for a connection.
private func waitUntilAnswering(_ apiURL: URL) async throws {
    var request = URLRequest(url: apiURL.appending(queryItems: [.init(name: "api_key", value: "test"),
                                                                 .init(name: "date", value: "2024-01-01")]))
    request.timeoutInterval = 120
    _ = try await URLSession.shared.data(for: request)
}
