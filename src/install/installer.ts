/**
 * The small IO around the pure plans: read the files an install would edit, plan every one of
 * them (any refusal stops everything before a byte is written), then write. Writes go to a
 * temporary file renamed over the real one, through symlinks (a dotfiles checkout stays linked)
 * and keeping the file's mode (~/.claude.json is private).
 */
import { chmodSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmdirSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs"
import { dirname, sep } from "node:path"
import { Effect, Either } from "effect"
import { InstallIoFailed, UnsupportedScope, type InstallError } from "./errors.js"
import { planEdits, type Direction, type PlannedFile } from "./file-edit.js"
import type { InstallContext, Scope, Target } from "./target.js"

export interface InstallPlan {
  readonly target: string
  readonly scope: Scope
  readonly direction: Direction
  readonly files: ReadonlyArray<PlannedFile>
}

export const planInstall = (target: Target, direction: Direction, context: InstallContext): Effect.Effect<InstallPlan, InstallError> =>
  Effect.gen(function* () {
    if (!target.scopes.includes(context.scope)) return yield* Effect.fail(new UnsupportedScope({ target: target.name, scope: context.scope }))
    const edits = target.edits(context)
    const contents = new Map<string, string | null>()
    for (const edit of edits) contents.set(edit.path, yield* readIfPresent(edit.path))
    const files = yield* Either.match(planEdits(edits, direction, (path) => contents.get(path) ?? null), {
      onLeft: (error) => Effect.fail(error),
      onRight: (planned) => Effect.succeed(planned)
    })
    return { target: target.name, scope: context.scope, direction, files }
  })

/**
 * Writes what the plan changes; files it leaves unchanged are not touched. A removed file's
 * folders go too when that leaves them empty, up to (never including) one of `roots`, the home
 * and project folders, so an uninstall leaves no empty .cursor/ or skills/memledger/ behind.
 */
export const applyPlan = (plan: InstallPlan, roots: ReadonlyArray<string>): Effect.Effect<void, InstallIoFailed> =>
  Effect.gen(function* () {
    const changed = plan.files.filter((file) => file.action !== "unchanged")
    // Agents rewrite their settings while they run (Claude Code rewrites ~/.claude.json often):
    // a file that changed since it was planned is not overwritten, and nothing is written.
    for (const file of changed) {
      if ((yield* readIfPresent(file.path)) !== file.before) {
        return yield* Effect.fail(new InstallIoFailed({ path: file.path, reason: "it changed while memledger was planning; run the command again (nothing was written)" }))
      }
    }
    yield* Effect.forEach(changed, (file) => (file.after === null ? remove(file.path, roots) : write(file.path, file.after)), { discard: true })
  })

const readIfPresent = (path: string): Effect.Effect<string | null, InstallIoFailed> =>
  Effect.try({
    try: () => readFileSync(path, "utf8"),
    catch: (error) => error
  }).pipe(
    Effect.catchAll((error) => (codeOf(error) === "ENOENT" ? Effect.succeed(null) : Effect.fail(ioFailure(path, error))))
  )

const write = (path: string, content: string): Effect.Effect<void, InstallIoFailed> =>
  Effect.try({
    try: () => {
      const real = existingRealPath(path)
      const target = real ?? path
      mkdirSync(dirname(target), { recursive: true })
      const temporary = `${target}.memledger-${process.pid}.tmp`
      try {
        writeFileSync(temporary, content)
        if (real !== undefined) chmodSync(temporary, statSync(real).mode & 0o7777)
        renameSync(temporary, target)
      } finally {
        rmSync(temporary, { force: true })
      }
    },
    catch: (error) => ioFailure(path, error)
  })

const remove = (path: string, roots: ReadonlyArray<string>): Effect.Effect<void, InstallIoFailed> =>
  Effect.try({
    try: () => {
      unlinkSync(path)
      let folder = dirname(path)
      while (!roots.includes(folder) && roots.some((root) => folder.startsWith(root + sep)) && readdirSync(folder).length === 0) {
        rmdirSync(folder)
        folder = dirname(folder)
      }
    },
    catch: (error) => ioFailure(path, error)
  })

const existingRealPath = (path: string): string | undefined => {
  try {
    return realpathSync(path)
  } catch {
    return undefined
  }
}

const codeOf = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined

const ioFailure = (path: string, error: unknown) => new InstallIoFailed({ path, reason: error instanceof Error ? error.message : String(error) })
