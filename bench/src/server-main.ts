// Runs the scripted server in its own process so a client's CPU is measured alone. Prints the base
// URL as one JSON line, then serves until its parent disconnects.
import { createScriptedServer, listen } from "./server";

const { server } = createScriptedServer();
const baseURL = await listen(server);
process.stdout.write(`${JSON.stringify({ baseURL })}\n`);
process.on("disconnect", () => server.close(() => process.exit(0)));
process.on("SIGTERM", () => process.exit(0));
