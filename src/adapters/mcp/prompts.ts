/**
 * The `recall_context` prompt: the session context (get_context) as a user message, for clients
 * that offer prompts as commands (Claude Code shows it as /mcp__memledger__recall_context).
 */
import type { GetPromptResult, Prompt } from "@modelcontextprotocol/sdk/types.js"
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js"
import { Schema } from "effect"
import * as In from "../../api/inputs.js"
import type { Caller } from "../../api/operations.js"
import { decodeOrThrow, ProtocolError, runOrThrow } from "./protocol-call.js"
import type { RunOperation } from "./runtime.js"
import { contextText } from "./tool-text.js"

export const RECALL_CONTEXT: Prompt = {
  name: "recall_context",
  title: "Recall memories for this session",
  description:
    "The memories an agent should start this session with, as get_context gives them: without a query, the project's confirmed rules, then the memories with the best track record; " +
    "with a query, only the memories that answer it (no rules unless they answer it too)",
  arguments: [{ name: "query", description: "what the session is about (optional; leave it blank for the project's standing rules)", required: false }]
}

const PromptArguments = Schema.Struct({ query: In.GetContextInput.fields.query })

export const PROMPTS: Prompt[] = [RECALL_CONTEXT]

export const getPrompt = async (run: RunOperation, name: string, args: Record<string, string> | undefined, caller: Caller): Promise<GetPromptResult> => {
  if (name !== RECALL_CONTEXT.name) throw new ProtocolError(ErrorCode.InvalidParams, `no prompt named '${name.slice(0, 100)}'; memledger offers ${RECALL_CONTEXT.name}`)
  // Clients that show prompt arguments as a form send an empty string for one left blank.
  const query = args?.["query"]?.trim()
  const input = decodeOrThrow("prompt arguments", PromptArguments, query ? { query } : {})
  const context = await runOrThrow(run, (o) => o.getContext(input, caller))
  return {
    description: RECALL_CONTEXT.description,
    messages: [{ role: "user", content: { type: "text", text: contextText(context) } }]
  }
}
