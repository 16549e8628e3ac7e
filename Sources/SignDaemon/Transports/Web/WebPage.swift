/// The control page's files, compiled into signd (SwiftPM embeds Sources/SignDaemon/Transports/Web/Page):
/// nothing is served from disk and the page needs nothing from the internet.
enum WebPage {
    /// A file of the page and its media type.
    struct File: Sendable {
        let contentType: String
        let bytes: [UInt8]
    }

    /// The page's files by the path they are served at.
    static let files: [String: File] = [
        "/": File(contentType: "text/html; charset=utf-8", bytes: PackageResources.index_html),
        "/page.css": File(contentType: "text/css; charset=utf-8", bytes: PackageResources.page_css),
        "/page.js": File(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.page_js),
    ]
}
