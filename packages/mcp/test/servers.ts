// Where the real servers from the npm registry live (devDependencies of this package), and how a
// test spawns them.
import { fileURLToPath } from "node:url";
import type { McpServerConfig } from "../src/index";

const bin = (pkg: string) =>
  fileURLToPath(new URL(`../node_modules/@modelcontextprotocol/${pkg}/dist/index.js`, import.meta.url));

export const FILESYSTEM_SERVER = bin("server-filesystem");
export const EVERYTHING_SERVER = bin("server-everything");

/** `@modelcontextprotocol/server-filesystem` over stdio, confined to `folder`. */
export function filesystemServer(folder: string, extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return {
    name: "fs",
    transport: { type: "stdio", command: process.execPath, args: [FILESYSTEM_SERVER, folder] },
    ...extra,
  };
}

/** `@modelcontextprotocol/server-everything` over stdio. */
export function everythingServer(extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return {
    name: "everything",
    transport: { type: "stdio", command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] },
    ...extra,
  };
}
