import Styles

// Scenes, gesture scripts and style files share one JSON reader, which lives in Styles.
typealias JSONValue = Styles.JSONValue
typealias JSONReader = Styles.JSONReader
typealias JSONSyntaxError = Styles.JSONSyntaxError
