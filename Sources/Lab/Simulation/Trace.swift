#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Raster
import Geometry
import Refresh
import UserFiles

/// Writes one JSON line per frame with what the scroll view, the finger, the header and the footer were doing:
///
/// ```
/// {"frame":12,"time":0.200000,"contentOffset":[0.000,-84.250],"contentInset":[0.000,0.000,0.000,0.000],
///  "velocity":[0.000,-412.500],"tracking":true,"dragging":true,"decelerating":false,"motion":"none",
///  "finger":[187.500,301.000],"state":"pulling","footer":"idle"}
/// ```
///
/// (one line in the file). `time` is seconds on the run's frame clock since its first frame (simulated headless,
/// the monotonic clock in the window, where a line is written for every frame presented). `contentInset` is
/// `[top, left, bottom, right]` in points, as `UIEdgeInsets` orders them; `velocity` is the content's, in points
/// per second; `motion` is what moves the content without a finger (`momentum`, `spring`, `animation` or `none`);
/// `finger` is the finger's position on the screen in points, or null when it is up; `barHeight` is the navigation
/// bar's height now (a large title's band included; 0 without a bar). The first line also gives `viewport` (the
/// list's size) and `contentSize`, in points, and the phone: `device` (its `--device` name, `default` for the lab's
/// own), `screen` in points, `scale`, `fps` (the screen's refresh rate), `safeArea` (the phone's) and
/// `adjustedContentInset` (the scroll view's inset plus the part of the safe area and bars over the list), the last
/// two `[top, left, bottom, right]`.
///
/// On Android (`Phone.platform`) the first line also gives `"platform":"android"` after `device` (a line without
/// it is iOS's, whose lines are as they always were), every line gives `stretch` after `motion` (the fraction the
/// list's edge is stretched by, `Simulation.edgeStretch`, 0 when it is not), and `motion` names Android's motions:
/// `fling`, `spring-back`, `stretch`, `animation` or `none` (`Platform.motionName`).
///
/// In a comparison of two phones (`ComparedRun`) both write to one file, each line starting with `"phone":"a"` or
/// `"phone":"b"`; a single phone's lines have no such field.
///
/// Each line is built in a buffer made once and written straight away (flushed, so a killed run keeps every frame
/// written so far): a frame's line allocates nothing while the states stay the same.
public final class TraceWriter {
    public let path: String
    private var file: UnsafeMutablePointer<FILE>?
    private var line = JSONLineBuffer(capacity: 512)
    /// The last states written and their quoted names, so that a name is made once per change, not per frame.
    private var lastState: RefreshState?
    private var stateText = ""
    private var lastFooterState: RefreshState?
    private var footerText = ""
    private var linesWritten = 0
    /// The compared phone the lines are of (`a` or `b`), nil for a single phone's run.
    private let phoneLabel: String?
    /// False for a writer that shares another's file, which that one closes.
    private let ownsFile: Bool

    /// Creates (or empties) the file at `path`; each line names `phone` when given.
    ///
    /// - Throws: `LabError` naming `path` when it cannot be written.
    public init(path: String, phone: String? = nil) throws {
        self.path = path
        guard let handle = FileName.withBytes(path, { fopen($0, "w") }) else {
            throw LabError("cannot write the trace file '\(path)': \(String(cString: strerror(errno))); "
                + "check that its folder exists and is writable")
        }
        file = handle
        phoneLabel = phone
        ownsFile = true
    }

    /// Writes the lines of `phone` into `other`'s file, which must stay open while this writer writes.
    init(sharingFileOf other: TraceWriter, phone: String) {
        path = other.path
        file = other.file
        phoneLabel = phone
        ownsFile = false
    }

    deinit {
        if let file, ownsFile { fclose(file) }
    }

    private func append(_ p: Point) {
        line.append("[")
        line.append(p.x, decimals: 3)
        line.append(",")
        line.append(p.y, decimals: 3)
        line.append("]")
    }

    private func append(_ inset: EdgeInsets) {
        line.append("[")
        line.append(inset.top, decimals: 3)
        line.append(",")
        line.append(inset.left, decimals: 3)
        line.append(",")
        line.append(inset.bottom, decimals: 3)
        line.append(",")
        line.append(inset.right, decimals: 3)
        line.append("]")
    }

