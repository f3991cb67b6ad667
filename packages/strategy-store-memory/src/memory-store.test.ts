import { runStrategyStoreConformance } from "@x/strategy-store-core/conformance";
import { MemoryStrategyDatabase, MemoryStrategyStore } from "./index";

let database = new MemoryStrategyDatabase();

runStrategyStoreConformance({
  name: "memory",
  open: (options) => {
    database = new MemoryStrategyDatabase();
    return new MemoryStrategyStore({ ...options, database });
  },
  openSecond: (options) => new MemoryStrategyStore({ ...options, database }),
});
