#if canImport(Glibc)
import Glibc
#endif
@testable import Lab
import Motion
import Raster
import Testing
import TestSupport

/// What the phone shows is one set of choices (header, model, platform, bar, appearance, language): whatever order
/// the keys change them in, the phone ends as one set up with the final choices directly, pixel for pixel and trace
/// line for trace line. A fact kept by an object that a change makes again (the list made for a wider phone) is
/// lost otherwise: dark, then Y, once showed the Pixel's list light under a dark bar.
@Suite struct PhoneSwitchTests {
    /// The keys that change a choice (the appearance's twice, as it is the fact a rebuilt object lost before).
    static let keys: [Command] = [.toggleAppearance, .toggleAppearance, .togglePlatform, .nextDevice, .nextBarStyle,
                                  .toggleLanguage, .nextEffect, .selectEffect(index: 4), .selectEffect(index: 7)]

    @Test func keysInAnyOrderEndAsTheFinalChoicesMadeDirectly() throws {
        var random = SeededRandom(seed: 35)
        let folder = temporaryDirectory("phone-switch")
        defer { _ = removeDirectory(folder) }
        for run in 0..<(longTestsEnabled ? 100 : 20) {
            let (switched, clock) = effectSimulation(showing: "classic")
            var frames = 0
            var pressed: [Command] = []
            for _ in 0..<random.int(in: 1...10) {
                let key = PhoneSwitchTests.keys[random.int(in: 0...(PhoneSwitchTests.keys.count - 1))]
                pressed.append(key)
                _ = switched.perform(key)
                let n = random.int(in: 0...3)
                advance(switched, clock, frames: n)
                frames += n
            }
            advance(switched, clock, frames: 60)
            frames += 60

            let directClock = SimulatedClock()
            let direct = try Simulation(description: switched.primaryPhone.description, clock: directClock)
            direct.autoEndsRefreshing = false
            advance(direct, directClock, frames: frames)

            switched.render()
            direct.render()
            let canvasesMatch = switched.canvas.width == direct.canvas.width
                && switched.canvas.height == direct.canvas.height
                && memcmp(switched.canvas.pixels, direct.canvas.pixels, switched.canvas.pixelCount * 4) == 0
            #expect(canvasesMatch, "run \(run), keys \(pressed)")

            let a = folder + "/switched-\(run).jsonl", b = folder + "/direct-\(run).jsonl"
            for (simulation, path) in [(switched, a), (direct, b)] {
                let trace = try TraceWriter(path: path)
                try trace.record(frame: frames, time: clock.now, simulation: simulation)
                try trace.close()
            }
            #expect(readTextFile(a) == readTextFile(b), "run \(run), keys \(pressed)")
        }
    }
}

/// The same through a gesture script, as a headless run replays it: a dark script whose keys switch the bar, the
/// header and the appearance ends as a script that starts with the final choices, pixel for pixel. (A script cannot
/// change the phone's size: a run keeps its frame's.)
@Suite struct ScriptPhoneSwitchTests {
    @Test(arguments: [
        (["B"], #""bar": "large""#),
        (["K", "K", "B", "B"], #""bar": "translucent""#),
        (["3", "B", "B", "B", "B"], #""effect": "ring""#),
        (["B", "5", "K", "K"], #""bar": "large", "effect": "classic""#),
    ])
    func aDarkScriptStaysDark(keys: [String], finalPhone: String) throws {
        let pressed = keys.map { #"{"key": "\#($0)"}, {"wait": 0.05}"# }.joined(separator: ", ")
        let switched = try GestureScript(json: #"{"appearance": "dark", "autoEnd": false, "steps": [\#(pressed), {"wait": 0.3}]}"#)
        let direct = try GestureScript(json: #"{"appearance": "dark", "autoEnd": false, \#(finalPhone), "steps": [{"wait": 0.3}]}"#)
        let a = try ScriptRun(script: switched), b = try ScriptRun(script: direct)
        try a.run()
        try b.run()
        // The phone alone, as the run's frames show it: the toast the keys left is drawn over the canvas after.
        a.simulation.render()
        b.simulation.render()
        let same = a.simulation.canvas.width == b.simulation.canvas.width
            && a.simulation.canvas.height == b.simulation.canvas.height
            && memcmp(a.simulation.canvas.pixels, b.simulation.canvas.pixels, a.simulation.canvas.pixelCount * 4) == 0
        #expect(same, "keys \(keys)")
    }
}
