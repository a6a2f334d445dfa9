/** Whether a store is named by a URL (a server's, such as postgres://...) rather than by a file's path. */
export const isStoreUrl = (store: string): boolean => /^[a-z][a-z0-9+.-]*:\/\//i.test(store)

/** The scheme of a store's URL, `postgres` for postgres://...: a store's kind, said without its host, user or password. */
export const storeScheme = (store: string): string => store.slice(0, store.indexOf(":")).toLowerCase()
