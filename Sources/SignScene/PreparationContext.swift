import SignGraphics

/// What preparing a layer needs besides the layer: the board it is drawn on, the fonts its
/// text is laid out with and the icons its markup names. One value, handed down, instead of
/// the same parameters threaded through every call.
public struct PreparationContext: Sendable {
    public var boardWidth: Int
    public var boardHeight: Int
    public var fonts: FontLibrary
    public var icons: [String: AnimatedImage]
    /// Turns a layer's text, live fields and all, into the text shown now (`nil`: texts are
    /// shown as written).
    public var fields: (@Sendable (String) -> String)?

    public init(
        boardWidth: Int, boardHeight: Int, fonts: FontLibrary, icons: [String: AnimatedImage] = [:],
        fields: (@Sendable (String) -> String)? = nil
    ) {
        self.boardWidth = boardWidth
        self.boardHeight = boardHeight
        self.fonts = fonts
        self.icons = icons
        self.fields = fields
    }

    /// The context of a scene's board and icons.
    public init(_ scene: Scene, fonts: FontLibrary, fields: (@Sendable (String) -> String)? = nil) {
        self.init(boardWidth: scene.width, boardHeight: scene.height, fonts: fonts, icons: scene.icons, fields: fields)
    }
}
