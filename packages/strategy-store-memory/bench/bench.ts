import { formatBenchTable, layoutsFromEnv, runStrategyStoreBench } from "@x/strategy-store-core/bench";
import { MemoryStrategyStore } from "../src/index";

const rows = await runStrategyStoreBench([{ name: "memory", open: async () => new MemoryStrategyStore() }], {
  layouts: layoutsFromEnv(),
});
console.log(formatBenchTable(rows));
