import Text

/// The glyph sets that glyph quality (TextTests) and glyph speed (TextBenchmarks) are judged on: printable ASCII
/// in DejaVu Sans and 200 common Chinese characters in WenQuanYi Micro Hei.
public enum GlyphSets {
    /// Printable ASCII with an outline: "!" to "~" (the space has none).
    public static let ascii: [Unicode.Scalar] = (0x21...0x7E).map { Unicode.Scalar(UInt8($0)) }

    /// 200 common Chinese characters: the list strings of the effects first, then the most frequent characters
    /// of modern written Chinese, duplicates removed.
    public static let chinese: [Unicode.Scalar] = {
        let source = "下拉可以刷新松开立即正在数据中最后更今天已经全部加载完毕成功失败释放"
            + "的一是不了人我有他这大来上个国到说们为子和你地出道也时年得就那要以生会自着去之过家学对她里小么心多而能好都"
            + "然没日于起还发事只作当想看文无手十用主行方又如前所本见头面公同三老从动两长知民样现分将外但身些与高意进把法此"
            + "实回二理美点月明其种声全工己话儿者向情名定女问力机给等几很业间什打便位因重被走电四第门相次东政海口使教西再平"
            + "真听世气信北少关并内化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报马命张活难神件安表原车"
        var seen = Set<Unicode.Scalar>()
        var list: [Unicode.Scalar] = []
        for s in source.unicodeScalars where list.count < 200 && seen.insert(s).inserted { list.append(s) }
        return list
    }()

    /// The pixel sizes the quality requirement names.
    public static let sizes: [Double] = [12, 16, 24, 48]

    /// Each font with the glyph indices of its set.
    public static func fonts() throws -> [(Font, [UInt32])] {
        let latin = try FontRequest.dejaVuSans.load(), cjk = try FontRequest.wenQuanYiMicroHei.load()
        return [(latin, ascii.map(latin.glyphIndex)), (cjk, chinese.map(cjk.glyphIndex))]
    }
}
