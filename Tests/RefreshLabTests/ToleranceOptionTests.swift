import Testing
import Scenes
import UserFiles
@testable import refreshlab

/// The scene command's `--max-mean` and `--max-percent`, read as bounds of an image tolerance.
@Suite("Tolerance options")
struct ToleranceOptionTests {
    @Test("bounds from the command line: means from 0 to 255, percentages up to 100")
    func bounds() throws {
        #expect(try ImageTolerance.bound("0.25", option: "--max-mean") == 0.25)
        #expect(try ImageTolerance.bound("0", option: "--max-mean") == 0)
        #expect(try ImageTolerance.bound("100", option: "--max-percent", isPercent: true) == 100)
        let bad: [(String, Bool, String)] = [
            ("-1", false, "--max-mean: '-1' is negative; give a number from 0 to 255"),
            ("nan", false, "--max-mean: 'nan' is not a finite number; give a number from 0 to 255"),
            ("inf", false, "--max-mean: 'inf' is not a finite number; give a number from 0 to 255"),
            ("abc", false, "--max-mean: 'abc' is not a number; give a number from 0 to 255"),
            ("", false, "--max-mean: '' is not a number; give a number from 0 to 255"),
            ("101", true, "--max-percent: '101' is too large; give a number from 0 to 100"),
        ]
        for (text, isPercent, message) in bad {
            let option = isPercent ? "--max-percent" : "--max-mean"
            #expect(throws: LabError(message)) {
                try ImageTolerance.bound(text, option: option, isPercent: isPercent)
            }
        }
    }
}
