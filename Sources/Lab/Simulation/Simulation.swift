import Geometry
import Layers
import Lottie
import Motion
import Raster
import Refresh
import Scrolling
import Styles
import Text
import UserFiles
import Colors

/// What the finger and the keyboard do, in screen points; the window and gesture scripts both produce these.
public enum InputEvent: Equatable, Sendable {
    case touchDown(Point)
    case touchMove(Point)
    case touchUp(Point)
    /// A mouse-wheel or trackpad scroll by this many points of content (positive y scrolls the content up), with
    /// the pointer where it happened when known (a script's wheel has none: it scrolls the list).
    case wheel(Point, at: Point? = nil)
}

/// The lab session: the phones it shows, and what the simulator keeps around them (keys, the toast, the help, the
/// HUD and the debug overlay, the tuning panel, recordings asked of the host).
///
/// The window feeds it events and shows its canvas; headless runs do the same from a script on a simulated clock.
/// Each phone (`SimulatedPhone`) holds its own list, header, footer, bars and canvas. One phone, or two side by side
/// (W, `ComparedPhones.swift`): the keys that change a phone change the selected one, the finger and the refresh keys
/// drive both, and the session draws its overlays over the selected phone's canvas.
public final class Simulation {
    /// The effect shown at start: the first of the keyboard's order (key 1).
    public static var defaultEffectName: String { RefreshEffects.names.first ?? "" }
    /// Every effect the header can show, in the keyboard's order.
    public static var effectNames: [String] { RefreshEffects.names }
    /// How long a refresh or a load runs before the simulator ends it by itself (when `autoEndsRefreshing`), in
    /// seconds: long enough to watch the refreshing animation, as a quick network answer would be.
    static let autoEndDelay = 1.5
    /// Points of content one wheel notch scrolls: about three 13–14 pt lines, as desktop systems scroll three
    /// lines per notch (an assumption of this simulator; iOS has no wheel). On the tuning panel a notch is one
    /// step of a value or one line.
    public static let wheelNotch = 40.0
    /// How many new items an automatic end reports on a header that tells them (`RefreshEffect.reportsNewItems`).
    static let newItemsPerRefresh = 12

    /// The phones shown, left to right: one, or two while comparing (W).
    public internal(set) var phones: [SimulatedPhone]
    /// Which phone the keys that change a phone, the tuning panel and the overlays go to (Tab or a click chooses).
    public internal(set) var selectedIndex = 0
    /// The phone the keys that change a phone, the tuning panel and the overlays go to.
    public var selectedPhone: SimulatedPhone { phones[selectedIndex] }
    /// The first phone: the one a trace and the events follow.
    public var primaryPhone: SimulatedPhone { phones[0] }
    /// Whether a second phone is shown beside the first.
    public var isComparing: Bool { phones.count > 1 }
    /// The simulation's time: the base clock given at init, slowed, paused or stepped by the simulator's tools.
    public let clock: TimeControl
    /// Counts the changes of `styles` and of the appearance, so that what is made from them (the tuning panel's
    /// rows) is made again.
    var stylesRevision = 0
    /// The tuning panel (T): the current effect's and the physics' parameters, nudged with the arrows and saved to
    /// the user's style file.
    public let tuning = Tuning()
    /// The overlays' switches, flipped by their keys: the debug overlay (D), the frame-time graph (G), the help (H).
    var showsDebugOverlay = false
    public var showsFrameGraph = false
    var showsHelp = false
    /// Whether screenshots and recordings include the overlays (HUD, toast, help, debug): off, so that outputs
    /// show the phone as it is (O, or `--overlays`).
    public var includesOverlaysInOutputs = false
    /// Until when a second Esc quits (base clock): a first Esc with nothing open only says so, so that a key
    /// pressed to close something already closed does not end the session.
    var escapeQuitsUntil: Double?
    /// How long after a first Esc a second one quits, in seconds.
    static let escapeAgainWindow = 1.0
    /// How long the hint of the first start stays, in seconds.
    static let keysHintDuration = 4.0
    /// At the window's start: a toast naming the key that lists every key, for a few seconds.
    public func showKeysHint() {
        showToast(language == .chinese ? "H：所有按键" : "H: every key", lasting: Simulation.keysHintDuration)
    }
    /// What the keyboard asked of the host since it last looked (`takeHostRequests()`).
    public internal(set) var hostRequests: HostRequests = []
    /// The short message at the bottom of the screen saying what the last key did.
    public let toast = Toast()
    /// Every overlay's drawing: the HUD, the debug overlay, the tuning panel, the help and the toast.
    let overlays = Overlays()

