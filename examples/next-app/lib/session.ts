// lib/session.ts: a stand-in for your own authentication (Auth.js, Clerk, a session cookie you
// already check). It trusts a `demo_user` cookie: never ship it.
const SESSION = /(?:^|;\s*)demo_user=([\w-]+)/

/** The signed-in user's id in a `Cookie` header, or undefined. */
export function userIdOf(cookie: string | null): string | undefined {
  return SESSION.exec(cookie ?? '')?.[1]
}

/** The user a proxied request comes from, or null: the route's `authorize`. */
export async function currentUser(request: Request): Promise<{ id: string } | null> {
  const id = userIdOf(request.headers.get('cookie'))
  return id ? { id } : null
}