    private func append(_ flag: Bool) {
        if flag { line.append("true") } else { line.append("false") }
    }

    /// Writes the line of one frame of the first phone.
    public func record(frame: Int, time: Double, simulation: Simulation) throws {
        guard let file else { return }
        // The first phone's: while two are shown, the one on the left.
        let watched = simulation.primaryPhone
        let scrollView = watched.scrollView
        let state = watched.refreshControl.state
        if state != lastState {
            lastState = state
            stateText = JSONLineBuffer.quoted(state.description)
        }
        let footerState = watched.footer.state
        if footerState != lastFooterState {
            lastFooterState = footerState
            footerText = JSONLineBuffer.quoted(footerState.description)
        }
        let inset = scrollView.contentInset
        line.reset()
        line.append("{")
        if let phoneLabel {
            line.append("\"phone\":")
            line.append(raw: JSONLineBuffer.quoted(phoneLabel))
            line.append(",")
        }
        line.append("\"frame\":")
        line.append(frame)
        line.append(",\"time\":")
        line.append(time, decimals: 6)
        if linesWritten == 0 {
            line.append(",\"viewport\":")
            append(Point(scrollView.boundsSize.width, scrollView.boundsSize.height))
            line.append(",\"contentSize\":")
            append(Point(scrollView.contentSize.width, scrollView.contentSize.height))
            let phone = watched.device
            line.append(",\"device\":")
            line.append(raw: JSONLineBuffer.quoted(phone.deviceName))
            if phone.platform != .ios {
                line.append(",\"platform\":")
                line.append(raw: JSONLineBuffer.quoted(phone.platform.rawValue))
            }
            line.append(",\"screen\":")
            append(Point(phone.screenSize.width, phone.screenSize.height))
            line.append(",\"scale\":")
            // Whole for the iPhones (2, 3), as it always was; the Pixel's 2.625 as it is.
            if phone.scale == phone.scale.rounded() { line.append(Int(phone.scale)) } else { line.append(phone.scale, decimals: 3) }
            line.append(",\"fps\":")
            line.append(Int(phone.refreshRate))
            line.append(",\"safeArea\":")
            append(phone.figures.safeArea)
            line.append(",\"adjustedContentInset\":")
            append(scrollView.adjustedContentInset)
        }
        line.append(",\"contentOffset\":")
        append(scrollView.contentOffset)
        line.append(",\"contentInset\":")
        append(inset)
        line.append(",\"barHeight\":")
        line.append(watched.navigationBarHeight, decimals: 3)
        line.append(",\"velocity\":")
        append(scrollView.velocity)
        line.append(",\"tracking\":")
        append(scrollView.isTracking)
        line.append(",\"dragging\":")
        append(scrollView.isDragging)
        line.append(",\"decelerating\":")
        append(scrollView.isDecelerating)
        let platform = watched.device.platform
        line.append(",\"motion\":\"")
        line.append(raw: platform.motionName(scrollView.runningMotion, stretch: watched.edgeStretch))
        line.append("\"")
        if platform == .android {
            line.append(",\"stretch\":")
            line.append(watched.edgeStretch, decimals: 4)
        }
        line.append(",\"finger\":")
        if let finger = watched.finger { append(finger) } else { line.append("null") }
        line.append(",\"state\":")
        line.append(raw: stateText)
        line.append(",\"footer\":")
        line.append(raw: footerText)
        line.append("}")
        guard line.writeLine(to: file), fflush(file) == 0 else {
            throw LabError("could not write the trace file '\(path)': \(String(cString: strerror(errno))); "
                + "check that the disk has room")
        }
        linesWritten += 1
    }

    /// Flushes and closes the file.
    public func close() throws {
        guard let handle = file else { return }
        file = nil
        guard ownsFile else { return }
        let failed = ferror(handle) != 0
        if fclose(handle) != 0 || failed {
            throw LabError("could not finish writing the trace file '\(path)'; check that the disk has room")
        }
    }
}
