/** What `mem install` and `mem uninstall` print: the files and what happened to each, or (--dry-run) the diffs. */
import { accessSync, constants } from "node:fs"
import { delimiter, join } from "node:path"
import { unifiedDiff } from "../../install/diff.js"
import type { PlannedFile } from "../../install/file-edit.js"
import type { InstallPlan } from "../../install/installer.js"

export const planJson = (plan: InstallPlan, dryRun: boolean) => ({
  target: plan.target,
  scope: plan.scope,
  dryRun,
  files: plan.files.map((file) => ({ path: file.path, action: file.action }))
})

export const planText = (plan: InstallPlan, next: string): string => {
  const where = `${plan.target} (${plan.scope} scope)`
  const changed = plan.files.filter((file) => file.action !== "unchanged")
  if (changed.length === 0) {
    return plan.direction === "install"
      ? `memledger is already installed for ${where}; nothing changed`
      : `memledger is not installed for ${where}; nothing changed`
  }
  const heading = plan.direction === "install" ? `installed memledger for ${where}:` : `removed memledger from ${where}:`
  return [heading, ...plan.files.map(fileLine), ...(plan.direction === "install" ? [next] : [])].join("\n")
}

export const dryRunText = (plan: InstallPlan): string =>
  [
    `dry run: ${plan.direction} for ${plan.target} (${plan.scope} scope) would change these files; nothing was written`,
    ...plan.files.map((file) => (file.action === "unchanged" ? fileLine(file) : `${fileLine(file)}\n${change(file)}`))
  ].join("\n")

/**
 * Said after a project install: its files run `mem` from the PATH, so whoever uses them needs
 * it there; and whether this machine has it.
 */
export const onPathNote = (path: string | undefined): string => {
  const found = (path ?? "").split(delimiter).filter((dir) => dir !== "").map((dir) => join(dir, "mem")).find(isExecutable)
  return [
    "These project files run `mem` from the PATH and hold no path of this machine: everyone who uses them needs memledger's `mem` on theirs (README, Set up).",
    found === undefined ? "`mem` is not on this PATH yet: run `npm install -g --ignore-scripts .` in the memledger clone (README, Set up)." : `Here \`mem\` is ${found}.`
  ].join("\n")
}

const isExecutable = (file: string): boolean => {
  try {
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

const fileLine = (file: PlannedFile): string => `  ${file.action.padEnd(9)} ${file.path}`

const change = (file: PlannedFile): string =>
  file.after === null
    ? "    (the file would be deleted)"
    : unifiedDiff({ before: file.before === null ? "/dev/null" : file.path, after: file.path }, file.before ?? "", file.after)
