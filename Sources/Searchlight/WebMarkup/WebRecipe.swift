import Foundation

/// A schema.org `Recipe`.
public struct WebRecipe: Sendable, Hashable {
    public var name: String?
    public var description: String?
    public var images: [URL]
    public var ingredients: [String]
    /// `totalTime` in seconds, else `prepTime + cookTime` when both are given.
    public var totalTime: TimeInterval?
    public var cookTime: TimeInterval?
    public var prepTime: TimeInterval?
    /// `recipeYield` as written (`4 servings`).
    public var yield: String?
    public var authors: [String]
    public var rating: WebRating?

    static let types: Set<String> = ["Recipe"]

    init(_ node: SchemaNode, base: URL?) {
        name = node.string("name")
        description = node.string("description")
        images = WebMarkupURLs.images(of: node, base: base)
        ingredients = node.strings("recipeIngredient") + node.strings("ingredients")
        let cook = node.string("cookTime").flatMap(SchemaTime.duration)
        let prep = node.string("prepTime").flatMap(SchemaTime.duration)
        cookTime = cook
        prepTime = prep
        if let total = node.string("totalTime").flatMap(SchemaTime.duration) {
            totalTime = total
        } else if let cook, let prep {
            totalTime = cook + prep
        } else {
            totalTime = nil
        }
        yield = node.string("recipeYield")
        authors = node.strings("author")
        rating = WebRating(of: node)
    }
}