    public init(phone: Phone = Phone(), clock: Clock = MonotonicClock()) {
        self.clock = TimeControl(base: clock)
        phones = [SimulatedPhone(device: phone, clock: self.clock)]
        listen(to: primaryPhone)
    }

    /// A session showing the phone `description` says.
    ///
    /// - Throws: `LabError` when an animation file it names cannot be read.
    public init(description: PhoneDescription, clock: Clock = MonotonicClock()) throws {
        self.clock = TimeControl(base: clock)
        phones = [try SimulatedPhone(description: description, clock: self.clock)]
        listen(to: primaryPhone)
    }

    /// The threads each phone's frame is drawn on (bands of rows, the same pixels at every count): 1 unless the host
    /// asks for more.
    public var drawingThreads = 1 {
        didSet { for phone in phones { phone.renderer.setDrawingThreads(drawingThreads) } }
    }

    /// Shows what `phone` reports in the toast, and hears of its footer's changes, which the title tells.
    func listen(to phone: SimulatedPhone) {
        phone.reportProblem = { [unowned self] text, detail in showToast(text, detail: detail) }
        phone.observeChanges(header: { [unowned self] old, new in
            // The title names the floor's states.
            if old.holdsFloor || new.holdsFloor || old == .releaseToFloor || new == .releaseToFloor {
                statusMayHaveChanged = true
            }
        }, footer: { [unowned self] _, _ in statusMayHaveChanged = true })
    }

    /// Whether what the title says may have changed since the frame loop last looked (`takeStatusChange()`): a key,
    /// another phone selected, a footer's state (its callback). The loop makes the title again only then.
    var statusMayHaveChanged = true

    /// Whether the status may have changed since the last call.
    func takeStatusChange() -> Bool {
        defer { statusMayHaveChanged = false }
        return statusMayHaveChanged
    }

    // MARK: The selected phone, as the lab's keys, overlays and tests read it

    /// The device shown: its model, bar and scale (`setPhone(_:)` changes it).
    public var phone: Phone { selectedPhone.device }
    /// The trace's `stretch` (`SimulatedPhone.edgeStretch`).
    public var edgeStretch: Double { selectedPhone.edgeStretch }
    public var scrollView: ScrollView { selectedPhone.scrollView }
    var refreshControl: RefreshControl { selectedPhone.refreshControl }
    public var footer: LoadMoreFooter { selectedPhone.footer }
    public var list: DemoList { selectedPhone.list }
    /// The selected phone's canvas, which the overlays are drawn over.
    public var canvas: Canvas { selectedPhone.canvas }
    public var animator: Animator { selectedPhone.animator }
    public var renderer: LayerRenderer { selectedPhone.renderer }
    public var effectName: String { selectedPhone.effectName }
    /// The user's style files, merged: the phone's physics and effects take their values from them.
    public var styles: StyleBook {
        get { selectedPhone.styles }
        set {
            stylesRevision &+= 1
            selectedPhone.styles = newValue
        }
    }
    /// Whether refreshes and loads end by themselves `autoEndDelay` after they start (the simulator's "auto end").
    public var autoEndsRefreshing: Bool {
        get { selectedPhone.autoEndsRefreshing }
        set { selectedPhone.autoEndsRefreshing = newValue }
    }
    /// The language of the list, the header and the footer (L); setting it is what the key does.
    public var language: RefreshLanguage {
        get { selectedPhone.language }
        set { selectedPhone.setLanguage(newValue) }
    }
    public var navigationBarBottom: Double { selectedPhone.navigationBarBottom }
    /// The navigation bar's height now, without the status bar, in points (the trace's `barHeight`).
    public var navigationBarHeight: Double { selectedPhone.navigationBarHeight }
    public var finger: Point? { selectedPhone.finger }
    /// The phone's appearance (K). Light by default.
    public var appearance: Appearance {
        get { selectedPhone.appearance }
        set {
            guard newValue != selectedPhone.appearance else { return }
            // The tuning panel's rows show the styles' variants for the appearance.
            stylesRevision &+= 1
            selectedPhone.appearance = newValue
        }
    }
    public var armingCount: Int { selectedPhone.armingCount }

    func showsArmingMark(at time: Double) -> Bool { selectedPhone.showsArmingMark(at: time) }

