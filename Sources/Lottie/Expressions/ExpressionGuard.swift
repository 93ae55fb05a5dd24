/// Makes an expression's source safe to run in the window: every loop condition and every function body first
/// calls `__tick()`, which throws once the evaluation has run past its time budget (`ExpressionEngine.timeBudget`).
/// Duktape as packaged has no interrupt of its own, so a `while (true) {}` would otherwise hang the frame; deep
/// recursion and endless allocation are stopped by Duktape's call depth limit and the engine's memory limit.
///
/// The source is split into tokens (names, numbers, strings, comments, punctuation) so that a keyword inside a string or a
/// comment is left alone. Regular expression literals are refused: a pattern can backtrack for minutes with no loop to
/// count, and no exported expression in the files examined uses one.
enum ExpressionGuard {
    /// Why a source is refused before it is compiled.
    struct Refusal: Error, Equatable {
        var reason: String
    }

    /// The source with the budget checks inserted, the expression's own lines kept on their lines.
    static func instrument(_ source: String) throws(Refusal) -> String {
        let bytes = Array(source.utf8)
        let tokens = try tokenize(bytes)
        var insertions: [(at: Int, text: String)] = []
        func next(_ i: Int) -> Int? { i + 1 < tokens.count ? i + 1 : nil }
        func isPunct(_ i: Int?, _ c: UInt8) -> Bool {
            guard let i else { return false }
            return tokens[i].kind == .punctuation && bytes[tokens[i].start] == c
        }
        /// The index of the `)` closing the `(` at `open`.
        func closing(_ open: Int) -> Int? {
            var depth = 0
            for j in open..<tokens.count where tokens[j].kind == .punctuation {
                switch bytes[tokens[j].start] {
                case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                    depth -= 1
                    if depth == 0 { return j }
                default: break
                }
            }
            return nil
        }
        for i in tokens.indices where tokens[i].kind == .name {
            // A property named like a keyword (`a.for`) is not one.
            if i > 0, isPunct(i - 1, UInt8(ascii: ".")) { continue }
            let word = tokens[i].text(bytes)
            switch word {
            case "while":
                guard let open = next(i), isPunct(open, UInt8(ascii: "(")), let close = closing(open) else { continue }
                insertions.append((tokens[open].end, "__tick()&&("))
                insertions.append((tokens[close].start, ")"))
            case "for":
                guard let open = next(i), isPunct(open, UInt8(ascii: "(")), let close = closing(open) else { continue }
                // The two semicolons of `for (init; condition; step)` at the parentheses' own depth; none in for-in.
                var depth = 0, semicolons: [Int] = []
                for j in (open + 1)..<close where tokens[j].kind == .punctuation {
                    let c = bytes[tokens[j].start]
                    if c == UInt8(ascii: "(") || c == UInt8(ascii: "[") || c == UInt8(ascii: "{") { depth += 1 }
                    if c == UInt8(ascii: ")") || c == UInt8(ascii: "]") || c == UInt8(ascii: "}") { depth -= 1 }
                    if c == UInt8(ascii: ";") && depth == 0 { semicolons.append(j) }
                }
                guard semicolons.count == 2 else { continue }
                let first = semicolons[0], second = semicolons[1]
                if second == first + 1 {
                    insertions.append((tokens[first].end, "__tick()"))
                } else {
                    insertions.append((tokens[first].end, "__tick()&&("))
                    insertions.append((tokens[second].start, ")"))
                }
            case "function":
                var open = next(i)
                if let n = open, tokens[n].kind == .name { open = next(n) }
                guard let open, isPunct(open, UInt8(ascii: "(")), let close = closing(open), let body = next(close),
                      isPunct(body, UInt8(ascii: "{")) else { continue }
                insertions.append((tokens[body].end, "__tick();"))
            default: continue
            }
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
        return String(decoding: out, as: UTF8.self)
    }

    /// The names the source uses as variables (not as `.property`), for the engine to set only those it needs.
    static func names(in source: String) -> Set<String> {
        let bytes = Array(source.utf8)
        guard let tokens = try? tokenize(bytes) else { return [] }
        var out: Set<String> = []
        for (i, t) in tokens.enumerated() where t.kind == .name {
            if i > 0, tokens[i - 1].kind == .punctuation, bytes[tokens[i - 1].start] == UInt8(ascii: ".") { continue }
            out.insert(t.text(bytes))
        }
        return out
    }

    struct Token {
        enum Kind { case name, number, string, punctuation }
        var kind: Kind
        var start: Int
        var end: Int

        func text(_ bytes: [UInt8]) -> String { String(decoding: bytes[start..<end], as: UTF8.self) }
    }

    /// Words after which a `/` starts a regular expression rather than dividing.
    private static let operatorWords: Set<String> = ["return", "typeof", "instanceof", "in", "of", "new", "delete",
                                                     "void", "throw", "case", "do", "else"]

    static func tokenize(_ b: [UInt8]) throws(Refusal) -> [Token] {
        var tokens: [Token] = []
        var i = 0
        func isNameByte(_ c: UInt8) -> Bool {
            c >= 0x80 || c == UInt8(ascii: "_") || c == UInt8(ascii: "$") || (c | 0x20 >= UInt8(ascii: "a") && c | 0x20 <= UInt8(ascii: "z"))
                || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
        }
        func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
        while i < b.count {
            let c = b[i]
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0B || c == 0x0C { i += 1; continue }
            if c == UInt8(ascii: "/"), i + 1 < b.count, b[i + 1] == UInt8(ascii: "/") {
                while i < b.count && b[i] != 0x0A && b[i] != 0x0D { i += 1 }
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
                while i < b.count && b[i] != c && b[i] != 0x0A {
                    i += b[i] == UInt8(ascii: "\\") ? 2 : 1
                }
                i = Swift.min(i + 1, b.count)
                tokens.append(Token(kind: .string, start: start, end: i))
                continue
            }
            if c == UInt8(ascii: "`") {
                throw Refusal(reason: "template literals (`…`) are not supported; write the string with quotes")
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
                while i < b.count && isNameByte(b[i]) { i += 1 }
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
                        let p = b[last.start]
                        divides = p == UInt8(ascii: ")") || p == UInt8(ascii: "]") || p == UInt8(ascii: "}")
                    }
                } else {
                    divides = false
                }
                if !divides {
                    throw Refusal(reason: "regular expressions are not run (a pattern can take minutes to match)")
                }
            }
            i += 1
            tokens.append(Token(kind: .punctuation, start: start, end: i))
        }
        return tokens
    }
}
