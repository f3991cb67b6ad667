/**
 * A path as a rule compares it: resolved against `cwd` when relative, `.`/`..`/repeated slashes
 * folded. A relative path with no `cwd` keeps the `..` it cannot resolve, so it never lands inside
 * a glob it might really be outside of.
 */
export function normalisePath(path: string, cwd?: string): string {
  const full = !path.startsWith("/") && cwd !== undefined ? `${cwd}/${path}` : path;
  const absolute = full.startsWith("/");
  const out: string[] = [];
  for (const part of full.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === ".." && out.length > 0 && out[out.length - 1] !== "..") out.pop();
    else if (part === ".." && absolute) continue;
    else out.push(part);
  }
  const joined = out.join("/");
  return absolute ? `/${joined}` : joined || ".";
}

/**
 * A glob as a regular expression over the whole string: `**` any run of characters (directories
 * included; `dir/**` also matches `dir` itself), `*` and `?` within one segment. For tool names
 * (`names`), `*` spans everything, since a name has no segments.
 */
export function globRegExp(glob: string, options: { names?: boolean } = {}): RegExp {
  let source = "";
  for (let at = 0; at < glob.length; at++) {
    const char = glob[at]!;
    if (char === "*" && glob[at + 1] === "*") {
      at++;
      if (source.endsWith("/") && at === glob.length - 1) {
        source = `${source.slice(0, -1)}(?:/.*)?`;
      } else {
        source += ".*";
      }
    } else if (char === "*") {
      source += options.names ? ".*" : "[^/]*";
    } else if (char === "?") {
      source += options.names ? "." : "[^/]";
    } else {
      source += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
    }
  }
  return new RegExp(`^${source}$`, "s");
}
