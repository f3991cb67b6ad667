import { buildClient } from "./build-client";
import { startChatExample } from "./server";

// `pnpm start`: build the page, serve it on 127.0.0.1 and print where.
const clientDir = await buildClient();
const server = await startChatExample({ clientDir, port: Number(process.env.PORT ?? 3000) });
console.log(`open ${server.url}`);
