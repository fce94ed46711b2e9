#!/usr/bin/env bash
# The one test command of the repository.
#
#   1. Rust: cargo fmt --check, clippy (-D warnings), cargo test --workspace
#   2. the library (libacesup) and the bindings drift check (bindings/generate.sh --check)
#   3. Kotlin on the JVM: generated bindings + JNA + the host libacesup.so, JUnit 4
#   4. Swift on Linux: the AcesUpCore package + the host libacesup.so, XCTest (swift test)
#
# Tools for 3 and 4 are installed and cached by scripts/toolchain.sh (outside the repository).
# Build output goes to target/ and build/ (both ignored); logs to build/test-all/.
# Prints one summary line per language and closes with "total: N passed, M failed".
# Exits non-zero if any language fails or cannot run; nothing is skipped silently.
#
# Environment: ACESUP_TEST_ONLY="rust kotlin swift" runs a subset (the others are reported as
# not run, and the exit code is then non-zero).
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
logs="$root/build/test-all"
rm -rf "$logs"
mkdir -p "$logs"
target_dir=${CARGO_TARGET_DIR:-$root/target}
lib_dir="$target_dir/debug"
only=" ${ACESUP_TEST_ONLY:-rust kotlin swift} "
start_all=$SECONDS

# Per-language results: passed, failed, and a note; "ran" says whether the suite ran at all.
declare -A passed failed note ran
for lang in rust kotlin swift; do passed[$lang]=0; failed[$lang]=0; note[$lang]=""; ran[$lang]=no; done
problems=()

section() { printf '\n==== %s\n' "$*"; }
# run NAME LOG CMD...: runs CMD with its output in LOG (and on the screen); returns its status.
run() {
  local name=$1 log=$2; shift 2
  local t0=$SECONDS
  echo "---- $name: $*"
  "$@" 2>&1 | tee "$log"
  local status=${PIPESTATUS[0]}
  echo "---- $name: exit $status ($(( SECONDS - t0 ))s)"
  return "$status"
}
wanted() { [[ "$only" == *" $1 "* ]]; }

# ---- toolchain -------------------------------------------------------------------------
section "toolchain (scripts/toolchain.sh, cached in ${ACESUP_TOOLS_DIR:-$HOME/.cache/acesup-tools})"
declare -A tools_ok=([kotlin]=no [swift]=no)
for lang in kotlin swift; do
  wanted "$lang" || continue
  parts=(kotlin jvm-libs)
  [[ $lang == swift ]] && parts=(swift)
  tools_ok[$lang]=yes
  for part in "${parts[@]}"; do
    if ! run "toolchain $part" "$logs/toolchain-$part.log" scripts/toolchain.sh "$part"; then
      tools_ok[$lang]=no
      problems+=("$lang: toolchain.sh $part failed (build/test-all/toolchain-$part.log)")
    fi
  done
done
eval "$(scripts/toolchain.sh env 2>/dev/null)"

# ---- rust --------------------------------------------------------------------------------
if wanted rust; then
  section "rust"
  ran[rust]=yes
  if ! run "cargo fmt" "$logs/fmt.log" cargo fmt --all -- --check; then
    failed[rust]=$(( failed[rust] + 1 )); problems+=("rust: cargo fmt --check found unformatted code")
  fi
  if ! run "cargo clippy" "$logs/clippy.log" cargo clippy --workspace --all-targets --locked -- -D warnings; then
    failed[rust]=$(( failed[rust] + 1 )); problems+=("rust: clippy found problems (build/test-all/clippy.log)")
  fi
  rust_status=0
  run "cargo test" "$logs/cargo-test.log" cargo test --workspace --locked -- --show-output || rust_status=$?
  # Sum the per-binary "test result: ok. N passed; M failed" lines.
  read -r p f < <(awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($i ~ /^passed;?$/) p += $(i-1); if ($i ~ /^failed;?$/) f += $(i-1) } } END { print p + 0, f + 0 }' "$logs/cargo-test.log")
  passed[rust]=$(( passed[rust] + p )); failed[rust]=$(( failed[rust] + f ))
  if [[ $rust_status -ne 0 && $f -eq 0 ]]; then
    failed[rust]=$(( failed[rust] + 1 )); problems+=("rust: cargo test did not complete (exit $rust_status)")
  fi
  scen=$(grep -o 'rust scenarios: [0-9]* passed, [0-9]* failed' "$logs/cargo-test.log" | tail -n1 | sed 's/rust scenarios: //')
  note[rust]="fmt, clippy; scenarios: ${scen:-not reported}"
fi

# ---- library and bindings ------------------------------------------------------------------
bindings_ok=no
if wanted kotlin || wanted swift; then
  section "library and generated bindings"
  if run "bindings" "$logs/bindings.log" bindings/generate.sh --check; then
    bindings_ok=yes
  else
    problems+=("bindings: the library did not build or the checked-in bindings drifted (build/test-all/bindings.log)")
  fi
fi

