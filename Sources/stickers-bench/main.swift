// Benchmarks: each suite prints figures and ratios measured in one run, so a person can compare
// runs on a noisy shared machine by the ratios rather than the absolute times.
//
//     swift run -c release stickers-bench [SUITE ...]     (no suite: all of them)

let suites: [BenchmarkSuite] = [
    // Each workstream appends its suite here.
    clipWaitSuite,
    decodeSuite,
    editorSuite,
    inferenceSuite,
    looksSuite,
    networkSuite,
    paletteSuite,
    paletteMoodSuite,
    pipelineSuite,
    pngSuite,
    stickerSuite,
    styleSuite,
    subjectsSuite,
    webpSuite,
]

await BenchmarkRunner.run(suites: suites, arguments: Array(CommandLine.arguments.dropFirst()))
