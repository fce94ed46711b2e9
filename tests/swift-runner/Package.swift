// swift-tools-version:6.0
// The Swift runner of the shared scenarios (tests/scenarios), the latency benchmark and other
// tests of the AcesUpCore package against the host libacesup. Run by scripts/test-all.sh.
import PackageDescription

let package = Package(
    name: "AcesUpScenarios",
    dependencies: [.package(path: "../../bindings/swift")],
    targets: [
        .testTarget(
            name: "AcesUpScenarioTests",
            dependencies: [.product(name: "AcesUpCore", package: "swift")],
            path: "Tests/AcesUpScenarioTests"
        ),
    ]
)
