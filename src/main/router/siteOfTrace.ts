/** The site's own names now come from the compiler, which stores them on the tool. */
export { MAX_TITLES, siteOfTrace } from '../compiler/siteOfTrace'
