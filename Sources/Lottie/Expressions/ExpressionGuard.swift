/// Makes JavaScript safe to run in the window: every loop condition and every function body first calls
/// `__tick()`, which throws once the evaluation has run past its budget (`ExpressionBudget`). Duktape as packaged
/// has no interrupt of its own, so a `while (true) {}` would otherwise hang the frame; deep recursion and endless
/// allocation are stopped by Duktape's call depth limit and the heap's memory limit. Everything the heap runs goes
/// through here: the expressions, the library they call, and the code an expression makes with `eval` or
/// `Function` (docs/reference.md §8, "What an expression cannot do").
///
/// The source is split into tokens (names, numbers, strings, comments, punctuation) so that a keyword inside a
/// string or a comment is left alone, in one pass: brackets are matched with a stack, so the work grows with the
/// length of the source. Refused before anything runs: regular expression literals (a pattern can backtrack for
/// minutes with no loop to count; no exported expression examined uses one), `with` (it could put an object's
/// `__tick` in the way of the real one), the name `__tick` itself, and a source longer than `maxSourceBytes`.
enum ExpressionGuard {
    /// Why a source is refused before it is compiled.
    struct Refusal: Error, Equatable {
        var reason: String
    }

    /// The longest source one expression, or one `eval`, may have: some 50 times the longest expression found in
    /// real files, and about 0.2 s of Duktape's compiling.
    static let maxSourceBytes = 1 << 20

    /// A source made safe, with what the engine needs to know of its names.
    struct Guarded {
        /// The source with the budget checks inserted, its own lines kept on their lines.
        var code: String
        /// The names it uses as variables (not as `.property`).
        var names: Set<String>
        /// The names it assigns to (`x = …`, `x += …`, `x++`, `for (x in …)`), in the order first met: an
        /// undeclared one would be a global, shared by every expression of the file, so the engine declares them.
        var assigned: [String]
    }

    /// The source with the budget checks inserted (`guarded(_:)`'s code).
    static func instrument(_ source: String) throws(Refusal) -> String {
        try guarded(source).code
    }

