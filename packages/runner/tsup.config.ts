import { packageBuild } from "../../tsup.shared.ts";

export default packageBuild(["src/index.ts", "src/otel.ts", "src/backend.ts", "src/testing.ts"]);
