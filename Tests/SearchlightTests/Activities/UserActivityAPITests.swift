// The Linux NSUserActivity (Foundation has its own on Apple platforms; see SearchlightActivityDonation).
#if !canImport(Darwin)
import Foundation
import XCTest
@testable import Searchlight

/// The search half of `NSUserActivity`: Apple's defaults, property semantics, current/resign/invalidate.
final class UserActivityAPITests: XCTestCase {
    func testDefaultsFollowApple() {
        let activity = NSUserActivity(activityType: "com.example.read")
        XCTAssertEqual(activity.activityType, "com.example.read")
        XCTAssertNil(activity.title)
        XCTAssertEqual(activity.keywords, [])
        XCTAssertNil(activity.userInfo)
        XCTAssertNil(activity.requiredUserInfoKeys)
        XCTAssertFalse(activity.needsSave)
        XCTAssertNil(activity.webpageURL)
        XCTAssertNil(activity.referrerURL)
        XCTAssertNil(activity.expirationDate)
        XCTAssertFalse(activity.isEligibleForSearch)
        XCTAssertTrue(activity.isEligibleForHandoff)
        XCTAssertFalse(activity.isEligibleForPublicIndexing)
        XCTAssertFalse(activity.isEligibleForPrediction)
        XCTAssertNil(activity.persistentIdentifier)
        XCTAssertNil(activity.targetContentIdentifier)
        XCTAssertNil(activity.contentAttributeSet)
        XCTAssertNil(activity.delegate)
        XCTAssertFalse(activity.isCurrent)
        XCTAssertTrue(activity.container === SearchlightContainer.default)
        XCTAssertEqual(NSUserActivityTypeBrowsingWeb, "NSUserActivityTypeBrowsingWeb")
        let id: NSUserActivityPersistentIdentifier = "x"
        XCTAssertEqual(id, "x")
    }

    /// The seed code from the issue, unchanged, then found by its title and continued with its userInfo.
    func testSeedCodeCompilesAndIndexes() async throws {
        struct User { let name: String }
        let user = User(name: "Punmy Tester")
        let scheme = "punmy://user/42"
        let attributeSet = CSSearchableItemAttributeSet(itemContentType: "public.content")
        attributeSet.contentDescription = "A user profile"
        let fixture = ActivityFixture()

        let activity = NSUserActivity(activityType: "com.meitu.punmy.user")
        activity.container = fixture.container  // Searchlight: which container receives the donation
        activity.title = user.name
        activity.contentAttributeSet = attributeSet
        activity.userInfo = ["scheme": scheme]
        activity.isEligibleForSearch = true
        activity.expirationDate = Date(timeIntervalSinceNow: 7*24*60*60)
        activity.becomeCurrent()

        await fixture.settle()
        XCTAssertTrue(activity.isCurrent)
        let results = fixture.search("punmy")
        XCTAssertEqual(results.count, 1)
        let continued = try XCTUnwrap(SearchlightContinuation.activity(forSelecting: results[0], in: fixture.container))
        XCTAssertEqual(continued.activityType, "com.meitu.punmy.user")
        XCTAssertEqual(continued.userInfo?["scheme"] as? String, scheme)
        XCTAssertEqual(continued.title, "Punmy Tester")
        XCTAssertEqual(fixture.search("profile"), results, "the attribute set is searchable too")
    }

    func testUserInfoEntriesMerge() {
        let activity = NSUserActivity(activityType: "t")
        activity.addUserInfoEntries(from: ["a": 1])
        activity.addUserInfoEntries(from: ["b": "two", "a": 3])
        XCTAssertEqual(activity.userInfo?["a"] as? Int, 3)
        XCTAssertEqual(activity.userInfo?["b"] as? String, "two")
        XCTAssertEqual(activity.userInfo?.count, 2)
    }

    /// Apple declares `@NSCopying var contentAttributeSet`: the activity keeps a copy, so changing the app's set
    /// after assigning it does not change the activity (what is shown and indexed). It kept the app's object.
    func testContentAttributeSetIsCopiedWhenSet() async throws {
        let fixture = ActivityFixture()
        let activity = fixture.activity(title: "Trip")
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        set.contentDescription = "lisbon"
        activity.contentAttributeSet = set
        set.contentDescription = "porto"
        XCTAssertFalse(activity.contentAttributeSet === set)
        XCTAssertEqual(activity.contentAttributeSet?.contentDescription, "lisbon")
        activity.contentAttributeSet?.keywords = ["tram"]
        XCTAssertEqual(activity.contentAttributeSet?.keywords, ["tram"], "the stored copy is the one the getter returns")
        try await activity.becomeCurrentAndWait()
        XCTAssertEqual(fixture.search("lisbon").count, 1)
        XCTAssertEqual(fixture.search("porto"), [])
        XCTAssertEqual(fixture.search("tram").count, 1)
    }

