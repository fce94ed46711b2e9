//! `uniffi-bindgen`, built from the workspace's pinned uniffi so that the generated Kotlin and
//! Swift always match the library: `cargo run -p uniffi-bindgen -- generate …`.

fn main() {
    uniffi::uniffi_bindgen_main()
}
