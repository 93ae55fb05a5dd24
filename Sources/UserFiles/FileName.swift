#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File names as the system has them: bytes, which need not be UTF-8.
///
/// A name from the command line is decoded into a `String` with each byte that is not part of valid UTF-8 kept as
/// a private-use character (U+10FF80 + the byte's low seven bits, U+10FF80…U+10FFFF), and turned back into the
/// same bytes when a file is opened or created, so `scène.json` saved in Latin-1 opens, and an output keeps the
/// name it was given. `String`'s own conversion would replace such bytes with U+FFFD, naming another file.
public enum FileName {
    /// The folder part and the last component of `path` ("." for a bare name), trailing slashes aside.
    public static func split(_ path: String) -> (folder: String, name: String) {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return (".", String(trimmed)) }
        let folder = trimmed[..<slash]
        return (folder.isEmpty ? "/" : String(folder), String(trimmed[trimmed.index(after: slash)...]))
    }

    /// `name` taken from `folder`: itself when it is absolute.
    public static func joined(_ folder: String, _ name: String) -> String {
        name.hasPrefix("/") ? name : folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// The first of the 128 private-use characters that stand for bytes 0x80…0xFF.
    static let firstByteCharacter: UInt32 = 0x10FF80

    /// The name in the C string `cString`, with bytes that are not UTF-8 kept.
    public static func decode(_ cString: UnsafePointer<CChar>) -> String {
        let raw = UnsafeBufferPointer(start: UnsafeRawPointer(cString).assumingMemoryBound(to: UInt8.self),
                                      count: strlen(cString))
        if let valid = String(validating: raw, as: UTF8.self) { return valid }
        var name = String.UnicodeScalarView()
        var index = 0
        // Scalar by scalar; a byte that starts no valid sequence is kept on its own.
        while index < raw.count {
            var rest = UnsafeBufferPointer(rebasing: raw[index...]).makeIterator()
            var decoder = UTF8()
            if case .scalarValue(let scalar) = decoder.decode(&rest) {
                name.append(scalar)
                index += scalar.utf8.count
            } else {
                name.append(Unicode.Scalar(firstByteCharacter + UInt32(raw[index] & 0x7F))!)
                index += 1
            }
        }
        return String(name)
    }

    /// Calls `body` with the name's bytes as a C string, the characters that stand for bytes turned back.
    public static func withBytes<R>(_ name: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        var bytes: [CChar] = []
        bytes.reserveCapacity(name.utf8.count + 1)
        for scalar in name.unicodeScalars {
            if scalar.value >= firstByteCharacter {
                bytes.append(CChar(bitPattern: UInt8(0x80 | (scalar.value - firstByteCharacter))))
            } else {
                bytes.append(contentsOf: scalar.utf8.map { CChar(bitPattern: $0) })
            }
        }
        bytes.append(0)
        return try bytes.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }
}
