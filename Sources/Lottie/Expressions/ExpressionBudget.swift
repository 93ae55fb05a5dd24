#if canImport(Glibc)
import Glibc
#endif

/// How long a file's expressions may run: each evaluation `perExpression`, with the evaluations it asks for
/// (another property's value, at another time) charged to it; and, between the renderer's `beginFrame` and
/// `endFrame`, all of a frame's evaluations `perFrame` together. The guard's checks (`__tick`) ask `isInTime`.
struct ExpressionBudget {
    /// One evaluation of one expression, with those it reads, in seconds.
    static let defaultPerExpression = 0.05
    /// A frame's evaluations together: the window keeps drawing at ten frames a second or more, whatever the file.
    static let defaultPerFrame = 0.1

    var perExpression = ExpressionBudget.defaultPerExpression
    var perFrame = ExpressionBudget.defaultPerFrame
    /// The error `__tick` throws once out of time (ExpressionLibrary's bootstrap).
    static let message = "ran past its time budget"

    /// When the evaluation under way must stop.
    private var deadline = timespec()
    /// When the frame under way must stop, between `beginFrame` and `endFrame`.
    private var frameDeadline: timespec?
    /// Whether the frame's deadline is the nearer one for the evaluation under way.
    private(set) var frameRanOut = false
    /// The properties that drew their keyframes because the frame's budget was spent.
    private var skipped: [Int] = []
    private var frameSaid = false

    mutating func beginFrame() {
        frameDeadline = ExpressionBudget.now(plus: perFrame)
        skipped.removeAll(keepingCapacity: true)
    }

    /// The frame is over: the properties it skipped, the first time a frame skips any; nil otherwise.
    mutating func endFrame() -> [Int]? {
        frameDeadline = nil
        guard !skipped.isEmpty, !frameSaid else { return nil }
        frameSaid = true
        return skipped
    }

    /// An outermost evaluation of `id` starts: false (and `id` counted as skipped) when the frame's budget is
    /// spent already.
    mutating func start(_ id: Int) -> Bool {
        let own = ExpressionBudget.now(plus: perExpression)
        if let frame = frameDeadline, !ExpressionBudget.before(own, frame) {
            guard ExpressionBudget.before(ExpressionBudget.now(plus: 0), frame) else {
                skip(id)
                return false
            }
            deadline = frame
            frameRanOut = true
        } else {
            deadline = own
            frameRanOut = false
        }
        return true
    }

    /// The library's own set-up, which no expression runs, starts: it has `seconds`.
    mutating func startSetUp(seconds: Double = 10) {
        deadline = ExpressionBudget.now(plus: seconds)
        frameRanOut = false
    }

    mutating func skip(_ id: Int) {
        if skipped.count < 1000 { skipped.append(id) }
    }

    var isInTime: Bool { ExpressionBudget.before(ExpressionBudget.now(plus: 0), deadline) }

    private static func now(plus seconds: Double) -> timespec {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        let nanoseconds = Int(seconds * 1e9) + t.tv_nsec
        t.tv_sec += nanoseconds / 1_000_000_000
        t.tv_nsec = nanoseconds % 1_000_000_000
        return t
    }

    private static func before(_ a: timespec, _ b: timespec) -> Bool {
        a.tv_sec < b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec < b.tv_nsec)
    }
}
