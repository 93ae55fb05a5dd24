import Geometry
@testable import Lab
import Motion
import Refresh
import Testing

@Suite("Gesture scripts: reading and checking")
struct ScriptParsingTests {
    @Test("Every kind of step is read, bare words and objects alike")
    func readsSteps() throws {
        let script = try GestureScript(json: """
            {
              "name": "all steps",
              "effect": "news",
              "autoEnd": false,
              "steps": [
                {"down": [10, 20]},
                {"move": [10, 80], "duration": 0.5, "easing": "easeInEaseOut"},
                "up",
                {"wait": 1.25},
                {"wheel": [0, -30], "duration": 0.1},
                {"key": "Space"},
                "beginRefresh",
                {"endRefresh": {"message": "3 new items"}},
                {"endRefresh": "failure"},
                "endRefresh",
                {"down": [5, 5]},
                {"up": [6, 7]}
              ]
            }
            """)
        #expect(script.name == "all steps")
        #expect(script.effect == "news")
        #expect(script.autoEnd == false)
        #expect(script.steps == [
            .down(Point(10, 20)),
            .move(to: Point(10, 80), duration: 0.5, easing: .easeInEaseOut),
            .up(nil),
            .wait(1.25),
            .wheel(Point(0, -30), duration: 0.1),
            .key("Space", .beginRefresh),
            .beginRefresh,
            .endRefresh(.message("3 new items")),
            .endRefresh(.failure),
            .endRefresh(.success),
            .down(Point(5, 5)),
            .up(Point(6, 7)),
        ])
    }

    /// The error a script's text gives.
    func failure(_ text: String) -> ScriptError? {
        #expect(throws: ScriptError.self) { try GestureScript(json: text, file: "broken.json") }
        do {
            _ = try GestureScript(json: text, file: "broken.json")
            return nil
        } catch {
            return error
        }
    }

    @Test("A JSON syntax error names its line and column")
    func syntaxError() {
        let error = failure("{\n  \"steps\": [\n    {\"down\": [10, 20]}\n    {\"wait\": 1}\n  ]\n}")
        #expect(error?.line == 4 && error?.column == 5)
        #expect(error?.description.hasPrefix("broken.json:4:5: not valid JSON: expected ',' or ']'") == true)
    }

    @Test("An unknown step points at the step's object")
    func unknownStep() {
        // {"steps": [{"hop": 1}]}: the step's '{' is the 12th byte.
        let error = failure(#"{"steps": [{"hop": 1}]}"#)
        #expect(error?.line == 1 && error?.column == 12)
        #expect(error?.reason.contains("unknown step \"hop\"") == true)
        #expect(error?.reason.contains("\"move\"") == true)
    }

    @Test("An unknown easing points at its value, on its own line")
    func unknownEasing() {
        let error = failure("""
            {"steps": [
              {"down": [0, 0]},
              {"move": [0, 100], "duration": 0.5, "easing": "bouncy"}
            ]}
            """)
        // Line 3: two spaces, then {"move": [0, 100], "duration": 0.5, "easing": — 48 bytes before "bouncy".
        #expect(error?.line == 3 && error?.column == 49)
        #expect(error?.reason.contains("\"bouncy\"") == true)
        #expect(error?.reason.contains("\"easeInEaseOut\"") == true)
    }

    @Test("A move or an up without the finger down, and a second down, are refused where they are")
    func fingerOrder() {
        let move = failure("{\"steps\": [\n  {\"move\": [0, 100]}\n]}")
        #expect(move?.line == 2 && move?.column == 3)
        #expect(move?.reason.contains("needs the finger down") == true)
        let up = failure(#"{"steps": ["up"]}"#)
        #expect(up?.line == 1 && up?.column == 12)
        let twice = failure(#"{"steps": [{"down": [0, 0]}, {"down": [1, 1]}]}"#)
        #expect(twice?.column == 30)
        #expect(twice?.reason.contains("step 2") == true)
    }

    @Test("Bad values: a key with no name, a negative wait, a point that is not [x, y], an unknown effect")
    func badValues() {
        let key = failure(#"{"steps": [{"key": "X"}]}"#)
        #expect(key?.column == 20)
        #expect(key?.reason.contains("no key is named \"X\"") == true)
        let wait = failure(#"{"steps": [{"wait": -1}]}"#)
        #expect(wait?.column == 21)
        #expect(wait?.reason.contains("between 0 and 3600 seconds") == true)
        let point = failure(#"{"steps": [{"down": [1]}]}"#)
        #expect(point?.column == 21)
        #expect(point?.reason.contains("[x, y]") == true)
        let effect = failure(#"{"effect": "wobble", "steps": []}"#)
        #expect(effect?.column == 12)
        #expect(effect?.reason.contains("\"sticky\"") == true)
        let extra = failure(#"{"steps": [{"wait": 1, "easing": "linear"}]}"#)
        #expect(extra?.column == 34)
        #expect(extra?.reason.contains("does not take \"easing\"") == true)
    }

    @Test("The top level must be an object with steps; unknown fields are named")
    func topLevel() {
        let array = failure("[1]")
        #expect(array?.line == 1 && array?.column == 1)
        let missing = failure(#"{"name": "x"}"#)
        #expect(missing?.reason.contains("no \"steps\"") == true)
        let unknown = failure("{\n  \"stepz\": []\n}")
        #expect(unknown?.line == 2 && unknown?.column == 12)
        #expect(unknown?.reason.contains("unknown field \"stepz\"") == true)
    }

    @Test("A missing file is named, with what to do")
    func missingFile() {
        #expect(throws: ScriptError.self) { try GestureScript.load(path: "/no/such/script.json") }
        do {
            _ = try GestureScript.load(path: "/no/such/script.json")
        } catch {
            #expect(error.description.hasPrefix("/no/such/script.json: no such gesture script"))
        }
    }

    @Test("The timeline: instant steps at the current frame, a move over its frames, waits moving the frame on")
    func timeline() throws {
        let script = GestureScript(steps: [
            .down(Point(0, 100)),
            .move(to: Point(0, 160), duration: 0.05, easing: .linear),
            .up(nil),
            .wait(0.1),
            .key("Space", .beginRefresh),
        ])
        let timeline = ScriptTimeline(script)
        // 0.05 s = 3 frames of moves (1, 2, 3), then 0.1 s = 6 frames: the last frame is 9.
        #expect(timeline.frameCount == 10)
        let expected: [(Int, ScriptTimeline.Action)] = [
            (0, .input(.touchDown(Point(0, 100)))),
            (1, .input(.touchMove(Point(0, 120)))),
            (2, .input(.touchMove(Point(0, 140)))),
            (3, .input(.touchMove(Point(0, 160)))),
            (3, .input(.touchUp(Point(0, 160)))),
            (9, .command(.beginRefresh)),
        ]
        let actions = Array(timeline)
        #expect(actions.count == expected.count)
        for (a, b) in zip(actions, expected) {
            #expect(a.frame == b.0 && a.action == b.1)
        }
    }

    @Test("Easing is sampled once a frame: ease-in starts slow, ease-out fast; a wheel is spread evenly")
    func easingAndWheel() {
        func midpoint(_ easing: GestureScript.Easing) -> Double {
            let actions = Array(ScriptTimeline(GestureScript(steps: [
                .down(Point(0, 0)), .move(to: Point(0, 100), duration: 0.5, easing: easing),
            ])))
            // 30 frames of moves; frame 15 is half the time.
            guard case .input(.touchMove(let p)) = actions[15].action else { return .nan }
            #expect(actions[15].frame == 15)
            return p.y
        }
        #expect(midpoint(.linear) == 50)
        // cubic-bezier(0.42, 0, 1, 1) at x = 0.5 is about 0.315; (0, 0, 0.58, 1) is its mirror, about 0.685.
        #expect(abs(midpoint(.easeIn) - 31.5) < 0.5)
        #expect(abs(midpoint(.easeOut) - 68.5) < 0.5)
        #expect(abs(midpoint(.easeInEaseOut) - 50) < 1e-9)
        let wheel = ScriptTimeline(GestureScript(steps: [.wheel(Point(0, -90), duration: 0.05)]))
        #expect(wheel.frameCount == 4)
        #expect(wheel.map { $0.frame } == [1, 2, 3])
        #expect(wheel.allSatisfy { $0.action == .input(.wheel(Point(0, -30))) })
    }
}
