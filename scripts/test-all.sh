#!/usr/bin/env bash
# The one test command: formatting, lints and every Rust test of the workspace.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo test --workspace --locked
