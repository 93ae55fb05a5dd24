#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geometry
import Refresh

/// Writes one JSON line per frame with what the scroll view and the header were doing:
///
/// ```
/// {"frame":12,"time":0.200000,"contentOffset":[0.000,-84.250],"contentInset":[0.000,0.000,0.000,0.000],"state":"pulling"}
/// ```
///
/// `contentInset` is `[top, left, bottom, right]` in points, as `UIEdgeInsets` orders them. Each line is built in a
/// buffer made once and written straight away (flushed, so a killed run keeps every frame written so far): a
/// frame's line allocates nothing while the state stays the same.
public final class TraceWriter {
    public let path: String
    private var file: UnsafeMutablePointer<FILE>?
    private var line = JSONLineBuffer(capacity: 256)
    /// The last state written and its quoted name, so that the name is made once per change, not per frame.
    private var lastState: RefreshState?
    private var stateText = ""

    /// Creates (or empties) the file at `path`.
    ///
    /// - Throws: `LabError` naming `path` when it cannot be written.
    public init(path: String) throws {
        self.path = path
        guard let handle = fopen(path, "w") else {
            throw LabError("cannot write the trace file '\(path)': \(String(cString: strerror(errno))); "
                + "check that its folder exists and is writable")
        }
        file = handle
    }

    deinit {
        if let file { fclose(file) }
    }

    /// Writes the line of one frame.
    public func record(frame: Int, time: Double, simulation: Simulation) throws {
        guard let file else { return }
        let state = simulation.refreshControl.state
        if state != lastState {
            lastState = state
            stateText = JSONLineBuffer.quoted(state.description)
        }
        let offset = simulation.scrollView.contentOffset
        let inset = simulation.scrollView.contentInset
        line.reset()
        line.append("{\"frame\":")
        line.append(frame)
        line.append(",\"time\":")
        line.append(time, decimals: 6)
        line.append(",\"contentOffset\":[")
        line.append(offset.x, decimals: 3)
        line.append(",")
        line.append(offset.y, decimals: 3)
        line.append("],\"contentInset\":[")
        line.append(inset.top, decimals: 3)
        line.append(",")
        line.append(inset.left, decimals: 3)
        line.append(",")
        line.append(inset.bottom, decimals: 3)
        line.append(",")
        line.append(inset.right, decimals: 3)
        line.append("],\"state\":")
        line.append(raw: stateText)
        line.append("}")
        guard line.writeLine(to: file), fflush(file) == 0 else {
            throw LabError("could not write the trace file '\(path)': \(String(cString: strerror(errno))); "
                + "check that the disk has room")
        }
    }

    /// Flushes and closes the file.
    public func close() throws {
        guard let handle = file else { return }
        file = nil
        let failed = ferror(handle) != 0
        if fclose(handle) != 0 || failed {
            throw LabError("could not finish writing the trace file '\(path)'; check that the disk has room")
        }
    }
}
