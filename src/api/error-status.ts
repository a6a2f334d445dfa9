/**
 * Which HTTP status each error tag gets, and the error body `{error, message}`: one table, so
 * the REST server and the remote client agree on what a status means.
 */
import { BadRequest, Conflict, Forbidden, NotFound, Unauthorized, Unavailable, type ApiError } from "./http-api.js"

const STATUS: Record<string, 400 | 401 | 403 | 404 | 409 | 503> = {
  NotPermitted: 403,
  MemoryNotFound: 404,
  ConversationNotFound: 404,
  AmbiguousId: 400,
  InvalidId: 400,
  InvalidContent: 400,
  UnknownCategory: 400,
  InvalidInput: 400,
  SecretInIdentity: 400,
  ImportLineInvalid: 400,
  MemoryIsForgotten: 409,
  MemoryIsSuperseded: 409,
  SupersedeSelf: 409,
  ConversationPurged: 409,
  ReplayTargetNotEmpty: 409,
  Unauthorized: 401,
  DatabaseUnusable: 503,
  StoreNotFound: 503,
  StoreDamaged: 503,
  StoreLocked: 503,
  DiskFull: 503,
  // The store refuses writes until the log is recovered: the request conflicts with its state.
  LogBroken: 409,
  ServiceUnavailable: 503
}

export const statusOf = (tag: string): number => STATUS[tag] ?? 400

/** The REST form of any tagged error. */
export const toApiError = (e: { readonly _tag: string; readonly message: string }): ApiError => {
  const body = { error: e._tag, message: e.message }
  switch (statusOf(e._tag)) {
    case 404:
      return new NotFound({ ...body, status: 404 })
    case 409:
      return new Conflict({ ...body, status: 409 })
    case 401:
      return new Unauthorized({ ...body, status: 401 })
    case 403:
      return new Forbidden({ ...body, status: 403 })
    case 503:
      return new Unavailable({ ...body, status: 503 })
    default:
      return new BadRequest({ ...body, status: 400 })
  }
}
