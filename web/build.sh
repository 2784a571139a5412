#!/usr/bin/env bash
# Rebuilds assets/editor.js, the playground's editor (CodeMirror 6), from the pinned packages of
# package.json. The bundle is committed, so building the crate needs no Node; run this after changing
# src/editor.js or a version: `web/build.sh`.
set -euo pipefail
cd "$(dirname "$0")"
[ -d node_modules ] || npm ci --no-audit --no-fund
./node_modules/.bin/esbuild src/editor.js --bundle --minify --format=iife --target=es2020 \
  --legal-comments=eof --outfile=assets/editor.js