    /// Shows the effect registered under `name` in the header; false (and no change) when there is none.
    @discardableResult
    public func selectEffect(named name: String) -> Bool { selectedPhone.selectEffect(named: name) }

    /// Shows another device (model, bar or scale) on the phone.
    public func setPhone(_ newPhone: Phone) { selectedPhone.setDevice(newPhone) }

    /// Shows `platform`'s phone (`SimulatedPhone.setPlatform(_:)`).
    public func setPlatform(_ platform: Platform) { selectedPhone.setPlatform(platform) }

    /// Reads `path` for the header named `effect` (`SimulatedPhone.loadAnimation(path:for:)`).
    ///
    /// - Throws: `LabError` naming the file at fault, or saying that `effect` plays no animation file.
    @discardableResult
    public func loadAnimation(path: String?, for effect: String) throws -> String? {
        try selectedPhone.loadAnimation(path: path, for: effect)
    }

    /// Reads every animation file again and shows it on every phone: per file, the error when it is now unreadable.
    @discardableResult
    func reloadAnimations() -> [(path: String, error: String?)] {
        var results: [(path: String, error: String?)] = []
        for phone in phones {
            for result in phone.reloadAnimations() where !results.contains(where: { $0.path == result.path }) {
                results.append(result)
            }
        }
        return results
    }

    /// The files `loadAnimation` read, to be watched.
    public var animationPaths: [String] { primaryPhone.animationPaths }

    /// Gives the selected phone's header a second floor showing `source`, or takes it away (nil).
    ///
    /// - Throws: `LabError` naming the file when it cannot be read.
    public func setFloor(_ source: FloorSource?) throws {
        try selectedPhone.setFloor(source)
        // The tuning panel's rows show the floor's section.
        stylesRevision &+= 1
    }

    /// Why the header `effect` cannot have a second floor, or nil when it can: a header that floats over the list
    /// never moves the list to reveal one.
    public static func floorRefusal(effect: String) -> String? {
        guard floats(effect) else { return nil }
        return "the \(effect) header floats over the list, which never slides down to reveal a floor; choose a "
            + "header that pushes it: " + RefreshEffects.names.filter { !floats($0) }.joined(separator: ", ")
    }

    /// Whether the header `effect` floats over the list (`HeaderPlacement.floating`).
    private static func floats(_ effect: String) -> Bool {
        RefreshEffects.make(effect)?.metrics.placement.floating != nil
    }

    func cancelTouch() { for phone in phones { phone.cancelTouch() } }
    var autoEndResult: RefreshResult { selectedPhone.autoEndResult }
    func newItemsMessage(in language: RefreshLanguage) -> String { selectedPhone.newItemsMessage(in: language) }
    func setLanguage(_ newLanguage: RefreshLanguage) { selectedPhone.setLanguage(newLanguage) }

    // MARK: The session

    /// The room the window has beside the phone, in points: from `sideMinimumWidth` on, the tuning panel and the
    /// HUD are drawn there (`sideCanvas`) rather than over the phone. The window sets it as it is resized.
    public var sideRoom = 0.0
    /// What the side area shows, drawn with the overlays; nil without a side area.
    public internal(set) var sideCanvas: Canvas?

    /// Whether Shift is held: a drag or the wheel on the tuning panel then moves ten steps at a time. The window
    /// sets it with every event.
    public var shiftIsDown = false

    /// Applies one input event that happened at `time` on the base clock (the clock given at init; its now when
    /// nil); points are in the screen coordinates of the phone at `index` (beyond its right edge, the side area's
    /// when it is the selected one). Slow animations and pause bend the time the scroll view sees. While the help
    /// is shown, the list behind it gets nothing (the help is modal).
    ///
    /// While two phones are shown the finger drives both: the other phone gets the same event at the same place
    /// from its top left, scaled by the ratio of their screen heights; a touch going down on the other phone
    /// selects it.
    public func handle(_ event: InputEvent, at time: Double? = nil, onPhone index: Int = 0) {
        guard !showsHelp, phones.indices.contains(index) else { return }
        if index == selectedIndex, handleOnTuningPanel(event) { return }
        let touched = phones[index]
        // Beside the phone, only the panel takes input.
        switch event {
        case .touchDown(let p), .wheel(_, at: let p?): if p.x >= touched.device.screenSize.width { return }
        default: break
        }
        if case .touchDown = event, index != selectedIndex { select(index) }
        let phoneTime = time.map { clock.time(atBase: $0) } ?? clock.now
        for phone in phones {
            let ratio = phone.device.screenSize.height / touched.device.screenSize.height
            phone.handle(phone === touched ? event : event.scaled(by: ratio), at: phoneTime)
        }
    }

