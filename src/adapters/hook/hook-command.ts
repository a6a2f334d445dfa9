/**
 * The command lines the hook entry (main.ts) answers by itself: the ones installers write,
 * `mem [--db FILE] hook EVENT [--agent NAME]`. Anything else (help, an option it does not know,
 * a misspelt event) is left to the full CLI, which answers it as it answers every command.
 */
import { isHookEvent, type HookEvent } from "../../hooks/hook-input.js"

export interface HookCommand {
  readonly event: HookEvent
  /** The agent running the hook; it names the origin of what the hook records. */
  readonly agent: string
  /** The store file --db names; absent: MEMLEDGER_URL's server, else MEMLEDGER_DB, else the default. */
  readonly db?: string
}

/** `mem hook` assumes Claude Code when no --agent says otherwise. */
export const DEFAULT_AGENT = "claude-code"

/** The hook a command line (after `mem`) runs, or undefined when it is not one of these plain forms. */
export const hookCommandOf = (args: ReadonlyArray<string>): HookCommand | undefined => {
  const db = optionAt(args, 0, "--db")
  const [command, event, ...options] = args.slice(db?.words ?? 0)
  if (command !== "hook" || event === undefined || !isHookEvent(event)) return undefined
  const agent = optionAt(options, 0, "--agent")
  if (options.length !== (agent?.words ?? 0)) return undefined
  return { event, agent: agent?.value ?? DEFAULT_AGENT, ...(db === undefined ? {} : { db: db.value }) }
}

/** `--name VALUE` or `--name=VALUE` at `i`: its value and how many words it took. */
const optionAt = (args: ReadonlyArray<string>, i: number, name: string): { readonly value: string; readonly words: number } | undefined => {
  const word = args[i]
  if (word?.startsWith(`${name}=`)) return { value: word.slice(name.length + 1), words: 1 }
  const value = args[i + 1]
  return word === name && value !== undefined && !value.startsWith("-") ? { value, words: 2 } : undefined
}
