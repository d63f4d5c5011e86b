// Every storage port's contract suite against the memory adapter.
import { registerStorageContracts } from "./register-contracts.js"
import { storageTargets } from "./targets.js"

const target = storageTargets.find((t) => t.name === "memory")
if (target === undefined) throw new Error("unknown storage target")
registerStorageContracts(target)
