import Geometry
import Motion
@testable import Refresh
@testable import Scrolling
import TestSupport
@testable import Lab
import Raster
import Styles
import Testing

/// A style book made of one file with `text`, checked against every effect and the physics.
func styleBook(_ text: String) throws -> StyleBook {
    try StyleBook(catalog: StyleFiles.catalog, files: [("test.json", Array(text.utf8))])
}

/// A replay of `script` with `effect`, the styles of `style` (none when nil) in force from the first frame.
func styledReplay(_ script: String, effect: String? = nil, style: String?) throws -> ScriptReplay {
    let replay = try ScriptReplay(script: try GestureScript(json: script), effect: effect)
    if let style { replay.simulation.styles = try styleBook(style) }
    return replay
}

/// The frame of the first header change to one of `states`.
func firstFrame(_ changes: [StateChange], to states: Set<String>) -> Int? {
    changes.first { states.contains($0.to.description) }?.frame
}

/// Pixels of the canvas near magenta, a colour nothing in the lab draws by default.
func magentaPixels(_ canvas: Canvas) -> Int {
    var count = 0
    for y in 0..<canvas.height {
        for x in 0..<canvas.width {
            let c = canvas.color(atX: x, y: y)
            if c.red > 0.8 && c.green < 0.25 && c.blue > 0.8 { count += 1 }
        }
    }
    return count
}

/// A slow pull of 400 pt over 3 s, released, then time for the refresh to end by itself and the header to go.
let slowPull = """
    {"steps": [{"down": [187.5, 120]}, {"move": [187.5, 520], "duration": 3}, "up", {"wait": 8}]}
    """
/// A quick pull of 400 pt, released, then the same wait.
let quickPull = """
    {"steps": [{"down": [187.5, 120]}, {"move": [187.5, 520], "duration": 0.5}, "up", {"wait": 8}]}
    """
/// A pull of 150 pt held: every header shows its pulled look.
let heldPull = """
    {"steps": [{"down": [187.5, 120]}, {"move": [187.5, 270], "duration": 0.5}, {"wait": 1}]}
    """

