import Foundation
import XCTest
@testable import Searchlight
import SearchlightEngine

/// The byte pre-check of the title-coverage factor never drops a title whose
/// normalized form starts with the typed text (written by the review).
final class TitleCoveragePreCheckTests: XCTestCase {
    static let titles: [String] = [
        "", " ", "\t\n", "Fire", " fire", "\u{3000}fire", "\u{00A0}fire", "\u{FEFF}fire", "\u{200B}fire",
        "Ｆｉｒｅ", "ｆire", "ﬁre", "ﬁ", "ß", "ßtraße", "Straße", "SS", "ss", "strasse", "É", "émacs", "Émacs", "e\u{301}macs",
        "\u{301}emacs", " \u{301}emacs", "0ad", "０ad", "²ad", "½", "1", "İstanbul", "istanbul", "ǅemo", "ǆ", "dz",
        "中文", "中文输入", "Ⅷ", "viii", "ℌello", "hello", "\u{1C}hello", "\u{85}hello", "\u{2028}hello", "\r\nhello",
        "x", "X11", "ｘ", "Ⓧ", "ǈ", "lj", "Ǉ", "ᴀbc", "abc", "Æther", "aether", "Øre", "ore", "Łódź", "lodz", "þorn", "thorn",
        "Ωmega", "ωmega", "Σίσυφος", "σισυφος", "\u{0130}", "K", "\u{212A}elvin", "kelvin", "\u{212B}ngstrom", "angstrom",
        "ﬀ", "ff", "ﬃx", "ffix", "\u{00AD}soft", "soft", "\u{2060}word", "word", "  multi   space  ", "multi space",
        "tab\tbed", "tab bed", String(repeating: "long title ", count: 400), "long title", "\u{1F600}smile", "smile",
    ]
    static let typed: [String] = [
        "fire", "Fire", "ｆ", "ﬁ", "f", "fi", "ss", "s", "strasse", "e", "emacs", "é", "0", "0ad", "1", "2", "i", "istanbul",
        "d", "dz", "中", "viii", "v", "h", "hello", "x", "x11", "l", "lj", "a", "abc", "ae", "o", "ore", "lodz", "t", "th",
        "ω", "σ", "k", "kelvin", "angstrom", "ff", "ffix", "soft", "word", "multi", "multi space", "tab bed", "long title",
        "smile", " fire", "  x", "\u{3000}fire", "ＦＩＲＥ",
    ]

    func testFactorAgreesWithReferenceOnTrickyTitles() throws {
        let items = Self.titles.enumerated().map { makeItem("t\($0.offset)", title: $0.element, description: "a title under test") }
        let container = makeContainer(items)
        let snapshot = container.snapshot()
        let title = try XCTUnwrap(snapshot.engine.schema.field(named: "title"))
        var covered = 0
        for text in Self.typed {
            let ranking = UserQueryRanking(snapshot: snapshot, engagement: [:], typedText: text)
            let typed = UserQueryRanking.normalize(text)
            for address in snapshot.engine.matches(.all) {
                var coverage = 0.0
                if !typed.isEmpty {
                    for value in snapshot.engine.text(title, of: address) {
                        let folded = UserQueryRanking.normalize(value)
                        guard folded.hasPrefix(typed), !folded.isEmpty else { continue }
                        coverage = max(coverage, Double(typed.unicodeScalars.count) / Double(folded.unicodeScalars.count))
                    }
                }
                if coverage > 0 { covered += 1 }
                // The other signals are 1 here (no hint, date or engagement).
                XCTAssertEqual(ranking.factor(address), Float(1 + 0.5 * coverage),
                               "typed \(text.debugDescription) title \(snapshot.engine.text(title, of: address).map(\.debugDescription))")
            }
        }
        XCTAssertGreaterThan(covered, 100)
        XCTAssertGreaterThan(covered, 30)
    }

    /// Brute force over short strings of tricky scalars: whenever the normalized title starts with the normalized
    /// typed text, the byte pre-check passes.
    func testPreCheckNeverRejectsAMatch() {
        let alphabet: [String] = ["a", "A", "f", "F", "s", "S", "0", " ", "\t", "ß", "ﬁ", "Ｆ", "\u{301}", "\u{3000}",
                                  "\u{A0}", "\u{212A}", "k", "é", "\u{1C}", "\u{85}", "\u{FEFF}", "Æ", "\u{2028}", "\r\n"]
        var titles: [String] = [""]
        for a in alphabet { titles.append(a); for b in alphabet { titles.append(a + b); for c in ["a", "f", "s", "k"] { titles.append(a + b + c) } } }
        var typedTexts = Set<String>()
        for t in titles { let n = UserQueryRanking.normalize(t); if !n.isEmpty { for k in 1...n.count { typedTexts.insert(String(n.prefix(k))) } } }
        var checked = 0
        for title in titles {
            let folded = UserQueryRanking.normalize(title)
            for typed in typedTexts where folded.hasPrefix(typed) {
                checked += 1
                XCTAssertTrue(UserQueryRanking.mayStart(Array(title.utf8), with: typed.utf8.first),
                              "title \(title.debugDescription) typed \(typed.debugDescription)")
            }
        }
        XCTAssertGreaterThan(checked, 1_000)
    }
}
