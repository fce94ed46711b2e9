#!/usr/bin/env bash
# Cross-language test toolchain for the Aces Up bindings tests.
#
# Installs pinned tools into a cache directory outside the repository
# (${ACESUP_TOOLS_DIR:-$HOME/.cache/acesup-tools}) and skips every step whose
# pinned version is already there. See scripts/README.md.
#
#   scripts/toolchain.sh kotlin      Kotlin compiler (npm package kotlin-compiler)
#   scripts/toolchain.sh jvm-libs    JNA, JUnit 4, kotlinx-coroutines, android-all (Maven Central)
#   scripts/toolchain.sh swift       Debian trixie root with swiftlang (debootstrap + apt)
#   scripts/toolchain.sh all         all of the above
#   scripts/toolchain.sh env         print `export` lines; use: eval "$(scripts/toolchain.sh env)"
#   scripts/toolchain.sh swift-run DIR CMD...
#                                    run CMD inside the Swift root, in DIR (a host directory
#                                    bind-mounted at the same path inside the root); the
#                                    environment inside is reset: pass variables with
#                                    `env VAR=value CMD...`
#
# Only package registries are used (npm, Maven Central, Debian's archive); no
# host names are written here: the Debian mirror is read from the machine's apt
# configuration at run time.
set -euo pipefail

# ---- pinned versions -------------------------------------------------------
KOTLIN_VERSION=2.4.20
JNA_VERSION=5.18.1
JUNIT_VERSION=4.13.2
HAMCREST_VERSION=1.3
COROUTINES_VERSION=1.10.2
ANDROID_ALL_VERSION=14-robolectric-10818077
SWIFT_SUITE=trixie
# Packages installed (without recommends) into the trixie root.
SWIFT_PACKAGES=(swiftlang libc6-dev)

TOOLS_DIR="${ACESUP_TOOLS_DIR:-$HOME/.cache/acesup-tools}"
KOTLIN_HOME="$TOOLS_DIR/kotlin-$KOTLIN_VERSION"
JVM_LIBS_DIR="$TOOLS_DIR/jvm-libs"
SWIFT_DIR="$TOOLS_DIR/swift-$SWIFT_SUITE"
SWIFT_ROOT="$SWIFT_DIR/root"
SWIFT_MARKER="$SWIFT_DIR/.complete"
SWIFT_STAMP="suite=$SWIFT_SUITE packages=${SWIFT_PACKAGES[*]}"

# "group:artifact:version" for every jar in jvm-libs.
JVM_ARTIFACTS=(
  "net.java.dev.jna:jna:$JNA_VERSION"
  "junit:junit:$JUNIT_VERSION"
  "org.hamcrest:hamcrest-core:$HAMCREST_VERSION"
  "org.jetbrains.kotlinx:kotlinx-coroutines-core-jvm:$COROUTINES_VERSION"
  "org.robolectric:android-all:$ANDROID_ALL_VERSION"
)

log() { printf '%s\n' "$*"; }
die() { printf 'toolchain.sh: %s\n' "$*" >&2; exit 1; }

# Run "$@" under an exclusive lock so concurrent runs don't clobber each other.
with_lock() {
  local name=$1; shift
  mkdir -p "$TOOLS_DIR"
  (
    flock 9
    "$@"
  ) 9>"$TOOLS_DIR/.$name.lock"
}

elapsed() { echo "$(( SECONDS - $1 ))s"; }

# ---- kotlin ----------------------------------------------------------------
kotlin_ready() {
  [[ -f "$KOTLIN_HOME/.complete" && "$(cat "$KOTLIN_HOME/.complete")" == "$KOTLIN_VERSION" ]]
}

