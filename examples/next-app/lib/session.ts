// A stand-in for your own authentication (Auth.js, Clerk, a session cookie you already check):
// it must say which user a request comes from, or null.
export async function currentUser(request: Request): Promise<{ id: string } | null> {
  const cookie = request.headers.get('cookie') ?? ''
  const id = /(?:^|;\s*)demo_user=([\w-]+)/.exec(cookie)?.[1]
  return id ? { id } : null
}
