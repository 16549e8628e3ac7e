// swift-tools-version: 6.1
// signd's benchmarks: a package of its own, so the malloc interposer stays out of signd's build.
import PackageDescription

let package = Package(
    name: "SignBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "signd", path: "../"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "SignBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "SignTiming", package: "signd"),
                .product(name: "SignGraphics", package: "signd"),
                .product(name: "SignScene", package: "signd"),
                .product(name: "SignOutput", package: "signd"),
                .product(name: "SignWire", package: "signd"),
                .product(name: "SignConfig", package: "signd"),
                .product(name: "SignDaemon", package: "signd"),
            ],
            path: "Benchmarks/SignBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ],
    swiftLanguageModes: [.v6]
)
