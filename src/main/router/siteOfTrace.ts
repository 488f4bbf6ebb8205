/** The site's own names now come from the compiler, which stores them on the tool. */
export { siteOfTrace } from '../compiler/siteOfTrace'
