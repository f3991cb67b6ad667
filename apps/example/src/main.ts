import { cli } from "./cli";

const code = await cli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  isTTY: process.stdout.isTTY === true,
  input: process.stdin,
  inputIsTTY: process.stdin.isTTY === true,
  env: process.env,
  cwd: process.cwd(),
});
process.exitCode = code;
// A provider SDK's idle keep-alive socket must not hold the prompt: leave shortly after the work is done.
setTimeout(() => process.exit(code), 500).unref();
