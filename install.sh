#!/bin/sh
# Installs the ReinAgent binary for this machine (Linux or macOS, x86_64 or arm64) from a
# GitHub release, after checking it against the release's SHA256SUMS.
#
#   curl -fsSL https://github.com/OWNER/REPO/releases/latest/download/install.sh | sh
#
# Environment: REINAGENT_VERSION (a tag such as v0.1.0; default: the latest release),
# REINAGENT_INSTALL_DIR (default: ~/.local/bin), REINAGENT_REPO (owner/name on GitHub),
# REINAGENT_DOWNLOAD_URL (a folder holding the release's files, instead of GitHub).
set -eu

# The release workflow writes its own repository here in the published copy.
REPO="${REINAGENT_REPO:-reinagent/reinagent}"
VERSION="${REINAGENT_VERSION:-latest}"
INSTALL_DIR="${REINAGENT_INSTALL_DIR:-$HOME/.local/bin}"

fail() {
  echo "install.sh: $*" >&2
  exit 1
}

case "$(uname -s)" in
  Linux) os=unknown-linux-gnu ;;
  Darwin) os=apple-darwin ;;
  *) fail "no release binary for $(uname -s); on Windows download reinagent-x86_64-pc-windows-msvc.exe from the release page" ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) arch=x86_64 ;;
  arm64 | aarch64) arch=aarch64 ;;
  *) fail "no release binary for the CPU $(uname -m)" ;;
esac
name="reinagent-${arch}-${os}"

if [ -n "${REINAGENT_DOWNLOAD_URL:-}" ]; then
  base="${REINAGENT_DOWNLOAD_URL%/}"
elif [ "$VERSION" = latest ]; then
  base="https://github.com/${REPO}/releases/latest/download"
else
  base="https://github.com/${REPO}/releases/download/${VERSION}"
fi

fetch() {
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL "$1" -o "$2"
  elif command -v wget >/dev/null 2>&1; then
    wget -q "$1" -O "$2"
  else
    fail "needs curl or wget"
  fi
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d' ' -f1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d' ' -f1
  else
    fail "needs sha256sum or shasum to check the download"
  fi
}

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT INT TERM

echo "Downloading ${name} from ${base}"
fetch "${base}/SHA256SUMS" "${tmp}/SHA256SUMS" || fail "cannot download ${base}/SHA256SUMS"
fetch "${base}/${name}" "${tmp}/${name}" || fail "cannot download ${base}/${name}"

want="$(awk -v n="$name" '$2 == n || $2 == "*" n { print $1 }' "${tmp}/SHA256SUMS")"
[ -n "$want" ] || fail "SHA256SUMS lists no ${name}"
got="$(sha256_of "${tmp}/${name}")"
[ "$want" = "$got" ] || fail "checksum mismatch for ${name}: expected ${want}, got ${got}; nothing installed"

mkdir -p "$INSTALL_DIR"
chmod 755 "${tmp}/${name}"
mv "${tmp}/${name}" "${INSTALL_DIR}/reinagent"
echo "Installed ${INSTALL_DIR}/reinagent ($("${INSTALL_DIR}/reinagent" --version 2>/dev/null || echo "checksum ok"))"
case ":${PATH}:" in
  *":${INSTALL_DIR}:"*) ;;
  *) echo "Add ${INSTALL_DIR} to your PATH to run it as \`reinagent\`." ;;
esac
