// A stand-in for your own authentication (Auth.js, Clerk, a session cookie you already check):
// it must say which user a request comes from, or null.
import { cookies } from 'next/headers'

const SESSION = /(?:^|;\s*)demo_user=([\w-]+)/

/** The user a proxied request comes from (route handlers). */
export async function currentUser(request: Request): Promise<{ id: string } | null> {
  const id = SESSION.exec(request.headers.get('cookie') ?? '')?.[1]
  return id ? { id } : null
}

/** The signed-in user's id in a server component, for `<ToolsProvider user>`: each person's runs stay theirs. */
export async function signedInUserId(): Promise<string | undefined> {
  const id = (await cookies()).get('demo_user')?.value
  return id && /^[\w-]+$/.test(id) ? id : undefined
}
