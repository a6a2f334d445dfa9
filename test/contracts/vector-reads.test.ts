/** Runs the vector contract against every store. */
import { vectorContract } from "./vector-reads.contract.js"
import { STORES } from "./stores.js"

for (const store of STORES) vectorContract(store)
