/**
 * Resources: one per memory (`memledger://memory/{id}`) and one per project's session context
 * (`memledger://context/{project}`, the project URL-encoded since it holds slashes). The list
 * offers the most recent memories (bounded) and the current project's context. A resource that
 * cannot be read is a protocol error, as MCP defines for resources (-32002 when not found).
 */
import type { ListResourcesResult, ReadResourceResult, Resource, ResourceTemplate } from "@modelcontextprotocol/sdk/types.js"
import { Schema } from "effect"
import * as In from "../../api/inputs.js"
import * as Out from "../../api/outputs.js"
import type { Caller } from "../../api/operations.js"
import { decodeOrThrow, ProtocolError, RESOURCE_NOT_FOUND, runOrThrow } from "./protocol-call.js"
import type { RunOperation } from "./runtime.js"

const MEMORY = "memledger://memory/"
const CONTEXT = "memledger://context/"
/** resources/list is a convenience, not an export: the newest memories only. */
const RECENT_MEMORIES = 50

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: `${MEMORY}{id}`,
    name: "memory",
    title: "A memory",
    description: "One memory in full, with its outcome record (JSON); id is a memory id or a unique prefix of 6+ characters",
    mimeType: "application/json"
  },
  {
    uriTemplate: `${CONTEXT}{project}`,
    name: "context",
    title: "A project's session context",
    description: "What an agent should know at the start of a session in that project (Markdown); project is the URL-encoded normalised git remote",
    mimeType: "text/markdown"
  }
]

export const listResources = async (run: RunOperation, caller: Caller): Promise<ListResourcesResult> => {
  const listed = await runOrThrow(run, (o) => o.list({ limit: RECENT_MEMORIES, ...(caller.project === null ? {} : { project: caller.project }) }, caller))
  const memories: Resource[] = listed.memories.map((m) => ({
    uri: `${MEMORY}${m.id}`,
    name: m.shortId,
    title: m.content.length <= 80 ? m.content : `${m.content.slice(0, 79)}…`,
    description: `${m.category}, ${m.project ?? "global"}`,
    mimeType: "application/json"
  }))
  const context: Resource[] =
    caller.project === null
      ? []
      : [{ uri: contextUri(caller.project), name: "context", title: `Session context for ${caller.project}`, mimeType: "text/markdown" }]
  return { resources: [...context, ...memories] }
}

export const readResource = async (run: RunOperation, uri: string, caller: Caller): Promise<ReadResourceResult> => {
  if (uri.startsWith(MEMORY)) {
    const input = decodeOrThrow("resource URI", In.MemoryIdInput, { id: safeDecode(uri.slice(MEMORY.length)) })
    const memory = await runOrThrow(run, (o) => o.getMemory(input, caller))
    const json = JSON.stringify(Schema.encodeSync(Out.MemoryOutput)(memory), null, 2)
    return { contents: [{ uri, mimeType: "application/json", text: json }] }
  }
  if (uri.startsWith(CONTEXT)) {
    const input = decodeOrThrow("resource URI", In.GetContextInput, { project: safeDecode(uri.slice(CONTEXT.length)) })
    const context = await runOrThrow(run, (o) => o.getContext(input, caller))
    return { contents: [{ uri, mimeType: "text/markdown", text: context.text }] }
  }
  throw new ProtocolError(RESOURCE_NOT_FOUND, `no resource ${uri}; memledger serves ${MEMORY}{id} and ${CONTEXT}{project}`)
}

export const contextUri = (project: string): string => `${CONTEXT}${encodeURIComponent(project)}`

const safeDecode = (text: string): string => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}