@Suite("Styles change what they name")
struct StyleBehaviourTests {
    /// A higher trigger arms (or, for sticky, fires) the header later in the same slow pull.
    @Test(arguments: [("sticky", "triggerHeight", 110.0), ("dots", "pullLength", 80), ("ring", "dragDistance", 100),
                      ("news", "threshold", 110), ("classic", "headerHeight", 90),
                      ("gif", "headerHeight", 90), ("lottie", "headerHeight", 100)])
    func aTriggerMovesTheArmingPoint(effect: String, key: String, value: Double) throws {
        let armed: Set<String> = ["armed", "refreshing"]
        let plain = try #require(firstFrame(try replayStates(try styledReplay(slowPull, effect: effect, style: nil)), to: armed))
        let style = "{\"\(effect)\": {\"\(key)\": \(value)}}"
        let later = try #require(firstFrame(try replayStates(try styledReplay(slowPull, effect: effect, style: style)),
                                            to: armed))
        #expect(later > plain + 5, "armed at frame \(plain) by default, \(later) with \(key) \(value)")
    }

    /// A colour set to magenta shows on screen, where none was before.
    @Test(arguments: [("sticky", "\"blobColor\": \"#FF00FF\""), ("dots", "\"topColor\": \"#FF00FF\""),
                      ("ring", "\"colors\": [\"#FF00FF\"], \"faintAlpha\": 1"), ("news", "\"topViewColor\": \"#FF00FF\""),
                      ("classic", "\"arrowColor\": \"#FF00FF\""), ("classic", "\"textColor\": \"#FF00FF\""),
                      ("gif", "\"textColor\": \"#FF00FF\"")])
    func aColourChangesThePixels(effect: String, entry: String) throws {
        func pixels(_ style: String?) throws -> Int {
            let replay = try styledReplay(heldPull, effect: effect, style: style)
            for _ in 0..<45 { replay.advance() }
            replay.simulation.render()
            return magentaPixels(replay.simulation.canvas)
        }
        #expect(try pixels(nil) == 0)
        #expect(try pixels("{\"\(effect)\": {\(entry)}}") > 20)
    }

    /// A longer finishing duration keeps the header from idle longer by that much.
    @Test(arguments: [("sticky", "resultWait", 2.0, 0.5), ("dots", "insetDuration", 1.5, 0.5),
                      ("ring", "finishDuration", 1.0, 0.3), ("news", "bannerHoldDuration", 3, 1.5),
                      ("classic", "removeDuration", 1.2, 0.4)])
    func aDurationChangesTheTimeline(effect: String, key: String, value: Double, original: Double) throws {
        func finishingFrames(_ style: String?) throws -> Int {
            let changes = try replayStates(try styledReplay(quickPull, effect: effect, style: style))
            let start = try #require(changes.first { $0.to.description.hasPrefix("finishing") })
            let end = try #require(changes.first { $0.frame > start.frame && $0.to.description == "idle" })
            return end.frame - start.frame
        }
        let plain = try finishingFrames(nil)
        let longer = try finishingFrames("{\"\(effect)\": {\"\(key)\": \(value)}}")
        let expected = Int(((value - original) * 60).rounded())
        #expect(abs(longer - plain - expected) <= 2, "\(plain) frames by default, \(longer) with \(key) \(value)")
    }

    /// A timing curve changes where the inset is half-way through its change, not when it ends.
    @Test func aCurveChangesTheInsetHalfWay() throws {
        func insets(_ style: String?) throws -> [Double] {
            let replay = try styledReplay(quickPull, effect: "dots", style: style)
            var tops: [Double] = []
            while replay.advance() { tops.append(replay.simulation.scrollView.contentInset.top) }
            return tops
        }
        let plain = try insets(nil)
        let linear = try insets(#"{"dots": {"insetTiming": "linear"}}"#)
        let start = try #require(plain.firstIndex { $0 > 0 })
        #expect(linear.firstIndex { $0 > 0 } == start)
        // Early in the change a linear curve is ahead of ease-in-ease-out; both arrive at the same inset.
        #expect(linear[start + 3] > plain[start + 3] + 1)
        #expect(linear[start + 40] == plain[start + 40])
    }

    /// A size changes the drawing: a wider stroke changes the ring's pixels, where the same style twice does not.
    @Test func aSizeChangesTheDrawing() throws {
        func frame(_ style: String?) throws -> [UInt32] {
            let replay = try styledReplay(heldPull, effect: "ring", style: style)
            for _ in 0..<45 { replay.advance() }
            replay.simulation.render()
            let canvas = replay.simulation.canvas
            return Array(UnsafeBufferPointer(start: canvas.pixels, count: canvas.pixelCount))
        }
        func differing(_ a: [UInt32], _ b: [UInt32]) -> Int { zip(a, b).filter { $0 != $1 }.count }
        let plain = try frame(nil)
        #expect(differing(plain, try frame(nil)) == 0)
        let wider = try frame(#"{"ring": {"strokeWidth": 5}}"#)
        #expect(differing(plain, wider) > 300)
        let shadow = try frame(#"{"ring": {"shadowOffset": [0, 12]}}"#)
        #expect(differing(plain, shadow) > 300)
    }

    /// The gif header's picture box and the lottie header's box and place move what they draw; a lottie segment
    /// chooses the frames the pull scrubs.
    @Test func theAnimationHeadersPlaceAndPlayAsTheirStylesSay() throws {
        func shown(_ effect: String, _ style: String?) throws -> (frame: Rect, replay: ScriptReplay) {
            let replay = try styledReplay(heldPull, effect: effect, style: style)
            for _ in 0..<45 { replay.advance() }
            let layer = effect == "gif" ? (replay.simulation.refreshControl.effect as! GifEffect).imageLayer
                                        : replay.simulation.refreshControl.effect.layer.sublayers[0]
            return (layer.frame, replay)
        }
        #expect(try shown("gif", nil).frame.size == Size(50, 50))  // the default square pictures fill the box
        #expect(try shown("gif", #"{"gif": {"imageSize": [30, 20]}}"#).frame.size == Size(20, 20))
        let (plain, _) = try shown("lottie", nil)
        let (moved, replay) = try shown("lottie", #"{"lottie": {"animationSize": [40, 40], "offsetX": 10, "pull": [0, 10]}}"#)
        #expect(moved.size == Size(40, 40) && abs(moved.midX - plain.midX - 10) < 1e-9)
        let lottie = try #require(replay.simulation.refreshControl.effect as? LottieEffect)
        #expect(lottie.segments.pull == (0, 10))
        #expect(lottie.frame(at: replay.simulation.clock.now) <= 10)
    }

    /// A text given in a style is the one shown, in its language, and a style saved mid-pull changes the line at once;
    /// the other language keeps its default.
    @Test(arguments: ["classic", "gif", "news"])
    func aTextIsTheOneShown(effect: String) throws {
        let replay = try styledReplay(heldPull, effect: effect, style: #"{"\#(effect)": {"releaseText": {"en": "Let go!"}}}"#)
        for _ in 0..<45 { replay.advance() }
        let control = replay.simulation.refreshControl
        #expect(control.state == .armed)
        func shown() -> String? {
            switch control.effect {
            case let classic as ClassicEffect: classic.stateLabel.string
            case let gif as GifEffect: gif.labels.stateLabel.string
            case let news as NewsEffect: news.label.string
            default: nil
            }
        }
        replay.simulation.render()
        #expect(shown() == "Let go!")
        replay.simulation.perform(.toggleLanguage)
        replay.advance()
        #expect(shown() == RefreshStrings.standard(.chinese).release || shown() == NewsEffect.newsStrings(.chinese).release)
        replay.simulation.perform(.toggleLanguage)
        replay.simulation.styles = try styleBook(#"{"\#(effect)": {"releaseText": {"en": "Now!"}}}"#)
        replay.advance()
        #expect(shown() == "Now!" && control.state == .armed)
    }

    /// The sticky header's result row says the style's words.
    @Test func theStickyResultIsTheStylesText() throws {
        let replay = try styledReplay(quickPull, effect: "sticky", style: #"{"sticky": {"succeededText": {"en": "Fresh!", "zh": "新鲜！"}}}"#)
        var seen = false
        while replay.advance() {
            if case .finishing = replay.simulation.refreshControl.state,
               let sticky = replay.simulation.refreshControl.effect as? StickyEffect {
                seen = seen || sticky.resultRow.string == "Fresh!"
            }
        }
        #expect(seen)
    }

    /// The classic header's indicator fades over the style's remove duration, not the default's.
    @Test func theClassicIndicatorFadesOverTheRemoveDuration() throws {
        let effect = ClassicEffect(style: try styleBook(#"{"classic": {"removeDuration": 1}}"#).style(ClassicEffect.Style.self, for: "classic"))
        let size = Size(375, 54)
        effect.transition(from: .idle, to: .refreshing, at: 0)
        effect.transition(from: .refreshing, to: .finishing(.success), at: 1)
        effect.update(pull: RefreshPull(distance: 54, progress: 1, isDragging: false, time: 1.5, headerSize: size))
        #expect(abs(effect.spinnerAlpha - 0.5) < 1e-9)
    }

    /// A slower deceleration rate stops a fling sooner; a lower cap on the release velocity does too.
    @Test(arguments: ["\"normalDecelerationRate\": 0.99", "\"maxVelocity\": 800"])
    func thePhysicsChangeAFlingsRestingPoint(entry: String) throws {
        func restingOffset(_ style: String?) throws -> Double {
            let path = try #require(ResourceLocator.gestureScript(named: "fling"))
            let replay = try styledReplay(try #require(readTextFile(path)), style: style)
            while replay.advance() {}
            return replay.simulation.scrollView.contentOffset.y
        }
        let plain = try restingOffset(nil)
        let styled = try restingOffset("{\"physics\": {\(entry)}}")
        #expect(plain > 1000)
        #expect(styled < plain - 200, "rests at \(styled) against \(plain)")
    }

    /// A stiffer rubber band lets the same pull show less past the top.
    @Test func theRubberBandCoefficientChangesTheOverscroll() throws {
        func overscroll(_ style: String?) throws -> Double {
            let replay = try styledReplay(heldPull, effect: "classic", style: style)
            for _ in 0..<45 { replay.advance() }
            return -replay.simulation.scrollView.contentOffset.y
        }
        let plain = try overscroll(nil)
        let stiff = try overscroll(#"{"physics": {"rubberBandCoefficient": 0.25}}"#)
        #expect(plain > 60 && stiff < plain * 0.6, "\(stiff) against \(plain)")
    }

    /// With no style, the defaults are docs/reference.md's: the styles equal the constants they were made from.
    @Test func noStyleMeansTheDefaults() throws {
        let simulation = Simulation(clock: SimulatedClock())
        #expect(simulation.scrollView.physics == PhysicsStyle())
        // docs/reference.md §2: mass 1, stiffness 100, critically damped, so c = 2·√(k·m) = 20.
        #expect(simulation.scrollView.physics.bounceSpring == Spring(mass: 1, stiffness: 100, damping: 20))
        #expect(simulation.scrollView.physics.rubberBandCoefficient == 0.55)
        simulation.styles = try styleBook("{}")
        #expect(simulation.refreshControl.metrics == StickyEffect().metrics)
    }
}
