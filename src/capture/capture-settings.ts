/**
 * Whether capture runs (docs/capture.md, "Turning capture off"): `on` (rules and lessons),
 * `rules` (rules from prompts only), or `off`, for the whole store and, overriding it, for one
 * project. Kept in `capture.json` in the store's state folder (hooks/state-folder.ts), not in
 * the log, so a store that is not a file has one too, and two stores never share it: it is how this store
 * is run, not knowledge, so it takes effect before anything is written and without writing
 * anything, forget-conversation never touches it, and a shared server applies its own file to
 * every client's hooks and imports.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { Either, Schema } from "effect"
import type { CaptureKind } from "../events/capture.js"
import { storeStateFolder } from "../hooks/state-folder.js"

export const CAPTURE_MODES = ["on", "rules", "off"] as const
export const CaptureMode = Schema.Literal(...CAPTURE_MODES)
export type CaptureMode = typeof CaptureMode.Type

export const CaptureSettings = Schema.Struct({
  store: CaptureMode,
  projects: Schema.Record({ key: Schema.String, value: CaptureMode })
})
export type CaptureSettings = typeof CaptureSettings.Type

export const DEFAULT_CAPTURE: CaptureSettings = { store: "on", projects: {} }

/** Where `store` (a file's path or a server's URL) keeps its capture setting. */
export const captureSettingsFile = (store: string): string => join(storeStateFolder(store), "capture.json")

/** The settings of the store; the defaults when there is no file. A file that does not decode is an error to report, never a silent default. */
export const readCaptureSettings = (store: string): Either.Either<CaptureSettings, string> => {
  const file = captureSettingsFile(store)
  adoptSettingBeside(store, file)
  if (!existsSync(file)) return Either.right(DEFAULT_CAPTURE)
  try {
    return Either.mapLeft(Schema.decodeUnknownEither(CaptureSettings)(JSON.parse(readFileSync(file, "utf8"))), () => `${file} is not a capture setting`)
  } catch {
    return Either.left(`${file} is not JSON`)
  }
}

/** Written to a temporary file and renamed, so a hook never reads half a file. */
export const writeCaptureSettings = (store: string, settings: CaptureSettings): void => {
  const file = captureSettingsFile(store)
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
  writeFileSync(`${file}.tmp`, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 })
  renameSync(`${file}.tmp`, file)
}

/** A project's own setting wins over the store's. */
export const captureModeFor = (settings: CaptureSettings, project: string | null): CaptureMode =>
  (project === null ? undefined : settings.projects[project]) ?? settings.store

export const captureAllows = (mode: CaptureMode, kind: CaptureKind): boolean => mode === "on" || (mode === "rules" && kind === "prompt-rule")

/** One line for `mem doctor` and `mem capture`. */
export const captureSummary = (settings: CaptureSettings): string => {
  const projects = Object.entries(settings.projects).map(([project, mode]) => `${project}: ${MEANING[mode]}`)
  return [`${MEANING[settings.store]} for this store`, ...projects].join("; ")
}

const MEANING: Record<CaptureMode, string> = { on: "on (rules and lessons)", rules: "rules only", off: "off" }

/** A `capture.json` kept beside a store file, before the state folder, is moved in once. */
const adoptSettingBeside = (store: string, file: string): void => {
  if (store === ":memory:" || /^[a-z][a-z0-9+.-]*:\/\//i.test(store)) return
  const beside = join(dirname(resolve(store)), "capture.json")
  if (!existsSync(beside) || existsSync(file)) return
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
    renameSync(beside, file)
  } catch {
    // Left where it was: the defaults hold until it is set again.
  }
}
