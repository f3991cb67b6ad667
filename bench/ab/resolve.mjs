// Module resolve hook for ab/hook.mjs: @x/<pkg> → bench/results/exp/<variant>/<pkg>/dist/index.js.
let variant;
export function initialize(data) {
  variant = data.variant;
}
export async function resolve(specifier, context, next) {
  const m = /^@x\/([a-z-]+)$/.exec(specifier);
  if (variant && m)
    return {
      url: new URL(`../results/exp/${variant}/${m[1]}/dist/index.js`, import.meta.url).href,
      shortCircuit: true,
    };
  return next(specifier, context);
}