install_kotlin() {
  if kotlin_ready; then
    log "kotlin $KOTLIN_VERSION: ready (cached)"
    return
  fi
  command -v npm >/dev/null || die "npm not found"
  command -v java >/dev/null || die "java not found (kotlinc needs a JDK)"
  local start=$SECONDS tmp
  # Leftovers of an interrupted install (we hold the lock, so nobody else is using them).
  rm -rf "$KOTLIN_HOME" "$TOOLS_DIR"/.kotlin-tmp.*
  tmp=$(mktemp -d "$TOOLS_DIR/.kotlin-tmp.XXXXXX")
  (cd "$tmp" && npm pack --silent "kotlin-compiler@$KOTLIN_VERSION" >/dev/null)
  tar -xzf "$tmp"/kotlin-compiler-*.tgz -C "$tmp"
  chmod +x "$tmp"/package/bin/*
  [[ -f "$tmp/package/lib/kotlin-stdlib.jar" ]] || die "kotlin-compiler package has no lib/kotlin-stdlib.jar"
  mv "$tmp/package" "$KOTLIN_HOME"
  "$KOTLIN_HOME/bin/kotlinc" -version >/dev/null 2>&1 || die "kotlinc $KOTLIN_VERSION does not run"
  echo "$KOTLIN_VERSION" >"$KOTLIN_HOME/.complete"
  rm -rf "$tmp"
  log "kotlin $KOTLIN_VERSION: installed ($(elapsed "$start"))"
}

# ---- jvm-libs --------------------------------------------------------------
jar_path() {  # g:a:v -> path of the jar in the cache
  local IFS=:
  # shellcheck disable=SC2086
  set -- $1
  echo "$JVM_LIBS_DIR/$2-$3.jar"
}

install_jvm_libs() {
  mkdir -p "$JVM_LIBS_DIR"
  rm -rf "$JVM_LIBS_DIR"/.tmp.*
  local gav jar start
  for gav in "${JVM_ARTIFACTS[@]}"; do
    jar=$(jar_path "$gav")
    if [[ -s "$jar" ]]; then
      log "$gav: ready (cached)"
      continue
    fi
    command -v mvn >/dev/null || die "mvn not found"
    start=$SECONDS
    local tmp
    tmp=$(mktemp -d "$JVM_LIBS_DIR/.tmp.XXXXXX")
    if ! mvn -q -B dependency:copy -Dartifact="$gav" -DoutputDirectory="$tmp" >"$tmp.log" 2>&1; then
      cat "$tmp.log" >&2
      rm -rf "$tmp" "$tmp.log"
      die "could not fetch $gav"
    fi
    mv "$tmp/$(basename "$jar")" "$jar"
    rm -rf "$tmp" "$tmp.log"
    log "$gav: installed ($(elapsed "$start"))"
  done
}

# ---- swift (Debian trixie root) ----------------------------------------------
# The Debian archive URL this machine's apt uses (never hard-coded here).
debian_mirror() {
  if [[ -n "${ACESUP_DEBIAN_MIRROR:-}" ]]; then
    echo "$ACESUP_DEBIAN_MIRROR"; return
  fi
  local f url=""
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -f "$f" ]] || continue
    url=$(awk 'tolower($1)=="uris:" { for (i = 2; i <= NF; i++) print $i }' "$f" \
          | grep -v -- '-security' | grep -v '^cdrom:' | head -n1 || true)
    [[ -n "$url" ]] && break
  done
  if [[ -z "$url" ]]; then
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
      [[ -f "$f" ]] || continue
      url=$(awk '$1=="deb" { for (i = 2; i <= NF; i++) if ($i !~ /^\[/ && $i !~ /\]$/ && $i ~ /:\/\//) { print $i; break } }' "$f" \
            | grep -v -- '-security' | head -n1 || true)
      [[ -n "$url" ]] && break
    done
  fi
  [[ -n "$url" ]] || die "no Debian mirror found in the apt configuration (set ACESUP_DEBIAN_MIRROR)"
  echo "${url%/}"
}

# Mount points at or below $1, deepest first.
mounts_under() {
  local root
  root=$(realpath -m "$1")
  awk -v r="$root" '$5 == r || index($5, r "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r
}

# Remove a (possibly half-made) root; refuses while anything is mounted in it, so a
# bind-mounted host directory is never deleted through the root.
remove_root() {
  local dir=$1 m
  [[ -e "$dir" ]] || return 0
  for m in $(mounts_under "$dir"); do
    umount -l "$m" 2>/dev/null || true
  done
  [[ -z "$(mounts_under "$dir")" ]] || die "still mounted under $dir; not removing it"
  rm -rf --one-file-system "$dir"
}

# Run "$@" chrooted into $SWIFT_ROOT with /proc mounted, in a private mount
# namespace (mounts vanish with it even if killed; the trap unmounts them anyway).
# Optional: SWIFT_RUN_BIND=<host dir> is bind-mounted at the same path in the root,
# and SWIFT_RUN_CWD is the working directory inside the root.
chroot_run() {
  local root=$SWIFT_ROOT
  # shellcheck disable=SC2016  # the script below is expanded by the inner bash
  unshare --mount --propagation private -- bash -euo pipefail -c '
    root=$1; bind=$2; cwd=$3; shift 3
    cleanup() {
      umount "$root/proc" 2>/dev/null || true
      if [[ -n "$bind" ]]; then umount "$root$bind" 2>/dev/null || true; fi
    }
    trap cleanup EXIT
    mount -t proc proc "$root/proc"
    if [[ -n "$bind" ]]; then
      mkdir -p "$root$bind"
      mount --bind "$bind" "$root$bind"
    fi
    chroot "$root" /usr/bin/env -i \
      HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" \
      PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
      DEBIAN_FRONTEND=noninteractive \
      /bin/sh -c "cd \"\$0\" && exec \"\$@\"" "$cwd" "$@"
  ' chroot_run "$root" "${SWIFT_RUN_BIND:-}" "${SWIFT_RUN_CWD:-/}" "$@"
}

swift_ready() {
  [[ -f "$SWIFT_MARKER" && "$(cat "$SWIFT_MARKER")" == "$SWIFT_STAMP" && -x "$SWIFT_ROOT/usr/libexec/swift/bin/swift" ]]
}

install_swift() {
  if swift_ready; then
    log "swift ($SWIFT_SUITE root): ready (cached)"
    return
  fi
  [[ $(id -u) -eq 0 ]] || die "building the Swift root needs root (debootstrap, chroot, mount)"
  local start=$SECONDS mirror
  if ! command -v debootstrap >/dev/null; then
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null 2>&1 \
      || die "apt-get install debootstrap failed"
  fi
  mirror=$(debian_mirror)
  # No marker (or a different one): anything there is half-made or stale.
  rm -f "$SWIFT_MARKER"
  remove_root "$SWIFT_ROOT"
  mkdir -p "$SWIFT_DIR"
  local blog="$SWIFT_DIR/debootstrap.log"
  if ! debootstrap --variant=minbase "$SWIFT_SUITE" "$SWIFT_ROOT" "$mirror" >"$blog" 2>&1; then
    tail -n 30 "$blog" >&2
    [[ -f "$SWIFT_ROOT/debootstrap/debootstrap.log" ]] && tail -n 30 "$SWIFT_ROOT/debootstrap/debootstrap.log" >&2
    die "debootstrap $SWIFT_SUITE failed (log: $blog)"
  fi
  # The root resolves names and reaches the archive the way the host does: fresh
  # resolv.conf, and the host's apt Acquire:: settings (e.g. Check-Valid-Until).
  cp -L /etc/resolv.conf "$SWIFT_ROOT/etc/resolv.conf"
  cat /etc/apt/apt.conf /etc/apt/apt.conf.d/* 2>/dev/null | grep -E '^[[:space:]]*Acquire::[A-Za-z:-]+[[:space:]]+"[^"]*";[[:space:]]*$' \
    >"$SWIFT_ROOT/etc/apt/apt.conf.d/99host-acquire" || true
  local alog="$SWIFT_DIR/apt.log"
  if ! chroot_run sh -c 'apt-get update -qq && apt-get install -y -qq --no-install-recommends "$@" && apt-get clean' \
        apt-install "${SWIFT_PACKAGES[@]}" >"$alog" 2>&1; then
    tail -n 30 "$alog" >&2
    die "apt-get install ${SWIFT_PACKAGES[*]} in the $SWIFT_SUITE root failed (log: $alog)"
  fi
  chroot_run swift --version >/dev/null 2>&1 || die "swift does not run in the $SWIFT_SUITE root"
  echo "$SWIFT_STAMP" >"$SWIFT_MARKER"
  log "swift ($SWIFT_SUITE root): installed ($(elapsed "$start"))"
}

# swift-run DIR CMD...: run CMD in the Swift root with DIR (host path) bind-mounted at the
# same path and used as the working directory. The environment inside is reset; pass
# variables with `env VAR=value cmd ...`.
swift_run() {
  [[ $# -ge 2 ]] || die "usage: toolchain.sh swift-run DIR CMD..."
  swift_ready || die "Swift root not installed; run: toolchain.sh swift"
  local dir
  dir=$(realpath -e "$1") || die "no such directory: $1"
  shift
  # Shared lock (in a subshell, so no lock fd outlives the run): a concurrent
  # `toolchain.sh swift` (exclusive) waits until this run ends.
  mkdir -p "$TOOLS_DIR"
  (
    flock -s 8
    SWIFT_RUN_BIND="$dir" SWIFT_RUN_CWD="$dir" chroot_run "$@"
  ) 8>"$TOOLS_DIR/.swift.lock"
}

# ---- env ----------------------------------------------------------------------
print_env() {
  local coroutines
  coroutines=$(jar_path "org.jetbrains.kotlinx:kotlinx-coroutines-core-jvm:$COROUTINES_VERSION")
  kotlin_ready || echo "toolchain.sh: kotlin not installed (run: toolchain.sh kotlin)" >&2
  swift_ready || echo "toolchain.sh: swift root not installed (run: toolchain.sh swift)" >&2
  local gav
  for gav in "${JVM_ARTIFACTS[@]}"; do
    [[ -s "$(jar_path "$gav")" ]] || echo "toolchain.sh: $gav not installed (run: toolchain.sh jvm-libs)" >&2
  done
  cat <<EOF
export ACESUP_TOOLS_DIR=$(printf '%q' "$TOOLS_DIR")
export ACESUP_TOOLCHAIN=$(printf '%q' "$(realpath "${BASH_SOURCE[0]}")")
export KOTLIN_HOME=$(printf '%q' "$KOTLIN_HOME")
export KOTLINC=$(printf '%q' "$KOTLIN_HOME/bin/kotlinc")
export KOTLIN_STDLIB=$(printf '%q' "$KOTLIN_HOME/lib/kotlin-stdlib.jar")
export KOTLINX_COROUTINES_JAR=$(printf '%q' "$coroutines")
export JNA_JAR=$(printf '%q' "$(jar_path "net.java.dev.jna:jna:$JNA_VERSION")")
export JUNIT_CP=$(printf '%q' "$(jar_path "junit:junit:$JUNIT_VERSION"):$(jar_path "org.hamcrest:hamcrest-core:$HAMCREST_VERSION")")
export ANDROID_JAR=$(printf '%q' "$(jar_path "org.robolectric:android-all:$ANDROID_ALL_VERSION")")
export SWIFT_ROOT=$(printf '%q' "$SWIFT_ROOT")
EOF
}

usage() {
  sed -n '2,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

main() {
  local cmd=${1:-}
  [[ $# -gt 0 ]] && shift
  case "$cmd" in
    kotlin)    with_lock kotlin install_kotlin ;;
    jvm-libs)  with_lock jvm-libs install_jvm_libs ;;
    swift)     with_lock swift install_swift ;;
    all)
      with_lock kotlin install_kotlin
      with_lock jvm-libs install_jvm_libs
      with_lock swift install_swift
      ;;
    env)       print_env ;;
    swift-run) swift_run "$@" ;;
    -h|--help|help) usage ;;
    *) usage >&2; exit 2 ;;
  esac
}

# Run main only when executed, not when sourced (sourcing gives the functions, e.g. swift_run).
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  main "$@"
fi
