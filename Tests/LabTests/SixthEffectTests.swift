import Foundation
import Geometry
import Styles
@testable import Lab
import Colors
import Layers
import Motion
import Raster
@testable import Refresh
import Testing
import TestSupport
import Text

/// A sixth effect, all of it: a bar along the header's bottom that fills with the pull, with its own texts, and a
/// banner-like habit of telling how many new items came. Nothing outside this file names it.
final class BarEffect: RefreshEffect {
    static let barColor = Color(rgb: 0, 122, 255)
    static let barHeight = 4.0
    let metrics = RefreshMetrics(headerHeight: 40)
    let layer = Layer()
    private let bar = Layer()

    init() {
        bar.backgroundColor = BarEffect.barColor
        layer.addSublayer(bar)
    }

    func update(pull: RefreshPull) {
        layer.frame = Rect(origin: .zero, size: pull.headerSize)
        let filled = pull.headerSize.width * Swift.min(pull.progress, 1)
        bar.frame = Rect(x: 0, y: pull.headerSize.height - BarEffect.barHeight, width: filled,
                         height: BarEffect.barHeight)
    }

    func transition(from old: RefreshState, to new: RefreshState, pull: RefreshPull) {}

    func strings(for language: RefreshLanguage) -> RefreshStrings {
        var strings = RefreshStrings.standard(language)
        strings.pullDown = language == .chinese ? "拉动进度条" : "Fill the bar"
        strings.refreshing = language == .chinese ? "进度条刷新中" : "Bar refreshing"
        return strings
    }

    var reportsNewItems: Bool { true }

    /// The one registration, made once for every test that needs it.
    static let registered: Void = RefreshEffects.register(
        name: "bar", title: LocalizedText(english: "bar header (test)", chinese: "进度条头部（测试）")) { BarEffect() }
}

@Suite("A sixth effect is one type and one registration")
struct SixthEffectTests {
    /// The bar's key: after the five built-in effects, in the order of registration (another test target in the
    /// same process may have registered one before it).
    func barKey() -> Int {
        _ = BarEffect.registered
        let names = RefreshEffects.names
        let registeredBefore = names.dropFirst(RefreshEffects.builtIn.count).prefix { $0 != "bar" }.count
        let key = RefreshEffects.builtIn.count + 1 + registeredBefore
        #expect(names.firstIndex(of: "bar") == key - 1)
        return key
    }

    @Test("It takes the next key after the built-in effects (6 when it is the first registered), and Tab reaches it")
    func key() throws {
        let key = barKey()
        let simulation = Simulation(clock: SimulatedClock())
        // With eight built-in effects, a registration made by another test target before this one pushes the bar
        // past the last number key: Tab still reaches it.
        guard key <= Command.effectKeyCount else {
            #expect(Command(keyName: String(key)) == nil)
            for _ in 1..<key { simulation.perform(Command(keyName: "Tab")!) }
            #expect(simulation.effectName == "bar")
            return
        }
        let command = try #require(Command(keyName: String(key)))
        #expect(simulation.perform(command) == "\(key) · bar")
        #expect(simulation.effectName == "bar" && simulation.refreshControl.effect is BarEffect)
        simulation.perform(Command(keyName: String(key - 1))!)
        simulation.perform(Command(keyName: "Tab")!)
        #expect(simulation.effectName == "bar")
    }

    @Test("Its key and title are in the help, in English and in Chinese",
          .enabled(if: standardFontsInstalled, "the standard fonts are installed"))
    func help() throws {
        let number = barKey()
        guard number <= Command.effectKeyCount else { return }   // no number key left for it (see `key()`)
        let key = String(number)
        let line = Command.keyBindings.first { $0.keys == key }
        #expect(line?.help == "bar header (test)" && line?.chineseHelp == "进度条头部（测试）")
        #expect(line?.command == .selectEffect(index: Int(key)! - 1))
        let fonts = try FontSet.standard()
        let text = TextRenderer(fonts: fonts)
        let simulation = Simulation(clock: SimulatedClock())
        for (language, title) in [(RefreshLanguage.english, "bar header (test)"), (.chinese, "进度条头部（测试）")] {
            let lines = simulation.overlays.helpLayout(language: language, text: text).lines
            #expect(lines.contains { $0.key.string == key && $0.help.string == title }, "\(language)")
        }
    }

    @Test("The header shows its own texts in both languages")
    func texts() {
        _ = BarEffect.registered
        let (simulation, clock) = effectSimulation(showing: "bar")
        #expect(simulation.refreshControl.title == "Fill the bar")
        simulation.perform(.toggleLanguage)
        #expect(simulation.refreshControl.title == "拉动进度条")
        simulation.perform(.beginRefresh)
        advance(simulation, clock, frames: 2)
        #expect(simulation.refreshControl.title == "进度条刷新中")
    }

    @Test("A pull through the simulation's input draws the bar, refreshes, and the automatic end tells the new items")
    func refresh() {
        let clock = SimulatedClock()
        let simulation = Simulation(clock: clock)
        var states: [RefreshState] = []
        simulation.refreshControl.stateDidChange = { _, new in states.append(new) }
        simulation.perform(.selectEffect(index: barKey() - 1))
        holdFinger(simulation, clock, pulledBy: 60)
        simulation.render()
        // The bar, full, along the header's bottom: just above the content's top, at the list's left edge.
        let s = simulation.phone.scale
        let barY = Int(((simulation.phone.listFrame.minY + 60 - BarEffect.barHeight / 2) * s).rounded(.down))
        #expect(simulation.canvas.pixels[barY * simulation.canvas.width + 4] == BarEffect.barColor.premultipliedPixel)
        simulation.handle(.touchUp(simulation.finger!))
        advance(simulation, clock, frames: 160)
        #expect(states.contains(.refreshing))
        #expect(states.contains(.finishing(.message("12 new items"))))
        #expect(states.last == .idle)
    }
}

@Suite("The README's key table")
struct ReadmeKeyTableTests {
    @Test("Its effect row names the built-in effects in the registry's order, with their keys")
    func effectRow() throws {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let readme = try String(contentsOf: url.appendingPathComponent("README.md"), encoding: .utf8)
        let names = RefreshEffects.builtIn.map(\.name)
        let keyed = names.prefix(Command.effectKeyCount), rest = names.dropFirst(Command.effectKeyCount)
        // Past the number keys, the built-in effects and the registered ones are reached by Tab.
        let keys = keyed.count == 10 ? "1 … 9, 0" : "1 … \(keyed.count)"
        let row = "| " + keys + " | the header: " + keyed.joined(separator: ", ")
            + (keyed.count < Command.effectKeyCount
                ? "; an effect registered with `RefreshEffects.register` takes the next key, up to \(Command.effectKeyCount) |"
                : rest.isEmpty ? "; any effect registered with `RefreshEffects.register` by Tab |"
                : "; " + rest.joined(separator: ", ") + " and any effect registered with `RefreshEffects.register` by Tab |")
        #expect(readme.contains(row))
    }
}
