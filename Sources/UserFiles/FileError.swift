/// A fault in a file the user gave (a style file, a gesture script, an animation), at its place when there is
/// one: `file:line:column: reason`, the form editors and terminals link to, or `file: reason` for the file as a whole.
public struct FileError: Error, Equatable, CustomStringConvertible {
    public var file: String
    /// 1-based line and column of the fault, or 0 when the fault is the file itself (missing, unreadable, too large).
    public var line: Int
    public var column: Int
    public var reason: String

    public init(file: String, line: Int = 0, column: Int = 0, reason: String) {
        self.file = file
        self.line = line
        self.column = column
        self.reason = reason
    }

    public var description: String { line > 0 ? "\(file):\(line):\(column): \(reason)" : "\(file): \(reason)" }
}