    /// The source made safe. `functionBodies: false` checks loops only, for the library, whose functions recur
    /// only as deep as the values they are given (each step of which is a checked loop or a call from one).
    static func guarded(_ source: String, functionBodies: Bool = true) throws(Refusal) -> Guarded {
        let bytes = Array(source.utf8)
        guard bytes.count <= maxSourceBytes else {
            throw Refusal(reason: "the source has \(bytes.count) bytes, more than the \(maxSourceBytes) an "
                + "expression may have")
        }
        let tokens = try tokenize(bytes)
        func punct(_ i: Int) -> UInt8? {
            i >= 0 && i < tokens.count && tokens[i].kind == .punctuation ? bytes[tokens[i].start] : nil
        }
        func isName(_ i: Int, _ word: String) -> Bool {
            i >= 0 && i < tokens.count && tokens[i].kind == .name && tokens[i].text(bytes) == word
        }
        func afterDot(_ i: Int) -> Bool { punct(i - 1) == UInt8(ascii: ".") }

        // Brackets matched in one pass; the semicolons of each `for (…)` at its own depth.
        var closing = [Int](repeating: -1, count: tokens.count)
        var semicolons: [Int: [Int]] = [:]
        var open: [Int] = []
        for i in tokens.indices {
            guard let c = punct(i) else { continue }
            switch c {
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                open.append(i)
                if c == UInt8(ascii: "("), isName(i - 1, "for"), !afterDot(i - 1) { semicolons[i] = [] }
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                if let o = open.popLast() { closing[o] = i }
            case UInt8(ascii: ";"):
                if let o = open.last, semicolons[o] != nil { semicolons[o]!.append(i) }
            default: break
            }
        }

        var insertions: [(at: Int, text: String)] = []
        var names: Set<String> = []
        var assigned: [String] = [], assignedSet: Set<String> = []
        func assign(_ name: String) {
            if assignedSet.insert(name).inserted { assigned.append(name) }
        }
        /// Whether tokens `i` and `i + 1` touch (`+=`, `++`, `>>=` are one operator only when they do).
        func touching(_ i: Int) -> Bool { i + 1 < tokens.count && tokens[i].end == tokens[i + 1].start }
        /// Whether an assignment operator starts at token `i`.
        func assignsAt(_ i: Int) -> Bool {
            guard let c = punct(i) else { return false }
            if c == UInt8(ascii: "=") { return !(touching(i) && punct(i + 1) == UInt8(ascii: "=")) }
            if c == UInt8(ascii: "<") || c == UInt8(ascii: ">") {
                // `<<=`, `>>=`, `>>>=`; not `<=` or `>=`.
                var j = i
                while touching(j), punct(j + 1) == c { j += 1 }
                guard j > i, touching(j), punct(j + 1) == UInt8(ascii: "=") else { return false }
                return !(touching(j + 1) && punct(j + 2) == UInt8(ascii: "="))
            }
            let compound: Set<UInt8> = [UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "/"),
                                        UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "|"), UInt8(ascii: "^")]
            guard compound.contains(c), touching(i), punct(i + 1) == UInt8(ascii: "=") else { return false }
            return !(touching(i + 1) && punct(i + 2) == UInt8(ascii: "="))
        }
        /// Whether `++` or `--` is at tokens `i`, `i + 1`.
        func stepsAt(_ i: Int) -> Bool {
            guard let c = punct(i), c == UInt8(ascii: "+") || c == UInt8(ascii: "-") else { return false }
            return touching(i) && punct(i + 1) == c
        }

        for i in tokens.indices where tokens[i].kind == .name {
            // A property named like a keyword (`a.for`) is not one.
            if afterDot(i) { continue }
            let word = tokens[i].text(bytes)
            names.insert(word)
            if word == "__tick" {
                throw Refusal(reason: "the name __tick is RefreshLab's own budget check; choose another name")
            }
            if word == "with", punct(i + 1) == UInt8(ascii: "(") {
                throw Refusal(reason: "'with' statements are not run (they could hide the budget check); "
                    + "name the object instead")
            }
            if assignsAt(i + 1) || stepsAt(i + 1) || stepsAt(i - 2) { assign(word) }
            switch word {
            case "while":
                let o = i + 1
                guard punct(o) == UInt8(ascii: "("), closing[o] >= 0 else { continue }
                insertions.append((tokens[o].end, "__tick()&&("))
                insertions.append((tokens[closing[o]].start, ")"))
            case "for":
                let o = i + 1
                guard punct(o) == UInt8(ascii: "("), closing[o] >= 0 else { continue }
                guard let marks = semicolons[o], marks.count == 2 else {
                    // for (x in …) and for (var x in …): the loop's name is assigned.
                    if tokens.indices.contains(o + 1), tokens[o + 1].kind == .name, isName(o + 2, "in") {
                        assign(tokens[o + 1].text(bytes))
                    }
                    continue
                }
                if marks[1] == marks[0] + 1 {
                    insertions.append((tokens[marks[0]].end, "__tick()"))
                } else {
                    insertions.append((tokens[marks[0]].end, "__tick()&&("))
                    insertions.append((tokens[marks[1]].start, ")"))
                }
            default: continue
            }
        }
        // Every function body, methods and getters included: a `(…) {` after anything but a control keyword.
        for o in tokens.indices where functionBodies && punct(o) == UInt8(ascii: "(") && closing[o] >= 0 {
            guard punct(closing[o] + 1) == UInt8(ascii: "{"), o > 0 else { continue }
            let before = tokens[o - 1]
            switch before.kind {
            case .name:
                if controlWords.contains(before.text(bytes)) && !afterDot(o - 1) { continue }
            case .string, .number: break
            case .punctuation:
                guard bytes[before.start] == UInt8(ascii: "]") else { continue }
            }
            insertions.append((tokens[closing[o] + 1].end, "__tick();"))
        }
        insertions.sort { $0.at < $1.at }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + insertions.count * 12)
        var from = 0
        for insertion in insertions {
            out.append(contentsOf: bytes[from..<insertion.at])
            out.append(contentsOf: insertion.text.utf8)
            from = insertion.at
        }
        out.append(contentsOf: bytes[from...])
        return Guarded(code: String(decoding: out, as: UTF8.self), names: names, assigned: assigned)
    }

    /// Whether `parameters` (a `Function` constructor's parameter list) is names and commas only: anything else
    /// could put code outside the body the guard sees.
    static func isParameterList(_ parameters: String) -> Bool {
        let bytes = Array(parameters.utf8)
        // Letters, digits, `_`, `$`, commas and spaces only: no comment, string or escape can hide anything.
        let allowed = bytes.allSatisfy { c in
            c >= 0x80 || c == UInt8(ascii: "_") || c == UInt8(ascii: "$") || c == UInt8(ascii: ",") || c == 0x20
                || c == 0x09 || c == 0x0A || (c | 0x20 >= UInt8(ascii: "a") && c | 0x20 <= UInt8(ascii: "z"))
                || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
        }
        guard allowed, let tokens = try? tokenize(bytes) else { return false }
        for (i, t) in tokens.enumerated() {
            let expectName = i % 2 == 0
            if expectName {
                guard t.kind == .name, t.text(bytes) != "__tick" else { return false }
            } else {
                guard t.kind == .punctuation, bytes[t.start] == UInt8(ascii: ",") else { return false }
            }
        }
        return tokens.count % 2 == 1 || tokens.isEmpty
    }

    struct Token {
        enum Kind { case name, number, string, punctuation }
        var kind: Kind
        var start: Int
        var end: Int

        func text(_ bytes: [UInt8]) -> String { String(decoding: bytes[start..<end], as: UTF8.self) }
    }

    /// Words whose `(…) {` opens a statement's block, not a function's body.
    private static let controlWords: Set<String> = ["if", "while", "for", "switch", "catch", "with"]

    /// Words after which a `/` starts a regular expression rather than dividing.
    private static let operatorWords: Set<String> = ["return", "typeof", "instanceof", "in", "of", "new", "delete",
                                                     "void", "throw", "case", "do", "else"]

    /// The source's tokens. Wherever this reading and JavaScript's could differ, it errs towards seeing code (a
    /// check inserted into what JavaScript takes for a comment is harmless; a loop taken for a comment is not):
    /// line continuations, Unicode spaces and line terminators are read as JavaScript reads them, and what it
    /// cannot tell apart safely (an escape outside a string, a `/` that may start a regular expression) is refused.
    static func tokenize(_ b: [UInt8]) throws(Refusal) -> [Token] {
        var tokens: [Token] = []
        var i = 0
        func isNameByte(_ c: UInt8) -> Bool {
            c >= 0x80 || c == UInt8(ascii: "_") || c == UInt8(ascii: "$") || (c | 0x20 >= UInt8(ascii: "a") && c | 0x20 <= UInt8(ascii: "z"))
                || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
        }
        func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
        /// Whether the parentheses just closed held a statement's header (`if (…)`, `while (…)`…), after which a
        /// `/` starts a regular expression; one flag per parenthesis open.
        var headers: [Bool] = []
        var closedHeader = false
        while i < b.count {
            let c = b[i]
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0B || c == 0x0C { i += 1; continue }
            if c >= 0x80, let n = unicodeSpace(b, i) { i += n; continue }
            if c == UInt8(ascii: "/"), i + 1 < b.count, b[i + 1] == UInt8(ascii: "/") {
                while i < b.count && b[i] != 0x0A && b[i] != 0x0D && lineSeparator(b, i) == nil { i += 1 }
                continue
            }
            if c == UInt8(ascii: "/"), i + 1 < b.count, b[i + 1] == UInt8(ascii: "*") {
                i += 2
                while i + 1 < b.count && !(b[i] == UInt8(ascii: "*") && b[i + 1] == UInt8(ascii: "/")) { i += 1 }
                i = Swift.min(i + 2, b.count)
                continue
            }
            let start = i
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                i += 1
                while i < b.count && b[i] != c && b[i] != 0x0A && b[i] != 0x0D {
                    if b[i] == UInt8(ascii: "\\") {
                        // An escape, or a line continuation: a backslash and CR LF continue the string as one.
                        i += i + 2 < b.count && b[i + 1] == 0x0D && b[i + 2] == 0x0A ? 3 : 2
                    } else {
                        i += 1
                    }
                }
                i = Swift.min(i + 1, b.count)
                tokens.append(Token(kind: .string, start: start, end: i))
                continue
            }
            if c == UInt8(ascii: "`") {
                throw Refusal(reason: "template literals (`…`) are not supported; write the string with quotes")
            }
            if c == UInt8(ascii: "\\") {
                throw Refusal(reason: "escapes (\\u…) outside strings are not run; write the name's letters")
            }
            if isDigit(c) || (c == UInt8(ascii: ".") && i + 1 < b.count && isDigit(b[i + 1])) {
                i += 1
                while i < b.count {
                    if isNameByte(b[i]) || b[i] == UInt8(ascii: ".") {
                        i += 1
                    } else if (b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-")), b[i - 1] | 0x20 == UInt8(ascii: "e"),
                              b[start] != UInt8(ascii: "0") || start + 1 >= b.count || b[start + 1] | 0x20 != UInt8(ascii: "x") {
                        i += 1
                    } else {
                        break
                    }
                }
                tokens.append(Token(kind: .number, start: start, end: i))
                continue
            }
            if isNameByte(c) {
                while i < b.count && isNameByte(b[i]) && (b[i] < 0x80 || unicodeSpace(b, i) == nil) { i += 1 }
                tokens.append(Token(kind: .name, start: start, end: i))
                continue
            }
            if c == UInt8(ascii: "/") {
                let divides: Bool
                if let last = tokens.last {
                    switch last.kind {
                    case .number, .string: divides = true
                    case .name: divides = !operatorWords.contains(last.text(b))
                    case .punctuation:
                        // After `)` it divides unless the parentheses were a statement's header; after `}` it may
                        // start a regular expression (a block's end) or divide (an object's): refused.
                        let p = b[last.start]
                        divides = (p == UInt8(ascii: ")") && !closedHeader) || p == UInt8(ascii: "]")
                    }
                } else {
                    divides = false
                }
                if !divides {
                    throw Refusal(reason: "regular expressions are not run (a pattern can take minutes to match)")
                }
            }
            if c == UInt8(ascii: "(") {
                let before = tokens.last.map { $0.kind == .name ? $0.text(b) : "" } ?? ""
                headers.append(controlWords.contains(before) && before != "catch")
            }
            if c == UInt8(ascii: ")") { closedHeader = headers.popLast() ?? false }
            i += 1
            tokens.append(Token(kind: .punctuation, start: start, end: i))
        }
        return tokens
    }

    /// The length in bytes of the line separator (U+2028, U+2029) at `i`, if one is there.
    private static func lineSeparator(_ b: [UInt8], _ i: Int) -> Int? {
        i + 2 < b.count && b[i] == 0xE2 && b[i + 1] == 0x80 && (b[i + 2] == 0xA8 || b[i + 2] == 0xA9) ? 3 : nil
    }

    /// The length in bytes of the character at `i` when JavaScript reads it as white space or a line end outside
    /// ASCII: no-break space, the Unicode spaces, line and paragraph separators, the byte-order mark.
    private static func unicodeSpace(_ b: [UInt8], _ i: Int) -> Int? {
        guard b[i] >= 0x80 else { return nil }
        var value: UInt32 = 0, length = 0
        switch b[i] {
        case 0xC0...0xDF: (value, length) = (UInt32(b[i] & 0x1F), 2)
        case 0xE0...0xEF: (value, length) = (UInt32(b[i] & 0x0F), 3)
        default: return nil
        }
        guard i + length <= b.count else { return nil }
        for k in 1..<length {
            guard b[i + k] & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(b[i + k] & 0x3F)
        }
        switch value {
        case 0x00A0, 0x1680, 0x180E, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: return length
        default: return nil
        }
    }
}
