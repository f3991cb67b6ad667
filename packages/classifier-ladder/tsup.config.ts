import { packageBuild } from "../../tsup.shared.ts";

export default packageBuild({ index: "src/index.ts", testing: "src/testing/index.ts" });
