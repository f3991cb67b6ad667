#!/bin/bash
# Copies the current build of the @x packages the bench loads into bench/results/exp/<tag>, so two
# builds (say `base` before a change and `fixed` after it) can run side by side through ab/hook.mjs:
#   pnpm exec turbo run build --filter=@x/bench^... && bench/ab/snapshot.sh base
#   …change the code… && pnpm exec turbo run build --filter=@x/bench^... && bench/ab/snapshot.sh fixed
#   NODE_OPTIONS=--import=$PWD/bench/ab/hook.mjs pnpm --filter @x/bench bench --only=floor,ours@base,ours@fixed
set -euo pipefail
tag=${1:?usage: snapshot.sh <tag>}
packages="$(cd "$(dirname "$0")/../../packages" && pwd)"
dest="$(dirname "$0")/../results/exp/$tag"
rm -rf "$dest"
for p in llm-types terminal-cause brain-kit classifier-ladder brain-faux brain-openai brain-anthropic runner; do
  mkdir -p "$dest/$p"
  cp -r "$packages/$p/dist" "$packages/$p/package.json" "$dest/$p/"
done
echo "snapshot of the current build: $dest"
