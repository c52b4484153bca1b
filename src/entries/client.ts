// `@cabinet/tools-react/client`: the framework-free client. Nothing here imports React.
export * from '../client/index.js'
export * from '../tools/index.js'
