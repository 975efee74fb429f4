import XCTest
@testable import SearchlightQueryLanguage

/// The query strings of corespotlight-reference.md §2.7, all of which must parse to the intended tree.
final class ReferenceExamplesTests: XCTestCase {
    static let examples = [
        #"title == "Paris""#,
        #"title == "paris"cd"#,
        #"title == "Par*"cd"#,
        #"title == "*aris*"c"#,
        #"title == "P?ris""#,
        #"keywords == "travel"cd"#,
        #"authorNames == "Tim*"cdw"#,
        #"contentType == "public.email-message" && subject != "Re:*""#,
        #"contentTypeTree == "public.image""#,
        #"(authorNames == "Tim"wc || authorNames == "Steve"wc) && InRange(completionDate, $time.today(-10), $time.today)"#,
        #"textContent == "twitter"cdwt"#,
        #"metadataModificationDate >= 519771600"#,
        #"contentCreationDate > $time.iso(2024-01-01T00:00:00Z)"#,
        #"lastUsedDate >= $time.now(-86400)"#,
        #"InRange(duration, 60, 300)"#,
        #"rating >= 4 && playCount > 10"#,
        #"domainIdentifier == "acct1.inbox""#,
        #"domainIdentifier == "acct1*""#,
        #"thumbnailURL == "*""#,
        #"contentDescription != "*""#,
        #"* == "budget*"cdw || textContent == "budget*"cdw"#,
        #"com_mycompany_myapp_status == "open"c && InRange(dueDate, $time.today, $time.today(7))"#,
        #"allDay == 1 && startDate >= $time.this_week && startDate < $time.this_week(1)"#,
    ]

    func testAllExamplesParse() {
        for example in Self.examples {
            XCTAssertNotNil(parse(example), example)
        }
    }

    func testExampleShapes() {
        let c = StringModifiers.caseInsensitive, d = StringModifiers.diacriticInsensitive
        let w = StringModifiers.wordBased, t = StringModifiers.tokenized
        XCTAssertEqual(parse(Self.examples[0])?.strippingPositions(), cmp("title", .equal, string("Paris")))
        XCTAssertEqual(parse(Self.examples[1])?.strippingPositions(), cmp("title", .equal, string("paris"), [c, d]))
        XCTAssertEqual(comparison(Self.examples[2])?.value, .string(StringPattern(segments: [.literal("Par"), .anyRun])))
        XCTAssertEqual(comparison(Self.examples[4])?.value,
                       .string(StringPattern(segments: [.literal("P"), .anyOne, .literal("ris")])))
        XCTAssertEqual(comparison(Self.examples[6])?.modifiers, [c, d, w])
        XCTAssertEqual(parse(Self.examples[7])?.strippingPositions(), .and([
            cmp("contentType", .equal, string("public.email-message")),
            cmp("subject", .notEqual, string("Re:*")),
        ], range: .none))
        XCTAssertEqual(parse(Self.examples[9])?.strippingPositions(), .and([
            .or([cmp("authorNames", .equal, string("Tim"), [c, w]),
                 cmp("authorNames", .equal, string("Steve"), [c, w])], range: .none),
            .inRange(InRangeTest(attribute: .named("completionDate"),
                                 lower: .time(TimeExpression(.today, offset: -10)),
                                 upper: .time(TimeExpression(.today)))),
        ], range: .none))
        XCTAssertEqual(comparison(Self.examples[10])?.modifiers, [c, d, w, t])
        XCTAssertEqual(comparison(Self.examples[11])?.value, number("519771600", 519_771_600))
        XCTAssertEqual(comparison(Self.examples[13])?.value, .time(TimeExpression(.now, offset: -86400)))
        guard case .or(let finder, _)? = parse(Self.examples[20]), case .comparison(let any) = finder[0] else {
            return XCTFail()
        }
        XCTAssertEqual(any.attribute, .any)
        guard case .and(let events, _)? = parse(Self.examples[22]) else { return XCTFail() }
        XCTAssertEqual(events.count, 3)
        XCTAssertEqual(events[2].strippingPositions(),
                       cmp("startDate", .less, .time(TimeExpression(.thisWeek, offset: 1))))
    }

    func testExamplesRoundTrip() {
        for example in Self.examples {
            guard let tree = parse(example) else { continue }
            let printed = tree.canonicalQuery
            XCTAssertEqual(parse(printed)?.strippingPositions(), tree.strippingPositions(), printed)
            XCTAssertEqual(parse(printed)?.canonicalQuery, printed, "printing is idempotent")
        }
    }

    func testCanonicalPrintingAndTree() {
        XCTAssertEqual(parse(#"a = 'it\'s'dc || !(b<0xff) && c==*"#)?.canonicalQuery,
                       #"a == "it's"cd || (!(b < 0xff) && c == "*")"#)
        XCTAssertEqual(parse(#"t == "a\*b?\"""#)?.canonicalQuery, #"t == "a\*b?\"""#)
        let tree = parse(Self.examples[9])?.treeDescription()
        XCTAssertEqual(tree, """
            and 1..<110
              or 1..<51
                comparison 1..<23 authorNames == "Tim" shape=exact modifiers=cw
                comparison 27..<51 authorNames == "Steve" shape=exact modifiers=cw
              in-range 56..<110 completionDate lower=$time.today(-10) upper=$time.today
            """)
    }
}
