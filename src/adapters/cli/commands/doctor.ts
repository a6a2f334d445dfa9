/** `mem doctor`: what is wrong with this setup, and what to do about it. */
import { Command } from "@effect/cli"
import { Effect } from "effect"
import { Maintenance, type DoctorReport } from "../../../services/maintenance.js"
import * as O from "../options.js"
import { withStore } from "../root.js"

export const doctor = Command.make("doctor", { json: O.json }, ({ json }) =>
  withStore(
    Effect.flatMap(Maintenance, (m) => m.doctor).pipe(Effect.tap((r) => Effect.sync(() => void (r.ok || (process.exitCode = 1))))),
    { json, human: doctorText }
  )
).pipe(Command.withDescription("Check the database, the embedder and the configuration"))

const doctorText = (r: DoctorReport): string =>
  [
    `store:  ${r.path}`,
    `search: ${r.search.mode} (embedder ${r.search.embedder})`,
    ...r.checks.map((c) => `${c.ok ? "ok  " : "FAIL"}  ${c.name}: ${c.detail}${c.fix ? `\n      fix: ${c.fix}` : ""}`),
    `privacy: ${privacyText(r.privacy)}`,
    `capture: ${r.capture}`,
    `hooks:  ${r.hooks}`
  ].join("\n")

const privacyText = (p: DoctorReport["privacy"]): string =>
  [
    `${p.redactedWrites} write${p.redactedWrites === 1 ? "" : "s"} redacted (${p.secretsRedacted} secret${p.secretsRedacted === 1 ? "" : "s"})`,
    `${p.privateDroppedWrites} with <private> spans dropped`,
    `${p.instructionLikeWrites} flagged instruction-like`
  ].join(", ")