    /// Advances physics and animations to the clock's time; call once per frame, before `render()`.
    public func step() {
        for phone in phones { phone.step() }
        if let due = tuning.saveDue, clock.base.now >= due { saveTuning() }
    }

    /// What the simulation does until the next input: it keeps moving, or it stays still until a change scheduled
    /// at a time of the base clock (`.infinity` when none is).
    public enum Activity: Equatable, Sendable {
        /// Something moves without input (momentum, a bounce, an inset or layer animation, a toast fading, a
        /// refresh running): every frame differs from the last.
        case moving
        /// Nothing moves; the next change is due at this base-clock time (a toast starting to fade, say).
        case still(until: Double)
    }

    /// What moves now, and when the next change is due if nothing does. Paused, the simulation is still but for
    /// the toast, which lives on the base clock.
    var activity: Activity {
        let moving = phones.contains { $0.isMoving }
        if moving && !clock.isPaused { return .moving }
        let toastActivity = toast.activity(at: clock.base.now)
        guard case .still(var until) = toastActivity else { return toastActivity }
        // Tuned values waiting to be saved wake a still loop when their save is due, an arming's mark when it goes.
        if let due = tuning.saveDue { until = Swift.min(until, due) }
        for phone in phones where phone.showsArmingMark(at: clock.base.now) {
            if let at = phone.lastArmingAt { until = Swift.min(until, at + ArmingFeedback.markDuration) }
        }
        return .still(until: until)
    }

    /// What the window's title says of the simulation (the frame loop adds its recordings).
    var statusFlags: Status {
        Status(effect: effectName, chinese: language == .chinese, android: phone.platform == .android,
               dark: appearance == .dark, autoEnd: autoEndsRefreshing,
               slow: clock.isSlow,
               paused: clock.isPaused, debug: showsDebugOverlay, frameGraph: showsFrameGraph, tuning: tuning.isOpen,
               help: showsHelp,
               noMoreData: footer.state == .noMoreData, overlaysInOutputs: includesOverlaysInOutputs,
               comparedPhone: isComparing ? Simulation.phoneLetter(selectedIndex) : nil,
               floor: selectedPhone.description.floor == nil ? nil : refreshControl.state.holdsFloor
                   || refreshControl.state == .releaseToFloor ? refreshControl.state.description : "")
    }

    /// The status as the title shows it, without the frame loop's recordings.
    public var status: String { statusFlags.title }

    /// Draws each phone into its canvas. Nothing of the simulator's own is drawn (see `renderOverlays()`), so that
    /// screenshots, frames and captures show the phone only.
    public func render() {
        for phone in phones {
            phone.render()
            phone.isPresentedThisFrame = true
        }
    }

    /// Draws the frame loop's frame at `time` (base clock): one phone always; two phones each at its own refresh
    /// rate (a phone not due keeps its last frame, overlays included), or both with `everyPhone` (after input, on
    /// the last frame before the loop idles, and while outputs take the frame, so that nothing shown or written is
    /// stale). `followsIdle`: the loop waited for input before this frame (its rate restarts).
    func renderFrame(at time: Double, followsIdle: Bool, everyPhone: Bool) {
        for phone in phones {
            let due = everyPhone || !isComparing || phone.presentations.isDue(
                at: time, period: 1 / phone.device.refreshRate, frame: clock.frameDuration)
            phone.isPresentedThisFrame = due
            guard due else { continue }
            phone.render()
            phone.presentations.add(time, followsIdle: followsIdle)
        }
    }

    /// Draws the simulator's overlays over the selected phone: the HUD of `frames` (when G shows it), the debug
    /// overlay, the tuning panel, the help and the toast; while comparing, the other phone's arming mark and HUD
    /// over it.
    func renderOverlays(frames: HUD.Frames? = nil) {
        let selected = selectedPhone
        if selected.isPresentedThisFrame {
            let (contentToPixels, clip) = selected.listTransform()
            overlays.draw(self, over: selected, time: selected.frameTime ?? clock.now,
                          contentToPixels: contentToPixels, listClip: clip, frames: frames)
        }
        for phone in phones where phone !== selected && phone.isPresentedThisFrame {
            overlays.drawReadouts(self, over: phone, frames: frames)
        }
    }
}
