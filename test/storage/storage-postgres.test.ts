// Storage contract suites against the postgres adapter.
import { registerStorageContracts } from "./contract.js"
import { storageTargets } from "./targets.js"

const target = storageTargets.find((t) => t.name === "postgres")
if (target === undefined) throw new Error("unknown storage target")
registerStorageContracts(target)
