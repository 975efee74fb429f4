/// The value-typed contents of an attribute set: catalogue attributes and custom attributes, each slot absent
/// (unset), cleared, or holding a value. Being a plain value, a copy is a deep copy.
package struct AttributeStorage: Sendable, Hashable {
    /// Catalogue attributes by property name.
    package var named: [String: AttributeSlot] = [:]
    /// Custom attributes by key name, with the key's flags.
    package var custom: [String: CustomAttributeEntry] = [:]

    package init(named: [String: AttributeSlot] = [:], custom: [String: CustomAttributeEntry] = [:]) {
        self.named = named
        self.custom = custom
    }

    /// Applies an `isUpdate` item's slots on top of these (values replace, cleared stays cleared).
    package mutating func merge(_ update: AttributeStorage) {
        for (name, slot) in update.named { named[name] = slot }
        for (name, entry) in update.custom { custom[name] = entry }
    }

    /// Drops cleared slots, leaving only values.
    package mutating func removeClearedSlots() {
        named = named.filter { $0.value != .cleared }
        custom = custom.filter { $0.value.slot != .cleared }
    }

    /// The text free-text search looks at, by attribute name: catalogue attributes marked `isText` and custom
    /// attributes whose key is `isSearchableByDefault` (reference §3.6), in catalogue order then custom names.
    package var freeTextValues: [(name: String, texts: [String])] {
        var result: [(name: String, texts: [String])] = []
        let textNames = named.keys.filter { AttributeCatalog.descriptor(named: $0)?.isText == true }
            .sorted { (AttributeCatalog.position(of: $0) ?? 0) < (AttributeCatalog.position(of: $1) ?? 0) }
        for name in textNames {
            if let texts = named[name]?.value?.textValues, !texts.isEmpty { result.append((name, texts)) }
        }
        for name in custom.keys.sorted() {
            guard let entry = custom[name], entry.key.isSearchable, entry.key.isSearchableByDefault,
                  let texts = entry.slot.value?.textValues, !texts.isEmpty else { continue }
            result.append((name, texts))
        }
        return result
    }

    /// True when nothing is set or cleared.
    package var isEmpty: Bool { named.isEmpty && custom.isEmpty }
}

/// A custom attribute's slot together with the flags of the key it was set with.
package struct CustomAttributeEntry: Sendable, Hashable {
    package var key: CustomAttributeKeyInfo
    package var slot: AttributeSlot

    package init(key: CustomAttributeKeyInfo, slot: AttributeSlot) {
        self.key = key
        self.slot = slot
    }
}
