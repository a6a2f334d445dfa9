/**
 * When `mem serve --backup DIR` takes its copies: at start if the newest copy in DIR is a day
 * old or more (or there is none), else once it turns a day old; then every 24 hours. Pure: the
 * server passes the clock's time.
 */
export const BACKUP_EVERY_MS = 86_400_000

/** How long to wait before the first backup; a copy dated ahead of the clock waits a day at most. */
export const firstBackupDelay = (newestCopyAt: Date | undefined, nowMs: number): number =>
  newestCopyAt === undefined ? 0 : Math.min(BACKUP_EVERY_MS, Math.max(0, newestCopyAt.getTime() + BACKUP_EVERY_MS - nowMs))
