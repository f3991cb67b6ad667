import { spawnSync } from "node:child_process";

/**
 * How the shell tool's commands are held to the sandbox: by bubblewrap (a mount namespace where the
 * sandbox is the only writable folder and everything else is read-only), or not at all — then a
 * command runs as the user, anywhere on the machine, and auto mode's classifier is the only guard.
 */
export type ShellConfinement = { kind: "bwrap"; version: string } | { kind: "none"; why: string };

/** The bubblewrap arguments that confine one command to `root`: the rest of the file system is read-only. */
export function bwrapArgs(root: string): string[] {
  return [
    "--die-with-parent",
    // Own user, PID, IPC, UTS and cgroup namespaces; the network stays (fetching is not writing).
    "--unshare-all",
    "--share-net",
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--bind",
    root,
    root,
    "--chdir",
    root,
  ];
}

const probed = new Map<string, ShellConfinement>();

/**
 * Whether bubblewrap is installed here and can confine a command to `root` — tried once, for real
 * (a kernel without unprivileged user namespaces refuses it at run time, not at install time).
 */
export function shellConfinement(root: string): ShellConfinement {
  const known = probed.get(root);
  if (known) return known;
  const found = probe(root);
  probed.set(root, found);
  return found;
}

function probe(root: string): ShellConfinement {
  const version = spawnSync("bwrap", ["--version"], { encoding: "utf8", timeout: 5_000 });
  if (version.error) {
    const missing = (version.error as NodeJS.ErrnoException).code === "ENOENT";
    return { kind: "none", why: missing ? "bubblewrap (bwrap) is not installed" : `bwrap: ${version.error.message}` };
  }
  const trial = spawnSync("bwrap", [...bwrapArgs(root), "/bin/sh", "-c", "exit 0"], {
    encoding: "utf8",
    timeout: 5_000,
  });
  if (trial.status !== 0) {
    const said = (trial.stderr || trial.error?.message || `exit ${trial.status}`).trim().split("\n")[0];
    return { kind: "none", why: `bubblewrap is installed but cannot confine a command here (${said})` };
  }
  return { kind: "bwrap", version: version.stdout.trim().replace(/^bubblewrap\s*/i, "") };
}

/** One sentence for a person: what the shell tool can touch. */
export function describeConfinement(confinement: ShellConfinement): string {
  return confinement.kind === "bwrap"
    ? `the shell is confined by bubblewrap ${confinement.version}: the sandbox is the only folder a command can ` +
        "write (the rest of the file system is read-only; the network is not cut)"
    : `the shell is NOT confined — ${confinement.why}: a command runs as you, anywhere on this machine, and auto ` +
        "mode's classifier is the only guard (apt-get install bubblewrap confines it to the sandbox)";
}
