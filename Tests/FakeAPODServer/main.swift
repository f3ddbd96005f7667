// A fake APOD server for trying `stickers catalog --api` by hand, without the internet:
//
//     swift run fake-apod [--port 8089] [--host 127.0.0.1] [--failing-day yyyy-MM-dd]…
//
// It prints its API URL, serves recorded-shape photos and image bytes, and misbehaves on purpose
// for the API keys fake-429, fake-500, fake-403, fake-malformed and fake-slow, and with 500 for
// each --failing-day, asked alone or inside a range.
import APODTestServer
import Foundation

var host = "127.0.0.1"
var port = 8089
var failingDays: Set<String> = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--port": port = arguments.popFirst().flatMap { Int($0) } ?? port
    case "--host": host = arguments.popFirst() ?? host
    case "--failing-day": if let day = arguments.popFirst() { failingDays.insert(day) }
    default:
        FileHandle.standardError.write(Data("usage: fake-apod [--port N] [--host ADDRESS] [--failing-day yyyy-MM-dd]…\n".utf8))
        exit(64)
    }
}
let listenHost = host
let failing = failingDays
try await FakeAPODServer.run(host: listenHost, port: port, failingDays: failing) { server in
    // Unbuffered, so a script reading our output sees the URL at once.
    FileHandle.standardOutput.write(Data("fake APOD server: http://\(listenHost):\(server.port)/planetary/apod\n".utf8))
}
