// `@cabinet/tools-react/server`: the proxy that keeps the service key on the server. Imports no React.
export * from '../server/index.js'