    func testWebpageURLAcceptsOnlyHTTPAndHTTPS() {
        let activity = NSUserActivity(activityType: "t")
        activity.webpageURL = URL(string: "https://example.com/a")
        XCTAssertEqual(activity.webpageURL?.absoluteString, "https://example.com/a")
        activity.webpageURL = URL(string: "HTTP://example.com/b")
        XCTAssertEqual(activity.webpageURL?.absoluteString, "HTTP://example.com/b")
        activity.webpageURL = URL(string: "file:///etc/passwd")
        XCTAssertNil(activity.webpageURL)
        activity.webpageURL = URL(string: "myapp://x")
        XCTAssertNil(activity.webpageURL)
        activity.referrerURL = URL(string: "myapp://from")
        XCTAssertEqual(activity.referrerURL?.absoluteString, "myapp://from", "referrerURL has no scheme rule")
    }

    func testOneCurrentActivityPerContainer() {
        let fixture = ActivityFixture()
        let first = fixture.activity("a", eligible: false)
        let second = fixture.activity("b", eligible: false)
        first.becomeCurrent()
        XCTAssertTrue(first.isCurrent)
        second.becomeCurrent()
        XCTAssertFalse(first.isCurrent, "becoming current resigns the previous activity")
        XCTAssertTrue(second.isCurrent)
        XCTAssertTrue(fixture.container.activities.current === second)
        first.resignCurrent()
        XCTAssertTrue(second.isCurrent, "resigning a non-current activity changes nothing")
        second.resignCurrent()
        XCTAssertFalse(second.isCurrent)
        XCTAssertNil(fixture.container.activities.current)

        let elsewhere = ActivityFixture().activity("c", eligible: false)
        first.becomeCurrent()
        elsewhere.becomeCurrent()
        XCTAssertTrue(first.isCurrent, "containers have separate current activities")
        XCTAssertTrue(elsewhere.isCurrent)
    }

    func testInvalidatedActivityNeverBecomesCurrentAgain() async {
        let fixture = ActivityFixture()
        let activity = fixture.activity(title: "gone soon")
        activity.becomeCurrent()
        activity.invalidate()
        XCTAssertFalse(activity.isCurrent)
        XCTAssertTrue(activity.isInvalidated)
        do {
            try await activity.becomeCurrentAndWait()
            XCTFail("an invalidated activity became current")
        } catch {
            XCTAssertEqual(indexErrorCode(error), .unknownError)
        }
        XCTAssertFalse(activity.isCurrent)
        XCTAssertNotNil(activity.lastDonationError)
        XCTAssertEqual(fixture.activities.count, 1, "its earlier record stays until it expires or is deleted")
    }

