/**
 * How the server hands the caller it identified (identify.ts) to the routes it answers through
 * a web `Request` (the REST API through HttpApi, /mcp): a header of its own, set by the server
 * alone. A client's header of that name never reaches a route (web-bridge.ts drops it), so a
 * route may trust what it reads there.
 */
import type { Person } from "../../domain/person.js"

export const PERSON_HEADER = "x-memledger-person"

export const encodePerson = (person: Person): string => JSON.stringify([person.name, person.admin, person.agent])

/** The person in the header's value; undefined without one (or with anything else). */
export const decodePerson = (value: string | ReadonlyArray<string> | undefined | null): Person | undefined => {
  const text = typeof value === "string" ? value : value?.[0]
  if (text === undefined) return undefined
  try {
    const [name, admin, agent] = JSON.parse(text) as [unknown, unknown, unknown]
    return typeof name === "string" && typeof admin === "boolean" && typeof agent === "boolean" ? { name, admin, agent } : undefined
  } catch {
    return undefined
  }
}
