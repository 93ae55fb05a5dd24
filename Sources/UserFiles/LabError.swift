/// A failure of a RefreshLab command, with a message that names the file or value at fault and what to do.
public struct LabError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
