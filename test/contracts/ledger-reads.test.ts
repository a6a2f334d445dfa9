/** Runs the read contract against every store. */
import { readContract } from "./ledger-reads.contract.js"
import { STORES } from "./stores.js"

for (const store of STORES) readContract(store)
