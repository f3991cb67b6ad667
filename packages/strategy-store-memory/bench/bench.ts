import { formatBenchTable, layoutsFromEnv, runStrategyStoreBench } from "@x/strategy-store-core/bench";
import { MemoryStrategyDatabase, MemoryStrategyStore } from "../src/index";

// Nothing outlives the process: each dataset is one in-memory database, dropped after its cells.
const databases = new Map<string, { database: MemoryStrategyDatabase; loaded: number }>();
const held = (dataset: string) => {
  let entry = databases.get(dataset);
  if (!entry) databases.set(dataset, (entry = { database: new MemoryStrategyDatabase(), loaded: 0 }));
  return entry;
};
const rows = await runStrategyStoreBench(
  [
    {
      name: "memory",
      open: async (dataset) => new MemoryStrategyStore({ database: held(dataset).database }),
      loaded: async (dataset) => databases.get(dataset)?.loaded ?? 0,
      setLoaded: async (dataset, records) => {
        held(dataset).loaded = records;
      },
      release: async (dataset) => {
        databases.delete(dataset);
      },
    },
  ],
  { layouts: layoutsFromEnv() },
);
console.log(formatBenchTable(rows));