    /// `invalidate()` racing `becomeCurrent()` on another thread: whichever wins, the invalidated activity is not
    /// left current. It was when the invalidation landed between becomeCurrent's check and its making current.
    func testInvalidateRacingBecomeCurrentNeverLeavesItCurrent() async {
        let fixture = ActivityFixture()
        var leftCurrent = 0
        for _ in 0..<200_000 {
            let activity = fixture.activity(title: "raced", eligible: false)
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                if i == 0 { activity.becomeCurrent() } else { activity.invalidate() }
            }
            if activity.isCurrent { leftCurrent += 1 }
        }
        await fixture.settle()
        XCTAssertEqual(leftCurrent, 0, "invalidated activities left current")
    }

    func testNeedsSaveAsksTheDelegateBeforeSaving() async throws {
        let fixture = ActivityFixture()
        let delegate = RecordingActivityDelegate()
        let activity = fixture.activity(title: "draft")
        delegate.onWillSave = { $0.title = "final title" }
        activity.delegate = delegate
        activity.needsSave = true
        XCTAssertEqual(delegate.events, [], "not current: nothing is saved yet")
        try await activity.becomeCurrentAndWait()
        XCTAssertEqual(delegate.events, ["willSave"])
        XCTAssertFalse(activity.needsSave, "a save clears needsSave")
        XCTAssertEqual(fixture.activities.map(\.donation.title), ["final title"], "the delegate's update was indexed")

        // Setting needsSave on the current activity saves it again at once.
        delegate.onWillSave = { $0.keywords = ["rewritten"] }
        activity.needsSave = true
        XCTAssertEqual(delegate.events, ["willSave", "willSave"])
        await fixture.settle()
        XCTAssertEqual(fixture.search("rewritten").count, 1)

        // Without needsSave the delegate is not asked.
        try await activity.becomeCurrentAndWait()
        XCTAssertEqual(delegate.events, ["willSave", "willSave"])
    }

    /// Apple: "When this property is true and the user activity object is current, Spotlight indexes the
    /// activity." Made eligible after it became current, the activity stayed out of the index until it became
    /// current again. Made eligible while not current, it still waits for `becomeCurrent()`.
    func testBecomingEligibleWhileCurrentIndexes() async {
        let fixture = ActivityFixture()
        let activity = fixture.activity(title: "late bloomer", eligible: false)
        activity.becomeCurrent()
        await fixture.settle()
        XCTAssertEqual(fixture.search("bloomer"), [])
        activity.isEligibleForSearch = true
        await fixture.settle()
        XCTAssertEqual(fixture.search("bloomer").count, 1)
        XCTAssertNil(activity.lastDonationError)

        let idle = fixture.activity(title: "wallflower", eligible: false)
        idle.isEligibleForSearch = true
        await fixture.settle()
        XCTAssertEqual(fixture.search("wallflower"), [], "not current: nothing is indexed yet")
    }

    /// `becomeCurrent()` from inside `userActivityWillSave` saves without asking again: it asked again (needsSave
    /// was still set) and recursed without bound.
    func testBecomeCurrentFromWillSaveDoesNotRecurse() async throws {
        let fixture = ActivityFixture()
        let delegate = RecordingActivityDelegate()
        let activity = fixture.activity(title: "draft")
        delegate.onWillSave = { [unowned delegate] activity in
            activity.title = "final title"
            if delegate.events.count < 50 { activity.becomeCurrent() }  // capped: the test reports instead of crashing
        }
        activity.delegate = delegate
        activity.needsSave = true
        try await activity.becomeCurrentAndWait()
        XCTAssertEqual(delegate.events, ["willSave"])
        XCTAssertFalse(activity.needsSave)
        await fixture.settle()
        XCTAssertEqual(fixture.activities.map(\.donation.title), ["final title"])
    }

    func testDelegateIsWeak() {
        let activity = NSUserActivity(activityType: "t")
        var delegate: RecordingActivityDelegate? = RecordingActivityDelegate()
        activity.delegate = delegate
        XCTAssertNotNil(activity.delegate)
        delegate = nil
        XCTAssertNil(activity.delegate)
    }

    /// Apple declares `protocol NSUserActivityDelegate: NSObjectProtocol`, so app code may use a delegate as one
    /// (`isEqual`, `hash`, an `NSObjectProtocol` value). It was only `AnyObject`, and such code did not compile.
    func testDelegateIsAnNSObjectProtocol() {
        let activity = NSUserActivity(activityType: "t")
        let delegate = RecordingActivityDelegate()
        activity.delegate = delegate
        XCTAssertEqual(activity.delegate?.isEqual(delegate), true)
        XCTAssertEqual(activity.delegate?.hash, delegate.hash)
        let object: (any NSObjectProtocol)? = activity.delegate
        XCTAssertTrue(object === delegate)
    }

    /// The properties are `open`, and Apple reads an activity through them when it saves it, so a subclass that
    /// computes its `title`, `keywords`, `userInfo` or `isEligibleForSearch` is indexed and continued with those. The save read the base
    /// class's stored values, so such an activity was indexed without a title (not found) and with no userInfo.
    func testSaveReadsOverriddenProperties() async throws {
        let fixture = ActivityFixture()
        let activity = ArticleActivity(article: "zebra")
        activity.container = fixture.container
        try await activity.becomeCurrentAndWait()
        let result = try XCTUnwrap(fixture.search("zebra").first)
        XCTAssertEqual(fixture.search("savanna"), [result])
        let continued = try XCTUnwrap(SearchlightContinuation.activity(forSelecting: result, in: fixture.container))
        XCTAssertEqual(continued.title, "Article: zebra")
        XCTAssertEqual(continued.userInfo?["article"] as? String, "zebra")
    }

    func testDonationContainerIsConfigurable() {
        let original = NSUserActivity.donationContainer
        defer { NSUserActivity.donationContainer = original }
        let other = SearchlightContainer()
        NSUserActivity.donationContainer = other
        let activity = NSUserActivity(activityType: "t")
        XCTAssertTrue(activity.container === other)
        activity.becomeCurrent()
        XCTAssertTrue(NSUserActivity.current === activity)
        activity.invalidate()
        XCTAssertNil(NSUserActivity.current)
    }

    func testConcurrentUseIsSafe() async {
        let fixture = ActivityFixture()
        let activity = fixture.activity(title: "shared")
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<8 {
                group.addTask {
                    activity.addUserInfoEntries(from: ["k\(i)": i])
                    activity.keywords = ["k\(i)"]
                    activity.becomeCurrent()
                }
            }
        }
        await fixture.settle()
        XCTAssertEqual(activity.userInfo?.count, 8)
        XCTAssertTrue(activity.isCurrent)
    }
}

/// An app's subclass computing its title, keywords, userInfo and eligibility from its model.
private final class ArticleActivity: NSUserActivity, @unchecked Sendable {
    let article: String
    init(article: String) {
        self.article = article
        super.init(activityType: "com.example.article")
    }
    override var title: String? { get { "Article: \(article)" } set {} }
    override var keywords: Set<String> { get { ["savanna"] } set {} }
    override var userInfo: [AnyHashable: Any]? { get { ["article": article] } set {} }
    override var isEligibleForSearch: Bool { get { true } set {} }
}
#endif
