// Storage contract suites against the pglite adapter.
import { registerStorageContracts } from "./contract.js"
import { storageTargets } from "./targets.js"

const target = storageTargets.find((t) => t.name === "pglite")
if (target === undefined) throw new Error("unknown storage target")
registerStorageContracts(target)
