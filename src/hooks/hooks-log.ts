/**
 * `hooks.log` in the store's state folder: where whatever runs beside an agent's session (the
 * hooks, and the extraction they start in the background) says what went wrong, since it must
 * never say so to the agent. One line per failure: the time, what failed, the message.
 */
import { appendFileSync, mkdirSync } from "node:fs"
import { join } from "node:path"
import { storeStateFolder } from "./state-folder.js"

export const hooksLogFile = (store: string): string => join(storeStateFolder(store), "hooks.log")

/** `store`: the store file or the server's URL, as the state folder is named by. Never throws. */
export const logHookFailure = (store: string, what: string, message: string): void => {
  try {
    mkdirSync(storeStateFolder(store), { recursive: true, mode: 0o700 })
    appendFileSync(hooksLogFile(store), `${new Date().toISOString()} ${what}: ${message.replace(/\n/g, " | ").slice(0, 2_000)}\n`, { mode: 0o600 })
  } catch {
    // Nowhere to log: still say nothing, the session matters more.
  }
}

/** The store the hooks' state belongs to: `--db`'s file, else the server MEMLEDGER_URL names, else the default file. */
export const hookStoreOf = (db: string | undefined, defaultDb: string, env: NodeJS.ProcessEnv = process.env): string =>
  db ?? (env.MEMLEDGER_URL || defaultDb)
