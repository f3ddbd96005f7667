import Foundation

/// A one-line progress bar on standard error, drawn only when standard error is a terminal, so
/// scripts and pipes see no escape codes or carriage returns.
struct TerminalProgress {
    let label: String
    let isEnabled: Bool

    init(label: String, enabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.label = label
        self.isEnabled = enabled
    }

    func update(completed: Int, total: Int) {
        guard isEnabled, total > 0 else { return }
        let width = 30
        let filled = min(width, completed * width / total)
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let percent = completed * 100 / total
        write("\r\u{1B}[2K\(label) \(bar) \(completed)/\(total) (\(percent)%)")
    }

    func finish() {
        guard isEnabled else { return }
        write("\r\u{1B}[2K")
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