# ---- kotlin --------------------------------------------------------------------------------
if wanted kotlin; then
  section "kotlin (JVM, JUnit 4, JNA)"
  if [[ ${tools_ok[kotlin]} == yes && $bindings_ok == yes ]]; then
    classes="$root/build/kotlin/classes"
    kotlin_sources=(bindings/kotlin/app/acesup/core/acesup.kt tests/kotlin-runner/*.kt)
    # Recompile only when a source or the compiler changed (kotlinc takes ~30 s).
    inputs=$(cat "${kotlin_sources[@]}" <(echo "$KOTLINC $JNA_JAR $JUNIT_CP") | sha256sum | cut -d' ' -f1)
    stamp="$root/build/kotlin/inputs.sha256"
    compiled=no
    if [[ -d "$classes" && -f "$stamp" && "$(cat "$stamp")" == "$inputs" ]]; then
      echo "---- kotlinc: sources unchanged, reusing build/kotlin/classes"
      compiled=yes
    else
      rm -rf "$classes" "$stamp"
      if run "kotlinc" "$logs/kotlinc.log" "$KOTLINC" -nowarn "${kotlin_sources[@]}" \
          -cp "$JNA_JAR:$JUNIT_CP" -d "$classes"; then
        echo "$inputs" >"$stamp"
        compiled=yes
      fi
    fi
    if [[ $compiled == yes ]]; then
      ran[kotlin]=yes
      kotlin_status=0
      run "junit" "$logs/junit.log" java -Djna.library.path="$lib_dir" \
        -Dacesup.scenarios="$root/tests/scenarios" \
        -cp "$classes:$KOTLIN_STDLIB:$JNA_JAR:$JUNIT_CP" org.junit.runner.JUnitCore \
        app.acesup.scenarios.ScenarioSetTest app.acesup.scenarios.ScenarioTest \
        app.acesup.scenarios.BindingsTest app.acesup.scenarios.ConcurrencyTest \
        app.acesup.scenarios.LatencyBenchmark || kotlin_status=$?
      # JUnitCore ends with "OK (N tests)" or "Tests run: N,  Failures: M".
      if ok=$(grep -oE '^OK \([0-9]+ tests?\)' "$logs/junit.log" | grep -oE '[0-9]+'); then
        passed[kotlin]=$ok
      elif line=$(grep -E '^Tests run: [0-9]+, +Failures: [0-9]+' "$logs/junit.log"); then
        total=$(sed -E 's/^Tests run: ([0-9]+),.*/\1/' <<<"$line")
        bad=$(sed -E 's/.*Failures: ([0-9]+).*/\1/' <<<"$line")
        passed[kotlin]=$(( total - bad )); failed[kotlin]=$bad
      fi
      if [[ $kotlin_status -ne 0 && ${failed[kotlin]} -eq 0 ]]; then
        failed[kotlin]=1; problems+=("kotlin: JUnit did not complete (exit $kotlin_status)")
      fi
      scen=$(grep -c '^' <(ls tests/scenarios/*.json))
      bad_scen=$(grep -cE '^[0-9]+\) replays\[' "$logs/junit.log" || true)
      note[kotlin]="scenarios: $(( scen - bad_scen )) passed, $bad_scen failed"
    else
      problems+=("kotlin: the bindings and runner did not compile (build/test-all/kotlinc.log)")
    fi
  fi
fi

# ---- swift ---------------------------------------------------------------------------------
if wanted swift; then
  section "swift (Linux, XCTest, swift test)"
  if [[ ${tools_ok[swift]} == yes && $bindings_ok == yes ]]; then
    ran[swift]=yes
    swift_status=0
    # The Swift root only sees the repository: give it the library from inside it, wherever
    # cargo's target directory is.
    swift_lib="$root/build/swift-lib"
    mkdir -p "$swift_lib" && cp "$lib_dir/libacesup.so" "$swift_lib/"
    run "swift test" "$logs/swift.log" scripts/toolchain.sh swift-run "$root" \
      env ACESUP_SCENARIOS="$root/tests/scenarios" \
      swift test --package-path tests/swift-runner --scratch-path build/swift --disable-swift-testing \
      -Xlinker -L"$swift_lib" -Xlinker -rpath -Xlinker "$swift_lib" || swift_status=$?
    # XCTest ends with "Executed N tests, with M failures ..." (the last such line is the total).
    if line=$(grep -E 'Executed [0-9]+ tests?, with [0-9]+ failures?' "$logs/swift.log" | tail -n1); then
      total=$(sed -E 's/.*Executed ([0-9]+) tests?.*/\1/' <<<"$line")
      bad=$(sed -E 's/.*with ([0-9]+) failures?.*/\1/' <<<"$line")
      passed[swift]=$(( total - bad )); failed[swift]=$bad
    fi
    if [[ $swift_status -ne 0 && ${failed[swift]} -eq 0 ]]; then
      failed[swift]=1; problems+=("swift: swift test did not complete (exit $swift_status)")
    fi
    scen=$(grep -o 'swift scenarios: [0-9]* passed, [0-9]* failed' "$logs/swift.log" | tail -n1 | sed 's/swift scenarios: //')
    note[swift]="scenarios: ${scen:-not reported}"
  fi
fi

# ---- summary -------------------------------------------------------------------------------
section "summary ($(( SECONDS - start_all ))s)"
total_passed=0
total_failed=0
for lang in rust kotlin swift; do
  if [[ ${ran[$lang]} == no ]]; then
    failed[$lang]=$(( failed[$lang] + 1 ))
    if wanted "$lang"; then
      printf '%-7s could not run (counted as 1 failure)\n' "$lang:"
    else
      printf '%-7s not run (ACESUP_TEST_ONLY; counted as 1 failure)\n' "$lang:"
    fi
  else
    printf '%-7s %d passed, %d failed   [%s]\n' "$lang:" "${passed[$lang]}" "${failed[$lang]}" "${note[$lang]}"
  fi
  total_passed=$(( total_passed + passed[$lang] ))
  total_failed=$(( total_failed + failed[$lang] ))
done
if [[ $bindings_ok == no ]] && { wanted kotlin || wanted swift; }; then
  total_failed=$(( total_failed + 1 ))
fi
for problem in "${problems[@]}"; do echo "problem: $problem"; done
echo "total: $total_passed passed, $total_failed failed"
[[ $total_failed -eq 0 ]]
