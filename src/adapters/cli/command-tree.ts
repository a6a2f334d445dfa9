/** The `mem` command and every command under it, for @effect/cli to run and for help to describe. */
import { Command } from "@effect/cli"
import { add } from "./commands/add.js"
import { backup, backupRestore } from "./commands/backup.js"
import { confirm, edit, forget, outcome, restore, supersede } from "./commands/change.js"
import { capture, captureExtract } from "./commands/capture.js"
import { doctor } from "./commands/doctor.js"
import { conversations, forgetConversation, log } from "./commands/history.js"
import { hook } from "./commands/hook.js"
import { cues } from "./commands/cues.js"
import { list, show, stats } from "./commands/inspect.js"
import { install, uninstall } from "./commands/install.js"
import { mcp } from "./commands/mcp.js"
import { context, search, why } from "./commands/recall.js"
import { serve } from "./commands/serve.js"
import { ui } from "./commands/ui.js"
import { exportCmd, importCmd, purge, rebuild, replay, verify } from "./commands/store-admin.js"
import { review, reviewAccept, reviewReject } from "./commands/review.js"
import { tasks, tasksSync } from "./commands/tasks.js"
import { token, tokenAdd, tokenList, tokenRevoke } from "./commands/token.js"
import { helpNode } from "./help.js"
import { mem } from "./root.js"

const commands = [
  add, importCmd, search, why, context, show, cues, list, edit, outcome, confirm, supersede, forget, restore,
  review, capture, forgetConversation, conversations, log, exportCmd, replay, rebuild, verify, purge, backup, stats, doctor,
  tasks, hook, mcp, serve, token, ui, install, uninstall
] as const

export const cli = mem.pipe(
  Command.withDescription("memledger: memory for coding agents, kept as an append-only event log"),
  Command.withSubcommands(commands)
)

export const helpTree = helpNode(
  cli,
  commands.map((command) =>
    command === tasks
      ? helpNode(tasks, [helpNode(tasksSync)])
      : command === review
        ? helpNode(review, [helpNode(reviewAccept), helpNode(reviewReject)])
        : command === backup
          ? helpNode(backup, [helpNode(backupRestore)])
        : command === capture
          ? helpNode(capture, [helpNode(captureExtract)])
        : command === token
          ? helpNode(token, [helpNode(tokenAdd), helpNode(tokenList), helpNode(tokenRevoke)])
          : helpNode(command)
  )
)
