/** Where the store is when no --db names it. Plain, so that hooks which never open the store can find their state. */
import { homedir } from "node:os"
import { join } from "node:path"

/** `--db`, else MEMLEDGER_DB, else ~/.memledger/memledger.db. */
export const defaultDbPath = (env: NodeJS.ProcessEnv = process.env): string =>
  env.MEMLEDGER_DB && env.MEMLEDGER_DB.length > 0 ? env.MEMLEDGER_DB : join(homedir(), ".memledger", "memledger.db")
