import { packageBuild } from "../../tsup.shared.ts";

export default packageBuild(["src/index.ts", "src/backend.ts", "src/conformance.ts", "src/bench.ts"]);
