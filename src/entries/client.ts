// `@cabinet/tools-react/client`: the framework-free client. Nothing here imports React.
export * from '../tools/index.js'
