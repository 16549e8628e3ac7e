// swift-tools-version: 6.1
// signd: a Linux daemon that drives LED signs. See README.md and DESIGN.md in shared/.
import PackageDescription

let package = Package(
    name: "signd",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "signd", targets: ["signd"]),
        .executable(name: "signctl", targets: ["signctl"]),
        .executable(name: "signd-matrix", targets: ["signd-matrix"]),
        .library(name: "SignTiming", targets: ["SignTiming"]),
        .library(name: "SignGraphics", targets: ["SignGraphics"]),
        .library(name: "SignScene", targets: ["SignScene"]),
        .library(name: "SignOutput", targets: ["SignOutput"]),
        .library(name: "SignUSB", targets: ["SignUSB"]),
        .library(name: "SignControl", targets: ["SignControl"]),
        .library(name: "SignWire", targets: ["SignWire"]),
        .library(name: "SignConfig", targets: ["SignConfig"]),
        .library(name: "SignDaemon", targets: ["SignDaemon"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
    ],
    targets: [
        // System libraries: a module map and a one-line shim header each.
        .systemLibrary(
            name: "CFreeType", pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"])]),
        // Text shaping (HarfBuzz, through its FreeType integration) and the Unicode
        // Bidirectional Algorithm (FriBidi), for every script a sign writes.
        .systemLibrary(
            name: "CHarfBuzz", pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(
            name: "CFriBidi", pkgConfig: "fribidi",
            providers: [.apt(["libfribidi-dev"])]),
        .systemLibrary(
            name: "CLibUSB", pkgConfig: "libusb-1.0",
            providers: [.apt(["libusb-1.0-0-dev"])]),
        .systemLibrary(
            name: "CSystemd", pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(
            name: "CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        // GIF and WebP (still and animated) for image layers and icons: giflib read record by
        // record, libwebp's demuxer and animation decoder.
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        // libmosquitto's header only: the library is opened with dlopen when [mqtt] is
        // configured (MosquittoLibrary), so it is not linked.
        .systemLibrary(
            name: "CMosquitto",
            providers: [.apt(["libmosquitto-dev"])]),
        // Release/acquire loads and stores on shared memory, which Swift's Atomic cannot address.
        .systemLibrary(name: "CSeqlock"),
        // glibc's mallinfo2, for the heap in use that `status` reports.
        .systemLibrary(name: "CMalloc"),
        // The kernel's termios2 (any baud rate) and spidev ioctls, which glibc does not declare.
        .systemLibrary(name: "CTermios2"),
        .systemLibrary(name: "CSPIDev"),
        // sendmmsg(2), which glibc declares only under _GNU_SOURCE: a frame's datagrams in one call.
        .systemLibrary(name: "CSendmmsg"),
        // rpi-rgb-led-matrix's C API as signd-matrix calls it through dlopen: declared, never linked.
        .systemLibrary(name: "CRGBMatrix"),
        // libFuzzer's driver entry, declared for the fuzz targets' main.
        .systemLibrary(name: "CFuzzer"),

        .target(name: "SignTiming"),
        .target(name: "SignGraphics", dependencies: ["CFreeType", "CHarfBuzz", "CFriBidi", "CPNG", "CGIF", "CWebP"]),
        .target(name: "SignScene", dependencies: ["SignTiming", "SignGraphics"]),
        .target(name: "SignOutput", dependencies: ["SignGraphics", "SignWire", "CSeqlock", "CTermios2", "CSPIDev", "CSendmmsg"]),
        // The USB LED controllers through libusb, apart from SignOutput so that signctl (which
        // reads the shm framebuffer through SignOutput) does not link libusb.
        .target(name: "SignUSB", dependencies: ["SignOutput", "CLibUSB"]),
        .target(name: "SignControl", plugins: ["BuildCommit"]),
        // Records the commit the sources were built from, for --version and status.
        .plugin(name: "BuildCommit", capability: .buildTool()),
        // The LED network protocols' packets, both ways; pure Swift.
        .target(name: "SignWire"),
        // Config reading: TOMLKit (C++), the guard in front of it and the child process that
        // parses behind one door; what leaves is typed config and located problems.
        // The HUB75 bridge: the shm framebuffer onto hzeller's library, loaded at run time.
        .target(name: "SignMatrix", dependencies: ["SignOutput", "SignControl", "CRGBMatrix"]),
        .target(
            name: "SignConfig",
            dependencies: [
                "SignTiming", "SignGraphics", "SignScene", "SignOutput", "SignWire", "SignControl", "SignMatrix",
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]),
        .target(
            name: "SignDaemon",
            dependencies: [
                "SignTiming", "SignScene", "SignOutput", "SignUSB", "SignWire", "SignControl", "SignConfig", "CSystemd",
                "CMalloc", "CMosquitto",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The web page's files, compiled in (WebPage.swift).
            resources: [.embedInCode("Transports/Web/Page")]),
        .executableTarget(
            name: "signd",
            dependencies: [
                "SignDaemon", "SignConfig",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Peak RSS (docs/performance.md): relative relocations packed (DT_RELR, glibc 2.36),
            // so gold's 95,000 RELA entries (2.3 MB, every page read by ld.so at start) become
            // 18 KB (gold cannot pack them, lld from the Swift toolchain can); and no dynamic
            // export of the binary's 18,000 symbols (1.3 MB of .dynsym/.dynstr/.gnu.hash that
            // ld.so searches when it binds the shared libraries): nothing loads against signd.
            // And libstdc++ linked in (Sources/signd/Link/libstdc++.so says why and how).
            exclude: ["Link"],
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                        "-Xlinker", "--no-export-dynamic",
                        "-L", Context.packageDirectory + "/Sources/signd/Link",
                    ],
                    .when(platforms: [.linux], configuration: .release))
            ]),
        .executableTarget(
            name: "signd-matrix",
            dependencies: [
                "SignMatrix", "SignConfig",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(
            name: "signctl",
            dependencies: [
                "SignControl", "SignOutput", "SignMatrix",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // Fuzz targets: libFuzzer drives them in a -DFUZZING build (`make fuzz`); a plain build
        // replays the corpus through them.
        .executableTarget(
            name: "signd-fuzz",
            dependencies: [
                "SignDaemon", "SignConfig", "SignControl", "SignScene", "SignGraphics", "SignWire", "CFuzzer",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            path: "Fuzz", exclude: ["Corpus", "lsan.supp"]),

        // What the test targets share: running the Python reference tools (tools/*-reference.py).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "SignTimingTests", dependencies: ["SignTiming"]),
        .testTarget(name: "SignGraphicsTests", dependencies: ["SignGraphics", "TestSupport"]),
        .testTarget(name: "SignSceneTests", dependencies: ["SignScene", "TestSupport"]),
        .testTarget(name: "SignOutputTests", dependencies: ["SignOutput", "SignWire"]),
        .testTarget(name: "SignUSBTests", dependencies: ["SignUSB", "SignOutput"]),
        .testTarget(name: "SignControlTests", dependencies: ["SignControl"]),
        .testTarget(name: "SignWireTests", dependencies: ["SignWire"]),
        .testTarget(
            name: "SignConfigTests",
            dependencies: ["SignConfig", "SignGraphics", "SignScene", "SignTiming", "SignOutput"]),
        .testTarget(
            name: "SignDaemonTests",
            dependencies: [
                "SignDaemon", "SignConfig",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]),
        .testTarget(name: "EndToEndTests", dependencies: ["SignControl"]),
        // Runs signd-matrix against a stand-in library the tests compile from standin/.
        .testTarget(
            name: "SignMatrixTests", dependencies: ["SignMatrix", "SignOutput", "SignConfig"], exclude: ["standin"]),
    ],
    swiftLanguageModes: [.v6]
)
