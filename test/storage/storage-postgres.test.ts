// Every storage port's contract suite against the PostgreSQL adapter (skipped without TEST_DATABASE_URL).
import { registerStorageContracts } from "./register-contracts.js"
import { storageTargets } from "./targets.js"

const target = storageTargets.find((t) => t.name === "postgres")
if (target === undefined) throw new Error("unknown storage target")
registerStorageContracts(target)
