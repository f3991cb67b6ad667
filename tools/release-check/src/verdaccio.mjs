// A Verdaccio registry on 127.0.0.1 for one test run: storage and users in the folder given as the
// first argument, nothing proxied (a package it was not given is a 404, so an install can never
// fall through to npmjs for our scope). Prints `port <n>` once it listens. It stops itself when the
// process that started it goes away (its stdin closes) or after the lifetime in ms (second
// argument), so a test killed half-way leaves no server behind.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runServer } from "verdaccio";

const [dir, lifetime = "300000"] = process.argv.slice(2);
const config = join(dir, "config.yaml");
writeFileSync(
  config,
  [
    `storage: ${JSON.stringify(join(dir, "storage"))}`,
    "auth:",
    "  htpasswd:",
    `    file: ${JSON.stringify(join(dir, "htpasswd"))}`,
    "    max_users: 1",
    "uplinks: {}",
    "packages:",
    "  '**':",
    "    access: $all",
    "    publish: $authenticated",
    "web:",
    "  enable: false",
    "log: { type: stdout, format: pretty, level: error }",
    "",
  ].join("\n"),
);

const app = await runServer(config);
const server = app.listen(0, "127.0.0.1", () => console.log(`port ${server.address().port}`));
const stop = () => server.close(() => process.exit(0));
setTimeout(() => process.exit(0), Number(lifetime)).unref();
process.stdin.on("end", stop).on("error", stop).resume();
