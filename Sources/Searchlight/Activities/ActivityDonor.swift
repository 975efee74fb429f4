import Foundation

/// Saves donations into a container: the part of `becomeCurrent()` shared by the Linux `NSUserActivity` and
/// the Apple-platform `SearchlightActivityDonation`.
package enum ActivityDonor {
    /// Validates and stores `donation` for `donor` (the live activity object). A `visit` (the activity became
    /// current, as opposed to a re-save of the current one) also counts as engagement for its result; when
    /// `claimVisit` is given it is asked first, once the record is found, and the visit counts only if it says so.
    /// `completion` gets nil once the record is visible to queries (or was dropped because the item it is tied to
    /// does not exist, as Apple does, or was stored already expired), or the error that kept it out; it runs on
    /// the container's callback queue, in call order, and must not block (an app's handler goes through
    /// `SearchlightContainer.callHandler(_:)`).
    package static func save(_ donation: ActivityDonation, donor: ActivityRegistry.Activity?, in container: SearchlightContainer,
                             visit: Bool, claimVisit: (@Sendable () -> Bool)? = nil,
                             completion: (@Sendable (CSIndexError?) -> Void)?) {
        let problems = donation.validationProblems()
        if !problems.isEmpty {
            let error = CSIndexError.invalidItem(problems.map(\.message).joined(separator: "; ")
                                                 + "; the activity was not indexed")
            container.afterPendingWrites { completion?(error) }
            return
        }
        if let donor { container.activities.registerDonor(donor, for: donation.recordIdentifier) }
        let visited = visit ? container.clock() : nil
        container.submit([.activities(.donate(donation))]) { error in
            // A visit counts only for a record queries can find: one tied to an item that does not exist is
            // dropped, one whose expirationDate has passed is never found; counted, either lifted its item. A
            // record found under the identifier must rank under this donation's key: a dropped re-donation (tied
            // to another item) leaves the earlier record in place. Compared by bytes, as items are keyed: `==` calls
            // a canonically equivalent identifier (another item) the same.
            if error == nil, let visited {
                container.recordingEngagement { snapshot in
                    guard let address = snapshot.engine.lookup(id: donation.recordIdentifier),
                          snapshot.isVisible(address),
                          let ranked = ActivityResults.engagementIdentifier(of: address, in: snapshot),
                          let key = ActivityResults.engagementIdentifier(record: donation.recordIdentifier,
                                                                         strong: donation.strongLink,
                                                                         weak: donation.weakLink, in: snapshot),
                          ranked.utf8.elementsEqual(key.utf8), claimVisit?() ?? true else { return }
                    container.engagement.recordDonation(of: key, at: visited)
                }
            }
            completion?(error)
        }
    }

    /// Deletes the records donated with these persistent identifiers, then calls the app's `completion`.
    package static func delete(persistentIdentifiers: [String], in container: SearchlightContainer,
                               completion: @escaping @Sendable () -> Void) {
        container.submit([.activities(.deletePersistentIdentifiers(persistentIdentifiers))]) { _ in
            container.callHandler(completion)
        }
    }

    /// Deletes every activity record of the container (items stay), then calls the app's `completion`.
    package static func deleteAll(in container: SearchlightContainer, completion: @escaping @Sendable () -> Void) {
        container.submit([.activities(.deleteAll)]) { _ in container.callHandler(completion) }
    }
}
