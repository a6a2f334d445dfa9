/**
 * SHA-256 of a text (UTF-8) as hex: what the hash chain, payload hashes and restatement keys
 * are made of. `crypto.hash` (Node 20.12 on) answers in one call, without the Hash object, and
 * its native handle, that `createHash` makes per call (an import hashes three texts a line).
 */
import * as crypto from "node:crypto"

const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: "hex") => string }).hash

export const sha256Hex: (text: string) => string =
  oneShot === undefined ? (text) => crypto.createHash("sha256").update(text).digest("hex") : (text) => oneShot("sha256", text, "hex")
