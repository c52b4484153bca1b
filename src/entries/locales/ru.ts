// `@cabinet/tools-react/locales/ru`: the Russian strings, for `<ToolsProvider messages={ru}>`. An entry of its own, so
// apps that do not use it never carry it.
export { ru } from '../../react/locales/ru.js'
