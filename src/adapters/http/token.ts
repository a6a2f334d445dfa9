/**
 * The bearer token `mem serve` asks for. A loopback bind needs none, but uses MEMLEDGER_TOKEN
 * when it is set (so a client configured with a token works against any server), and the token
 * file when `--create-token` asks for one. Any other bind must have one: MEMLEDGER_TOKEN, else
 * `~/.memledger/token`, which `--create-token` generates once (32 random bytes, base64url;
 * folder 0700, file 0600) and every later start reuses; or the store's people's tokens
 * (`mem token add`), which every request must then bring one of. A token file that others can read is refused rather than trusted: anyone who can
 * read it can act as every agent.
 */
import { randomBytes, timingSafeEqual, createHash } from "node:crypto"
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { homedir } from "node:os"
import { join } from "node:path"
import { Data, Either } from "effect"

/** Shorter secrets can be guessed; 16 characters of base64url are still 96 bits. */
export const MIN_TOKEN_LENGTH = 16

export type TokenSource = "none" | "env" | "file" | "created"

export interface TokenSetup {
  readonly token: string | null
  readonly source: TokenSource
  /** The token file, when the token came from (or went into) one. */
  readonly file?: string
}

export class TokenRefused extends Data.TaggedError("TokenRefused")<{ readonly message: string }> {}

export interface TokenOptions {
  readonly loopback: boolean
  /** Generate the token file when it does not exist yet. */
  readonly create: boolean
  /**
   * The store holds people's tokens (`mem token add`): a bind off loopback may then do without
   * a token of its own, since every request must bring one of theirs (identify.ts).
   */
  readonly storeHasTokens?: boolean
  readonly env?: NodeJS.ProcessEnv
}

export const tokenFile = (env: NodeJS.ProcessEnv = process.env): string =>
  join(env.HOME && env.HOME.length > 0 ? env.HOME : homedir(), ".memledger", "token")

export const resolveToken = (options: TokenOptions): Either.Either<TokenSetup, TokenRefused> => {
  const env = options.env ?? process.env
  const fromEnv = env.MEMLEDGER_TOKEN
  if (fromEnv !== undefined && fromEnv.length > 0) {
    return fromEnv.trim().length < MIN_TOKEN_LENGTH
      ? refuse(`MEMLEDGER_TOKEN is shorter than ${MIN_TOKEN_LENGTH} characters; use a long random secret (e.g. openssl rand -base64 32)`)
      : Either.right({ token: fromEnv.trim(), source: "env" })
  }
  // Without --create-token, a loopback bind leaves the file alone: a file made for a network
  // bind must not start requiring a token of a local server that was never asked to.
  if (options.loopback && !options.create) return Either.right({ token: null, source: "none" })
  const file = tokenFile(env)
  const existing = readTokenFile(file)
  if (Either.isLeft(existing)) return Either.left(existing.left)
  if (existing.right !== undefined) return Either.right({ token: existing.right, source: "file", file })
  if (!options.create) {
    if (options.storeHasTokens === true) return Either.right({ token: null, source: "none" })
    return refuse(
      `binding a non-loopback address opens the store to the network, so it needs a bearer token: ` +
        `set MEMLEDGER_TOKEN, or add --create-token once to generate one into ${file}; or give people tokens with 'mem token add NAME'`
    )
  }
  return createTokenFile(file)
}

/** Compares in constant time: hashing first makes both sides the same length. */
export const tokenMatches = (expected: string, given: string): boolean =>
  timingSafeEqual(createHash("sha256").update(expected).digest(), createHash("sha256").update(given).digest())

const refuse = (message: string) => Either.left(new TokenRefused({ message }))

/** The token in `file`; undefined when there is no such file. */
const readTokenFile = (file: string): Either.Either<string | undefined, TokenRefused> => {
  let mode: number
  try {
    mode = statSync(file).mode
  } catch (error) {
    if (isMissing(error)) return Either.right(undefined)
    return refuse(`cannot read the token file ${file}: ${reason(error)}`)
  }
  if ((mode & 0o077) !== 0) {
    return refuse(`the token file ${file} can be read or written by other users (mode ${(mode & 0o777).toString(8)}); run 'chmod 600 ${file}'`)
  }
  try {
    const token = readFileSync(file, "utf8").trim()
    if (token.length < MIN_TOKEN_LENGTH) return refuse(`the token in ${file} is shorter than ${MIN_TOKEN_LENGTH} characters; delete the file and add --create-token`)
    return Either.right(token)
  } catch (error) {
    return refuse(`cannot read the token file ${file}: ${reason(error)}`)
  }
}

const createTokenFile = (file: string): Either.Either<TokenSetup, TokenRefused> => {
  const token = randomBytes(32).toString("base64url")
  const folder = join(file, "..")
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 })
    // An existing folder keeps its mode from mkdir; make it owner-only as a new one would be.
    chmodSync(folder, 0o700)
    // "wx": never overwrite a token file that appeared meanwhile (another server starting).
    writeFileSync(file, `${token}\n`, { mode: 0o600, flag: "wx" })
  } catch (error) {
    return refuse(`cannot create the token file ${file}: ${reason(error)}`)
  }
  return Either.right({ token, source: "created", file })
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT"
const reason = (error: unknown) => (error instanceof Error ? error.message : String(error))
