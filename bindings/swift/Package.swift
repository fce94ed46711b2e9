// swift-tools-version:6.0
// AcesUpCore: the generated Swift bindings of libacesup (Sources/ are written by
// bindings/generate.sh; do not edit them by hand). The iOS app links the Rust library as an
// XCFramework; on Linux (tests) the host libacesup.so is linked by name.
import PackageDescription

let package = Package(
    name: "AcesUpCore",
    products: [.library(name: "AcesUpCore", targets: ["AcesUpCore"])],
    targets: [
        // The C side of the FFI: Sources/AcesUpCoreFFI/{AcesUpCoreFFI.h,module.modulemap}.
        .systemLibrary(name: "AcesUpCoreFFI", path: "Sources/AcesUpCoreFFI"),
        .target(
            name: "AcesUpCore",
            dependencies: ["AcesUpCoreFFI"],
            path: "Sources/AcesUpCore",
            linkerSettings: [.linkedLibrary("acesup", .when(platforms: [.linux]))]
        ),
    ]
)
