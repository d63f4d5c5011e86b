// Every storage port's contract suite against the PGlite adapter.
import { registerStorageContracts } from "./register-contracts.js"
import { storageTargets } from "./targets.js"

const target = storageTargets.find((t) => t.name === "pglite")
if (target === undefined) throw new Error("unknown storage target")
registerStorageContracts(target)
