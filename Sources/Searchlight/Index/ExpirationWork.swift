/// What a container's expiration purges cost, counted so tests can check that a purge reads about what expired
/// rather than the whole index (a steadily expiring index purges on nearly every write).
package struct ExpirationWork: Sendable, Equatable {
    /// Writes that purged: their time had reached the earliest expiration.
    package var purges = 0
    /// Index entries the purges read to find the expired documents and the next expiration.
    package var entriesExamined = 0
    /// Activities the orphan pass read to find those tied to an item that went (expired or deleted).
    package var activitiesExamined = 0
}
