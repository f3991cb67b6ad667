export { labelledSet } from "./conformance/labelled-set";
