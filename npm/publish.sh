#!/usr/bin/env bash
# Publishes baton to npm: the six platform packages (@baton-cc/<os>-<cpu>, one binary each),
# then the main package `baton-cc` that depends on them. One command, from a clean checkout:
#   npm/publish.sh               # build (scripts/release.sh, if dist/ lacks this version), stage, publish
#   npm/publish.sh --dry-run     # everything but the upload (npm publish --dry-run)
#   npm/publish.sh --otp 123456  # extra flags go to every `npm publish`
# Needs `npm login` as a member of the npm organisation `baton-cc` (which owns the @baton-cc
# scope; create it once at https://www.npmjs.com/org/create).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
node npm/stamp.mjs
version="$(node -p "require('./npm/baton-cc/package.json').version")"
missing=0
for target in $(node npm/stamp.mjs --targets); do
    ls dist/baton-"$version"-"$target"* >/dev/null 2>&1 || missing=1
done
if [ "$missing" = 1 ] || [ ! -f dist/SHA256SUMS ]; then
    scripts/release.sh
fi
node npm/stamp.mjs --stage dist
for dir in npm/platforms/*/ npm/baton-cc/; do
    (cd "$dir" && npm publish --access public "$@")
done
