#!/bin/bash
# Copies the built @x packages into bench/results/exp/base (unchanged) and .../fixed (with the candidate
# fixes from the bench findings applied to the built JS), for an A/B run through ab/hook.mjs:
#   pnpm exec turbo run build --filter=@x/bench^... && bench/ab/make-variants.sh
#   NODE_OPTIONS=--import=$PWD/bench/ab/hook.mjs pnpm --filter @x/bench bench --only=floor,ours@base,ours@fixed
# Each patch asserts the text it replaces: when the packages change, it fails loudly instead of lying.
set -euo pipefail
packages="$(cd "$(dirname "$0")/../../packages" && pwd)"
mkdir -p "$(dirname "$0")/../results/exp"
cd "$(dirname "$0")/../results/exp"
for v in base fixed; do
  rm -rf "$v"
  for p in llm-types terminal-cause classifier-ladder brain-faux brain-openai runner; do
    mkdir -p "$v/$p"
    cp -r "$packages/$p/dist" "$v/$p/"
    cp "$packages/$p/package.json" "$v/$p/"
  done
done
python3 - <<'PY'
import glob

def patch(old, new):
    """Applies old→new in every built entry of the `fixed` copy that holds `old`; at least one must."""
    hits = 0
    for path in glob.glob("fixed/*/dist/index.js"):
        s = open(path).read()
        if old in s:
            open(path, "w").write(s.replace(old, new))
            hits += 1
    assert hits, f"no built file holds: {old!r}"

# 1. Repetition guards made on the first text/thinking delta, not two per turn up front (each holds
#    ~230 KB of typed arrays; a tool-call turn never needs one).
patch("this.textGuard = createRepetitionGuard(options.guard);", "this.lazyGuard = () => createRepetitionGuard(options.guard);")
patch("this.thinkingGuard = createRepetitionGuard(options.guard);", "")
patch("this.guardDelta(this.textGuard, delta", "this.guardDelta(this.textGuard ??= this.lazyGuard?.(), delta")
patch("this.guardDelta(this.thinkingGuard, delta", "this.guardDelta(this.thinkingGuard ??= this.lazyGuard?.(), delta")
# 2. The start event's partial message: a literal copy (content is still empty) instead of structuredClone.
patch("partial: structuredClone(this.msg)", "partial: { ...this.msg, content: [], usage: { ...this.msg.usage, cost: { ...this.msg.usage.cost } } }")
# 3. The stall timer re-armed with refresh() rather than clearTimeout + setTimeout on every chunk.
patch("""    clearTimeout(this.stallTimer);
    this.stallTimer = setTimeout(() => this.cut("stall"), this.stallTimeoutMs);""", """    if (this.stallTimer) this.stallTimer.refresh();
    else this.stallTimer = setTimeout(() => this.cut("stall"), this.stallTimeoutMs);""")
# 4. runTask has no listener: await the final message instead of an async iteration step per event.
patch("    for await (const event of stream) {\n      if (event.type === \"text_delta\")", "    if (ctx.emit !== noop) for await (const event of stream) {\n      if (event.type === \"text_delta\")")
# 5. No zod pass over every returned AssistantMessage. (The real fix keeps the check for foreign
#    brains: messages built by terminal-cause's TurnBuilder carry a brand, e.g. a module WeakSet,
#    and only unbranded ones are parsed.)
patch("const checked = AssistantMessageSchema.safeParse(returned);", "const checked = { success: true, data: returned };")
PY
echo "made $(pwd)/base and $(pwd)/fixed"
